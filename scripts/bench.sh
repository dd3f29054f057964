#!/usr/bin/env bash
# Runs one benchmark (or all) from bench/, after the same preparation as the tests.
# Usage: bash scripts/bench.sh [name] [args...]   e.g. bash scripts/bench.sh outbox-throughput 5000
source "$(dirname "${BASH_SOURCE[0]}")/lib/prepare.sh"
if [ $# -gt 0 ]; then
  name="$1"; shift
  exec node "bench/$name.bench.ts" "$@"
fi
for f in bench/*.bench.ts; do node "$f"; done
