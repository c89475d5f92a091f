"""``make demo``, part 5: a hive session (docs/hive.md). A Python queen creates the session,
plans three workers and spawns them as processes in both languages (two Node, one Python);
one of them hangs and is killed with SIGKILL mid-task; the health check flags its silence and
the queen fails it; the others complete and the session moves to synthesis and completion.
Then STATE.json is deleted and rebuilt from EVENTS.jsonl, and must equal the state it lost.
Fails (non-zero) on any step that goes wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from statecore import hive

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = [
    ("node-researcher", "node", "map the API's endpoints", "6"),
    ("py-tester", "python", "write the contract tests", "hang"),
    ("node-writer", "node", "draft the client", "4"),
]


def start(directory: str, worker: str, lang: str, steps: str) -> subprocess.Popen[str]:
    """One worker process."""
    if lang == "node":
        command = [
            "node",
            os.path.join(HERE, "hive_worker.mjs"),
            directory,
            worker,
            steps,
        ]
    else:
        command = [
            sys.executable,
            os.path.join(HERE, "hive_worker.py"),
            directory,
            worker,
            steps,
        ]
    # The hanging worker's "stops answering" line tells the queen when to kill it.
    return subprocess.Popen(
        command, stdout=subprocess.PIPE if steps == "hang" else None, text=True
    )


def line(state: dict, what: str) -> None:
    """A status line: phase, workers by list, events logged."""
    c = state["coordination_status"]
    print(
        f"  {what:<34} {state['status']:<12} active={c['workers_active']} "
        f"completed={c['workers_completed']} failed={c['workers_failed']} "
        f"events={state['metrics']['total_events_logged']}"
    )


def main() -> None:
    sessions = tempfile.mkdtemp(prefix="hive-demo-")
    try:
        run(sessions)
    finally:
        shutil.rmtree(sessions)


def run(sessions: str) -> None:
    """The session, in the temp directory ``sessions``."""
    print(f"hive session under {sessions}")
    hive.create_session_dir(sessions, "auth-client", "an API client with OAuth")
    session = os.path.join(sessions, "auth-client")
    hive.change_phase(session, "planning")
    plan = [{"name": w, "task": task} for w, _, task, _ in WORKERS]
    line(
        hive.plan_workers(session, plan, "three domains")["document"],
        "queen plans 3 workers",
    )
    hive.change_phase(session, "spawning")
    procs = {}
    for worker, lang, _, steps in WORKERS:
        hive.record_spawn_attempt(session, worker)
        procs[worker] = start(session, worker, lang, steps)
    hive.change_phase(session, "executing")
    for worker in ("node-researcher", "node-writer"):
        if procs[worker].wait(timeout=60) != 0:
            raise SystemExit(f"{worker} failed")
    hung = procs["py-tester"]
    assert hung.stdout is not None
    print(hung.stdout.readline(), end="")  # it has beaten twice and hangs
    hung.send_signal(signal.SIGKILL)
    hung.wait()
    print("  py-tester killed (SIGKILL) mid-task")
    line(hive.read_state(session)["document"], "two completed, one silent")
    time.sleep(1.2)
    flagged = hive.check_sessions(sessions, timeout_ms=1000)[0]
    unhealthy = flagged["health"]["unhealthy"] if "health" in flagged else []
    print(f"  health check (1 s timeout): {json.dumps(unhealthy)}")
    if [u["worker"] for u in unhealthy] != ["py-tester"]:
        raise SystemExit("the health check did not flag the killed worker")
    hive.fail_worker(
        session,
        "py-tester",
        {"message": "no heartbeat", "problem": "timeout"},
        agent="queen",
    )
    hive.change_phase(session, "synthesizing")
    before = hive.change_phase(session, "complete")["document"]
    line(before, "queen: synthesis, complete")

    os.remove(os.path.join(session, "STATE.json"))
    print("  STATE.json deleted")
    read = hive.read_state(session)
    recovered = read["recovered"] or {}
    line(read["document"], f"rebuilt from {recovered.get('events')} log lines")
    if read["document"] != before:
        raise SystemExit("the rebuilt state differs from the one that was lost")
    print("  the rebuilt STATE.json equals the lost one")


if __name__ == "__main__":
    main()
