#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer,
# starting the machine's own servers when they do not. Used by .ci/run; safe
# to run by hand.
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -t 2 >/dev/null 2>&1; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! redis_up; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 30); do
  if pg_up && redis_up; then echo "PostgreSQL and Redis answer"; exit 0; fi
  sleep 1
done
echo "PostgreSQL or Redis did not come up within 30 s" >&2
exit 1
