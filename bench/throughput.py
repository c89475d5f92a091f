"""Throughput of one file, one row and one log (docs/scale.md): how many updates or appends
per second statecore sustains on one document or log, with 1 and 4 writer processes, on files
and in PostgreSQL (the same throwaway server as store_bench.py, or ``STATECORE_PG_ENV``'s); and
4 writers on 4 rows, the case sharding gives. Each writer is a process of its own that starts
at the same instant as the others and counts what it completes in the same window. Prints a
markdown fragment (bench/run.sh puts it in RESULTS.md); never fails on speed.

    python bench/throughput.py [--quick]
    python bench/throughput.py --child MODE TARGET WRITER START SECONDS   (one writer)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENT = {
    "timestamp": "2026-11-25T10:00:00Z",
    "type": "worker_heartbeat",
    "agent": "w",
    "details": {},
}

#: What is measured: (label, mode, shared target: one for all writers, else one each).
MODES = [
    ("one file: locked update (`update_document`)", "file", True),
    ("one row: `PostgresStore.update`", "row", True),
    ("4 rows, one per writer: `PostgresStore.update`", "row", False),
    ("one log file: `append_line`", "logfile", True),
    ("one log in PostgreSQL: `PostgresStore.append` with an id", "log", True),
]


def child(mode: str, target: str, writer: str, start: float, seconds: float) -> None:
    """One writer: waits for ``start``, then counts its operations until ``start + seconds``."""
    import statecore
    from statecore.store import PostgresStore

    store = PostgresStore() if mode in ("row", "log") else None
    if store is None:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    n = 0

    def once() -> None:
        nonlocal n
        patch = {"progress": {writer: n}}
        if mode == "file":
            statecore.update_document(target, "fctry.state", patch)
        elif mode == "row":
            assert store is not None
            store.update(target, "fctry.state", patch)
        elif mode == "logfile":
            statecore.append_line(target, {**EVENT, "details": {"i": n}})
        else:
            assert store is not None
            store.append(
                target, "hive.event", {**EVENT, "details": {"i": n}}, id=f"{writer}-{n}"
            )
        n += 1

    once()  # connected and warm before the start
    warm = n
    time.sleep(max(0.0, start - time.time()))
    end = start + seconds
    while time.time() < end:
        once()
    print(n - warm)


def run(mode: str, shared: bool, writers: int, seconds: float, work: Path) -> float:
    """Operations per second of ``writers`` processes of ``mode``."""
    start = time.time() + 2.0
    procs = []
    for w in range(writers):
        name = "shared" if shared else f"w{w}"
        if mode == "file":
            target = str(work / name / ".fctry" / "state.json")
        elif mode == "logfile":
            target = str(work / name / "EVENTS.jsonl")
        elif mode == "row":
            target = f"{work.name}/{name}/.fctry/state.json"
        else:
            target = f"{work.name}/{name}/EVENTS.jsonl"
        args = ["--child", mode, target, f"w{w}", repr(start), repr(seconds)]
        procs.append(
            subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE)
        )
    total = 0
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        if proc.returncode != 0:
            raise SystemExit(f"throughput: a {mode} writer failed")
        total += int(out)
    return total / seconds


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        mode, target, writer, start, seconds = sys.argv[2:7]
        child(mode, target, writer, float(start), float(seconds))
        return
    seconds = 1.0 if "--quick" in sys.argv else 3.0
    given = os.environ.get("STATECORE_PG_ENV")
    server = tempfile.mkdtemp(prefix="statecore-throughput-")
    script = ROOT / "scripts" / "pg-server.sh"
    if not given:
        up = ["bash", str(script), "start", f"{server}/pg", str(os.getpid())]
        subprocess.run(up, check=True, stdout=2)
        given = f"{server}/pg/env"
    env = dict(
        w.split("=", 1) for w in Path(given).read_text().replace("export ", "").split()
    )
    os.environ.update(env)
    rows = []
    try:
        for label, mode, shared in MODES:
            counts = []
            for writers in (1, 4) if shared else (4,):
                with tempfile.TemporaryDirectory(prefix="tp-") as work:
                    counts.append(run(mode, shared, writers, seconds, Path(work)))
                print(f"[throughput] {label}: {writers} writer(s)", file=sys.stderr)
            one = f"{counts[0]:,.0f}" if shared else "—"
            rows.append(f"| {label} | {one} | {counts[-1]:,.0f} |")
    finally:
        if Path(f"{server}/pg").exists():
            subprocess.run(["bash", str(script), "stop", f"{server}/pg"], check=True)
        shutil.rmtree(server, ignore_errors=True)
    print("### Throughput of one file, one row, one log (operations per second)\n")
    print(
        f"Each writer a process of its own, all starting at once, counting for {seconds:.0f} s; "
        "a fctry state (a patch per update) or a hive event per append; PostgreSQL 15 on "
        "127.0.0.1 with fsync, files on the same disk. The machine has "
        f"{os.cpu_count()} CPUs, shared by the writers and the server.\n"
    )
    print("| target | 1 writer | 4 writers |\n|---|---|---|")
    print("\n".join(rows) + "\n")
    print(json.dumps({"seconds": seconds}), file=sys.stderr)


if __name__ == "__main__":
    main()
