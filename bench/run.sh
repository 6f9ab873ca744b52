#!/usr/bin/env bash
# npm run bench: builds toolloop, installs the peers (bench/package.json, pinned), compiles the
# benchmarks, starts Redis and PostgreSQL when a benchmark needs them, runs every bench/*.ts
# script (each prints one markdown section) and rewrites bench/RESULTS.md.
#
#   bash bench/run.sh                  every benchmark, rewrites bench/RESULTS.md
#   bash bench/run.sh streaming ...    only these (by file name without .ts), printed to stdout
#   bash bench/run.sh --update a b     only these, and their sections replaced in bench/RESULTS.md
#   BENCH_SMOKE=1 bash bench/run.sh    tiny counts (proves they run), printed to stdout
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[bench] $*" >&2; }

update=false
if [ "${1:-}" = "--update" ]; then
  update=true
  shift
  [ "$#" -gt 0 ] || { log "--update needs the benchmarks to rerun"; exit 2; }
fi

# Benchmarks run in this order; any other bench/*.ts script follows, alphabetically.
ORDER=(loop-overhead streaming scaling memory-per-conversation end-to-end-http mcp-overhead hot-path-profile allocation-profile memory-stores tool-retrieval observability-overhead)

[ -d node_modules ] || { log "installing the project's dependencies"; npm ci --no-audit --no-fund >&2; }
log "building toolloop and @toolloop/word-vectors"
npm run build --silent >&2 || { log "build failed"; exit 1; }
if [ ! -f bench/node_modules/.package-lock.json ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  log "installing the benchmark peers (npm ci in bench/)"
  npm ci --prefix bench --no-audit --no-fund >&2
fi
log "compiling the benchmarks"
rm -rf bench/dist
bench/node_modules/.bin/tsc -p bench/tsconfig.json >&2 || { log "the benchmarks do not compile"; exit 1; }

scripts=()
for name in "${ORDER[@]}"; do [ -f "bench/$name.ts" ] && scripts+=("$name"); done
for file in bench/*.ts; do
  name="$(basename "$file" .ts)"
  [[ " ${ORDER[*]} " == *" $name "* ]] || scripts+=("$name")
done
if [ "$#" -gt 0 ]; then scripts=("$@"); fi

needs_services=false
for name in "${scripts[@]}"; do
  grep -qE 'REDIS_URL|DATABASE_URL' "bench/$name.ts" && needs_services=true
done
if $needs_services && { [ -z "${REDIS_URL:-}" ] || [ -z "${DATABASE_URL:-}" ]; }; then
  log "starting Redis and PostgreSQL"
  eval "$(bash scripts/services.sh)"
fi

sections="$(mktemp -t toolloop-bench-XXXXXX.md)"
trap 'rm -f "$sections"' EXIT
node bench/dist/lib/report-header.js >"$sections"
failed=0
started=$SECONDS
for name in "${scripts[@]}"; do
  log "running $name"
  t0=$SECONDS
  if output="$(node --expose-gc "bench/dist/$name.js")" && [[ "$output" == "## "* ]]; then
    printf '%s\n\n' "$output" >>"$sections"
  else
    failed=1
    log "$name FAILED"
    printf '## %s\n\nThis benchmark failed in this run; see the console output of `npm run bench`.\n\n' "$name" >>"$sections"
  fi
  log "$name took $((SECONDS - t0)) s"
done
log "all benchmarks took $((SECONDS - started)) s"

if $update && [ "${BENCH_SMOKE:-}" != "1" ]; then
  node bench/dist/lib/update-results.js "$sections"
  node_modules/.bin/biome format --write bench/RESULTS.md >/dev/null 2>&1 || log "could not format bench/RESULTS.md"
  log "updated these sections of bench/RESULTS.md: $*"
elif [ "${BENCH_SMOKE:-}" = "1" ] || [ "$#" -gt 0 ]; then
  cat "$sections"
else
  # Trailing blank line removed so the file ends with exactly one newline.
  sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$sections" >bench/RESULTS.md
  # Biome checks markdown too (npm run lint); let it lay the tables out.
  node_modules/.bin/biome format --write bench/RESULTS.md >/dev/null 2>&1 || log "could not format bench/RESULTS.md"
  log "wrote bench/RESULTS.md"
fi
exit $failed
