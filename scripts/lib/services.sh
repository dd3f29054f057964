# Makes sure PostgreSQL and Redis answer at DATABASE_URL / REDIS_URL. When one does not and
# it is meant to be on this machine, it is installed from Debian's packages and started.

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

url_part() { node -e 'const u=new URL(process.argv[1]);console.log(process.argv[2]==="host"?u.hostname:(u.port||process.argv[3]))' "$1" "$2" "${3:-}"; }

reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

is_local() { case "$1" in 127.* | localhost | ::1 | "[::1]") return 0 ;; *) return 1 ;; esac; }

wait_for() {
  local host="$1" port="$2" name="$3"
  for _ in $(seq 1 60); do reachable "$host" "$port" && return 0; sleep 0.5; done
  echo "vellum: $name did not start on $host:$port" >&2
  return 1
}

apt_install() {
  echo "Installing $* from Debian's packages ..." >&2
  as_root apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >&2
}

ensure_postgres() {
  local url="$1" host port
  host="$(url_part "$url" host)"; port="$(url_part "$url" port 5432)"
  reachable "$host" "$port" && return 0
  is_local "$host" || { echo "vellum: PostgreSQL at $host:$port is not reachable" >&2; return 1; }
  local fresh=0
  if ! command -v pg_ctlcluster >/dev/null; then apt_install postgresql; fresh=1; fi
  local version
  version="$(ls /etc/postgresql | sort -V | tail -n1)"
  [ -n "$version" ] || as_root pg_createcluster --start "$(ls /usr/lib/postgresql | sort -V | tail -n1)" main
  version="$(ls /etc/postgresql | sort -V | tail -n1)"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  wait_for "$host" "$port" PostgreSQL
  # A fresh Debian cluster wants a password over TCP; give the default URL's one.
  if [ "$fresh" = 1 ]; then
    as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >&2
  fi
}

ensure_redis() {
  local url="$1" host port
  host="$(url_part "$url" host)"; port="$(url_part "$url" port 6379)"
  reachable "$host" "$port" && return 0
  is_local "$host" || { echo "vellum: Redis at $host:$port is not reachable" >&2; return 1; }
  command -v redis-server >/dev/null || apt_install redis-server
  mkdir -p "$ROOT/.data/redis"
  # AOF fsynced every second: a restart keeps the queues (at most a second lost, which the
  # outbox reconciler makes up). noeviction: BullMQ breaks if Redis drops keys under memory pressure.
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" \
    --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
    --dir "$ROOT/.data/redis" --logfile "$ROOT/.data/redis/redis.log" >&2
  wait_for "$host" "$port" Redis
}
