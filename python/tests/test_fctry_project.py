"""statecore.fctry over a project directory: every operation given a path instead of a document
works on ``<project>/.fctry/state.json`` (``inbox.json`` for ``inbox_*``) under the lock.

The reference for each call is the native core function applied to the file's previous
contents with the same arguments, so a helper that drops or reorders an argument fails here.
Times are fixed (``now`` given), so every expected document is exact.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fctry_project_checks import (
    NOW,
    PLAN,
    Project,
    at,
    check_read,
    check_write,
    on_disk,
    state_file,
)

import statecore
from statecore import _statecore as core
from statecore import fctry

# --- paths and reads -------------------------------------------------------------------------


def test_paths(tmp_path: Path) -> None:
    assert fctry.state_path(tmp_path) == str(tmp_path / ".fctry" / "state.json")
    assert fctry.state_path(str(tmp_path)) == str(tmp_path / ".fctry" / "state.json")
    assert fctry.inbox_path(tmp_path) == str(tmp_path / ".fctry" / "inbox.json")
    assert fctry.inbox_path(str(tmp_path)) == str(tmp_path / ".fctry" / "inbox.json")


def test_read_missing_files_gives_defaults_without_warnings(tmp_path: Path) -> None:
    state = fctry.read_state(tmp_path)
    assert state["document"] == {}
    assert state["etag"] is None
    assert state["warnings"] == []
    assert state["corrupt"] is False
    inbox = fctry.read_inbox(str(tmp_path))
    assert inbox["document"] == []
    assert inbox["etag"] is None
    assert inbox["warnings"] == []
    # Readers (also the operations that only read) never create anything.
    assert fctry.status_line(tmp_path) == core.call("fctry_status_line", ({},))
    assert fctry.ready_chunks(tmp_path) == []
    assert list(tmp_path.iterdir()) == []


def test_read_unparseable_state(tmp_path: Path) -> None:
    file = state_file(tmp_path)
    file.parent.mkdir()
    file.write_bytes(b'{"currentCommand": "init",')
    read = fctry.read_state(tmp_path)
    assert read["document"] == {}
    assert read["corrupt"] is True
    assert [w["code"] for w in read["warnings"]] == ["W_UNPARSEABLE"]
    assert read["etag"] == statecore.etag(file.read_bytes())
    assert file.read_bytes() == b'{"currentCommand": "init",'
    assert fctry.status_line(tmp_path) == core.call("fctry_status_line", ({},))


def test_writer_keeps_a_copy_of_an_unparseable_state(tmp_path: Path) -> None:
    garbage = b"\x00not json at all"
    file = state_file(tmp_path)
    file.parent.mkdir()
    file.write_bytes(garbage)
    result = fctry.start_command(tmp_path, "init", NOW)
    assert result["document"] == core.call(
        "fctry_start_command",
        (
            {},
            "init",
            NOW,
        ),
    )
    assert on_disk(file) == result["document"]
    copy = result["corrupt_copy"]
    assert copy is not None
    assert Path(copy).parent == file.parent
    assert Path(copy).name.startswith("state.json.corrupt-")
    assert Path(copy).read_bytes() == garbage
    assert "W_CORRUPT_COPY" in [w["code"] for w in result["warnings"]]
    assert sorted(p.name for p in file.parent.iterdir()) == sorted(["state.json", Path(copy).name])


# --- update_state ----------------------------------------------------------------------------


def test_update_state_patch_merges_shallow_and_stamps(tmp_path: Path) -> None:
    section = {"activeSection": "#core", "activeSectionNumber": "2.1"}
    result = fctry.update_state(tmp_path, {"specVersion": "1.0", **section}, NOW)
    assert state_file(tmp_path).is_file()  # .fctry/ created
    assert result["document"] == {"specVersion": "1.0", **section, "lastUpdated": NOW}
    assert result["changed"] is True

    later = at(9)
    patch = {"activeSection": None, "activeSectionNumber": None, "readinessSummary": {"aligned": 3}}
    result = fctry.update_state(str(tmp_path), patch, later)
    # Top-level fields replaced (not merged deeper), None kept as "cleared", the rest kept in
    # place, lastUpdated stamped with exactly the given time.
    assert result["document"] == {
        "specVersion": "1.0",
        "activeSection": None,
        "activeSectionNumber": None,
        "lastUpdated": later,
        "readinessSummary": {"aligned": 3},
    }
    assert list(result["document"]) == [
        "specVersion",
        "activeSection",
        "activeSectionNumber",
        "lastUpdated",
        "readinessSummary",
    ]
    assert on_disk(state_file(tmp_path)) == result["document"]

    ms = statecore.parse_timestamp(at(30))
    result = fctry.update_state(tmp_path, {"readinessSummary": {"ready": 1}}, ms)
    assert result["document"]["lastUpdated"] == at(30)
    assert result["document"]["readinessSummary"] == {"ready": 1}


def test_update_state_function_is_not_stamped(tmp_path: Path) -> None:
    fctry.update_state(tmp_path, {"specVersion": "1.0"}, NOW)
    result = fctry.update_state(tmp_path, lambda state: {**state, "specVersion": "1.1"})
    assert result["document"] == {"specVersion": "1.1", "lastUpdated": NOW}
    assert on_disk(state_file(tmp_path)) == result["document"]
    with pytest.raises(TypeError, match="now"):
        fctry.update_state(tmp_path, lambda state: state, NOW)


def test_update_state_function_creates_the_directory(tmp_path: Path) -> None:
    result = fctry.update_state(tmp_path / "new", lambda state: {"specVersion": "0.1"})
    assert result["document"] == {"specVersion": "0.1"}
    assert on_disk(state_file(tmp_path / "new")) == {"specVersion": "0.1"}


# --- the workflow on a project directory -----------------------------------------------------


def chunk_event(file: Path, project: Project, id: int, event: str, now: str) -> None:
    check_write(
        file,
        lambda: fctry.chunk_event(project, id, event, now),
        lambda d: core.call(
            "fctry_chunk_event",
            (
                d,
                id,
                event,
                now,
            ),
        ),
    )


def test_milestones_on_a_project_directory(tmp_path: Path) -> None:
    file = state_file(tmp_path)
    # Alternate str and pathlib.Path: both name a project directory.
    p: Project = tmp_path
    s: Project = str(tmp_path)

    check_write(
        file,
        lambda: fctry.start_command(p, "evolve", at(1)),
        lambda d: core.call(
            "fctry_start_command",
            (
                d,
                "evolve",
                at(1),
            ),
        ),
    )
    check_write(
        file,
        lambda: fctry.start_step(s, "state-owner-scan", at(2)),
        lambda d: core.call(
            "fctry_start_step",
            (
                d,
                "state-owner-scan",
                at(2),
            ),
        ),
    )
    assert on_disk(file)["workflowStep"] == "state-owner-scan"
    output = {"summary": "scanned 12 files", "relevanceManifest": ["spec.md"]}
    check_write(
        file,
        lambda: fctry.complete_step(p, "state-owner-scan", output, at(3)),
        lambda d: core.call(
            "fctry_complete_step",
            (
                d,
                "state-owner-scan",
                output,
                at(3),
            ),
        ),
    )
    assert on_disk(file)["agentOutputs"] == {"state-owner-scan": output}

    report = check_read(
        file,
        lambda: fctry.check_prerequisites(s, "spec-writer", "evolve"),
        lambda d: core.call(
            "fctry_check_prerequisites",
            (
                d,
                "spec-writer",
                "evolve",
            ),
        ),
    )
    assert report["ok"] is False
    check_write(
        file,
        lambda: fctry.skip_prerequisites(p, "spec-writer", "evolve", at(4)),
        lambda d: core.call(
            "fctry_skip_prerequisites",
            (
                d,
                "spec-writer",
                "evolve",
                at(4),
            ),
        ),
    )
    assert on_disk(file)["skippedPrerequisites"][0]["agent"] == "spec-writer"
    # Nothing missing: the state is returned unchanged and the file is not rewritten.
    unchanged = check_write(
        file,
        lambda: fctry.skip_prerequisites(s, "interviewer", "evolve", at(5)),
        lambda d: core.call(
            "fctry_skip_prerequisites",
            (
                d,
                "interviewer",
                "evolve",
                at(5),
            ),
        ),
    )
    assert unchanged["changed"] is False

    change = {"file": "src/core.js", "section": "#core", "sectionNumber": "2.1"}
    check_write(
        file,
        lambda: fctry.add_untracked_change(s, change, at(6)),
        lambda d: core.call(
            "fctry_add_untracked_change",
            (
                d,
                change,
                at(6),
            ),
        ),
    )
    other = {"file": "src/flow.js", "section": "flow"}
    check_write(
        file,
        lambda: fctry.add_untracked_change(p, other, at(7)),
        lambda d: core.call(
            "fctry_add_untracked_change",
            (
                d,
                other,
                at(7),
            ),
        ),
    )
    check_write(
        file,
        lambda: fctry.clear_untracked_changes(p, ["core"], at(8)),
        lambda d: core.call(
            "fctry_clear_untracked_changes",
            (
                d,
                ["core"],
                at(8),
            ),
        ),
    )
    assert [c["file"] for c in on_disk(file)["untrackedChanges"]] == ["src/flow.js"]

    check_write(
        file,
        lambda: fctry.create_build_run(s, PLAN, at(10)),
        lambda d: core.call(
            "fctry_create_build_run",
            (
                d,
                PLAN,
                at(10),
            ),
        ),
    )
    assert check_read(
        file, lambda: fctry.ready_chunks(p), lambda d: core.call("fctry_ready_chunks", (d,))
    ) == [1, 2]
    check_read(file, lambda: fctry.dag_layers(s), lambda d: core.call("fctry_dag_layers", (d,)))

    events: list[tuple[int, str, str]] = [
        (1, "start", at(11)),
        (1, "fail", at(12)),
        (2, "start", at(13)),
        (1, "complete", at(14)),
    ]
    for id, event, when in events:
        chunk_event(file, p, id, event, when)
    run = on_disk(file)["buildRun"]
    assert [c["status"] for c in run["chunks"]] == ["completed", "active", "planned"]
    assert run["chunks"][0]["attempt"] == 2
    assert run["lastCheckpoint"] == at(14)

    question = {"question": "Keep the old flow?", "options": ["yes", "no"]}
    check_write(
        file,
        lambda: fctry.pause_build_run(s, question, at(15)),
        lambda d: core.call(
            "fctry_pause_build_run",
            (
                d,
                question,
                at(15),
            ),
        ),
    )
    line = check_read(
        file, lambda: fctry.status_line(p), lambda d: core.call("fctry_status_line", (d,))
    )
    assert line["command"] == "evolve"
    check_write(
        file,
        lambda: fctry.resume_build_run(p, at(16)),
        lambda d: core.call(
            "fctry_resume_build_run",
            (
                d,
                at(16),
            ),
        ),
    )
    check_read(file, lambda: fctry.status_line(s), lambda d: core.call("fctry_status_line", (d,)))
    plan = check_read(
        file,
        lambda: fctry.resume_plan(p, "1.1"),
        lambda d: core.call(
            "fctry_resume_plan",
            (
                d,
                "1.1",
            ),
        ),
    )
    assert plan["offer"] is True
    assert [chunk["id"] for chunk in plan["changed"]] == [1]
    boundary = [{"kind": "context-boundary", "timestamp": at(17), "chunk": 2, "summary": "x"}]
    check_read(
        file,
        lambda: fctry.context_health(s, boundary),
        lambda d: core.call(
            "fctry_context_health",
            (
                d,
                boundary,
            ),
        ),
    )

    chunk_event(file, s, 2, "complete", at(18))
    chunk_event(file, p, 3, "start", at(19))
    chunk_event(file, s, 3, "complete", at(20))
    check_write(
        file,
        lambda: fctry.finish_build_run(p, at(21)),
        lambda d: core.call(
            "fctry_finish_build_run",
            (
                d,
                at(21),
            ),
        ),
    )
    final = on_disk(file)
    assert final["buildRun"] is None
    assert final["lastUpdated"] == at(21)
    report = statecore.validate("fctry.state", final)
    assert report["valid"] is True, report
    # No lock, temp or corrupt files left behind.
    assert [entry.name for entry in file.parent.iterdir()] == ["state.json"]


def test_now_none_reads_the_host_clock_per_call_under_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake clock, 1 ms further at each reading, that notes whether the lock was held."""
    lock = Path(fctry.state_path(tmp_path) + ".lock")
    readings: list[tuple[int, bool]] = []
    base_ms = statecore.parse_timestamp(NOW)

    def fake_time_ns() -> int:
        ms = base_ms + len(readings)
        readings.append((ms, lock.exists()))
        return ms * 1_000_000

    monkeypatch.setattr(time, "time_ns", fake_time_ns)
    stamps = []
    for step in ("interviewer", "researcher"):
        result = fctry.start_step(tmp_path, step)
        stamps.append(statecore.parse_timestamp(result["document"]["lastUpdated"]))
    monkeypatch.undo()
    locked = [ms for ms, held in readings if held]
    assert stamps[0] in locked
    assert stamps[1] in locked
    assert stamps[0] < stamps[1]
    assert statecore.parse_timestamp(on_disk(state_file(tmp_path))["lastUpdated"]) == stamps[1]


def test_timeout_applies_to_a_project_directory_only(tmp_path: Path) -> None:
    result = fctry.start_step(tmp_path, "interviewer", NOW, timeout=5.0)
    assert result["document"]["workflowStep"] == "interviewer"
    with pytest.raises(TypeError, match="timeout"):
        fctry.start_step({}, "interviewer", NOW, timeout=5.0)  # type: ignore[call-overload]
