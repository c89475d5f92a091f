"""One step of the scripted fctry session (examples/fctry_session.sh), as a Python agent process.

Every write is one locked read-modify-write of .fctry/state.json: a ``statecore.fctry``
operation on the project directory (one call per milestone), or ``update_document`` with
several pure operations when an agent writes more in the same update. Events go to JSONL logs
under .fctry/events/ (``append_line``).
The same actions exist in fctry_session.mjs, so the session can switch language at any step.
Usage: python fctry_session.py PROJECT ACTION ARGS...; prints a short note (or a block).
"""

import json
import os
import sys
import time

import statecore
from statecore import fctry

project, action, args = sys.argv[1], sys.argv[2], sys.argv[3:]
state_file = os.path.join(project, ".fctry", "state.json")


def log_file(source):
    return os.path.join(project, ".fctry", "events", f"{source}.jsonl")


def fields(text=None):
    return json.loads(text) if text else {}


def read():
    return statecore.read_document(state_file, "fctry.state")["document"]


def update(apply):
    return statecore.update_document(state_file, "fctry.state", apply)["document"]


def chunk_of(state, id):
    return next(c for c in state["buildRun"]["chunks"] if c["id"] == id)


def fail(message):
    print(f"fctry_session.py {action}: {message}", file=sys.stderr)
    sys.exit(1)


def record(source, event):
    report = statecore.validate("fctry.event", event)
    if not report["valid"]:
        fail(f"invalid event: {report['errors']}")
    statecore.append_line(log_file(source), event)


def command(name):
    """/fctry:<name>: step 0 of the command."""
    fctry.start_command(project, name)


def start(step, extra=None):
    """An agent starts its step (``extra``: other seed fields the agent writes)."""
    update(lambda s: {**fctry.start_step(s, step), **fields(extra)})


def complete(step, summary, extra=None):
    """An agent completes its step with a summary output."""
    update(
        lambda s: {
            **fctry.complete_step(s, step, {"summary": summary}),
            **fields(extra),
        }
    )


def check(agent, command, expect):
    """Prerequisites: prints "ok" or the Workflow error; ``expect`` (ok | missing) must hold."""
    result = fctry.check_prerequisites(project, agent, command)
    if result["ok"] != (expect == "ok"):
        fail(f"expected {expect}, got {result}")
    print("prerequisites met" if result["ok"] else result["message"])


def skip(agent, command):
    """The user chose "(2) Skip"."""
    state = fctry.skip_prerequisites(project, agent, command)["document"]
    skips = state.get("skippedPrerequisites") or []
    if not skips or skips[-1]["agent"] != agent:
        fail("the skip was not recorded")
    print("skip recorded")


def plan(file):
    """The approved plan: executor-plan done, build run created, executor-build started."""
    with open(file, encoding="utf-8") as f:
        approved = json.load(f)

    def apply(s):
        s = fctry.create_build_run(s, approved)
        layers = " ".join(
            f"[{','.join(map(str, ids))}]" for ids in fctry.dag_layers(s)["layers"]
        )
        s = fctry.complete_step(s, "executor-plan", {"summary": f"layers {layers}"})
        return fctry.start_step(s, "executor-build")

    state = update(apply)
    print(state["agentOutputs"]["executor-plan"]["summary"])


def chunk(id, event):
    """A chunk event (start | complete | fail); a completion or failure is a lifecycle event."""
    state = fctry.chunk_event(project, int(id), event)["document"]
    c = chunk_of(state, int(id))
    attempt = f", attempt {c['attempt']}" if c["status"] == "retrying" else ""
    if event != "start":
        record(
            "lifecycle",
            {
                "kind": f"chunk-{c['status']}",
                "chunk": f"Chunk {c['id']}: {c['name']}",
                "timestamp": state["lastUpdated"],
                "summary": f"{c['status']}{attempt}",
            },
        )
    # The note: the attempt a start or a retry begins; nothing for a completion.
    if event == "start":
        print(f"attempt {c['attempt']}")
    elif event == "fail":
        print(f"{c['status']}{attempt}")


def verify(id, checks):
    """The Observer's verification of a chunk (``checks``: [{name, result}])."""
    checks = json.loads(checks)
    passed = sum(1 for c in checks if c["result"] == "pass")
    c = chunk_of(read(), int(id))
    record(
        "verification",
        {
            "kind": "chunk-verified"
            if passed == len(checks)
            else "verification-failed",
            "chunk": f"Chunk {c['id']}: {c['name']}",
            "timestamp": statecore.format_timestamp(time.time_ns() // 1_000_000),
            "summary": f"{passed}/{len(checks)} checks passed",
            "checks": checks,
            "mode": "full",
        },
    )
    print(f"{passed}/{len(checks)} passed")


def edit(file, section, section_number, extra=None):
    """A file write outside fctry commands."""
    change = {"file": file, "section": section, "sectionNumber": section_number}
    update(lambda s: {**fctry.add_untracked_change(s, change), **fields(extra)})


def resume(spec_version):
    """The Executor re-entering: what the resume protocol offers."""
    state = read()
    offer = fctry.resume_plan(state, spec_version)
    if not offer["offer"]:
        fail(f"no resume offered: {offer}")
    edited = {
        (c.get("section") or "").lstrip("#")
        for c in state.get("untrackedChanges") or []
    }
    print(
        f"{state['buildRun']['runId']} was interrupted: "
        f"completed {', '.join(map(str, offer['completed']))}; "
        f"remaining {', '.join(map(str, offer['remaining']))}; "
        f"next {', '.join(map(str, offer['next']))}"
    )
    for c in offer["changed"]:
        touched = [s for s in c["sections"] if s.lstrip("#") in edited]
        verdict = (
            f"{', '.join(touched)} edited → FLAGGED: rebuild or keep?"
            if touched
            else f"{', '.join(c['sections'])} unchanged"
        )
        print(
            f"chunk {c['id']} ({c['name']}) built against v{c['specVersionAtBuild']}, "
            f"spec now v{spec_version}: {verdict}"
        )
    print("  ".join(offer["options"]))


def finish(summary, extra=None):
    """The build is done: buildRun cleared (or kept as partial), executor-build completed."""

    def apply(s):
        s = fctry.complete_step(
            fctry.finish_build_run(s), "executor-build", {"summary": summary}
        )
        return {**s, **fields(extra)}

    state = update(apply)
    run = state.get("buildRun")
    print("buildRun cleared" if run is None else f"run {run['status']}")


def feed():
    """The activity feed: lifecycle and verification events, oldest first."""
    sources = [
        statecore.read_log(log_file(s))["records"]
        for s in ("lifecycle", "verification")
    ]
    result = fctry.activity_feed(sources)
    if result["invalid"]:
        fail(f"events without a valid timestamp: {result['invalid']}")
    for e in result["events"]:
        print(
            f"{e['timestamp'][11:23]}  {e['kind']:<19} {e['chunk']:<26} {e['summary']}"
        )


actions = {
    f.__name__: f for f in (command, start, complete, check, skip, plan, chunk, verify)
}
actions.update({f.__name__: f for f in (edit, resume, finish, feed)})
if action not in actions:
    fail("unknown action")
actions[action](*args)
