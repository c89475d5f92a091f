"""One sample set of a protocol helper's locked update, for bench/helper_compare.py:
``fctry.start_step(project_dir, step, now)`` (lock, read, update, validate, atomic write,
unlock) with the ``statecore`` package found first on ``sys.path`` after ``argv[1]`` (a
baseline build's unpacked wheel) or the installed one (``-``).

    python helper_bench.py <site dir | -> <samples> <ops per sample>

Prints ``{"times": [ns per op, one per sample]}``; exits 1 when a result is wrong."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

site, samples, ops = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if site != "-":
    sys.path.insert(0, site)

import statecore  # noqa: E402
from statecore import fctry  # noqa: E402

if site != "-" and not statecore.__file__.startswith(site):
    sys.exit(f"imported {statecore.__file__}, not the build in {site}")
STEPS = ["interviewer", "spec-writer"]
NOW = 1_770_910_200_000  # 2026-02-12T15:30:00Z


def main() -> None:
    project = Path(tempfile.mkdtemp(prefix="statecore-helper-bench-"))
    try:
        file = project / ".fctry" / "state.json"
        file.parent.mkdir()
        file.write_bytes((Path(__file__).parent / "fixtures" / "fctry_state.json").read_bytes())

        def step(i: int) -> object:
            return fctry.start_step(str(project), STEPS[i % 2], NOW + i)

        for i in range(50):  # warm-up
            step(i)
        times = []
        for _ in range(samples):
            t0 = time.perf_counter_ns()
            for i in range(ops):
                step(i)
            times.append((time.perf_counter_ns() - t0) / ops)
        last = json.loads(file.read_text())
        want = STEPS[(ops - 1) % 2]
        if (last["workflowStep"], last["currentCommand"], last["specVersion"]) != (want, "evolve", "1.2"):
            sys.exit(f"wrong result: workflowStep {last['workflowStep']}, want {want}")
        if sorted(p.name for p in file.parent.iterdir()) != ["state.json"]:
            sys.exit(f"left files behind: {list(file.parent.iterdir())}")
        print(json.dumps({"times": times}))
    finally:
        shutil.rmtree(project, ignore_errors=True)


main()
