"""statecore.fctry from Python: the host clock when ``now`` is omitted, argument errors, and
the shapes the corpus (tests/conformance/fctry/) does not need to repeat."""

from __future__ import annotations

import time
from typing import Any

import pytest

import statecore
from statecore import fctry

NOW = "2026-01-02T03:04:05.678Z"


def stamped_ms(state: dict[str, Any]) -> int:
    return statecore.parse_timestamp(state["lastUpdated"])


def clock_ms() -> int:
    return time.time_ns() // 1_000_000


START = clock_ms()


def assert_current(ms: int) -> None:
    """Stamped by the host clock: not before this module loaded, not after now."""
    end = clock_ms()
    assert START <= ms <= end, (START, ms, end)


def test_exported() -> None:
    assert "fctry" in statecore.__all__
    assert statecore.fctry is fctry
    assert sorted(fctry.__all__) == [
        "add_untracked_change",
        "check_prerequisites",
        "clear_untracked_changes",
        "complete_step",
        "skip_prerequisites",
        "start_command",
        "start_step",
    ]


def test_now_none_stamps_the_host_clock() -> None:
    state = fctry.start_command({}, "init")
    assert state["currentCommand"] == "init"
    assert_current(stamped_ms(state))
    state = fctry.start_step(state, "state-owner-scan")
    assert_current(stamped_ms(state))
    state = fctry.complete_step(state, "state-owner-scan", {"summary": "scanned"})
    assert_current(stamped_ms(state))
    state = fctry.skip_prerequisites(state, "spec-writer", "init")
    assert_current(stamped_ms(state))
    assert_current(statecore.parse_timestamp(state["skippedPrerequisites"][0]["timestamp"]))
    state = fctry.add_untracked_change(state, {"file": "spec.md", "section": "#core"})
    assert_current(stamped_ms(state))
    assert_current(statecore.parse_timestamp(state["untrackedChanges"][0]["timestamp"]))
    state = fctry.clear_untracked_changes(state)
    assert state["untrackedChanges"] == []
    assert_current(stamped_ms(state))


def test_explicit_now_text_and_epoch_ms() -> None:
    assert fctry.start_command({}, "evolve", NOW)["lastUpdated"] == NOW
    ms = statecore.parse_timestamp(NOW)
    assert fctry.start_command({}, "evolve", ms)["lastUpdated"] == NOW


def test_inputs_are_not_changed() -> None:
    state: dict[str, Any] = {"currentCommand": "init", "completedSteps": ["interviewer"]}
    before = statecore.serialize(state)
    updated = fctry.complete_step(state, "scenario-crafter", now=NOW)
    assert updated["completedSteps"] == ["interviewer", "scenario-crafter"]
    assert statecore.serialize(state) == before


def test_workflow_round() -> None:
    state = fctry.start_command({"specVersion": "1.0"}, "init", NOW)
    report = fctry.check_prerequisites(state, "interviewer")
    assert report["ok"] is False
    assert report["missing"] == [["state-owner-scan"]]
    assert report["message"].startswith("Workflow error: ")
    assert len(report["options"]) == 3
    state = fctry.complete_step(state, "state-owner-scan", now=NOW)
    report = fctry.check_prerequisites(state, "interviewer", "init")
    assert report == {
        "ok": True,
        "agent": "interviewer",
        "command": "init",
        "missing": [],
        "message": None,
        "options": [],
    }
    assert fctry.skip_prerequisites(state, "interviewer", now=NOW) == state
    assert state["specVersion"] == "1.0"


def test_clear_some_sections() -> None:
    state = fctry.add_untracked_change({}, {"file": "a.md", "section": "#core"}, NOW)
    state = fctry.add_untracked_change(state, {"file": "b.md", "section": "flow"}, NOW)
    state = fctry.add_untracked_change(state, {"file": "a.md", "section": "#core"}, NOW)
    assert [c["file"] for c in state["untrackedChanges"]] == ["a.md", "b.md"]
    cleared = fctry.clear_untracked_changes(state, ("core",), NOW)
    assert [c["file"] for c in cleared["untrackedChanges"]] == ["b.md"]


@pytest.mark.parametrize(
    ("call", "path"),
    [
        (lambda: fctry.start_command({}, "deploy", NOW), ""),
        (lambda: fctry.start_step({}, "cook", NOW), ""),
        (lambda: fctry.complete_step({}, "cook", None, NOW), ""),
        (lambda: fctry.complete_step({}, "interviewer", "done", NOW), "/output"),
        (lambda: fctry.check_prerequisites({}, "chef"), ""),
        (lambda: fctry.check_prerequisites({}, "interviewer", "deploy"), ""),
        (lambda: fctry.skip_prerequisites({}, "interviewer", "deploy", NOW), ""),
        (lambda: fctry.add_untracked_change({}, {"section": "#core"}, NOW), "/change/file"),
        (lambda: fctry.clear_untracked_changes({}, [1], NOW), "/sections"),  # type: ignore[list-item]
    ],
)
def test_bad_arguments_raise_usage_error(call: Any, path: str) -> None:
    with pytest.raises(statecore.UsageError) as raised:
        call()
    assert raised.value.code == "E_ARGUMENT"
    assert raised.value.path == path


def test_wrong_command_message() -> None:
    with pytest.raises(statecore.UsageError, match="unknown command") as raised:
        fctry.start_command({}, "deploy")
    assert raised.value.code == "E_ARGUMENT"
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("now", ["yesterday", 1.5, True, [], 10**20])
def test_bad_now_raises_timestamp_error(now: Any) -> None:
    with pytest.raises(statecore.TimestampError):
        fctry.start_command({}, "init", now)


def test_type_errors() -> None:
    with pytest.raises(TypeError):
        fctry.start_command({}, 1)  # type: ignore[arg-type]
    with pytest.raises(statecore.DataError):
        fctry.start_command({"x": object()}, "init", NOW)
