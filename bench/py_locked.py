"""Python benches (3) and (3b) of statecore: locked read-merge-validate-write updates, one writer
and 4 writer processes at once (bench/writers_child.py is one of them), statecore against the
filelock alternatives of py_alternatives.py with the same fsyncs. Called by python_bench.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import statecore

from py_alternatives import (
    DOC_BYTES,
    HERE,
    KIND,
    deep_merge,
    json_locked_update,
    rs_locked_update,
    rs_validator,
)
from pylib import QUICK, Case, fail, same_json, table


def locked_updates(tmp: Path) -> str:
    """(3): statecore.update_document vs filelock + json + an atomic write."""
    n_updates, samples = (40, 1) if QUICK else (200, 5)

    def patch_for(i: int) -> dict[str, Any]:
        return {"summary": f"update {i}", "progress": {"done": i, "current": f"step {i}"}}

    def sc_update(path: str, i: int) -> Any:
        return statecore.update_document(path, KIND, patch_for(i))

    def alt_update(path: str, i: int) -> None:
        json_locked_update(path, patch_for(i))

    def alt_update_dir(path: str, i: int) -> None:
        json_locked_update(path, patch_for(i), fsync_dir=True)

    def alt_update_rs(path: str, i: int) -> None:
        rs_locked_update(path, patch_for(i))

    def alt_update_rs_dir(path: str, i: int) -> None:
        rs_locked_update(path, patch_for(i), fsync_dir=True)

    # The rows with one fsync (the alternatives' defaults) are shown for reference; the key
    # ratio compares the same fsyncs as statecore's (file and directory), as issue 11 asks.
    locked = [
        Case("statecore.update_document", sc_update, statecore=True),
        Case(
            "filelock + json + merge + fastjsonschema + atomic write (one fsync)",
            alt_update,
            reference=True,
        ),
    ]
    locked.append(Case("the json alternative + fsync of the directory", alt_update_dir))
    if rs_validator is not None:
        locked.append(
            Case(
                "filelock + orjson + merge + jsonschema_rs + atomic write (one fsync)",
                alt_update_rs,
                reference=True,
            )
        )
        locked.append(Case("the orjson alternative + fsync of the directory", alt_update_rs_dir))

    def run(c: Case, count: int) -> tuple[float, Path]:
        path = tmp / f"{locked.index(c)}.json"
        path.write_bytes(DOC_BYTES)
        t0 = time.perf_counter_ns()
        for i in range(count):
            c.fn(str(path), i)
        return (time.perf_counter_ns() - t0) / count, path

    finals = []
    for c in locked:  # warm-up and the correctness check
        _, path = run(c, 20)
        finals.append(json.loads(path.read_bytes()))
    for c, final in zip(locked[1:], finals[1:]):
        same_json(f"(3) {c.name}", finals[0], final)
    read = statecore.read_document(str(tmp / "0.json"), KIND)
    if not (read["valid"] and read["document"]["progress"]["done"] == 19):
        fail("(3) read_document after updates", repr(read))
    for _ in range(samples):
        for c in locked:
            c.times.append(run(c, n_updates)[0])
    expected_files = {f"{k}.json" for k in range(len(locked))}
    expected_files |= {f"{k}.json.lock" for k, c in enumerate(locked) if not c.statecore}
    leftovers = [p.name for p in tmp.iterdir() if p.name not in expected_files]
    if leftovers:
        fail("(3) temp files left", ", ".join(leftovers))
    return table(
        f"Python (3): locked read-merge-validate-write, {n_updates} sequential updates",
        f"Time per update (median of {samples} runs of {n_updates} updates each, in "
        f"{tempfile.gettempdir()}). statecore: sidecar lock file, fsync of the temp file and "
        "of the directory, rename. Alternatives: `filelock.FileLock` (flock on a `.lock` "
        "file), `tempfile.mkstemp` + fsync of the file (not the directory) + `os.replace`; "
        "the directory-fsync rows add it, so that both sides make two fsyncs per update (the "
        "key ratio compares those; the one-fsync rows are for reference).",
        locked,
        "per update",
    )


# ---------------------------------------------------------------------------------------------
# (3b) locked updates from 4 writer processes at once (bench/writers_child.py is one writer)
# ---------------------------------------------------------------------------------------------
WRITERS = 4
CHILD = HERE / "writers_child.py"


def run_writers(impl: str, path: Path, count: int) -> float:
    """Start WRITERS writer processes on ``path``, wait until each has imported and said
    "ready", then time from the start line on their stdin until the last one exits (ns)."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(CHILD), impl, str(path), f"w{w + 1}", str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            if proc.stdout.readline() != "ready\n":
                fail(f"(3b) {impl} writer start", f"exit code {proc.wait()}")
        t0 = time.perf_counter_ns()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.close()
        codes = [proc.wait(timeout=300) for proc in procs]
        elapsed = time.perf_counter_ns() - t0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
    if any(codes):
        fail(f"(3b) {impl} writers", f"exit codes {codes}")
    return elapsed


def concurrent_updates(tmp: Path) -> str:
    """(3b): statecore.update_document vs filelock + orjson + an atomic write with the
    directory's fsync, from WRITERS processes updating one file at once."""
    count, samples = (10, 1) if QUICK else (50, 3)
    work = tmp / "concurrent"
    work.mkdir()
    writers = {f"w{w + 1}": count for w in range(WRITERS)}
    expected = deep_merge(json.loads(DOC_BYTES), {"progress": {"writers": writers}})
    if rs_validator is not None:
        alt = Case(
            "filelock + orjson + merge + jsonschema_rs + atomic write + fsync of the directory",
            "orjson",
        )
    else:
        alt = Case(
            "filelock + json + merge + fastjsonschema + atomic write + fsync of the directory",
            "json",
        )
    cases = [Case("statecore.update_document", "statecore", statecore=True), alt]

    def run(c: Case) -> float:
        path = work / f"{c.fn}.json"
        path.write_bytes(DOC_BYTES)
        elapsed = run_writers(c.fn, path, count)
        final = json.loads(path.read_bytes())  # the check of every run, outside the clock
        counters = final.get("progress", {}).get("writers")
        if counters != writers:
            fail(f"(3b) {c.name}: lost updates", f"counters {counters!r}, expected {writers!r}")
        same_json(f"(3b) {c.name}: the final document", final, expected)
        report = statecore.validate(KIND, final)
        if not report["valid"]:
            fail(f"(3b) {c.name}: statecore.validate of the final document", repr(report))
        allowed = {f"{k.fn}.json" for k in cases} | {f"{alt.fn}.json.lock"}
        leftovers = [p.name for p in work.iterdir() if p.name not in allowed]
        if leftovers:
            fail(f"(3b) {c.name}: temp or lock files left", ", ".join(leftovers))
        return elapsed / (WRITERS * count)

    for _ in range(samples):
        for c in cases:
            c.times.append(run(c))
    return table(
        f"Python (3b): locked updates, {WRITERS} writer processes at once",
        f"{WRITERS} processes update the same {len(DOC_BYTES)}-byte runner status file at once, "
        f'{count} updates each, every writer its own counter (`{{"progress": {{"writers": '
        f'{{"wN": i + 1}}}}}}`). The processes start, import and warm up (10 updates of a '
        "private copy) before the clock, then wait for a start line on stdin; time per "
        "update = wall time from the start line until the last process exits,"
        f" divided by the {WRITERS * count} updates (median of {samples} "
        f"runs, in {tempfile.gettempdir()}). statecore: sidecar lock file, fsync of the temp "
        "file and of the directory, rename. Alternative: `filelock.FileLock` (flock on a "
        "`.lock` file), `tempfile.mkstemp` + fsync of the file + `os.replace` + fsync of the "
        "directory: two fsyncs per update on both sides. Both wait for the lock by polling: "
        "filelock retries its non-blocking flock every 50 ms (its default `poll_interval`), "
        "statecore from 1 ms doubling to 25 ms (a waiter that has waited a moment claims the "
        "next turn and polls every 1 ms). After every run, checked: each "
        f"writer's counter is {count} (no lost update), the document equals the fixture with "
        "those counters and validates with `statecore.validate`, and no temp or lock file is "
        "left (except the alternative's `.lock` file, which filelock leaves by design).",
        cases,
        "per update",
    )
