#!/usr/bin/env bash
# Starts the real services the integration tests use, on loopback only, and prints the
# environment variables that point the tests at them (eval "$(bash scripts/services.sh)").
# Installs Debian's redis-server and postgresql when they are missing. Idempotent.
set -euo pipefail

state_dir="${TOOLLOOP_SERVICES_DIR:-/tmp/toolloop-services}"
redis_port="${TOOLLOOP_REDIS_PORT:-63790}"
pg_port="${TOOLLOOP_PG_PORT:-54329}"
mkdir -p "$state_dir"

log() { echo "[services] $*" >&2; }

find_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

if ! command -v redis-server >/dev/null 2>&1 || [ -z "$(find_pg_bin)" ]; then
  if [ "$(id -u)" != "0" ]; then
    log "redis-server or postgresql is missing and this user cannot apt-get install them"
    exit 1
  fi
  log "installing redis-server and postgresql (Debian packages)"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql >&2
fi

# Redis: a private instance with its own directory; the durability tests start their own.
if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
  log "starting redis on 127.0.0.1:$redis_port"
  mkdir -p "$state_dir/redis"
  redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --dir "$state_dir/redis" \
    --save '' --appendonly no --logfile "$state_dir/redis/redis.log" >&2
  for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

# PostgreSQL: a private cluster owned by the postgres user, trust auth on loopback only.
pg_bin="$(find_pg_bin)"
pg_data="$state_dir/pg"
run_as_postgres() {
  if [ "$(id -u)" = "0" ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
if ! "$pg_bin/pg_isready" -h 127.0.0.1 -p "$pg_port" >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then chown postgres "$state_dir"; fi
  if [ ! -f "$pg_data/PG_VERSION" ]; then
    log "creating a PostgreSQL cluster in $pg_data"
    run_as_postgres "'$pg_bin/initdb' -D '$pg_data' -A trust -U postgres >/dev/null"
  fi
  log "starting postgresql on 127.0.0.1:$pg_port"
  run_as_postgres "'$pg_bin/pg_ctl' -D '$pg_data' -l '$pg_data/server.log' -w -o \"-p $pg_port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on\" start >/dev/null"
fi

echo "export REDIS_URL=redis://127.0.0.1:$redis_port"
echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/postgres"
echo "export TOOLLOOP_PG_BIN=$pg_bin"
