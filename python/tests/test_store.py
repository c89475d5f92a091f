"""The document stores (docs/store.md): ``PostgresStore`` against a throwaway PostgreSQL
server (tests/pg_server.py), and the same operations through ``FileStore`` giving the same
documents and etags. Concurrency, kill -9 inside a transaction and dropped connections use
real processes and ``pg_terminate_backend``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore.store import FileStore, PostgresStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pg_server import sql  # noqa: E402

WRITER = HERE / "helpers" / "store_writer.py"


def test_the_schema_is_created_once_and_a_newer_one_is_refused(db: dict[str, str]) -> None:
    with PostgresStore():
        pass
    assert sql("SELECT value FROM statecore_meta WHERE name = 'schema_version'") == [("2",)]
    with PostgresStore() as again:  # no migration to run
        assert again.read("a.json", "json")["document"] == {}
    sql("UPDATE statecore_meta SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(statecore.StoreError) as refused:
        PostgresStore()
    assert refused.value.code == "E_STORE"
    assert refused.value.details["retryable"] is False


def test_updates_and_reads_match_the_file_store(db: dict[str, str], tmp_path: Path) -> None:
    files = FileStore(tmp_path)
    with PostgresStore() as pg:
        for store in (files, pg):
            key = "proj/.fctry/state.json"
            first = store.update(key, "fctry.state", {"workflowStep": "interviewer"})
            assert first["changed"]
            second = store.update(
                key, "fctry.state", {"activeSection": "#a", "activeSectionNumber": "1"}
            )
            same = store.update(key, "fctry.state", {"workflowStep": "interviewer"})
            assert (same["changed"], same["etag"]) == (False, second["etag"])
            read = store.read(key, "fctry.state")
            assert (read["document"], read["etag"]) == (second["document"], second["etag"])
            now = "2026-11-25T10:00:00Z"
            started = store.change(key, "fctry.state", "fctry_start_command", ("init", now))
            assert started["document"]["currentCommand"] == "init"
            inbox = "proj/.fctry/inbox.json"
            args = ("evolve", "x", now, "abc123")
            added = store.change(inbox, "fctry.inbox", "fctry_inbox_add", args)
            assert added["item"]["status"] == "pending"
        for key in ("proj/.fctry/state.json", "proj/.fctry/inbox.json"):
            on_disk = tmp_path.joinpath(*key.split("/")).read_text()
            rows = sql("SELECT text, etag FROM statecore_documents WHERE key = %s", key)
            assert rows == [(on_disk, statecore.etag(on_disk))]


def test_an_update_the_core_refuses_writes_nothing(db: dict[str, str]) -> None:
    with PostgresStore() as pg:
        made = pg.update("s.json", "fctry.state", {"specVersion": "1"})
        with pytest.raises(statecore.ValidationError):
            pg.update("s.json", "fctry.state", {"chunkProgress": {"current": "x"}})
        with pytest.raises(statecore.ConflictError):
            pg.update("s.json", "fctry.state", {"specVersion": "2"}, if_match="0" * 32)
        with pytest.raises(RuntimeError):
            pg.update("s.json", "fctry.state", lambda doc: (_ for _ in ()).throw(RuntimeError("x")))
        assert pg.read("s.json", "fctry.state")["etag"] == made["etag"]
        with pytest.raises(statecore.PathUnsafeError):
            pg.update("../s.json", "json", {})
        assert pg.update("s.json", "fctry.state", {"specVersion": "2"}, if_match=made["etag"])[
            "changed"
        ]


def test_the_text_a_store_keeps_is_only_a_first_try(
    db: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer's change is never lost or undone by the text a store kept."""
    key = "proj/.fctry/state.json"
    with PostgresStore() as a, PostgresStore() as b:
        statements: list[str] = []
        run = a._run

        def counted(name: str, *params: object) -> Any:
            statements.append(name)
            return run(name, *params)

        monkeypatch.setattr(a, "_run", counted)

        def row() -> str:
            return str(sql("SELECT etag FROM statecore_documents WHERE key = %s", key)[0][0])

        a.update(key, "fctry.state", {"workflowStep": "interviewer"})
        statements.clear()
        alone = a.update(key, "fctry.state", {"specVersion": "1"})
        assert statements == ["update_known"], "an uncontended update is one statement"
        assert alone["etag"] == row()

        b.update(key, "fctry.state", {"activeSection": "#a", "activeSectionNumber": "1"})
        statements.clear()
        after = a.update(key, "fctry.state", {"specVersion": "2"})
        assert statements == ["update_known", "update"], "the row comes back with the missed swap"
        doc = after["document"]
        assert (doc["activeSection"], doc["specVersion"], after["etag"]) == ("#a", "2", row())
        # After a missed swap the row is read first, until it is still the one this store wrote.
        statements.clear()
        a.update(key, "fctry.state", {"specVersion": "2.1"})
        a.update(key, "fctry.state", {"specVersion": "2.2"})
        assert statements == ["read", "update", "update_known"]

        # Unchanged on the kept text, changed in the row: written.
        b.update(key, "fctry.state", {"workflowStep": "researcher"})
        back = a.update(key, "fctry.state", {"workflowStep": "interviewer"})
        read = b.read(key, "fctry.state")["document"]
        assert (back["changed"], read["workflowStep"]) == (True, "interviewer")
        # Unchanged in the row: not written.
        assert a.update(key, "fctry.state", {"workflowStep": "interviewer"})["changed"] is False

        # if_match is the row's etag, whatever the store kept.
        kept = back["etag"]
        moved = b.update(key, "fctry.state", {"specVersion": "3"})
        assert a.update(key, "fctry.state", {"specVersion": "4"}, if_match=moved["etag"])["changed"]
        with pytest.raises(statecore.ConflictError):
            a.update(key, "fctry.state", {"specVersion": "5"}, if_match=kept)
        final = b.read(key, "fctry.state")["document"]
        assert (final["specVersion"], final["workflowStep"], final["activeSection"]) == (
            "4",
            "interviewer",
            "#a",
        )


def test_appends_are_in_order_and_exactly_once_with_an_id(db: dict[str, str]) -> None:
    event = {"timestamp": "2026-11-25T10:00:00Z", "type": "progress", "agent": "w", "details": {}}
    with PostgresStore() as pg:
        assert pg.append("s/EVENTS.jsonl", "hive.event", event, id="a") == {
            "seq": 1,
            "appended": True,
        }
        assert pg.append("s/EVENTS.jsonl", "hive.event", {**event, "agent": "x"})["seq"] == 2
        assert pg.append("s/EVENTS.jsonl", "hive.event", event, id="a") == {
            "seq": 1,
            "appended": False,
        }
        with pytest.raises(statecore.ValidationError):
            pg.append("s/EVENTS.jsonl", "hive.event", {"type": "progress"})
        assert [r["agent"] for r in pg.read_log("s/EVENTS.jsonl")] == ["w", "x"]
        assert [r["agent"] for r in pg.read_log("s/EVENTS.jsonl", after=1)] == ["x"]
        # Mistyped options are refused, never passed on to the database.
        with pytest.raises(statecore.UsageError) as bad_id:
            pg.append("s/EVENTS.jsonl", "hive.event", event, id=7)  # type: ignore[arg-type]
        assert (bad_id.value.code, bad_id.value.path) == ("E_OPTIONS", "/id")
        with pytest.raises(statecore.UsageError) as bad_after:
            pg.read_log("s/EVENTS.jsonl", after=-1)
        assert (bad_after.value.code, bad_after.value.path) == ("E_OPTIONS", "/after")
        with pytest.raises(statecore.UsageError):
            pg.watch("s/", None, print, initial="yes")  # type: ignore[arg-type]
        assert len(pg.read_log("s/EVENTS.jsonl")) == 2


def run_writers(commands: list[list[str]], env: dict[str, str]) -> None:
    """Runs the writers at once and waits for each to print "done"."""
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, text=True, env={**os.environ, **env})
        for c in commands
    ]
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        assert (proc.returncode, out.strip()[-4:]) == (0, "done"), out


def test_concurrent_writers_lose_no_update(db: dict[str, str]) -> None:
    py = [sys.executable, str(WRITER)]
    run_writers([[*py, "update", "counter.json", "250"] for _ in range(4)], db)
    with PostgresStore() as pg:
        assert pg.read("counter.json", "json")["document"] == {"n": 1000}


def test_concurrent_compare_and_swap_writers_lose_no_item(db: dict[str, str]) -> None:
    """A writer of the table (an inbox item added) is a compare-and-swap without a lock first
    (docs/store.md § Updates): 4 writers x 100 items, none lost, each writer's in order."""
    py = [sys.executable, str(WRITER)]
    key = "proj/.fctry/inbox.json"
    run_writers([[*py, "inbox", key, "100", f"p{w}"] for w in range(4)], db)
    with PostgresStore() as pg:
        items = pg.read(key, "fctry.inbox")["document"]
    assert len(items) == 400
    for w in range(4):
        mine = [int(i["content"].split()[1]) for i in items if i["content"].startswith(f"p{w} ")]
        assert mine == list(range(99, -1, -1))


def test_concurrent_appenders_keep_each_writers_order(db: dict[str, str]) -> None:
    py = [sys.executable, str(WRITER)]
    run_writers([[*py, "append", "s/EVENTS.jsonl", "500", f"p{w}"] for w in range(4)], db)
    with PostgresStore() as pg:
        records = pg.read_log("s/EVENTS.jsonl")
    assert len(records) == 2000
    for w in range(4):
        mine = [r["details"]["i"] for r in records if r["agent"] == f"p{w}"]
        assert mine == list(range(500))


def test_a_writer_killed_inside_its_transaction_leaves_the_old_document(db: dict[str, str]) -> None:
    with PostgresStore() as pg:
        before = pg.update("held.json", "json", {"v": 1})
        for _ in range(50):
            with subprocess.Popen(
                [sys.executable, str(WRITER), "hold", "held.json"],
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, **db},
            ) as proc:
                assert proc.stdout is not None
                line = proc.stdout.readline().strip()
                assert line == "holding"  # the row is locked now
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
            assert pg.read("held.json", "json")["etag"] == before["etag"]
        # The row's lock went with the killed session: an update goes through.
        assert pg.update("held.json", "json", {"v": 2})["document"] == {"v": 2}


def test_a_dropped_connection_is_a_retryable_error_and_nothing_half_applied(
    db: dict[str, str],
) -> None:
    with PostgresStore() as pg:
        before = pg.update("d.json", "json", {"v": 1})

        def drop(doc: dict[str, Any]) -> dict[str, Any]:
            sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND state = 'idle in transaction'"
            )
            return {**doc, "v": 2}

        with pytest.raises(statecore.StoreError) as lost:
            pg.update("d.json", "json", drop)
        assert lost.value.code == "E_STORE"
        assert lost.value.details["retryable"] is True
        assert pg.read("d.json", "json")["etag"] == before["etag"]  # connected again
        assert pg.update("d.json", "json", {"v": 3})["document"] == {"v": 3}


def test_protocol_helpers_take_a_store(db: dict[str, str], tmp_path: Path) -> None:
    """The same helper calls (writers and readers) on files and through each store give the
    same documents; the directory argument is the key prefix (``store_file_key``)."""
    from statecore import fctry, hivemind

    now = "2026-11-25T10:00:00Z"
    results = []
    with PostgresStore() as pg:
        for store in (None, FileStore(tmp_path / "store"), pg):
            base = str(tmp_path / "files" / "proj") if store is None else "proj"
            extra: Any = {} if store is None else {"store": store}
            fctry.start_command(base, "init", now, **extra)
            fctry.start_step(base, "interviewer", now, **extra)
            fctry.update_state(base, {"activeSection": "#a", "activeSectionNumber": "1"}, **extra)
            done = fctry.complete_step(base, "interviewer", None, now, **extra)
            moved = hivemind.write_state(base, {"state": "idle"}, **extra)
            read = fctry.read_state(base, **extra)
            health = fctry.context_health(base, **extra)
            summary = hivemind.read_state(base, **extra)["document"]
            reads = (read["document"], read["etag"], health, summary)
            results.append((done["document"], done["etag"], moved["etag"], reads))
        assert results[0] == results[1] == results[2]
        keys = sql("SELECT key FROM statecore_documents ORDER BY key")
        assert keys == [("proj/.fctry/state.json",), ("proj/workspace/state.json",)]
        with pytest.raises(statecore.UsageError) as hive:
            statecore.hive.spawn_worker("s1", "w1", store=pg)
        assert hive.value.code == "E_NO_SESSION"  # a session's steps take a store too
        with pytest.raises(statecore.PathUnsafeError):
            fctry.start_step("/abs/proj", "interviewer", store=pg)


def test_an_update_waits_for_a_locked_row_at_most_its_timeout(db: dict[str, str]) -> None:
    with PostgresStore() as pg:
        before = pg.update("held.json", "json", {"v": 1})
        with subprocess.Popen(
            [sys.executable, str(WRITER), "hold", "held.json"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **db},
        ) as proc:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "holding"
            with pytest.raises(statecore.LockTimeoutError) as waited:
                pg.update("held.json", "json", {"v": 2}, timeout=0.3)
            assert waited.value.details["key"] == "held.json"
            proc.kill()
        assert pg.read("held.json", "json")["etag"] == before["etag"]


def test_a_store_is_watched_like_files(db: dict[str, str]) -> None:
    """LISTEN/NOTIFY: each committed change under the prefix is reported once, as a
    ``WatchChange``; other prefixes and kinds are not."""
    import queue

    changes: queue.Queue[Any] = queue.Queue()
    event = {"timestamp": "2026-11-25T10:00:00Z", "type": "progress", "agent": "w", "details": {}}
    with PostgresStore() as pg:
        pg.update("proj/.fctry/state.json", "fctry.state", {"specVersion": "1"})
        pg.append("proj/s1/EVENTS.jsonl", "hive.event", event)
        with pg.watch("proj/", None, changes.put) as watcher:
            assert watcher.wait_ready(20)
            first = [changes.get(timeout=10), changes.get(timeout=10)]
            assert [c["path"] for c in first] == ["proj/.fctry/state.json", "proj/s1/EVENTS.jsonl"]
            assert first[1]["records"] == [event]
            pg.update("other/.fctry/state.json", "fctry.state", {"specVersion": "9"})
            pg.update("proj/.fctry/state.json", "fctry.state", {"specVersion": "2"})
            pg.update("proj/.fctry/state.json", "fctry.state", {"specVersion": "2"})  # unchanged
            pg.append("proj/s1/EVENTS.jsonl", "hive.event", {**event, "agent": "x"})
            changed = changes.get(timeout=10)
            assert (changed["path"], changed["document"]) == (
                "proj/.fctry/state.json",
                {"specVersion": "2"},
            )
            appended = changes.get(timeout=10)
            assert [r["agent"] for r in appended["records"]] == ["x"]
            with pytest.raises(queue.Empty):
                changes.get(timeout=0.5)


def test_a_store_watcher_connects_again_after_a_lost_connection(db: dict[str, str]) -> None:
    """The watcher's connection ended by the server: the loss is reported (retryable
    ``E_STORE``), the watcher connects again, and a change made meanwhile or after is reported
    once."""
    import queue

    changes: queue.Queue[Any] = queue.Queue()
    errors: queue.Queue[BaseException] = queue.Queue()
    key = "proj/.fctry/state.json"
    with PostgresStore() as pg, pg.watch("proj/", None, changes.put, on_error=errors.put) as w:
        assert w.wait_ready(20)
        ended = sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'statecore watch'"
        )
        assert ended == [(True,)]
        pg.update(key, "fctry.state", {"specVersion": "1"})
        error = errors.get(timeout=10)
        assert isinstance(error, statecore.StoreError)
        assert (error.code, error.details["retryable"]) == ("E_STORE", True)
        assert changes.get(timeout=20)["document"] == {"specVersion": "1"}
        pg.update(key, "fctry.state", {"specVersion": "2"})
        assert changes.get(timeout=20)["document"] == {"specVersion": "2"}
        with pytest.raises(queue.Empty):
            changes.get(timeout=0.5)
        assert errors.empty()
