"""Test helper: ``hive_agent.py SESSION_DIR WORKER ROUNDS`` acts as one hive worker on the
session directory: ``spawn_worker``, then ROUNDS - 2 milestones (``heartbeat`` and
``record_progress`` with files_created = r, in turn), then ``complete_worker``: ROUNDS locked
steps of ``statecore.hive``, each appending its event line. Prints "ready", waits for a line
on stdin, runs, prints "done" and exits 0. ``loop`` instead of ROUNDS: beats and progresses
until killed (the crash test), printing "go" once the first step is done.
"""

from __future__ import annotations

import sys

from statecore import hive


def milestone(directory: str, worker: str, r: int) -> None:
    """Round ``r``: a heartbeat or a progress."""
    if r % 2 == 0:
        hive.heartbeat(directory, worker, timeout=60.0)
    else:
        hive.record_progress(directory, worker, {"metrics": {"files_created": r}}, timeout=60.0)


def main() -> None:
    """Runs the rounds."""
    directory, worker, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
    hive.read_state(directory)  # everything loaded before "ready"
    print("ready", flush=True)
    sys.stdin.readline()
    if rounds == "loop":
        milestone(directory, worker, 0)
        print("go", flush=True)
        r = 1
        while True:
            milestone(directory, worker, r)
            r += 1
    n = int(rounds)
    hive.spawn_worker(directory, worker, timeout=60.0)
    for r in range(1, n - 1):
        milestone(directory, worker, r)
    hive.complete_worker(directory, worker, {"notes": f"{worker}.md"}, timeout=60.0)
    print("done", flush=True)


if __name__ == "__main__":
    main()
