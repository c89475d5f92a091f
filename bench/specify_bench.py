"""Bench Python, issue 13: the seed's "After Answer Application" on an index.md of 1,000 gaps
(parse + update + render of the markdown), statecore against a regex/markdown-table update
(bench/specify_reference.py). statecore's update is the one crossing a locked file update makes
(``update_file``: the file's bytes in; the merge, the machines' checks, validation and the text
out) and the pure functions in turn (``parse_index``, ``apply_state_updates``,
``render_index``). Both must write the same bytes (checked before timing). Prints a markdown
fragment on stdout (bench/run.sh puts it in RESULTS.md); never fails on speed.

    .venv/bin/python bench/specify_bench.py [--quick]
"""

from __future__ import annotations

from pathlib import Path

import specify_reference as reference
import statecore
from pylib import Case, compare, fail, log, table
from statecore import specify

NOW = "2026-11-24T12:00:00Z"
ANSWERS = {"G-002": "Stream it", "G-005": "UTF-8 only", "G-008": "30 days"}
UPDATES = {
    "gap_resolution_history": [
        {"gap_id": gap, "action": "resolved", "details": answer}
        for gap, answer in ANSWERS.items()
    ],
    "gap_priority_queue": [{"id": gap, "status": "resolved"} for gap in ANSWERS],
    "priority_loop_state": {"current_iteration": 5},
}


FIXTURE = Path(__file__).parent / "fixtures" / "specify_index_1000.md"


def main() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    if text != reference.fixture():
        fail(
            "specify fixture",
            f"{FIXTURE} is not specify_reference.fixture(): write it again",
        )
    data = text.encode()

    def one_crossing() -> str:
        return statecore.update_file(
            "specify.index", "specify_apply_state_updates", data, (UPDATES,), now=NOW
        )["text"]

    def pure_steps() -> str:
        index = specify.apply_state_updates(specify.parse_index(text), UPDATES, NOW)
        return specify.render_index(text, index)

    def regex() -> str:
        return reference.update(text, ANSWERS, NOW)

    expected = regex()
    for name, fn in (("update_file", one_crossing), ("pure steps", pure_steps)):
        if fn() != expected:
            fail(f"specify {name}", "does not write the reference's bytes")
    if (
        text.splitlines()[0] != expected.splitlines()[0]
        or expected.count("\n") != text.count("\n") + 3
    ):
        fail("specify reference", "changed more than the update")
    log("specify: 1,000 gaps")
    cases = compare(
        [
            Case("statecore update_file (one crossing)", one_crossing, statecore=True),
            Case(
                "statecore parse_index + apply_state_updates + render_index",
                pure_steps,
                statecore=True,
            ),
            Case("regex / markdown-table update (no validation)", regex),
        ]
    )
    print(
        table(
            "Python specify (13)",
            f"The seed's After Answer Application on an index.md of 1,000 gaps ({len(data):,} "
            "bytes): 3 gaps resolved, 3 history rows, the iteration advanced; the text in, the "
            "new text out, the same bytes from every implementation.",
            cases,
        )
    )


if __name__ == "__main__":
    main()
