"""Scale of the Python surface (issue 11, docs/performance.md § Scale), for `make bench`.

Time per byte of each operation on documents of 0.1 to 8 MiB, as ratios only: each
operation's time per byte at a size divided by its time per byte at the smallest size (a
linear operation stays near 1), and by `json.loads` of the same text. The documents and
operations are those of bench/scale.mjs. Checks every result first; fails only on a wrong one.

    python bench/scale.py [--quick]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import statecore

QUICK = "--quick" in sys.argv
SIZES = {
    "records": [0.1, 1] if QUICK else [0.1, 0.5, 2, 3, 8],
    "nested": [0.1, 1] if QUICK else [0.1, 0.5, 1, 3],
}
SAMPLES = 1 if QUICK else 3


def record(i: int) -> dict[str, Any]:
    return {
        "id": f"run-{i}",
        "status": "working" if i % 3 else "needs_input",
        "summary": f"Implementing step {i} of the export endpoint; waiting on a decision",
        "progress": {"done": i % 17, "total": 17, "ratio": (i % 17) / 17},
        "tags": ["export", "api", f"t{i % 5}"],
    }


def document_of(shape: str, mib: float) -> dict[str, Any]:
    size = mib * 1024 * 1024
    if shape == "nested":
        return {"arr": [[[[1]]] for _ in range(round(size / 8))]}
    one = len(json.dumps(record(0), separators=(",", ":"))) + 1
    return {"runs": [record(i) for i in range(round(size / one))]}


def timed(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(SAMPLES):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times)


OPS: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    ("json.loads (reference)", lambda c: json.loads(c["text"])),
    ("parse", lambda c: statecore.parse(c["text"])),
    ("merge({}, doc)", lambda c: statecore.merge({}, c["doc"])),
    (
        "merge_text(bytes, patch)",
        lambda c: statecore.merge_text(c["bytes"], '{"extra": 1}'),
    ),
    (
        "apply_update(json, bytes, patch)",
        lambda c: statecore.apply_update("json", c["bytes"], {"extra": 1}, None, None),
    ),
]


def main() -> None:
    lines: list[str] = []
    for shape in ("records", "nested"):
        rows = []
        for mib in SIZES[shape]:
            doc = document_of(shape, mib)
            text = json.dumps(doc, separators=(",", ":"))
            c = {"doc": doc, "text": text, "bytes": text.encode()}
            want = {**doc, "extra": 1}
            checks = [
                statecore.parse(text) == doc,
                statecore.merge({}, doc) == doc,
                json.loads(statecore.merge_text(c["bytes"], '{"extra": 1}')) == want,
                statecore.apply_update("json", c["bytes"], {"extra": 1}, None, None)[
                    "document"
                ]
                == want,
            ]
            if not all(checks):
                sys.exit(f"scale.py: wrong result for {shape} {mib} MiB: {checks}")
            print(f"[scale] {shape} {mib} MiB", file=sys.stderr)
            rows.append(
                (mib, len(text), [timed(lambda fn=fn, c=c: fn(c)) for _, fn in OPS])
            )
        first = rows[0]
        lines += [f"### Scale, {shape} document (Python)", ""]
        head = " | ".join(
            f"{mib} MiB: per byte / at {first[0]} MiB, / json.loads"
            for mib, _, _ in rows
        )
        lines += [
            f"| operation | {head} |",
            "|---|" + "|".join("---" for _ in rows) + "|",
        ]
        for k, (name, _) in enumerate(OPS):
            cells = []
            for _, size, times in rows:
                growth = times[k] / size / (first[2][k] / first[1])
                cells.append(f"{growth:.2f}, {times[k] / times[0]:.2f}")
            lines.append(f"| {name} | {' | '.join(cells)} |")
        lines.append("")
        at3 = next((r for r in rows if r[0] == 3), rows[-1])
        worst = max(at3[2][k] / at3[2][0] for k in range(1, len(OPS)))
        last = rows[-1]
        growth = max(
            last[2][k] / last[1] / (first[2][k] / first[1]) for k in range(1, len(OPS))
        )
        lines += [
            (
                f"Key: **Python scale ({shape}): slowest call / json.loads at {at3[0]} MiB = "
                f"{worst:.2f}; largest growth of statecore's time per byte ({last[0]} MiB / "
                f"{first[0]} MiB) = {growth:.2f}**"
            ),
            "",
        ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
