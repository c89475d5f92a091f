"""Test helper: ``hive_agent.py SESSION_DIR WORKER ROUNDS`` acts as one hive worker on the
session directory: ``spawn_worker``, then ROUNDS - 2 milestones (``heartbeat`` and
``record_progress`` with files_created = r, in turn), then ``complete_worker``: ROUNDS locked
steps of ``statecore.hive``, each appending its event line. Prints "ready", waits for a line
on stdin, runs, prints "done" and exits 0. ``loop`` instead of ROUNDS: beats and progresses
until killed (the crash test), printing "go" once the first step is done. With
``STATECORE_AGENT_STORE=postgres`` the session is in the PostgreSQL store of the ``PG*``
environment, SESSION_DIR its key prefix.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from statecore import hive

#: The store the session is in (none: files).
EXTRA: dict[str, Any] = {}


def milestone(directory: str, worker: str, r: int) -> None:
    """Round ``r``: a heartbeat or a progress."""
    if r % 2 == 0:
        hive.heartbeat(directory, worker, timeout=60.0, **EXTRA)
    else:
        progress = {"metrics": {"files_created": r}}
        hive.record_progress(directory, worker, progress, timeout=60.0, **EXTRA)


def main() -> None:
    """Runs the rounds."""
    directory, worker, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
    if os.environ.get("STATECORE_AGENT_STORE") == "postgres":
        from statecore.store import PostgresStore

        EXTRA["store"] = PostgresStore()
    hive.read_state(directory, **EXTRA)  # everything loaded before "ready"
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
    hive.spawn_worker(directory, worker, timeout=60.0, **EXTRA)
    for r in range(1, n - 1):
        milestone(directory, worker, r)
    hive.complete_worker(directory, worker, {"notes": f"{worker}.md"}, timeout=60.0, **EXTRA)
    print("done", flush=True)


if __name__ == "__main__":
    main()
