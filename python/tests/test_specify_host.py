"""``statecore.specify`` on a feature's directory (docs/specify.md § Files): the index's
helpers rewrite index.md in place (untouched lines byte for byte, people's edits kept), a
broken index.md is refused and never replaced, and ``apply_artifacts`` writes an agent's files
only when the whole batch is safe. npm/test/specify_host.test.mjs is its twin; the
cross-language writers are in npm/test/specify_concurrency.test.mjs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from statecore import errors, specify

NOW = "2026-11-24T12:00:00Z"


def feature(tmp_path: Path) -> Path:
    directory = tmp_path / "specs" / "005-user-auth"
    directory.mkdir(parents=True)
    return directory


def test_a_workflow_on_a_feature_directory(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    started = specify.start(directory, NOW)
    assert started["changed"] is True
    assert started["result"]["resume"]["action"] == "scaffold"
    index_md = Path(specify.index_path(directory))
    assert index_md.read_text().startswith("# Feature Index\n")
    specify.set_loop_status(directory, "spec_writing", NOW)
    specify.set_loop_status(directory, "validating", NOW)
    gaps = [
        {
            "priority": "Critical",
            "chk_source": "CHK001",
            "fr_reference": "FR-001",
            "question": "Which auth?",
        },
        {
            "priority": "Minor",
            "chk_source": "CHK002",
            "fr_reference": "FR-002",
            "question": "Color?",
        },
    ]
    specify.add_gaps(directory, gaps, NOW)
    # A person edits the file by hand: a note and a column width of their own.
    text = index_md.read_text()
    text = text.replace("## Gap Priority Queue\n", "## Gap Priority Queue\n\nEdited by hand.\n")
    index_md.write_text(text)
    asked = specify.start_clarifying(directory, NOW)
    assert [c["id"] for c in asked["result"]["clarifications"]] == ["C1.1"]
    after = index_md.read_text()
    assert "Edited by hand.\n" in after
    assert "| Critical | G-001 | CHK001 | FR-001 | Which auth? | clarifying | 0 | C1.1 |" in after
    assert "| Minor | G-002 | CHK002 | FR-002 | Color? | deferred | 0 | - |" in after
    read = specify.read_index(directory)
    assert read["document"]["priority_loop_state"]["loop_status"] == "clarifying"
    assert specify.resume_point(directory)["action"] == "collect_answers"


def test_a_broken_index_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    specify.start(directory, NOW)
    index_md = Path(specify.index_path(directory))
    broken = (
        index_md.read_text() + "\n## Gap Priority Queue 2\n\n| A | B |\n|---|---|\n| 1 | 2 | 3 |\n"
    )
    index_md.write_text(broken)
    with pytest.raises(errors.ParseError) as raised:
        specify.set_loop_status(directory, "spec_writing", NOW)
    assert raised.value.details["line"] == broken.count("\n")
    assert index_md.read_text() == broken
    assert specify.read_index(directory)["warnings"][0]["code"] == "W_UNPARSEABLE"


def test_artifacts_are_written_atomically_and_checked_as_a_batch(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    (directory / "old.md").write_text("old\n")
    applied = specify.apply_artifacts(
        directory,
        [
            {"operation": "create", "path": "specs/005-user-auth/spec.md", "content": "# Spec\n"},
            {
                "operation": "update",
                "path": "checklists/requirements.md",
                "content": "- [ ] CHK001\n",
            },
            {"operation": "delete", "path": "old.md"},
            {"operation": "delete", "path": "never.md"},
        ],
        "005-user-auth",
    )
    assert [a["result"] for a in applied] == ["written", "written", "deleted", "absent"]
    assert (directory / "spec.md").read_text() == "# Spec\n"
    assert (directory / "checklists" / "requirements.md").read_text() == "- [ ] CHK001\n"
    assert not (directory / "old.md").exists()
    assert not [n for n in os.listdir(directory) if ".tmp-" in n]


@pytest.mark.parametrize(
    "path",
    ["../escape.md", "/etc/passwd", "a/../../x.md", ".workflow/index.md", "c:\\x.md", "x\u001b.md"],
)
def test_a_refused_path_refuses_the_whole_batch(tmp_path: Path, path: str) -> None:
    directory = feature(tmp_path)
    batch = [
        {"operation": "create", "path": "spec.md", "content": "first\n"},
        {"operation": "create", "path": path, "content": "evil\n"},
    ]
    with pytest.raises(errors.PathUnsafeError) as raised:
        specify.apply_artifacts(directory, batch)
    assert raised.value.path == "/1/path"
    assert isinstance(raised.value, ValueError)
    assert os.listdir(directory) == []
    assert not (tmp_path / "specs" / "escape.md").exists()


def test_a_symbolic_link_on_the_way_is_refused(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (directory / "checklists").symlink_to(outside, target_is_directory=True)
    (directory / "spec.md").symlink_to(outside / "target.md")
    for path in ["checklists/requirements.md", "spec.md"]:
        batch = [
            {"operation": "create", "path": "fine.md", "content": "x"},
            {"operation": "update", "path": path, "content": "evil"},
        ]
        with pytest.raises(errors.PathUnsafeError) as raised:
            specify.apply_artifacts(directory, batch)
        assert raised.value.details == {"path": path, "reason": "symlink"}
    assert os.listdir(outside) == []
    assert not (directory / "fine.md").exists()


def test_a_file_where_a_directory_must_be_is_refused(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    (directory / "checklists").write_text("a file\n")
    with pytest.raises(errors.FileTypeError):
        specify.apply_artifacts(
            directory, [{"operation": "create", "path": "checklists/x.md", "content": "x"}]
        )
    assert (directory / "checklists").read_text() == "a file\n"


def test_the_seeds_gap_rules_on_a_feature_directory(tmp_path: Path) -> None:
    directory = feature(tmp_path)
    index_md = directory / ".workflow" / "index.md"
    specify.start(directory, NOW)
    specify.set_loop_status(directory, "spec_writing", NOW)
    specify.set_loop_status(directory, "validating", NOW)
    gap = {"priority": "Critical", "fr_reference": "FR-001", "question": "Which auth?"}
    specify.add_gaps(directory, [{**gap, "status": "resolved", "stale": 2}], NOW)
    before = index_md.read_text()
    assert "| Critical | G-001 | - | FR-001 | Which auth? | pending | 0 | - |" in before
    with pytest.raises(errors.TransitionError) as raised:
        specify.set_gap_status(directory, "G-001", "deferred", NOW)
    assert raised.value.path == "/gap_priority_queue/0/status"
    assert raised.value.details["gap"] == "G-001"
    assert index_md.read_text() == before
    # A person writes a status statecore does not know: the check never counts it as closed.
    index_md.write_text(before.replace("| Which auth? | pending |", "| Which auth? | done |"))
    edited = index_md.read_text()
    with pytest.raises(errors.UsageError) as refused:
        specify.check_termination(directory)
    assert (refused.value.code, refused.value.path) == (
        "E_ARGUMENT",
        "/gap_priority_queue/0/status",
    )
    with pytest.raises(errors.UsageError) as refused:
        specify.end_iteration(directory, NOW)
    assert refused.value.details["status"] == "done"
    assert index_md.read_text() == edited


@pytest.mark.parametrize(
    "path",
    [
        "specs/005-user-auth",
        "specs/005-user-auth/",
        "specs/005-user-auth/.",
        "specs/005-user-auth//",
    ],
)
def test_the_feature_directory_itself_is_refused_as_an_artifact(tmp_path: Path, path: str) -> None:
    directory = feature(tmp_path)
    with pytest.raises(errors.PathUnsafeError) as raised:
        specify.apply_artifacts(
            directory, [{"operation": "create", "path": path, "content": "x"}], "005-user-auth"
        )
    assert raised.value.path == "/0/path"
    assert raised.value.details["reason"] == "empty"
    assert os.listdir(directory) == []
