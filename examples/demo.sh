#!/usr/bin/env bash
# `make demo`: two Python and two Node processes update one runner status file concurrently
# while a Node watcher prints its validated status; ends with the final document and a check
# that no update was lost. Part 2 (examples/fctry_session.sh): a scripted fctry session in Python
# and Node agent processes, printing the real `statecore-statusline` line after each step.
# Part 3 (examples/hivemind_demo.mjs): a Hivemind project driven by the Node watcher. Part 4
# (examples/agency_demo.py): agency init, three runners (Python, Node, crashed), ls and show.
# Part 5 (examples/hive_demo.py): a hive session, a killed worker flagged, STATE.json rebuilt.
# Part 6 (examples/specify_demo.py): a specify workflow: gaps, clarifications, a stale gap, artifacts.
# Part 7 (examples/view_demo.mjs): `statecore view` on a workspace of all five protocols, its URL
# printed, toured in headless Chromium (VIEW=1 keeps it running for your browser).
# Part 8 (examples/mcp_demo.py): an agent's fctry session, a hive session from its creation, a
# specify loop to its end and an agency run through `statecore mcp`'s tools alone, with the MCP
# SDK's client on the Node server.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
file="$dir/.agency/state/runner_status.json"
mkdir -p "$(dirname "$file")"
steps=${DEMO_STEPS:-40}

node examples/demo_watch.mjs "$file" & watcher=$!
.venv/bin/python examples/demo_writer.py "$file" py-1 "$steps" &
.venv/bin/python examples/demo_writer.py "$file" py-2 "$steps" &
node examples/demo_writer.mjs "$file" node-1 "$steps" &
node examples/demo_writer.mjs "$file" node-2 "$steps" &
for job in $(jobs -p); do [ "$job" = "$watcher" ] || wait "$job"; done
kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true
node examples/demo_check.mjs "$file" 4 "$steps"

# Part 2: the fctry session (its own temp project, removed on exit; any failing step fails here).
echo
bash examples/fctry_session.sh
echo; node examples/hivemind_demo.mjs  # Part 3: a Hivemind project (watcher + Python agents); fails on any step
echo; .venv/bin/python examples/agency_demo.py  # Part 4: agency init, runners, ls and show; fails on a wrong status
echo; .venv/bin/python examples/hive_demo.py  # Part 5: a hive session: workers in both languages, one killed, recovery
echo; .venv/bin/python examples/specify_demo.py  # Part 6: a specify workflow; fails on any step
echo; node examples/view_demo.mjs ${VIEW:+--keep}  # Part 7: the live viewer, headless; fails on any step
echo; .venv/bin/python examples/mcp_demo.py node  # Part 8: an agent through MCP tools alone; fails on a tool error
