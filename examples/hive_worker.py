"""A hive worker (Python) for ``make demo``: ``hive_worker.py SESSION_DIR WORKER STEPS``.

Spawns, then heartbeats and records progress STEPS times (50 ms apart), then completes with
its notes; each milestone is one locked step of ``statecore.hive`` that appends its line to
EVENTS.jsonl and writes STATE.json. STEPS ``hang``: spawns, beats twice, then hangs (the demo
kills it).
"""

from __future__ import annotations

import os
import sys
import time

from statecore import hive

directory, worker, steps = sys.argv[1], sys.argv[2], sys.argv[3]
hive.spawn_worker(directory, worker)
rounds = 2 if steps == "hang" else int(steps)
for r in range(rounds):
    time.sleep(0.05)
    hive.heartbeat(directory, worker)
    hive.record_progress(directory, worker, {"metrics": {"files_created": r + 1}})
if steps == "hang":
    print(f"  {worker} (python, pid {os.getpid()}) stops answering", flush=True)
    time.sleep(3600)
hive.complete_worker(
    directory, worker, {"notes": f"notes/{worker}.md"}, {"tokens_estimated": 1200}
)
