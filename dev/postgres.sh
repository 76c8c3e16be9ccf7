#!/usr/bin/env bash
# PostgreSQL from Debian's packages, for tests: a private cluster on 127.0.0.1:$LUDIS_PG_PORT
# owned by the `postgres` system user, with the database `ludis` (user ludis, password ludis).
#   dev/postgres.sh up | down | purge | status | url
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The server refuses to run as root: as root it runs as the `postgres` system user, whose data
# must sit outside root's home; otherwise it runs as the current user under $LUDIS_STATE.
if [ "$(id -u)" = 0 ]; then
  D=/var/tmp/ludis-postgres/$(printf %s "$LUDIS_STATE" | sha256sum | cut -c1-12)
  as_pg() { runuser -u postgres -- "$@"; }
else
  D=$LUDIS_STATE/postgres
  as_pg() { "$@"; }
fi
PGBIN=${LUDIS_PGBIN:-}
URL="postgres://ludis:ludis@127.0.0.1:$LUDIS_PG_PORT/ludis"

find_pgbin() {
  [ -n "$PGBIN" ] && return 0
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -x "$PGBIN/postgres" ] || die "PostgreSQL is not installed (run dev/install-deps.sh)"
}

running() { [ -f "$D/data/postmaster.pid" ] && as_pg "$PGBIN/pg_ctl" -D "$D/data" status >/dev/null 2>&1; }

up() {
  find_pgbin
  if running; then
    ok "PostgreSQL is already running: $URL"
    return 0
  fi
  require_free_port PostgreSQL "$LUDIS_PG_PORT"
  mkdir -p "$D/logs"
  [ "$(id -u)" = 0 ] && chown postgres: "$D" "$D/logs"
  if [ ! -f "$D/data/PG_VERSION" ]; then
    as_pg "$PGBIN/initdb" -D "$D/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$D/logs/initdb.log" 2>&1 ||
      die "initdb failed (log: $D/logs/initdb.log)"
  fi
  as_pg "$PGBIN/pg_ctl" -D "$D/data" -l "$D/logs/postgres.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $LUDIS_PG_PORT -k $D -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null || { tail -n 15 "$D/logs/postgres.log" >&2; die "PostgreSQL did not start (log: $D/logs/postgres.log)"; }
  as_pg psql -h 127.0.0.1 -p "$LUDIS_PG_PORT" -U postgres -qtA -c "SELECT 1 FROM pg_roles WHERE rolname='ludis'" | grep -q 1 ||
    as_pg psql -h 127.0.0.1 -p "$LUDIS_PG_PORT" -U postgres -q -c "CREATE ROLE ludis LOGIN SUPERUSER PASSWORD 'ludis'"
  as_pg psql -h 127.0.0.1 -p "$LUDIS_PG_PORT" -U postgres -qtA -c "SELECT 1 FROM pg_database WHERE datname='ludis'" | grep -q 1 ||
    as_pg psql -h 127.0.0.1 -p "$LUDIS_PG_PORT" -U postgres -q -c "CREATE DATABASE ludis OWNER ludis"
  ok "PostgreSQL ready: $URL"
}

down() {
  find_pgbin
  if running; then as_pg "$PGBIN/pg_ctl" -D "$D/data" -m fast -w stop >/dev/null; fi
  ok "PostgreSQL stopped"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  purge) down && rm -rf "$D" && ok "PostgreSQL data removed" ;;
  status) find_pgbin; if running; then echo "PostgreSQL running: $URL"; else echo "PostgreSQL stopped"; fi ;;
  url) echo "$URL" ;;
  *) die "usage: dev/postgres.sh up|down|purge|status|url" ;;
esac
