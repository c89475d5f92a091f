#!/usr/bin/env bash
# Runs a command with one throwaway PostgreSQL server for every suite in it (docs/store.md §
# Tests): `scripts/with-pg.sh make test-node test-python`. The server (scripts/pg-server.sh)
# is started first, its env file named by STATECORE_PG_ENV for the command (the Node and
# Python store tests then make a database per test on it instead of starting their own), and
# stopped when the command ends, however it ends; if this script is killed, the server stops
# once it is gone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/statecore-with-pg.XXXXXX")
trap 'bash "$here/pg-server.sh" stop "$dir/pg"; rm -rf "$dir"' EXIT
bash "$here/pg-server.sh" start "$dir/pg" "$$"
export STATECORE_PG_ENV="$dir/pg/env"
"$@"
