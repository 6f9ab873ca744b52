#!/usr/bin/env bash
# Starts the real services the integration tests use, on loopback only, and prints the
# environment variables that point the tests at them (eval "$(bash scripts/services.sh)").
# Idempotent: a service already answering on its port is used as it is, and left running.
#
#   bash scripts/services.sh            start what is not running; print the exports, including
#                                       TOOLLOOP_STARTED_SERVICES (what this call started itself)
#   bash scripts/services.sh stop LIST  stop the services named in LIST ("redis postgres"), i.e.
#                                       only the ones a previous call started
#
# Debian's redis-server and postgresql (and tmux, for the CLI chat tests) are installed when missing
# and this user may run apt-get (root), so `npm test` works on a fresh machine. Only a package whose
# simulated install changes no installed package is installed (scripts/apt-install.sh; under CI it
# is installed all the same); otherwise its tests skip and the command that installs it is printed.
# TOOLLOOP_NO_INSTALL=1 turns installing off: a missing service is then reported with the command
# that installs it, and its tests skip (under CI=true a missing service fails).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"

state_dir="${TOOLLOOP_SERVICES_DIR:-/tmp/toolloop-services}"
redis_port="${TOOLLOOP_REDIS_PORT:-63790}"
pg_port="${TOOLLOOP_PG_PORT:-54329}"

log() { echo "[services] $*" >&2; }

find_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

run_as_postgres() {
  if [ "$(id -u)" = "0" ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

stop_services() {
  for service in $1; do
    case "$service" in
      redis)
        log "stopping the redis this run started (127.0.0.1:$redis_port)"
        redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
        ;;
      postgres)
        log "stopping the postgresql this run started (127.0.0.1:$pg_port)"
        run_as_postgres "'$(find_pg_bin)/pg_ctl' -D '$state_dir/pg' -m fast -w stop >/dev/null" || true
        ;;
    esac
  done
}

if [ "${1:-}" = "stop" ]; then
  stop_services "${2:-}"
  exit 0
fi

mkdir -p "$state_dir"
missing_packages=()
command -v redis-server >/dev/null 2>&1 || missing_packages+=(redis-server)
[ -n "$(find_pg_bin)" ] || missing_packages+=(postgresql)
# Not a service: the terminal the CLI chat tests drive (test/cli), installed the same way.
command -v tmux >/dev/null 2>&1 || missing_packages+=(tmux)

if [ "${#missing_packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && [ -z "${TOOLLOOP_NO_INSTALL:-}" ]; then
    apt-get update -qq >&2 || log "apt-get update failed: using the package lists there are"
    for package in "${missing_packages[@]}"; do
      case "$package" in
        redis-server) purpose="the Redis chat memory tests" ;;
        postgresql) purpose="the PostgreSQL chat memory tests" ;;
        *) purpose="the CLI chat tests" ;;
      esac
      apt_install_missing "$purpose" "$package" || log "$package is not installed: its tests skip"
    done
  elif [ -n "${CI:-}" ]; then
    log "${missing_packages[*]} missing, and this CI run may not apt-get install them"
    exit 1
  else
    log "not installed: ${missing_packages[*]}; their integration tests will be skipped."
    log "  install them with: sudo apt-get install --no-upgrade ${missing_packages[*]}"
  fi
fi

started=()

# Redis: a private instance with its own directory; the durability tests start their own.
if command -v redis-server >/dev/null 2>&1; then
  if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
    log "starting redis on 127.0.0.1:$redis_port"
    mkdir -p "$state_dir/redis"
    redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --dir "$state_dir/redis" \
      --save '' --appendonly no --logfile "$state_dir/redis/redis.log" >&2
    for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
    started+=(redis)
  fi
  echo "export REDIS_URL=redis://127.0.0.1:$redis_port"
fi

# PostgreSQL: a private cluster owned by the postgres user, trust auth on loopback only.
pg_bin="$(find_pg_bin)"
if [ -n "$pg_bin" ]; then
  pg_data="$state_dir/pg"
  if ! "$pg_bin/pg_isready" -h 127.0.0.1 -p "$pg_port" >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then chown postgres "$state_dir"; fi
    if [ ! -f "$pg_data/PG_VERSION" ]; then
      log "creating a PostgreSQL cluster in $pg_data"
      run_as_postgres "'$pg_bin/initdb' -D '$pg_data' -A trust -U postgres >/dev/null"
    fi
    log "starting postgresql on 127.0.0.1:$pg_port"
    run_as_postgres "'$pg_bin/pg_ctl' -D '$pg_data' -l '$pg_data/server.log' -w -o \"-p $pg_port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on\" start >/dev/null"
    started+=(postgres)
  fi
  echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/postgres"
  echo "export TOOLLOOP_PG_BIN=$pg_bin"
fi

echo "export TOOLLOOP_STARTED_SERVICES='${started[*]}'"
