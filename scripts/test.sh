#!/usr/bin/env bash
# The test command (npm test): starts Redis and PostgreSQL on loopback (installing them when
# missing), builds the package, runs every test, and ends with a plain "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."

eval "$(bash scripts/services.sh)" || { echo "could not start the test services"; echo "0 passed, 1 failed"; exit 1; }

npm run build --silent || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

report="$(mktemp -t toolloop-vitest-XXXXXX.json)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?

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
