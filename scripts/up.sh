#!/usr/bin/env bash
# README command 1: bring the whole service up on this machine.
source "$(dirname "${BASH_SOURCE[0]}")/lib/prepare.sh"

bin/vellum migrate
demo="$(bin/vellum demo --json)"
token="$(node -e 'console.log(JSON.parse(process.argv[1]).token)' "$demo")"
org="$(node -e 'console.log(JSON.parse(process.argv[1]).organizationId)' "$demo")"
port="${PORT:-3000}"
cat <<MSG

Vellum is starting on http://localhost:$port
Demo organization: $org
Demo token:        $token

Try:
  curl -s -H "Authorization: Bearer $token" http://localhost:$port/v1/orgs/$org

MSG
exec bin/vellum start
