"""Shared helpers of the Python benches (as bench/lib.mjs is for Node): timing with a warm-up
and interleaved samples, the median, the markdown table of one comparison, and the checks that
stop a bench on a wrong result."""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any, Callable

QUICK = "--quick" in sys.argv

sink = 0


def log(message: str) -> None:
    print(f"[python-bench] {message}", file=sys.stderr, flush=True)


def fail(what: str, detail: str = "") -> None:
    print(f"bench: WRONG RESULT in {what} {detail}", file=sys.stderr)
    sys.exit(1)


def same_json(what: str, actual: Any, expected: Any) -> None:
    if actual != expected:
        fail(what, f"\n  statecore:   {actual!r}\n  alternative: {expected!r}")


# ---------------------------------------------------------------------------------------------
# Timing: warm-up, samples run round-robin over the cases, median
# ---------------------------------------------------------------------------------------------
class Case:
    def __init__(
        self, name: str, fn: Any, statecore: bool = False, reference: bool = False
    ) -> None:
        self.name = name
        self.fn = fn
        self.statecore = statecore
        self.reference = reference
        """A reference row (not an alternative): left out of the key ratio."""
        self.times: list[float] = []


def _loop(fn: Callable[[], Any], iters: int) -> float:
    global sink
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        sink += fn() is not None
    return (time.perf_counter_ns() - t0) / iters


def compare(cases: list[Case]) -> list[Case]:
    samples, sample_ms, warmup_ms = (3, 15, 40) if QUICK else (15, 40, 150)
    iters = []
    for c in cases:
        n = 0
        t0 = time.perf_counter_ns()
        while time.perf_counter_ns() - t0 < warmup_ms * 1e6:
            c.fn()
            n += 1
        per_op = warmup_ms * 1e6 / n
        iters.append(max(5, round(sample_ms * 1e6 / per_op)))
    for _ in range(samples):
        for c, n in zip(cases, iters):
            c.times.append(_loop(c.fn, n))
    return cases


def fmt(ns: float) -> str:
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def table(title: str, note: str, cases: list[Case], unit: str = "per op") -> str:
    sc = [c for c in cases if c.statecore]
    head = ["implementation", f"median {unit}", "range of samples"]
    head += [f"ratio `{s.name}` / this" for s in sc]
    lines = [f"### {title}", "", note, "", "| " + " | ".join(head) + " |"]
    lines.append("|" + "|".join("---" for _ in head) + "|")
    for c in cases:
        med = statistics.median(c.times)
        row = [
            f"**{c.name}**" if c.statecore else c.name,
            fmt(med),
            f"{fmt(min(c.times))} .. {fmt(max(c.times))} (n={len(c.times)})",
        ]
        row += ["" if c.statecore else f"{statistics.median(s.times) / med:.2f}" for s in sc]
        lines.append("| " + " | ".join(row) + " |")
    alts = [c for c in cases if not c.statecore and not c.reference]
    if sc and alts:
        best = min(sc, key=lambda c: statistics.median(c.times))
        fastest = min(alts, key=lambda c: statistics.median(c.times))
        b, f = statistics.median(best.times), statistics.median(fastest.times)
        lines += [
            "",
            f"Key: **{title.split(':')[0]}: fastest statecore / fastest alternative = "
            f"{b / f:.2f}** ({best.name}, {fmt(b)}; {fastest.name}, {fmt(f)})",
        ]
    lines.append("")
    return "\n".join(lines)


