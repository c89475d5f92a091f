"""Hive sessions in a store (docs/store.md § Hive sessions): a session's steps, reads and
health through ``FileStore`` and ``PostgresStore`` give what they give on files; a state
behind its log or unreadable is rebuilt from the log's rows; a database of schema version 1
is migrated with its logs' lengths; concurrent workers lose no step. The npm twin is
npm/test/store_hive.test.mjs (with Node and Python workers on one session)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import hive
from statecore.store import FileStore, PostgresStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pg_server import sql  # noqa: E402

AGENT = HERE / "helpers" / "hive_agent.py"


def at(minute: int) -> str:
    return f"2026-11-25T10:{minute:02d}:00Z"


def session_steps(base: str, extra: dict[str, Any], count: int = 7) -> list[Any]:
    """A session's life through the helpers (its first ``count`` steps): what each step
    returned."""
    sessions, directory = os.path.dirname(base), base
    workers = [{"name": "alpha", "task": "read"}, {"name": "beta", "task": "write"}]
    progress = {"metrics": {"files_created": 2}}
    steps: list[Callable[[], Any]] = [
        lambda: hive.create_session_dir(
            sessions, os.path.basename(base), "research", at(0), **extra
        ),
        lambda: hive.plan_workers(directory, workers, "two", at(1), **extra),
        lambda: hive.spawn_worker(directory, "alpha", at(2), **extra),
        lambda: hive.heartbeat(directory, "alpha", at(3), **extra),
        lambda: hive.record_progress(directory, "alpha", progress, at(4), **extra),
        lambda: hive.complete_worker(directory, "alpha", {"notes": "a.md"}, None, at(5), **extra),
        lambda: hive.change_phase(directory, "planning", at(6), **extra),
    ]
    return [step() for step in steps[:count]]


def stored_log(key: str) -> bytes:
    """The log's rows as the bytes of a file of its lines."""
    rows = sql("SELECT text FROM statecore_log_lines WHERE log = %s ORDER BY seq", key)
    return b"".join(f"{text}\n".encode() for (text,) in rows)


def lines_without_ids(log: bytes) -> list[Any]:
    """A log's lines, each without its ``event_id``."""
    lines = [json.loads(line) for line in log.decode().strip().split("\n")]
    return [{k: v for k, v in line.items() if k != "event_id"} for line in lines]


def test_a_session_in_a_store_is_the_session_on_files(db: dict[str, str], tmp_path: Path) -> None:
    outcomes = []
    with PostgresStore() as pg:
        for store in (None, FileStore(tmp_path / "store"), pg):
            base = str(tmp_path / "files" / "s1") if store is None else "sessions/s1"
            extra: dict[str, Any] = {} if store is None else {"store": store}
            steps = session_steps(base, extra)
            read = hive.read_state(base, **extra)
            health = hive.check_worker_health(base, at(30), 60_000, **extra)
            every = hive.check_sessions(os.path.dirname(base), at(30), 60_000, **extra)
            events = [s["result"]["event"] for s in steps]
            # Every line carries its own event id (random: it differs between the three runs).
            ids = [e.pop("event_id") for e in events]
            assert all(re.fullmatch("[0-9a-f]{24}", i) for i in ids)
            assert len(set(ids)) == len(ids)
            outcomes.append((read["document"], read["etag"], events, health, every))
        assert outcomes[0] == outcomes[1] == outcomes[2]
        on_disk = (tmp_path / "files" / "s1" / "EVENTS.jsonl").read_bytes()
        stored = stored_log("sessions/s1/EVENTS.jsonl")
        assert lines_without_ids(stored) == lines_without_ids(on_disk)
        assert len(stored) == len(on_disk)
        state = (tmp_path / "files" / "s1" / "STATE.json").read_text()
        assert sql("SELECT text FROM statecore_documents") == [(state,)]
        assert outcomes[2][0]["session_metadata"]["log_offset"] == len(on_disk)
        assert sql("SELECT bytes FROM statecore_logs") == [(len(on_disk),)]
        with pytest.raises(statecore.UsageError) as again:
            hive.create_session_dir("sessions", "s1", "again", at(7), store=pg)
        assert again.value.code == "E_ARGUMENT"  # the session exists: nothing written
        assert stored_log("sessions/s1/EVENTS.jsonl") == stored
        with pytest.raises(statecore.UsageError) as option:
            hive.heartbeat("sessions/s1", "alpha", at(8), store=pg, if_match="x")  # type: ignore[call-overload]
        assert option.value.code == "E_OPTIONS"
        with pytest.raises(statecore.UsageError) as keyless:
            pg.change("STATE.json", "hive.state", "hive_heartbeat", ("alpha", at(8)))
        assert keyless.value.code == "E_ARGUMENT"  # no session name before STATE.json


def test_a_state_behind_or_unreadable_is_rebuilt_from_the_log(
    db: dict[str, str], tmp_path: Path
) -> None:
    """Lines appended outside a step leave the state behind its log, a row changed by hand
    makes it unreadable: both are rebuilt from the log's rows, as files are from the file."""
    line = {"timestamp": at(9), "type": "heartbeat", "agent": "alpha", "details": {}}
    files = tmp_path / "s1"
    results = []
    with PostgresStore() as pg:
        for store in (None, pg):
            base = str(files) if store is None else "sessions/s1"
            extra: dict[str, Any] = {} if store is None else {"store": store}
            session_steps(base, extra, 3)  # alpha spawned
            if store is None:
                with open(files / "EVENTS.jsonl", "a") as log:
                    log.write(statecore.log_line(line))
            else:
                pg.append("sessions/s1/EVENTS.jsonl", "hive.event", line)
            behind = hive.read_state(base, **extra)
            assert behind["recovered"] is not None
            assert behind["changed"]
            results.append((behind["document"], behind["etag"]))
        assert results[0] == results[1]
        assert results[1][0]["metrics"]["total_events_logged"] == 4
        sql("UPDATE statecore_documents SET text = '{' WHERE key = 'sessions/s1/STATE.json'")
        beat = hive.heartbeat("sessions/s1", "alpha", at(10), store=pg)
        assert beat["recovered"] is not None
        assert beat["document"]["metrics"]["total_events_logged"] == 5
        assert sql("SELECT text FROM statecore_corrupt") == [("{",)]
        assert hive.read_state("sessions/s1", store=pg)["recovered"] is None  # current again


V1_APPEND = (
    "WITH counter AS (INSERT INTO statecore_logs AS l (log, kind, next_seq) "
    "VALUES (%s, 'hive.event', 2) ON CONFLICT (log) DO UPDATE SET next_seq = l.next_seq + 1 "
    "RETURNING next_seq - 1 AS seq) INSERT INTO statecore_log_lines (log, seq, id, text) "
    "SELECT %s, seq, NULL, %s FROM counter"
)


def test_a_version_1_database_is_migrated_with_its_logs_lengths(db: dict[str, str]) -> None:
    schema = statecore.store_schema()
    sql(schema["bootstrap"])
    sql(statecore.store_migrations(None)[0]["sql"])  # version 1 only
    sql("INSERT INTO statecore_meta VALUES ('schema_version', '1')")
    lines = ['{"é":1}', '{"b":22}', '{"c":"ü€"}']
    for text in lines:
        sql(V1_APPEND, "a/EVENTS.jsonl", "a/EVENTS.jsonl", text)
    with PostgresStore() as pg:
        ends = [row[0] for row in sql("SELECT end_offset FROM statecore_log_lines ORDER BY seq")]
        sizes = [len(text.encode()) + 1 for text in lines]
        assert ends == [sum(sizes[: i + 1]) for i in range(len(lines))]
        assert sql("SELECT bytes, next_seq FROM statecore_logs") == [(sum(sizes), 4)]
        event = {"timestamp": at(0), "type": "heartbeat", "agent": "w", "details": {}}
        assert pg.append("a/EVENTS.jsonl", "hive.event", event, id="x")["seq"] == 4
        assert pg.append("a/EVENTS.jsonl", "hive.event", event, id="x") == {
            "seq": 4,
            "appended": False,
        }
    [(total,)] = sql("SELECT bytes FROM statecore_logs")
    assert total == sum(sizes) + len(statecore.log_line(event).encode())
    assert sql("SELECT value FROM statecore_meta") == [("2",)]


def test_workers_in_several_processes_lose_no_step(db: dict[str, str]) -> None:
    """4 Python workers, 40 steps each, on one session in the store: every step's line is
    in the log once and the state folds them all."""
    with PostgresStore() as pg:
        hive.create_session_dir("sessions", "s1", "many", at(0), store=pg)
        workers = [{"name": f"py{w}", "task": "t"} for w in range(4)]
        hive.plan_workers("sessions/s1", workers, "four", at(1), store=pg)
        env = {**os.environ, **db, "STATECORE_AGENT_STORE": "postgres"}
        procs = [
            subprocess.Popen(
                [sys.executable, str(AGENT), "sessions/s1", f"py{w}", "40"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for w in range(4)
        ]
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            out, _ = proc.communicate(timeout=300)
            assert (proc.returncode, out.strip()) == (0, "done")
        state = hive.read_state("sessions/s1", store=pg)
        assert state["recovered"] is None
        document = state["document"]
        assert document["metrics"]["total_events_logged"] == 2 + 4 * 40
        assert len(pg.read_log("sessions/s1/EVENTS.jsonl")) == 2 + 4 * 40
        assert document["session_metadata"]["log_offset"] == len(
            stored_log("sessions/s1/EVENTS.jsonl")
        )
        done = document["coordination_status"]["workers_completed"]
        assert sorted(done) == [f"py{w}" for w in range(4)]
