#!/usr/bin/env bash
# README command 2: the whole test suite against real PostgreSQL and Redis.
source "$(dirname "${BASH_SOURCE[0]}")/lib/prepare.sh"

npx tsc --noEmit
mkdir -p .data
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.data/vitest-results.json "$@" || status=$?
# A plain closing line that any CI can read, whatever the runner's own format.
node -e '
  const r = JSON.parse(require("fs").readFileSync(".data/vitest-results.json", "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit "$status"
