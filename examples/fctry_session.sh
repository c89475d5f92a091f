#!/usr/bin/env bash
# Part 2 of `make demo`: a scripted fctry session in a fresh temp project with `.fctry/`.
# Each step is one agent process, Python (`py`, examples/fctry_session.py) or Node (`node`,
# examples/fctry_session.mjs), writing .fctry/state.json through the locked file API; after
# each step the real `statecore-statusline` bin prints the line a prompt would show.
# Story: /fctry:evolve (State Owner, Interviewer, a failed Spec Writer prerequisite check
# answered by running Scenario Crafter, Spec Writer), then /fctry:execute (a failed Executor
# check answered with Skip, a 4-chunk plan, chunk 2 failing once and retried), an
# interruption, the resume offer in a new process, the rest of the build, the activity feed.
# Any failing step stops the demo with a non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
proj=$(mktemp -d)
trap 'rm -rf "$proj"' EXIT
mkdir -p "$proj/.fctry/events"

py() { "$root/.venv/bin/python" "$root/examples/fctry_session.py" "$proj" "$@"; }
js() { node "$root/examples/fctry_session.mjs" "$proj" "$@"; }
statusline() { (cd "$proj" && node "$root/npm/bin/statecore-statusline.cjs" --no-color); }
who() { [ "$1" = js ] && echo node || echo "$1"; }

# step LANG LABEL ACTION ARGS...: one agent process, then the status line.
step() {
  local lang=$1 label=$2 note line
  shift 2
  note=$("$lang" "$@")
  line=$(statusline)
  printf '%-4s %-38s %s\n' "$(who "$lang")" "$label${note:+: $note}" "$line"
}
# block LANG ACTION ARGS...: an agent process whose answer is a block of text.
block() {
  local lang=$1 out
  shift
  out=$("$lang" "$@")
  sed 's/^/     │ /' <<<"$out"
}
say() { printf '%-4s %s\n' "$1" "$2"; }

echo "fctry session in a fresh temp project: the agent process (py | node), its step, then the"
echo "status line after it (node npm/bin/statecore-statusline.cjs --no-color, cwd = the project)"
step py "/fctry:evolve" command evolve
step py "state-owner-scan start" start state-owner-scan
step js "state-owner-scan complete" complete state-owner-scan "spec v1.2, 28 of 40 aligned" \
  '{"specVersion": "1.2", "readinessSummary": {"aligned": 28, "spec-ahead": 8, "needs-build": 4}}'
step js "interviewer start" start interviewer \
  '{"activeSection": "#status-model", "activeSectionNumber": "2.1"}'
step py "interviewer complete" complete interviewer "status must survive a crash"
say node "spec-writer checks its prerequisites:"
block js check spec-writer evolve missing
say user "chooses (1): run Scenario Crafter now"
step py "scenario-crafter start" start scenario-crafter
step js "scenario-crafter complete" complete scenario-crafter "2 new scenarios" \
  '{"scenarioScore": {"satisfied": 5, "total": 8}}'
step py "spec-writer check" check spec-writer evolve ok
step py "spec-writer start" start spec-writer
step js "spec-writer complete" complete spec-writer "#status-model rewritten" \
  '{"specVersion": "1.3", "activeSection": null, "activeSectionNumber": null, "nextStep": "Run /fctry:execute"}'
step js "/fctry:execute" command execute
say py "executor checks its prerequisites:"
block py check executor execute missing
say user "chooses (2): skip"
step py "executor proceeds" skip executor execute
step js "executor-plan start" start executor-plan '{"nextStep": null}'
step js "plan approved" plan examples/fctry_session.plan.json
step js "chunk 1 start" chunk 1 start
step py "chunk 1 complete" chunk 1 complete
step js "chunk 2 start" chunk 2 start
step py "observer checks chunk 2" verify 2 \
  '[{"name": "build passes", "result": "pass"}, {"name": "viewer sees every write", "result": "fail"}]'
step js "chunk 2 fail" chunk 2 fail
step js "chunk 2 complete" chunk 2 complete
echo "---- session interrupted: the executor's process is gone, .fctry/state.json stays ----"
step py "user edits spec #status-model (v1.4)" edit .fctry/spec.md "#status-model" 2.1 '{"specVersion": "1.4"}'
say py "executor re-enters /fctry:execute, finds the run:"
block py resume 1.4
say user "chooses (1): resume, keep chunk 1 as built"
step js "chunk 3 start" chunk 3 start
step py "chunk 3 complete" chunk 3 complete
step py "chunk 4 start" chunk 4 start
step js "chunk 4 complete" chunk 4 complete
step py "build finished" finish "4 of 4 chunks built" '{"nextStep": "Run /fctry:review"}'
echo "activity feed (lifecycle and verification events, oldest first):"
block js feed
