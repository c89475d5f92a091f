"""statecore.fctry from Python: the host clock when ``now`` is omitted, argument errors, and
the shapes the corpus (tests/conformance/fctry/) does not need to repeat."""

from __future__ import annotations

import re
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
    """``statecore.fctry`` is the table's fctry operations and the file helpers of its kinds."""
    assert "fctry" in statecore.__all__
    assert statecore.fctry is fctry
    manifest = statecore.manifest()
    operations = {op["method"] for op in manifest["ops"] if op["module"] == "fctry"}
    files = [
        k["file"]["name"] for k in manifest["kinds"] if (k["file"] or {}).get("module") == "fctry"
    ]
    helpers = {f"{verb}_{name}" for name in files for verb in ("read", "write", "update")}
    helpers |= {f"{name}_path" for name in files}
    assert sorted(files) == ["inbox", "state"]
    assert {"inbox_add", "start_step", "status_line"} <= operations
    assert sorted(fctry.__all__) == sorted(operations | helpers)


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


INBOX_ID = re.compile(r"^inbox-(\d+)-[0-9a-z]{6}$")


def test_inbox_add_defaults_to_host_clock_and_randomness() -> None:
    before = clock_ms()
    inbox = fctry.inbox_add(None, "evolve", "first")
    after = clock_ms()
    match = INBOX_ID.match(inbox[0]["id"])
    assert match is not None, inbox[0]["id"]
    assert before <= int(match.group(1)) <= after, (before, match.group(1), after)
    assert statecore.parse_timestamp(inbox[0]["timestamp"]) == int(match.group(1))
    inbox = fctry.inbox_add(inbox, "evolve", "second")
    assert INBOX_ID.match(inbox[0]["id"]) is not None, inbox[0]["id"]
    assert inbox[0]["id"] != inbox[1]["id"]
    assert [item["content"] for item in inbox] == ["second", "first"]


def test_inbox_round() -> None:
    ms = statecore.parse_timestamp(NOW)
    inbox = fctry.inbox_add([], "feature", "dark mode", NOW, "abc123")
    before = statecore.serialize(inbox)
    assert inbox == [
        {
            "id": f"inbox-{ms}-abc123",
            "type": "feature",
            "content": "dark mode",
            "timestamp": NOW,
            "status": "pending",
        }
    ]
    inbox = fctry.inbox_add(inbox, "reference", "https://example.org/", ms, "zzzzzz")
    started = fctry.inbox_batch(inbox, "start")
    assert [item["status"] for item in started] == ["processing", "processing"]
    assert statecore.serialize(inbox[1:]) == before
    done = fctry.inbox_transition(started, f"inbox-{ms}-abc123", "complete")
    assert [item["status"] for item in done] == ["processing", "processed"]
    assert fctry.inbox_dismiss(done, f"inbox-{ms}-zzzzzz") == done[1:]
    assert fctry.inbox_dismiss(done, "inbox-1-gone00") == done
    machine = fctry.inbox_machine()
    assert machine["initial"] == "pending"
    assert statecore.machine.check(machine)["valid"] is True


def test_inbox_errors() -> None:
    inbox = fctry.inbox_add([], "evolve", "x", NOW, "abcdef")
    with pytest.raises(statecore.TransitionError):
        fctry.inbox_transition(inbox, inbox[0]["id"], "complete")
    with pytest.raises(statecore.UsageError) as raised:
        fctry.inbox_add(inbox, "evolve", "x", NOW, "abcdef")
    assert raised.value.path == "/id"
    with pytest.raises(statecore.UsageError) as raised:
        fctry.inbox_add([], "evolve", "x", NOW, "ABCDEF")
    assert raised.value.path == "/random"
    with pytest.raises(statecore.UsageError) as wrong:
        fctry.inbox_add([], "evolve", 1, NOW)  # type: ignore[call-overload]
    assert (wrong.value.code, wrong.value.details["argument"]) == ("E_ARGUMENT", "content")


RUN_ID = re.compile(r"^run-(\d+)$")

PLAN: dict[str, Any] = {
    "chunks": [
        {"id": 1, "name": "core", "sections": ["#core"], "dependsOn": []},
        {"id": 2, "name": "flow", "sections": ["#flow"], "dependsOn": [1]},
        {"id": 3, "name": "polish", "sections": ["#polish"], "dependsOn": [2]},
    ],
    "specVersion": "1.0",
}


def valid(state: dict[str, Any]) -> dict[str, Any]:
    """``state``, after checking that it is a valid fctry state."""
    report = statecore.validate("fctry.state", state)
    assert report["valid"] is True, report
    return state


def statuses(state: dict[str, Any]) -> list[str]:
    return [chunk["status"] for chunk in state["buildRun"]["chunks"]]


def test_build_run_defaults_to_host_clock() -> None:
    before = clock_ms()
    state = valid(fctry.create_build_run({}, PLAN))
    after = clock_ms()
    match = RUN_ID.match(state["buildRun"]["runId"])
    assert match is not None, state["buildRun"]["runId"]
    assert before <= int(match.group(1)) <= after, (before, match.group(1), after)
    assert statecore.parse_timestamp(state["buildRun"]["startedAt"]) == int(match.group(1))
    assert statuses(state) == ["planned", "planned", "planned"]
    assert state["chunkProgress"] == {"current": 0, "total": 3}
    assert fctry.ready_chunks(state) == [1]
    assert fctry.dag_layers(state) == {"layers": [[1], [2], [3]], "unplaced": []}

    state = valid(fctry.chunk_event(state, 1, "start"))
    assert_current(stamped_ms(state))
    assert_current(statecore.parse_timestamp(state["buildRun"]["chunks"][0]["startedAt"]))
    state = valid(fctry.chunk_event(state, 1, "complete"))
    assert_current(statecore.parse_timestamp(state["buildRun"]["lastCheckpoint"]))
    assert state["buildRun"]["chunks"][0]["specVersionAtBuild"] == "1.0"
    assert state["chunkProgress"] == {"current": 1, "total": 3}
    assert fctry.ready_chunks(state) == [2]
    assert fctry.resume_plan(state)["offer"] is True

    state = valid(fctry.chunk_event(state, 2, "start"))
    # The default 3 retries: attempts 1 to 4 fail, the fourth for good.
    for attempt in (2, 3, 4):
        state = valid(fctry.chunk_event(state, 2, "fail"))
        assert statuses(state)[1] == "retrying"
        assert state["buildRun"]["chunks"][1]["attempt"] == attempt
    state = valid(fctry.chunk_event(state, 2, "fail"))
    assert statuses(state) == ["completed", "failed", "blocked"]
    assert_current(statecore.parse_timestamp(state["buildRun"]["chunks"][1]["failedAt"]))
    assert fctry.ready_chunks(state) == []

    state = valid(fctry.finish_build_run(state))
    assert state["buildRun"]["status"] == "partial"
    assert state["chunkProgress"] is None
    assert_current(statecore.parse_timestamp(state["buildRun"]["completedAt"]))
    assert_current(stamped_ms(state))


def test_build_run_pause_and_resume() -> None:
    state = fctry.create_build_run({"specVersion": "1.1"}, PLAN, NOW)
    before = statecore.serialize(state)
    paused = valid(fctry.pause_build_run(state, {"question": "Which?"}))
    assert statecore.serialize(state) == before
    assert paused["buildRun"]["status"] == "paused"
    assert paused["buildRun"]["pendingQuestion"] == {"question": "Which?"}
    assert_current(stamped_ms(paused))
    resumed = valid(fctry.resume_build_run(paused))
    assert resumed["buildRun"]["status"] == "running"
    assert resumed["buildRun"]["pendingQuestion"] is None
    with pytest.raises(statecore.TransitionError):
        fctry.resume_build_run(resumed, NOW)
    state = fctry.chunk_event(resumed, 1, "start", NOW)
    state = fctry.chunk_event(state, 1, "complete", NOW)
    plan = fctry.resume_plan(state, "1.1")
    assert plan["offer"] is True
    assert plan["completed"] == [1]
    assert plan["next"] == [2]
    assert [chunk["id"] for chunk in plan["changed"]] == [1]
    assert fctry.resume_plan(state, "1.0")["changed"] == []


def test_build_machines() -> None:
    for definition in (fctry.chunk_machine(), fctry.run_machine()):
        assert statecore.machine.check(definition)["valid"] is True
    assert fctry.chunk_machine()["initial"] == "planned"
    assert fctry.run_machine()["initial"] == "running"


@pytest.mark.parametrize("id", [-1, 2**64, 1.5, "1", None, True])
def test_bad_chunk_id_raises_usage_error(id: Any) -> None:
    state = fctry.create_build_run({}, PLAN, NOW)
    with pytest.raises(statecore.UsageError) as raised:
        fctry.chunk_event(state, id, "start")
    assert raised.value.code == "E_ARGUMENT"
    assert raised.value.path == "/id"


def test_a_chunk_id_written_1_0_is_the_whole_number_1() -> None:
    """A whole number is JSON Schema's integer (docs/fctry.md § Rules): ``1.0`` is chunk 1, as
    it is in JavaScript, where ``1.0`` and ``1`` are one number."""
    state = fctry.create_build_run({}, PLAN, NOW)
    assert fctry.chunk_event(state, 1.0, "start", NOW) == fctry.chunk_event(state, 1, "start", NOW)


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
        (lambda: fctry.inbox_add([], "bug", "x", NOW), "/type"),
        (lambda: fctry.inbox_transition([], "inbox-1-abcdef", "start"), "/id"),
        (lambda: fctry.inbox_batch([], "explode"), "/event"),
        (lambda: fctry.inbox_dismiss({"items": []}, "inbox-1-abcdef"), ""),  # type: ignore[call-overload]
        (lambda: fctry.chunk_event({}, 1, "start", NOW), "/buildRun"),
        (lambda: fctry.chunk_event(fctry.create_build_run({}, PLAN, NOW), 9, "start"), "/id"),
        (lambda: fctry.chunk_event(fctry.create_build_run({}, PLAN, NOW), -1, "start"), "/id"),
        (lambda: fctry.create_build_run({}, {"chunks": [{"id": 0}]}, NOW), "/plan/chunks/0/id"),
        (lambda: fctry.finish_build_run(fctry.create_build_run({}, PLAN, NOW)), "/buildRun/chunks"),
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
    with pytest.raises(statecore.UsageError) as wrong:
        fctry.start_command({}, 1)  # type: ignore[call-overload]
    assert (wrong.value.code, wrong.value.details["argument"]) == ("E_ARGUMENT", "command")
    with pytest.raises(statecore.DataError):
        fctry.start_command({"x": object()}, "init", NOW)
