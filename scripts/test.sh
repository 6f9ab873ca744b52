#!/usr/bin/env bash
# The test command (npm test): starts Redis and PostgreSQL on loopback when they are not running,
# builds the package, runs every test (the packaging checks, publint and attw on the packed
# tarball, included), stops the services it started, and ends with a plain "N passed, N failed"
# line. On a fresh machine it installs what the tests need and is missing, from lock files and
# Debian's packages only: the pinned benchmark peers (bench/), the MCP conformance suite
# (test/conformance/), the documentation toolchain (docs/), Redis, PostgreSQL, chromium and tmux.
# A Debian package whose simulated install would upgrade or remove an installed package is not
# installed: its tests skip and the command is printed (scripts/apt-install.sh; under CI it is
# installed all the same). TOOLLOOP_NO_INSTALL=1 turns that off:
# what is missing is then listed with the command that installs it, and the tests needing it skip
# (under CI=true they fail instead).
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -d node_modules ] || { echo "node_modules is missing: run npm ci"; echo "0 passed, 1 failed"; exit 1; }
install_pinned() {
  [ -z "${TOOLLOOP_NO_INSTALL:-}" ] || return 0
  echo "[test] installing $1 from its lock file (npm ci --prefix $1)"
  npm ci --prefix "$1" --no-audit --no-fund --loglevel=error >/dev/null ||
    echo "[test] could not install $1"
}
[ -f bench/node_modules/.package-lock.json ] || install_pinned bench
[ -d test/conformance/node_modules/@modelcontextprotocol/conformance ] || install_pinned test/conformance
[ -f docs/node_modules/.package-lock.json ] || install_pinned docs
[ -f bench/node_modules/.package-lock.json ] ||
  missing+=("benchmark peers (bench/node_modules), for the benchmark smoke test: npm ci --prefix bench")
[ -d test/conformance/node_modules/@modelcontextprotocol/conformance ] ||
  missing+=("MCP conformance suite (test/conformance/node_modules): npm ci --prefix test/conformance")
[ -f docs/node_modules/.package-lock.json ] ||
  missing+=("documentation toolchain (docs/node_modules), for the docs site's browser test: npm ci --prefix docs")
# Debian's chromium, for the trace page's browser test (playwright-core drives it and never
# downloads a browser of its own).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && [ -z "${TOOLLOOP_NO_INSTALL:-}" ]; then
  source scripts/apt-install.sh
  apt-get update -qq >/dev/null 2>&1 || echo "[test] apt-get update failed: using the package lists there are"
  apt_install_missing "the trace page's browser test" chromium 2>&1 || true
fi
[ -x /usr/bin/chromium ] ||
  missing+=("chromium, for the trace page's browser test: sudo apt-get install --no-upgrade chromium")

report=''
stop_started_services() {
  if [ -n "${TOOLLOOP_STARTED_SERVICES:-}" ]; then
    bash scripts/services.sh stop "$TOOLLOOP_STARTED_SERVICES"
    TOOLLOOP_STARTED_SERVICES=''
  fi
}
trap 'stop_started_services; [ -z "$report" ] || rm -f "$report"' EXIT
trap 'exit 130' INT TERM

services="$(bash scripts/services.sh)" || { echo "could not start the test services"; echo "0 passed, 1 failed"; exit 1; }
eval "$services"
[ -n "${REDIS_URL:-}" ] || missing+=("redis-server: sudo apt-get install redis-server")
[ -n "${DATABASE_URL:-}" ] || missing+=("postgresql: sudo apt-get install postgresql")
command -v tmux >/dev/null 2>&1 || missing+=("tmux, for the CLI chat tests: sudo apt-get install tmux")

print_missing() {
  [ "${#missing[@]}" -eq 0 ] && return
  echo "Not installed here, so the tests needing it are skipped:"
  for item in "${missing[@]}"; do echo "  - $item"; done
}
print_missing

npm run build --silent || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

report="$(mktemp -t toolloop-vitest-XXXXXX.json)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?

stop_started_services
print_missing
node -e '
  const fs = require("node:fs");
  let passed = 0, failed = 0, skipped = 0;
  try {
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    passed = r.numPassedTests; failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
    skipped = r.numPendingTests + r.numTodoTests;
    for (const s of r.testResults) if (s.status === "failed" && s.assertionResults.length === 0) failed++;
  } catch { failed = Math.max(failed, 1); }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
rm -f "$report"
exit $status
