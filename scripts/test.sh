#!/usr/bin/env bash
# README command 2: the whole test suite against real PostgreSQL and Redis.
source "$(dirname "${BASH_SOURCE[0]}")/lib/prepare.sh"

npx tsc --noEmit
npx vitest run "$@"
