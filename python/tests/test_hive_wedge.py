"""Adversarial: a hive session met by other writers and damaged files (issue 35, items 2-4;
docs/hive.md § Files). One session, one lock: a generic append to a session's log is the
session's step; a state whose offset falls inside a line is rebuilt, never wedged; a refused
record is reported as a reader's problem and set aside by a repair; a missing log is its own
error and failing reads copy nothing; every line carries its own event id, so the live fold and
the replay agree. npm/test/hive_wedge.test.mjs is its twin.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import hive, host


def at(minute: int) -> str:
    return f"2026-11-24T10:{minute:02d}:00Z"


def note(minute: int) -> dict[str, Any]:
    return {"timestamp": at(minute), "type": "note", "agent": "queen", "details": "checked"}


@pytest.fixture
def session(tmp_path: Path) -> dict[str, Any]:
    """A session with one planned worker, alpha, spawned."""
    hive.create_session_dir(tmp_path, "s1", "research", at(0))
    directory = tmp_path / "s1"
    hive.plan_workers(directory, [{"name": "alpha", "task": "read"}], "one", at(1))
    hive.spawn_worker(directory, "alpha", at(2))
    return {
        "root": tmp_path,
        "dir": directory,
        "state": directory / "STATE.json",
        "log": directory / "EVENTS.jsonl",
    }


def recovered(log: Path) -> Any:
    return hive.recover_state(log.read_bytes(), "s1")["state"]


def copies(directory: Path) -> list[str]:
    return sorted(f for f in os.listdir(directory) if ".corrupt-" in f)


def test_an_outside_append_inside_a_step_is_repaired_by_the_next_read(session: Any) -> None:
    log: Path = session["log"]
    before = log.read_bytes()
    hive.heartbeat(session["dir"], "alpha", at(3))
    step_line = log.read_bytes()[len(before) :]
    outside = (json.dumps(note(3)) + "\n").encode()
    log.write_bytes(before + outside + step_line)
    offset = json.loads(session["state"].read_text())["session_metadata"]["log_offset"]
    assert log.read_bytes()[offset - 1 : offset] != b"\n", "the offset is inside a line"
    for _ in range(2):
        read = hive.read_state(session["dir"])
        assert read["document"] == recovered(log)
        assert read["document"]["metrics"]["total_events_logged"] == 5
    assert copies(session["dir"]) == []
    out = hive.heartbeat(session["dir"], "alpha", at(4))
    assert out["document"]["metrics"]["total_events_logged"] == 6
    assert out["document"] == recovered(log)


def test_a_generic_append_to_a_session_log_is_the_sessions_step(session: Any) -> None:
    log: Path = session["log"]
    assert host.append_line(log, note(3))["warnings"] == []
    read = hive.read_state(session["dir"])
    assert read["changed"] is False, "the state was written with the line"
    assert read["document"]["metrics"]["total_events_logged"] == 4
    assert read["document"] == recovered(log)
    # The lock it waits for is STATE.json's, the one every step takes.
    with host.acquire_lock(session["state"], 1.0):
        with pytest.raises(statecore.StatecoreError) as raised:
            host.append_line(log, note(4), timeout=0.2)
        assert raised.value.code == "E_LOCK_TIMEOUT"


def test_a_record_that_is_not_a_hive_event_is_refused_by_the_append(session: Any) -> None:
    log: Path = session["log"]
    before = log.read_bytes()
    with pytest.raises(statecore.StatecoreError) as raised:
        host.append_line(log, {"type": "note"})  # the README's old example
    assert raised.value.code == "E_INVALID"
    assert log.read_bytes() == before
    out = hive.heartbeat(session["dir"], "alpha", at(3))
    assert out["document"]["metrics"]["total_events_logged"] == 4


def test_a_refused_record_is_a_readers_error_and_repair_sets_it_aside(session: Any) -> None:
    log: Path = session["log"]
    whole = log.read_bytes()
    with log.open("a") as f:
        f.write('{"type": "note"}\n')
    for call in (
        lambda: hive.read_state(session["dir"]),
        lambda: hive.heartbeat(session["dir"], "alpha", at(3)),
    ):
        with pytest.raises(statecore.StatecoreError) as raised:
            call()
        error = raised.value
        assert error.code == "E_INVALID"
        assert "refused to write" not in str(error)
        assert "line 4 of the log" in str(error)
        assert error.details["line"] == 4
        assert "log repair" in str(error)
    repaired = host.repair_log(log)
    copy = repaired["corrupt_copy"]
    assert copy is not None
    assert copy.startswith(f"{log}.corrupt-")
    assert Path(copy).read_text() == '{"type": "note"}\n'
    assert [w["code"] for w in repaired["warnings"]] == ["W_SET_ASIDE"]
    assert log.read_bytes() == whole
    out = hive.heartbeat(session["dir"], "alpha", at(3))
    assert out["document"]["metrics"]["total_events_logged"] == 4
    assert host.repair_log(log)["corrupt_copy"] is None


def test_a_bad_line_after_the_offset_is_named_by_its_line_in_the_file(session: Any) -> None:
    with session["log"].open("a") as f:
        f.write(json.dumps(note(3)) + "\noops\n")
    with pytest.raises(statecore.StatecoreError) as raised:
        hive.read_state(session["dir"])
    assert raised.value.code == "E_LOG_CORRUPT"
    assert raised.value.details["line"] == 5
    assert re.search("line 5 of the log", str(raised.value))


def test_a_missing_log_is_its_own_error_and_failing_reads_copy_nothing(session: Any) -> None:
    log: Path = session["log"]
    log.unlink()
    for _ in range(21):
        with pytest.raises(statecore.StatecoreError) as raised:
            hive.read_state(session["dir"])
        assert raised.value.code == "E_LOG_CORRUPT"
        assert raised.value.details["reason"] == "log_missing"
        [checked] = hive.check_sessions(session["root"])
        assert checked["error"]["code"] == "E_LOG_CORRUPT"  # type: ignore[typeddict-item]
    assert copies(session["dir"]) == []
    log.write_text(json.dumps(note(9)) + "\n")  # rotated: a log that starts no session
    for _ in range(5):
        with pytest.raises(statecore.StatecoreError) as raised:
            hive.read_state(session["dir"])
        assert raised.value.code == "E_NO_SESSION"
    assert copies(session["dir"]) == []


def test_an_unreadable_state_is_copied_once_never_by_a_failing_read(session: Any) -> None:
    state: Path = session["state"]
    state.write_text("{not json")
    with session["log"].open("a") as f:
        f.write("oops\n")
    for _ in range(5):
        with pytest.raises(statecore.StatecoreError):
            hive.read_state(session["dir"])
    assert copies(session["dir"]) == []
    repaired = host.repair_log(session["log"])
    assert [w["code"] for w in repaired["warnings"]] == ["W_SET_ASIDE", "W_CORRUPT_COPY"]
    kept = [f for f in copies(session["dir"]) if f.startswith("STATE.json")]
    assert len(kept) == 1
    assert (session["dir"] / kept[0]).read_text() == "{not json"
    assert hive.read_state(session["dir"])["changed"] is False
    assert len([f for f in copies(session["dir"]) if f.startswith("STATE.json")]) == 1


def test_identical_steps_count_the_same_live_and_replayed(session: Any) -> None:
    log: Path = session["log"]
    for _ in range(2):
        hive.heartbeat(session["dir"], "alpha", at(3))
    for _ in range(2):
        hive.apply_event(session["dir"], note(4))
    live = hive.read_state(session["dir"])["document"]
    assert live["metrics"]["total_events_logged"] == 7
    assert recovered(log) == live
    lines = log.read_text().strip().split("\n")
    ids = [json.loads(line)["event_id"] for line in lines]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch("[0-9a-f]{24}", i) for i in ids)
    retried = ("\n".join([*lines, lines[-1]]) + "\n").encode()
    assert hive.recover_state(retried, "s1")["duplicates"] == 1
    plain = [
        json.dumps({k: v for k, v in json.loads(line).items() if k != "event_id"}) for line in lines
    ]
    replayed = hive.recover_state(("\n".join(plain) + "\n").encode(), "s1")
    assert replayed["state"]["metrics"]["total_events_logged"] > 0


def cli(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "statecore", *argv]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


def test_the_readme_log_append_example_appends_an_event(session: Any) -> None:
    root: Path = session["root"]
    (root / "sessions").mkdir()
    session["dir"].rename(root / "sessions" / "s1")
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    found = re.search(r"statecore log append sessions/s1/EVENTS\.jsonl \\\n\s+'([^']+)'", readme)
    assert found is not None
    appended = cli(root, "log", "append", "sessions/s1/EVENTS.jsonl", found.group(1))
    assert appended.returncode == 0, appended.stderr
    read = hive.read_state(root / "sessions" / "s1")
    assert read["changed"] is False
    assert read["document"]["metrics"]["total_events_logged"] == 4
    old = cli(root, "log", "append", "sessions/s1/EVENTS.jsonl", '{"type": "note"}')
    assert old.returncode != 0
    assert re.search("E_INVALID|hive\\.event", old.stderr + old.stdout)
    status = cli(root, "hive", "status", "sessions/s1", "--heartbeat-ms", "1000000000000")
    assert status.returncode == 0


def test_hive_status_and_validate_report_a_log_the_state_disagrees_with(session: Any) -> None:
    directory: Path = session["dir"]
    log: Path = session["log"]
    with log.open("a") as f:
        f.write('{"type": "note"}\n')
    status = cli(directory, "hive", "status", "--heartbeat-ms", "1000000000000")
    assert status.returncode == 1
    assert "health: ok" not in status.stdout
    assert "the log does not replay" in status.stdout
    checked = cli(directory, "validate", ".")
    assert checked.returncode == 1
    assert "EVENTS.jsonl:4:" in checked.stdout + checked.stderr
    host.repair_log(log)
    before = log.read_bytes()
    hive.heartbeat(directory, "alpha", at(3))
    step_line = log.read_bytes()[len(before) :]
    log.write_bytes(before + (json.dumps(note(3)) + "\n").encode() + step_line)
    inside = cli(directory, "validate", ".")
    assert inside.returncode == 1
    assert "disagree" in inside.stdout + inside.stderr
    shown = cli(directory, "hive", "status", "--heartbeat-ms", "1000000000000").stdout
    assert "inside a line" in shown
    hive.read_state(directory)
    assert cli(directory, "validate", ".").returncode == 0


def test_generic_appends_racing_steps_every_line_once(session: Any) -> None:
    """Generic appends of notes to the session's log race its steps, from two Python and two
    Node processes: one session, one lock, so no line is lost and the state is the replay."""
    rounds = 25
    log, directory = str(session["log"]), str(session["dir"])
    npm = Path(__file__).parents[2] / "npm" / "lib"
    node_script = (
        f"const host = require({json.dumps(str(npm / 'host' / 'host.cjs'))});"
        f"const hive = require({json.dumps(str(npm / 'host' / 'hive.cjs'))});"
        f"for (let i = 0; i < {rounds}; i++) {{"
        " if (process.argv[1] === 'append') host.appendLineSync("
        f"{json.dumps(log)}, {{timestamp: '2026-11-24T10:05:00Z', type: 'note', agent: 'node',"
        " details: {i}}, {timeout: 60000});"
        f" else hive.heartbeatSync({json.dumps(directory)}, 'alpha',"
        " {now: '2026-11-24T10:06:00Z', timeout: 60000}); }"
    )
    py_script = (
        "import sys\nfrom statecore import hive, host\n"
        f"for i in range({rounds}):\n"
        "    if sys.argv[1] == 'append':\n"
        f"        host.append_line({log!r}, {{'timestamp': '2026-11-24T10:05:00Z', "
        "'type': 'note', 'agent': 'py', 'details': {'i': i}}, timeout=60)\n"
        "    else:\n"
        f"        hive.heartbeat({directory!r}, 'alpha', '2026-11-24T10:06:00Z', timeout=60)\n"
    )
    before = len(session["log"].read_text().strip().split("\n"))
    commands = [
        ["node", "-e", node_script, "append"],
        ["node", "-e", node_script, "step"],
        [sys.executable, "-c", py_script, "append"],
        [sys.executable, "-c", py_script, "step"],
    ]
    procs = [subprocess.Popen(c, stderr=subprocess.PIPE, text=True) for c in commands]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    lines = session["log"].read_text().split("\n")
    assert lines.pop() == ""
    assert len(lines) == before + 4 * rounds
    ids = [json.loads(line)["event_id"] for line in lines[before:]]
    assert len(set(ids)) == len(ids)
    read = hive.read_state(session["dir"])
    assert read["changed"] is False
    assert read["document"] == recovered(session["log"])
    assert read["document"]["metrics"]["total_events_logged"] == before + 4 * rounds
