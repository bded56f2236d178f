#!/usr/bin/env bash
# The PgBouncer tests (test/platform/pgbouncer.test.ts) run the service behind
# Debian's pgbouncer in transaction pooling, started by the test on a free
# port. Installs it when missing; run by `npm test` (its pre-script); safe to
# run by hand. The package's own system service is not used (nor started here).
set -euo pipefail
if command -v pgbouncer >/dev/null 2>&1 || [[ -x /usr/sbin/pgbouncer ]]; then exit 0; fi
if [[ $(id -u) != 0 ]]; then
  echo "ensure-pgbouncer: pgbouncer is missing; install it with: sudo apt-get install pgbouncer" >&2
  exit 0
fi
echo "installing Debian's pgbouncer for the connection-pooler tests"
export DEBIAN_FRONTEND=noninteractive
(apt-get install -y --no-install-recommends pgbouncer >/dev/null 2>&1) || (apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends pgbouncer >/dev/null)
command -v pgbouncer >/dev/null 2>&1 || [[ -x /usr/sbin/pgbouncer ]]
