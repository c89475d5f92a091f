"""The before/after rows of `make bench` for a protocol helper's update (issue 9: one
crossing per update): this tree against a baseline build (bench/baseline.sh), in Node and
Python, each measured in its own processes, interleaved round by round.

    python helper_compare.py <baseline dir> <baseline commit> [--quick]

Prints the markdown sections (with their ``Key:`` lines) for bench/RESULTS.md; exits 1 when a
measuring process fails or reports a wrong result."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def fmt(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def measure(command: list[str]) -> list[float]:
    done = subprocess.run(command, cwd=HERE, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed:\n{done.stderr}")
    times: list[float] = json.loads(done.stdout)["times"]
    return times


def section(title: str, note: str, rows: dict[str, list[float]], key: str) -> str:
    after, before = rows
    medians = {name: statistics.median(times) for name, times in rows.items()}
    lines = [f"### {title}", "", note, ""]
    lines += [
        f"| implementation | median per op | range of samples | ratio `{after}` / this |",
        "|---|---|---|---|",
    ]
    for name, times in rows.items():
        ratio = "" if name == after else f"{medians[after] / medians[name]:.2f}"
        shown = f"**{name}**" if name == after else name
        spread = f"{fmt(min(times))} .. {fmt(max(times))} (n={len(times)})"
        lines.append(f"| {shown} | {fmt(medians[name])} | {spread} | {ratio} |")
    ratio = medians[after] / medians[before]
    lines += [
        "",
        (
            f"Key: **{key}: after / before = {ratio:.2f}** ({after}, {fmt(medians[after])}; "
            f"{before}, {fmt(medians[before])})"
        ),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    baseline, commit = Path(sys.argv[1]), sys.argv[2]
    quick = "--quick" in sys.argv
    rounds = 1 if quick else 4
    plans = [
        ("locked", 3 if quick else 5, 20 if quick else 100),
        ("memory", 3 if quick else 5, 200 if quick else 2000),
    ]
    node = {
        "after": str(ROOT / "npm"),
        "before": str(baseline / "src" / "npm"),
    }
    python = {"after": "-", "before": str(baseline / "py")}
    out = []
    for language, runner, where in (
        ("Node", ["node", "helper_bench.mjs"], node),
        ("Python", [PYTHON, "helper_bench.py"], python),
    ):
        for mode, samples, ops in plans:
            rows: dict[str, list[float]] = {}
            names = {
                "after": f"statecore now (one crossing per update){' + locked file I/O' if mode == 'locked' else ''}",
                "before": f"statecore {commit} (before the operation table: four crossings)",
            }
            for _ in range(rounds):
                for which in ("after", "before"):
                    times = measure([*runner, mode, where[which], str(samples), str(ops)])
                    rows.setdefault(names[which], []).extend(times)
            out.append((language, mode, rows))
    number = {"Node": 9, "Python": 5}
    for language, mode, rows in out:
        helper = "fctry.startStepSync(projectDir" if language == "Node" else "fctry.start_step(project_dir"
        if mode == "locked":
            title = f"{language} ({number[language]}): a protocol helper's locked update, before and after"
            note = (
                f"`{helper}, step, now)` on a project directory holding the seed's example "
                "`.fctry/state.json` (447 bytes): take the lock, read, update, validate, write "
                "atomically (fsync), release. Each process runs one build; processes alternate, "
                "round by round. The file I/O (fsync) dominates both."
            )
            key = f"{language} ({number[language]})"
        else:
            title = f"{language} ({number[language]}b): the same update without I/O, before and after"
            note = (
                "What the helper asks of the core for one update of those bytes: now "
                "`update_file` (one crossing: one parse, one validation, one serialization); "
                "before, `load_document`, `check_if_match`, `fctry_start_step` and "
                "`finish_update` (four crossings, the bytes parsed and validated twice)."
            )
            key = f"{language} ({number[language]}b)"
        print(section(title, note, rows, key))


main()
