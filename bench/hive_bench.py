"""Bench Python (7), issue 12: replay of a hive session's EVENTS.jsonl (1,000,000 events, about
160 MB; 20,000 with --quick) into its STATE.json, statecore against a Python fold of the same
events (bench/hive_reference.py: ``for line in f`` in binary mode, ``orjson.loads``, a dict).

Each sample of each contender runs in a fresh interpreter (``--child``), so that its peak
resident set (``VmHWM``) is its own; samples are interleaved, an idle child (the same
modules and warm-up, no replay) gives the baseline the peaks are compared with. Before timing,
every child runs each contender once on the log's first 64 lines (the same one-time set-up for
all). The children's final states must all be equal (as JSON values, and as text), and equal to
the STATE.json that ``read_state`` wrote; the check is outside the timed part. Prints a markdown
fragment on stdout (bench/run.sh puts it in RESULTS.md); never fails on speed.

    .venv/bin/python bench/hive_bench.py [--quick]
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hive_log
import hive_reference
import orjson
from pylib import QUICK, fail, fmt, log
from statecore import _statecore, hive
from statecore._host import sessions as _sessions

# The chunk the library itself feeds its replay (`hive.read_state`), so that the raw row
# measures the same reads.
CHUNK = _sessions.CHUNK
NOW = "2026-11-25T00:00:00.000Z"
WARM_LINES = 64
SAMPLES = 3


# ---------------------------------------------------------------------------------------------
# The contenders, as run in a child: each returns (final state, events folded)
# ---------------------------------------------------------------------------------------------
def run_read_state(directory: Path) -> tuple[Any, int]:
    result = hive.read_state(directory)
    return result["document"], result["recovered"]["events"]


def run_replay(directory: Path) -> tuple[Any, int]:
    replay = _statecore.LogReplay(hive.KIND, directory.name, None, 0, False)
    with open(directory / "EVENTS.jsonl", "rb", buffering=0) as f:
        while True:
            chunk = f.read(CHUNK)
            if not chunk:
                break
            replay.feed(chunk)
    out = replay.commit("", (), NOW)
    return out["document"], out["recovered"]["events"]


def run_orjson(directory: Path) -> tuple[Any, int]:
    return hive_reference.fold(str(directory / "EVENTS.jsonl"), directory.name)


RUNNERS: dict[str, Callable[[Path], tuple[Any, int]]] = {
    "read_state": run_read_state,
    "replay": run_replay,
    "orjson": run_orjson,
}
CONTENDERS = [
    (
        "read_state",
        "statecore hive.read_state",
        (
            f"statecore `hive.read_state(session_dir)` (no STATE.json: streams the log in {CHUNK >> 10} KiB "
            "chunks through `LogReplay`, writes STATE.json)"
        ),
        True,
    ),
    (
        "replay",
        "statecore LogReplay",
        f'statecore `_statecore.LogReplay`: `feed` {CHUNK >> 10} KiB chunks (the library\'s), `commit("", (), now)`',
        True,
    ),
    (
        "orjson",
        "orjson fold",
        "`for line in f` (binary) + `orjson.loads` + a dict fold (bench/hive_reference.py)",
        False,
    ),
]


def peak_rss() -> int:
    """This process's peak resident set in KiB: ``VmHWM``. Not ``ru_maxrss``: Linux keeps the
    parent's peak in it across ``exec``, so a child would report at least its parent's."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(mode: str, directory: Path, warm: Path) -> None:
    """One sample in this process: prints ``{ns, events, maxrss, state}`` as JSON (``maxrss``:
    the peak in KiB)."""
    for name, run in RUNNERS.items():
        if name == "read_state":
            (warm / "STATE.json").unlink(missing_ok=True)
        run(warm)
    state, events, ns = None, 0, 0
    if mode != "idle":
        if mode == "read_state":
            (directory / "STATE.json").unlink(missing_ok=True)
        t0 = time.perf_counter_ns()
        state, events = RUNNERS[mode](directory)
        ns = time.perf_counter_ns() - t0
    sys.stdout.buffer.write(
        orjson.dumps({"ns": ns, "events": events, "maxrss": peak_rss(), "state": state})
    )


def run_child(mode: str, directory: Path, warm: Path) -> dict[str, Any]:
    here = Path(__file__).resolve()
    args = [sys.executable, str(here), "--child", mode, str(directory), str(warm)]
    done = subprocess.run(args, check=False, capture_output=True, cwd=here.parent)
    if done.returncode != 0:
        fail(f"(7) the {mode} child", done.stderr.decode(errors="replace"))
    out: dict[str, Any] = orjson.loads(done.stdout)
    return out


def warm_session(directory: Path, tmp: Path) -> Path:
    """A session of the log's first lines (the children's warm-up)."""
    warm = tmp / directory.name
    warm.mkdir()
    with open(directory / "EVENTS.jsonl", "rb") as f:
        head = [f.readline() for _ in range(WARM_LINES)]
    (warm / "EVENTS.jsonl").write_bytes(b"".join(head))
    return warm


def main() -> None:
    total = 20_000 if QUICK else 1_000_000
    log(f"(7) hive replay: the {total:,}-event log (bench/hive_log.py; cached in the temp dir)")
    directory = hive_log.ensure(total)
    size = (directory / "EVENTS.jsonl").stat().st_size
    tmp = Path(tempfile.mkdtemp(prefix="statecore-hive-"))
    try:
        warm = warm_session(directory, tmp)
        times: dict[str, list[float]] = {c[0]: [] for c in CONTENDERS}
        peaks: dict[str, list[int]] = {mode: [] for mode in [*times, "idle"]}
        states: dict[str, Any] = {}
        for sample in range(SAMPLES):
            log(f"(7) sample {sample + 1}/{SAMPLES}")
            for mode in ["idle", *times]:
                out = run_child(mode, directory, warm)
                peaks[mode].append(out["maxrss"])
                if mode == "idle":
                    continue
                if out["events"] != total:
                    fail(f"(7) {mode}", f"folded {out['events']} events, not {total}")
                times[mode].append(out["ns"] / total)
                states.setdefault(mode, out["state"])
                if out["state"] != states[mode]:
                    fail(f"(7) {mode}", "gave another state than in its first sample")
        written = orjson.loads((directory / "STATE.json").read_bytes())
        (directory / "STATE.json").unlink()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    expected = states["replay"]
    same_text = True
    for mode, state in [*states.items(), ("STATE.json written by read_state", written)]:
        if state != expected:
            fail(f"(7) {mode}", f"\n  statecore: {expected!r}\n  {mode}: {state!r}")
        same_text = same_text and orjson.dumps(state) == orjson.dumps(expected)
    sys.stdout.write(report(total, size, times, peaks, same_text))
    log("(7) done")


def report(
    total: int,
    size: int,
    times: dict[str, list[float]],
    peaks: dict[str, list[int]],
    same_text: bool,
) -> str:
    med = {mode: statistics.median(t) for mode, t in times.items()}
    peak = {mode: statistics.median(p) for mode, p in peaks.items()}
    idle = peak["idle"]
    short = {mode: label for mode, label, _, _ in CONTENDERS}
    ours = [mode for mode, _, _, statecore in CONTENDERS if statecore]
    theirs = [mode for mode, _, _, statecore in CONTENDERS if not statecore]

    def rate(mode: str) -> str:
        return f"{short[mode]}, {1e9 / med[mode]:,.0f} events/s, {fmt(med[mode])}"

    def grown(mode: str) -> str:
        return f"{short[mode]}, {peak[mode]:,.0f} KiB, {peak[mode] - idle:+,.0f} KiB over idle"

    title = f"Python (7): hive replay of {total:,} events"
    head = ["implementation", "median per event", "events/s", "range of samples"]
    head += ["peak RSS (KiB)", "growth over idle (KiB)"]
    head += [f"ratio `{short[mode]}` / this" for mode in ours]
    lines = [
        f"### {title}",
        "",
        (
            f"A session's EVENTS.jsonl of {total:,} events, {size:,} bytes ({size / total:.1f} "
            "bytes a line; bench/hive_log.py: a queen and 8 workers, mostly heartbeats and "
            "progress, some debug lines, updates, phase changes, 7 completions and 2 failures) "
            "folded into its STATE.json. Each sample runs in a fresh interpreter (median of "
            f"{SAMPLES}, interleaved); the time is the whole replay from opening the file. Peak "
            "RSS: the child's `VmHWM` (/proc/self/status); growth: over an idle child that "
            f"loaded the same modules and ran the same warm-up ({idle:,.0f} KiB; differences of "
            "±100 KiB are noise). All final states are equal as values"
            f"{' and as text (same key order)' if same_text else ''}, and equal to the "
            "STATE.json `read_state` wrote."
        ),
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for mode, _, name, statecore in CONTENDERS:
        t = times[mode]
        row = [
            f"**{name}**" if statecore else name,
            fmt(med[mode]),
            f"{1e9 / med[mode]:,.0f}",
            f"{fmt(min(t))} .. {fmt(max(t))} (n={len(t)})",
            f"{peak[mode]:,.0f}",
            f"{peak[mode] - idle:+,.0f}",
        ]
        row += ["" if statecore else f"{med[o] / med[mode]:.2f}" for o in ours]
        lines.append("| " + " | ".join(row) + " |")
    best = min(ours, key=med.__getitem__)
    peer = min(theirs, key=med.__getitem__)
    worst = max(ours, key=peak.__getitem__)
    least = min(theirs, key=peak.__getitem__)
    lines += [
        "",
        (
            f"Key: **{title}, fastest statecore / fastest alternative = "
            f"{med[best] / med[peer]:.2f}** (time per event; {rate(best)}; {rate(peer)}; "
            "target ≤ 0.25)"
        ),
        "",
        (
            f"Key: **Python (7) memory: hive replay of {total:,} events, peak RSS, highest "
            f"statecore / lowest alternative = {peak[worst] / peak[least]:.2f}** "
            f"({grown(worst)}; {grown(least)}; target ≤ 1)"
        ),
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[1] == "--child":
        child(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
    else:
        main()
