"""``make demo``, part 6: a specify workflow (docs/specify.md) on a feature's directory. A
Python driver plays the stateless agents of seed 004: it scaffolds, writes the spec (an
artifact), validates (gaps found: two Critical, one Important, one Minor deferred at once), runs
two iterations of clarifications, lets one gap go stale and accepts it as a known gap, and
completes. A person's note added to index.md by hand survives every update, and an agent's
artifact with a ``../`` path is refused with nothing written. Prints the loop and the queue
after each step; fails (non-zero) on any step that goes wrong.
"""

from __future__ import annotations

import itertools
import os
import tempfile

from statecore import errors, specify

FEATURE = "005-user-auth"


MINUTES = itertools.count(1)


def clock() -> str:
    """The demo's clock: one minute per step, so the output is the same on every run."""
    return f"2026-11-24T10:{next(MINUTES):02d}:00Z"


def show(feature: str, title: str) -> None:
    """The loop state and the open queue, as a viewer would."""
    index = specify.read_index(feature)["document"]
    state = index["priority_loop_state"]
    print(
        f"-- {title}: {state['loop_status']}, iteration {state['current_iteration']} / "
        f"{state['max_iterations']}, stale {state['stale_count']} / {state['max_stale']}"
    )
    for gap in index.get("gap_priority_queue", []):
        clarification = gap.get("clarification") or "-"
        print(
            f"   {gap['id']} {gap['priority']:<9} {gap['status']:<10} stale {gap['stale']} "
            f"{clarification:<5} {gap.get('question')}"
        )


def main() -> None:
    root = tempfile.mkdtemp()
    feature = os.path.join(root, "specs", FEATURE)
    os.makedirs(feature)
    print("Part 6: a specify workflow on", feature)

    # A1: scaffold. The index is created, then a person adds a note by hand.
    specify.start(feature, clock())
    path = specify.index_path(feature)
    with open(path, "a", encoding="utf-8") as file:
        file.write("\n## Notes\n\nAsk Dana about SSO before iteration 3.\n")
    specify.apply_state_updates(
        feature,
        {
            "priority_loop_state": {"loop_status": "spec_writing"},
            "document_availability": {"index": "present", "spec": "template"},
        },
        clock(),
    )
    # A2: the spec writer returns its artifact; the driver applies it, then the state update.
    specify.apply_artifacts(
        feature,
        [
            {
                "operation": "create",
                "path": f"specs/{FEATURE}/spec.md",
                "content": "# User auth\n\nFR-001 ...\n",
            }
        ],
        FEATURE,
    )
    specify.apply_state_updates(
        feature,
        {
            "priority_loop_state": {"loop_status": "validating"},
            "document_availability": {"spec": "present"},
        },
        clock(),
    )
    # A3: validation finds gaps (the Minor one is deferred at once).
    gaps = [
        {
            "priority": "Critical",
            "chk_source": "CHK015",
            "fr_reference": "FR-003",
            "question": "What does a failed login show?",
        },
        {
            "priority": "Critical",
            "chk_source": "CHK016",
            "fr_reference": "FR-003",
            "question": "How many attempts before lockout?",
        },
        {
            "priority": "Important",
            "chk_source": "CHK022",
            "fr_reference": "FR-007",
            "question": "Session timeout?",
        },
        {
            "priority": "Minor",
            "chk_source": "CHK030",
            "fr_reference": "FR-012",
            "question": "Button color?",
        },
    ]
    specify.add_gaps(feature, gaps, clock())
    show(feature, "validation found gaps")

    # B1, iteration 1: the clarifications (FR-003's two gaps asked together as C1.1).
    asked = specify.start_clarifying(feature, clock())["result"]["clarifications"]
    assert [(c["id"], c["gaps"]) for c in asked] == [
        ("C1.1", ["G-001", "G-002"]),
        ("C1.2", ["G-003"]),
    ], asked
    show(feature, "iteration 1: clarifications presented")
    # The user answers C1.1; the answer to C1.2 does not settle G-003 (back to pending).
    answers = {
        "priority_loop_state": {"loop_status": "validating"},
        "gap_priority_queue": [
            {"id": "G-001", "status": "resolved"},
            {"id": "G-002", "status": "resolved"},
            {"id": "G-003", "status": "pending"},
        ],
        "gap_resolution_history": [
            {
                "gap_id": "G-001",
                "action": "resolved",
                "details": "Inline error, no account hint",
            },
            {
                "gap_id": "G-002",
                "action": "resolved",
                "details": "5 attempts, then 15 minutes",
            },
        ],
    }
    specify.apply_state_updates(feature, answers, clock())
    ended = specify.end_iteration(feature, clock())["result"]["termination"]
    assert ended["outcome"] == "continue", ended
    show(feature, "iteration 1 ended")

    # Iterations 2 and 3: G-003 stays open; a warning at 2, stale at 3.
    for iteration in (2, 3):
        specify.start_clarifying(feature, clock())
        specify.apply_state_updates(
            feature,
            {
                "priority_loop_state": {"loop_status": "validating"},
                "gap_priority_queue": [{"id": "G-003", "status": "pending"}],
            },
            clock(),
        )
        ended = specify.end_iteration(feature, clock())["result"]["termination"]
        print(
            f"   iteration {iteration}: {ended['outcome']}, warnings {ended['warning_gaps']}, stale {ended['stale_gaps']}"
        )
    assert ended["outcome"] == "stale" and ended["stale_gaps"] == ["G-003"], ended
    show(feature, "G-003 is stale: escalated to the user")

    # The user accepts G-003 as a known gap; the next check completes the loop.
    specify.set_gap_status(
        feature, "G-003", "known_gap", clock(), "Accepted: decided per tenant later"
    )
    ended = specify.end_iteration(feature, clock())["result"]["termination"]
    assert ended["outcome"] == "success", ended
    show(feature, "completed")
    assert specify.resume_point(feature)["action"] == "done"

    # An agent's artifact that would write outside the feature is refused; nothing is written.
    before = sorted(os.listdir(feature))
    try:
        specify.apply_artifacts(
            feature,
            [
                {"operation": "update", "path": "spec.md", "content": "overwritten\n"},
                {"operation": "create", "path": "../../escape.md", "content": "evil\n"},
            ],
        )
        raise SystemExit("the ../ artifact was not refused")
    except errors.PathUnsafeError as error:
        print(f"   refused: {error.message}")
    assert sorted(os.listdir(feature)) == before
    with open(os.path.join(feature, "spec.md"), encoding="utf-8") as file:
        assert file.read().startswith("# User auth"), "spec.md was changed"
    assert not os.path.exists(os.path.join(root, "escape.md"))

    with open(path, encoding="utf-8") as file:
        text = file.read()
    assert "Ask Dana about SSO before iteration 3." in text, (
        "the person's note was lost"
    )
    print("-- index.md (its queue, as people read it):")
    start = text.index("## Gap Priority Queue")
    print(text[start : text.index("## Gap Resolution History")].rstrip())
    print("specify demo ok")


if __name__ == "__main__":
    main()
