"""One sample set of a protocol helper's update, for bench/helper_compare.py, with the
``statecore`` package found in ``argv[2]`` (a baseline build's unpacked wheel) or the
installed one (``-``):

    python helper_bench.py locked <site dir | -> <samples> <ops per sample>
        ``fctry.start_step(project_dir, step, now)``: lock, read, update, validate, atomic
        write, unlock, on a real project directory;
    python helper_bench.py memory <site dir | -> <samples> <ops per sample>
        the same update without I/O: what the helper asks of the core for one update (this
        tree: ``update_file``, one crossing; before the operation table: load_document,
        check_if_match, fctry_start_step, finish_update, four crossings).

Prints ``{"times": [ns per op, one per sample]}``; exits 1 when a result is wrong."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

mode, site, samples, ops = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if site != "-":
    sys.path.insert(0, site)

import statecore
from statecore import fctry

if site != "-" and not statecore.__file__.startswith(site):
    sys.exit(f"imported {statecore.__file__}, not the build in {site}")
STEPS = ["interviewer", "spec-writer"]
NOW = 1_770_910_200_000  # 2026-02-12T15:30:00Z
FIXTURE = (Path(__file__).parent / "fixtures" / "fctry_state.json").read_bytes()


def memory() -> tuple[Callable[[int], None], Callable[[], Any]]:
    """The update without I/O, as the helper asks the core for it."""
    data = [FIXTURE]
    core: Any = statecore
    if hasattr(core, "update_file"):

        def update(step: str, now: int) -> Any:
            return core.update_file("fctry.state", "fctry_start_step", data[0], [step], now)

    else:
        native = core._statecore

        def update(step: str, now: int) -> Any:
            loaded = native.load_document("fctry.state", data[0])
            native.check_if_match(loaded["etag"], None)
            document = native.fctry_start_step(loaded["document"], step, now)
            return native.finish_update("fctry.state", data[0], document, None)

    def step(i: int) -> None:
        data[0] = update(STEPS[i % 2], NOW + i)["text"].encode()

    return step, lambda: json.loads(data[0])


def main() -> None:
    project = Path(tempfile.mkdtemp(prefix="statecore-helper-bench-"))
    try:
        file = project / ".fctry" / "state.json"
        if mode == "locked":
            file.parent.mkdir()
            file.write_bytes(FIXTURE)

            def step(i: int) -> None:
                fctry.start_step(str(project), STEPS[i % 2], NOW + i)  # type: ignore[arg-type]

            def last() -> Any:
                if sorted(p.name for p in file.parent.iterdir()) != ["state.json"]:
                    sys.exit(f"left files behind: {list(file.parent.iterdir())}")
                return json.loads(file.read_text())

        else:
            step, last = memory()
        for i in range(max(50, ops // 4)):  # warm-up
            step(i)
        times = []
        for _ in range(samples):
            t0 = time.perf_counter_ns()
            for i in range(ops):
                step(i)
            times.append((time.perf_counter_ns() - t0) / ops)
        state = last()
        want = STEPS[(ops - 1) % 2]
        got = (state["workflowStep"], state["currentCommand"], state["specVersion"])
        if got != (want, "evolve", "1.2"):
            sys.exit(f"wrong result: {got}, want workflowStep {want}")
        print(json.dumps({"times": times}))
    finally:
        shutil.rmtree(project, ignore_errors=True)


main()
