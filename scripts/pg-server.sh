#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests (docs/store.md § Tests):
#   scripts/pg-server.sh start DIR [PID]
#                                    initdb, start on a free 127.0.0.1 port, and write DIR/env
#                                    (PGHOST, PGPORT, PGUSER, PGDATABASE) to source; with PID,
#                                    the server is also stopped when that process is gone (a
#                                    test run killed before its own cleanup leaves no server)
#   scripts/pg-server.sh stop DIR    stop it (fast shutdown) and remove DIR
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user (or
# `nobody`), which owns DIR. Trust authentication, one superuser `statecore`, fsync on.
# STATECORE_PG_LISTEN (addresses, comma-separated) and STATECORE_PG_CLIENTS (CIDRs, spaces):
# the server also listens there and trusts clients from there (simulated hosts,
# scripts/sim-hosts.sh); by default it is reached on 127.0.0.1 only.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || bin=$(dirname "$(command -v pg_ctl)")
cmd=${1:?start or stop}
dir=${2:?directory}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    local user=postgres
    id postgres >/dev/null 2>&1 || user=nobody
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    # The server's own directory, in /tmp (which every user may enter), owned by the server's
    # user: DIR itself may sit under a directory only root may enter.
    home=$(mktemp -d /tmp/statecore-pg.XXXXXX)
    echo "$home" >"$dir/home"
    if [ "$(id -u)" -eq 0 ]; then
      user=postgres
      id postgres >/dev/null 2>&1 || user=nobody
      chown "$user" "$home"
    fi
    as_owner "$bin/initdb" -D "$home/data" -U statecore -A trust -E UTF8 --locale=C.UTF-8 \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    listen=127.0.0.1${STATECORE_PG_LISTEN:+,$STATECORE_PG_LISTEN}
    for cidr in ${STATECORE_PG_CLIENTS:-}; do
      echo "host all statecore $cidr trust" >>"$home/data/pg_hba.conf"
    done
    as_owner "$bin/pg_ctl" -D "$home/data" -l "$home/server.log" -w -t 60 \
      -o "-p $port -c listen_addresses=$listen -k $home -c max_connections=200" start >/dev/null \
      || { cat "$home/server.log" >&2; exit 1; }
    printf 'export PGHOST=127.0.0.1 PGPORT=%s PGUSER=statecore PGDATABASE=postgres\n' "$port" >"$dir/env"
    if [ -n "${3:-}" ]; then
      owner=$3
      (
        while kill -0 "$owner" 2>/dev/null && [ -d "$home/data" ]; do sleep 1; done
        [ -d "$home/data" ] && as_owner "$bin/pg_ctl" -D "$home/data" -m fast -w stop >/dev/null 2>&1
        rm -rf "$home"
      ) </dev/null >/dev/null 2>&1 &
      disown
    fi
    echo "pg-server: PostgreSQL on 127.0.0.1:$port ($home)"
    ;;
  stop)
    if [ -f "$dir/home" ]; then
      home=$(cat "$dir/home")
      [ -d "$home/data" ] && as_owner "$bin/pg_ctl" -D "$home/data" -m fast -w stop >/dev/null 2>&1 || true
      rm -rf "$home"
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
