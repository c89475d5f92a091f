"""The alternative a Python workflow driver writes today for bench/specify_bench.py: index.md
updated with regular expressions over its markdown tables (split on unescaped pipes, cells
trimmed, a changed row written ``| a | b |``), no validation. The update is the seed's "After
Answer Application": some gaps resolved by id, their history rows appended, the iteration
advanced and Last Activity set. Also writes the bench's index.md of 1,000 gaps (``fixture``).
"""

from __future__ import annotations

import re

PIPE = re.compile(r"(?<!\\)\|")
HEADING = re.compile(r"^#{1,2} (.*)$")


def fixture(gaps: int = 1000) -> str:
    """An index.md in the seed's form: the loop state, ``gaps`` gaps, a created history row
    each, a traceability row per 4 gaps."""
    priorities = ["Critical", "Important", "Minor"]
    statuses = ["pending", "clarifying", "resolved", "deferred"]
    out = [
        "# Feature Index: 042-bulk-export\n\n## Priority Loop State\n\n| Field | Value |\n|-------|-------|\n",
        "| **Loop Status** | clarifying |\n| **Current Iteration** | 4 / 10 |\n",
        "| **Last Activity** | 2026-11-20T10:00:00Z |\n| **Stale Count** | 0 / 3 |\n",
        "| **Termination Reason** | null |\n",
        f"| **Deferred Minor Gaps** | {sum(1 for i in range(gaps) if i % 3 == 2 and i % 4 == 3)} |\n\n",
        "## Gap Priority Queue\n\n",
        "| Priority | Gap ID | CHK Source | FR Reference | Question | Status | Stale | Clarification |\n",
        "|----------|--------|------------|--------------|----------|--------|-------|---------------|\n",
    ]
    for i in range(gaps):
        priority = priorities[i % 3]
        status = "deferred" if priority == "Minor" and i % 4 == 3 else statuses[i % 3]
        clarification = f"C{i % 4 + 1}.{i % 3 + 1}" if status != "deferred" else "-"
        out.append(
            f"| {priority} | G-{i + 1:03d} | CHK{i % 97:03d} | FR-{i // 4:03d} | "
            f"What about case {i} \\| variant {i % 7}? | {status} | {i % 3} | {clarification} |\n"
        )
    out.append(
        "\n## Gap Resolution History\n\n| Gap ID | Iteration | Action | Details | Timestamp |\n"
    )
    out.append("|--------|-----------|--------|---------|-----------|\n")
    for i in range(gaps):
        out.append(
            f"| G-{i + 1:03d} | 1 | created | From CHK{i % 97:03d} validation | 2026-11-20T09:00:00Z |\n"
        )
    out.append(
        "\n## Traceability Matrix\n\n| FR ID | CHK IDs | Coverage Status | Gap IDs | Notes |\n"
    )
    out.append("|-------|---------|-----------------|---------|-------|\n")
    for f in range(gaps // 4):
        ids = ", ".join(f"G-{4 * f + k + 1:03d}" for k in range(4))
        out.append(f"| FR-{f:03d} | CHK{f % 97:03d} | Gap Found | {ids} | - |\n")
    out.append("\n## Notes\n\nKept by hand.\n")
    return "".join(out)


def cells(line: str) -> list[str]:
    """A row's cells: split on unescaped pipes, outer pipes dropped, trimmed, ``\\|`` read."""
    parts = PIPE.split(line.strip())
    if line.strip().startswith("|"):
        parts = parts[1:]
    if line.strip().endswith("|"):
        parts = parts[:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def row(values: list[str]) -> str:
    return "| " + " | ".join(v.replace("|", "\\|") for v in values) + " |\n"


def update(text: str, resolved: dict[str, str], now: str) -> str:
    """The update: each gap of ``resolved`` (id → answer) ``resolved``, a history row each at
    the current iteration, then the iteration advanced and Last Activity set to ``now``."""
    lines = text.splitlines(keepends=True)
    section = ""
    iteration = 1
    history_end = None
    for i, line in enumerate(lines):
        heading = HEADING.match(line.rstrip("\n"))
        if heading:
            section = heading.group(1).strip().lower()
            continue
        if "|" not in line or line.startswith("|-"):
            continue
        c = cells(line)
        if section == "priority loop state" and c[0].strip("*") == "Current Iteration":
            number, maximum = (p.strip() for p in c[1].split("/"))
            iteration = int(number)
            lines[i] = row([c[0], f"{iteration + 1} / {maximum}"])
        elif section == "priority loop state" and c[0].strip("*") == "Last Activity":
            lines[i] = row([c[0], now])
        elif (
            section == "gap priority queue" and c[1] in resolved and c[5] != "resolved"
        ):
            c[5] = "resolved"
            lines[i] = row(c)
        elif section == "gap resolution history":
            history_end = i
    assert history_end is not None
    added = [
        row([gap, str(iteration), "resolved", answer, now])
        for gap, answer in resolved.items()
    ]
    lines[history_end + 1 : history_end + 1] = added
    return "".join(lines)
