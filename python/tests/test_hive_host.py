"""The session helpers of ``statecore.hive`` on real files (docs/hive.md § Files): a session's
directory, its steps (each appends its event line, then writes the state), reads that rebuild a
state that is missing, unreadable, behind its log or left with a torn line, the health of a
directory of sessions, and the errors. npm/test/hive_host.test.mjs is its twin; the
cross-language and crash tests are npm/test/hive_sessions.test.mjs (Python workers included).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import hive
from statecore._host import sys as _sys


def at(minute: int) -> str:
    return f"2026-11-24T10:{minute:02d}:00Z"


@pytest.fixture
def session(tmp_path: Path) -> dict[str, Any]:
    """A session with two planned workers, alpha spawned."""
    hive.create_session_dir(tmp_path, "s1", "research", at(0))
    directory = tmp_path / "s1"
    workers = [{"name": "alpha", "task": "read"}, {"name": "beta", "task": "write"}]
    hive.plan_workers(directory, workers, "two", at(1))
    hive.spawn_worker(directory, "alpha", at(2))
    return {
        "root": tmp_path,
        "dir": directory,
        "state": directory / "STATE.json",
        "log": directory / "EVENTS.jsonl",
    }


def recovered(log: Path) -> Any:
    return hive.recover_state(log.read_bytes(), "s1")["state"]


def test_steps_append_their_line_and_write_the_state_that_folds_the_log(session: Any) -> None:
    out = hive.heartbeat(session["dir"], "alpha", at(3))
    assert out["result"]["event"]["type"] == "worker_heartbeat"
    assert out["changed"] is True
    assert out["recovered"] is None
    assert out["document"] == json.loads(session["state"].read_text())
    assert out["document"]["session_metadata"]["log_offset"] == session["log"].stat().st_size
    assert out["document"] == recovered(session["log"])
    assert out["etag"] == statecore.etag(session["state"].read_bytes())
    assert sorted(os.listdir(session["dir"])) == ["EVENTS.jsonl", "STATE.json"]


def test_a_refused_step_writes_nothing(session: Any) -> None:
    before = (session["state"].read_bytes(), session["log"].read_bytes())
    with pytest.raises(statecore.UsageError) as raised:
        hive.heartbeat(session["dir"], "beta")
    assert (raised.value.code, raised.value.path) == ("E_ARGUMENT", "/worker_states/beta")
    assert (session["state"].read_bytes(), session["log"].read_bytes()) == before


def test_a_crash_between_the_append_and_the_write_is_caught_up_by_the_next_read(
    session: Any,
) -> None:
    def fail_rename(step: str) -> None:
        if step == "rename":
            raise OSError(5, "injected")

    _sys.set_fault_injector(fail_rename)
    try:
        with pytest.raises(OSError, match="injected"):
            hive.heartbeat(session["dir"], "alpha", at(3))
    finally:
        _sys.set_fault_injector(None)
    behind = json.loads(session["state"].read_text())
    assert behind["session_metadata"]["log_offset"] < session["log"].stat().st_size
    read = hive.read_state(session["dir"])
    assert read["changed"] is True
    assert read["recovered"] is not None
    assert read["recovered"]["events"] == 1
    assert read["document"]["worker_states"]["alpha"]["last_heartbeat"] == at(3)
    assert read["document"] == recovered(session["log"])


def test_a_read_of_a_current_state_takes_no_lock_and_writes_nothing(session: Any) -> None:
    mtime = session["state"].stat().st_mtime_ns
    read = hive.read_state(session["dir"])
    assert (read["changed"], read["recovered"]) == (False, None)
    assert session["state"].stat().st_mtime_ns == mtime
    assert not Path(str(session["state"]) + ".lock").exists()


def test_a_missing_state_is_rebuilt_and_a_torn_line_cut_off_and_kept(session: Any) -> None:
    whole = session["log"].read_bytes()
    session["state"].unlink()
    with open(session["log"], "a") as f:
        f.write('{"timestamp":"2026-11-24T10:0')
    read = hive.read_state(session["dir"])
    assert read["recovered"] is not None
    assert read["recovered"]["events"] == 3
    assert read["recovered"]["torn"] == {"line": 4, "offset": len(whole)}
    assert [w["code"] for w in read["warnings"]] == ["W_TORN_TAIL"]
    assert session["log"].read_bytes() == whole
    copies = [f for f in os.listdir(session["dir"]) if f.startswith("EVENTS.jsonl.corrupt-")]
    assert (session["dir"] / copies[0]).read_text() == '{"timestamp":"2026-11-24T10:0'
    assert json.loads(session["state"].read_text()) == recovered(session["log"])


def test_an_unreadable_state_is_kept_and_rebuilt_and_the_step_goes_on(session: Any) -> None:
    session["state"].write_text("{not json")
    out = hive.heartbeat(session["dir"], "alpha", at(3))
    assert out["corrupt_copy"] is not None
    assert Path(out["corrupt_copy"]).read_text() == "{not json"
    assert out["recovered"] is not None
    assert out["recovered"]["events"] == 3
    assert [w["code"] for w in out["warnings"]] == ["W_CORRUPT_COPY"]
    assert out["document"] == recovered(session["log"])


def test_create_session_dir_refuses_an_existing_session_and_a_bad_id(session: Any) -> None:
    with pytest.raises(statecore.UsageError, match="exists already"):
        hive.create_session_dir(session["root"], "s1", "again")
    for bad in ["..", "a/b", "", "a\nb"]:
        with pytest.raises(statecore.UsageError):
            hive.create_session_dir(session["root"], bad, "t")
    with pytest.raises(statecore.UsageError) as raised:
        hive.read_state(session["root"] / "nope")
    assert raised.value.code == "E_NO_SESSION"
    with pytest.raises(statecore.UsageError) as raised:
        hive.heartbeat(session["dir"], "alpha", tiemout=5)  # type: ignore[call-overload]
    assert raised.value.code == "E_OPTIONS"
    # A step appends to a log: there is no compare-and-swap or reset of the state to ask for.
    with pytest.raises(statecore.UsageError) as raised:
        hive.heartbeat(session["dir"], "alpha", if_match="x")  # type: ignore[call-overload]
    assert raised.value.code == "E_OPTIONS"


def test_check_sessions_gives_each_session_s_health_or_why_it_cannot_be_read(
    session: Any,
) -> None:
    root = session["root"]
    hive.create_session_dir(root, "s2", "idle", at(0))
    (root / "not-a-session").mkdir()
    (root / "broken").mkdir()
    (root / "broken" / "EVENTS.jsonl").write_text("garbage\n")
    health = hive.check_sessions(root, at(30))
    summary = [
        (
            h["session"],
            [(u["worker"], u["problem"]) for u in h["health"]["unhealthy"]]
            if "health" in h
            else h["error"]["code"],
        )
        for h in health
    ]
    assert summary == [("broken", "E_LOG_CORRUPT"), ("s1", [("alpha", "timeout")]), ("s2", [])]
    own = hive.check_worker_health(session["dir"], at(30), 60_000)
    assert (own["checked"], own["timeout_ms"], len(own["unhealthy"])) == (1, 60_000, 1)


def test_a_plain_document_write_of_the_state_is_refused(session: Any) -> None:
    with pytest.raises(statecore.UsageError):
        statecore.update_document(session["state"], "hive.state", {"task": "x"})


def test_a_session_whose_only_file_is_a_log_the_original_wrote_is_rebuilt(tmp_path: Path) -> None:
    directory = tmp_path / "s1"
    directory.mkdir()
    # The original's log_event: details as text, no plan line, the worker named by its agent;
    # the queen's and the worker's own worker_spawned; a retried append with an id.
    lines: list[dict[str, Any]] = [
        {
            "timestamp": at(0),
            "type": "session_created",
            "agent": "queen-orchestrator",
            "details": "Session initialized",
        },
        {
            "timestamp": at(1),
            "type": "worker_spawned",
            "agent": "backend-worker",
            "details": "{'note': 'spawned'}",
        },
        {
            "timestamp": at(1),
            "type": "worker_spawned",
            "agent": "backend-worker",
            "details": "starting",
            "id": "e-3",
        },
        {
            "id": "e-3",
            "details": "starting",
            "agent": "backend-worker",
            "type": "worker_spawned",
            "timestamp": at(1),
        },
        {
            "timestamp": at(2),
            "type": "worker_failed",
            "agent": "backend-worker",
            "details": "timed out",
            "status": "failed",
        },
        {
            "timestamp": at(3),
            "type": "worker_spawned",
            "agent": "backend-worker",
            "details": "retry",
        },
    ]
    log = directory / "EVENTS.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    read = hive.read_state(directory)
    assert read["recovered"] is not None
    assert read["recovered"]["events"] == 5
    assert read["recovered"]["duplicates"] == 1
    worker = read["document"]["worker_states"]["backend-worker"]
    assert worker["status"] == "active"
    assert worker["spawned_at"] == at(3)
    assert read["document"]["coordination_status"]["workers_failed"] == []
    hive.complete_worker(directory, "backend-worker", {"notes": "notes/backend.md"}, None, at(4))
    state = json.loads((directory / "STATE.json").read_text())
    assert state["worker_states"]["backend-worker"]["status"] == "completed"
    assert state == recovered(log)
