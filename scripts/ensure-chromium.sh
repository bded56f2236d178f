#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core never downloads a
# browser here). Installs it when missing; safe to run by hand.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
echo "installing Debian's chromium for the browser tests"
export DEBIAN_FRONTEND=noninteractive
(apt-get install -y --no-install-recommends chromium >/dev/null 2>&1) || (apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends chromium >/dev/null)
command -v chromium >/dev/null
