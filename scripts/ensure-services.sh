#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer,
# starting this machine's own servers when they do not. Run before `npm start`
# and `npm test` (their pre-scripts) and by .ci/run; safe to run by hand.
# When DATABASE_URL or REDIS_URL point at another host, that server is the
# operator's to run and is left alone.
set -euo pipefail

is_local() { [[ -z "${1:-}" || "$1" == *"127.0.0.1"* || "$1" == *"localhost"* || "$1" == *"[::1]"* ]]; }
pg_up() { pg_isready -h 127.0.0.1 -p 5432 -t 2 >/dev/null 2>&1; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "ensure-services: '$1' is not installed; install $2 from the system's packages (apt-get install $2) or point $3 at a running server" >&2
  exit 1
}

check_pg=0; check_redis=0
if is_local "${DATABASE_URL:-}"; then check_pg=1; need pg_isready postgresql DATABASE_URL; fi
if is_local "${REDIS_URL:-}"; then check_redis=1; need redis-cli redis-server REDIS_URL; fi

if [[ $check_pg == 1 ]] && ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if [[ $check_redis == 1 ]] && ! redis_up; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 30); do
  if { [[ $check_pg == 0 ]] || pg_up; } && { [[ $check_redis == 0 ]] || redis_up; }; then exit 0; fi
  sleep 1
done
echo "ensure-services: PostgreSQL or Redis did not come up within 30 s; see the README's 'two commands'" >&2
exit 1
