# Shared preparation of both README commands: Node 24, dependencies, PostgreSQL and Redis.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source "$ROOT/scripts/lib/node.sh"
source "$ROOT/scripts/lib/services.sh"

use_node24 "$ROOT"

# npm ci only when the lockfile changed since the last install.
stamp="$ROOT/node_modules/.vellum-lock"
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)-$(node -v)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  echo "Installing dependencies (npm ci) ..." >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
  echo "$lock_hash" >"$stamp"
fi

: "${DATABASE_URL:=postgres://postgres:postgres@127.0.0.1:5432/vellum}"
: "${REDIS_URL:=redis://127.0.0.1:6379}"
export DATABASE_URL REDIS_URL
ensure_postgres "$DATABASE_URL"
ensure_redis "$REDIS_URL"
