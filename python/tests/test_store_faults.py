"""A PostgreSQL store whose connection the server ends (docs/store.md § Failures): the server
terminates the backend (``pg_terminate_backend``, from a second connection) at the moment each
statement of an update, an append, a hive step and a watch is sent (BEGIN and COMMIT
included), or while it runs. The call raises the retryable ``E_STORE`` and the next call works.
Also: a partial schema is a ``StoreError`` that says what to do, and no message shows a store
URL's password. The twin of npm/test/store_faults.test.mjs."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore.store import PostgresStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pg_server import sql  # noqa: E402


def _terminate(pid: int) -> None:
    """Ends the session ``pid`` from a second connection; waits until it is gone."""
    sql("SELECT pg_terminate_backend(%s, 10000)", pid)


class _Hook:
    """Ends the session of the ``target``-th statement a hooked connection sends: ``before``
    (ended, then sent) or ``during`` (ended from another thread while it is sent and run)."""

    def __init__(self, target: int, mode: str, watcher: bool = False) -> None:
        self.target, self.mode, self.watcher = target, mode, watcher
        self.sent = 0
        self.fired = False

    def statement(self, conn: Any, watcher: bool, send: Callable[[], Any]) -> Any:
        """Sends a statement of ``conn`` (``watcher``: a store watcher's connection)."""
        if self.watcher and not watcher:
            return send()
        self.sent += 1
        if self.fired or self.sent != self.target:
            return send()
        self.fired = True
        pid = conn.info.backend_pid
        if self.mode == "before":
            _terminate(pid)
            return send()
        ender = threading.Thread(target=_terminate, args=(pid,))
        ender.start()
        try:
            return send()
        finally:
            ender.join()


class _Hooked:
    """A psycopg connection whose statements (``execute``, and a transaction's BEGIN and
    COMMIT) pass through the test's hook (a test hook around the driver, not the library)."""

    def __init__(self, conn: Any, hooks: list[_Hook | None], watcher: bool) -> None:
        self._conn, self._hooks, self._watcher = conn, hooks, watcher

    def _through(self, send: Callable[[], Any]) -> Any:
        hook = self._hooks[0]
        return send() if hook is None else hook.statement(self._conn, self._watcher, send)

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self._through(lambda: self._conn.execute(*args, **kwargs))

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        real = self._conn.transaction()
        entered = self._through(real.__enter__)
        try:
            yield entered
        except BaseException as error:
            if not real.__exit__(type(error), error, error.__traceback__):
                raise
        else:
            self._through(lambda: real.__exit__(None, None, None))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


@pytest.fixture
def hooks(monkeypatch: pytest.MonkeyPatch) -> list[_Hook | None]:
    """The hook every store connection made in the test passes its statements through."""
    current: list[_Hook | None] = [None]
    real_open = PostgresStore._open

    def hooked_open(self: PostgresStore, **options: object) -> Any:
        return _Hooked(real_open(self, **options), current, "application_name" in options)

    monkeypatch.setattr(PostgresStore, "_open", hooked_open)
    return current


def _is_store_error(error: BaseException) -> bool:
    return (
        isinstance(error, statecore.StoreError)
        and error.code == "E_STORE"
        and error.details.get("retryable") is True
    )


def _every_statement(
    hooks: list[_Hook | None],
    operation: Callable[[], object],
    check: Callable[[BaseException | None], None] = lambda _outcome: None,
    prepare: Callable[[], None] = lambda: None,
) -> int:
    """Runs ``operation`` with the session ended at its 1st, 2nd, ... statement (``before``
    and ``during``) until it runs to its end without reaching that statement: each time it
    raises the retryable ``E_STORE`` (or, ended after the statement was answered, succeeds),
    ``check`` holds, and the next call works. The number of statements covered."""
    target = 1
    while target < 40:
        reached = False
        for mode in ("before", "during"):
            prepare()
            hook = hooks[0] = _Hook(target, mode)
            outcome: BaseException | None = None
            try:
                operation()
            except Exception as error:
                outcome = error
            finally:
                hooks[0] = None
            reached = reached or hook.fired
            if outcome is not None:
                assert _is_store_error(outcome), f"statement {target} ({mode}): {outcome!r}"
            if mode == "before" and hook.fired:
                assert outcome is not None, f"statement {target} (before): the call succeeded"
            check(outcome)
            operation()  # the next call works
        if not reached:
            break
        target += 1
    return target - 1


def test_a_session_ended_during_any_statement_is_a_retryable_error(
    db: dict[str, str], hooks: list[_Hook | None]
) -> None:
    from statecore import hive

    with PostgresStore() as store:
        n = [0]

        def patch() -> None:
            n[0] += 1
            store.update("a.json", "json", {"n": n[0]})

        assert _every_statement(hooks, patch) >= 1
        before = [0]

        def count() -> int:
            return int(store.read("b.json", "json")["document"].get("n", 0))

        def check(outcome: BaseException | None) -> None:
            after = count()
            if outcome is None:
                assert after == before[0] + 1
            else:  # applied once or not at all (ended after the COMMIT was sent), never half
                assert after in (before[0], before[0] + 1)

        def prepare() -> None:
            before[0] = count()

        def increment() -> None:
            store.update("b.json", "json", lambda doc: {**doc, "n": doc.get("n", 0) + 1})

        locked = _every_statement(hooks, increment, check, prepare)
        assert locked >= 4, f"the locked update sent {locked} statements"
        _every_statement(hooks, lambda: store.update("c.json", "json", {"n": 1}, timeout=5))
        i = [0]

        def append() -> None:
            i[0] += 1
            event = {"timestamp": "2026-11-25T10:00:00Z", "type": "progress", "agent": "w"}
            record = {**event, "details": {"i": i[0]}}
            try:
                store.append("s/EVENTS.jsonl", "hive.event", record, id=f"w-{i[0]}")
            except statecore.StoreError:
                store.append("s/EVENTS.jsonl", "hive.event", record, id=f"w-{i[0]}")
                raise

        _every_statement(hooks, append)
        seen = [r["details"]["i"] for r in store.read_log("s/EVENTS.jsonl")]
        assert seen == sorted(set(seen)), "each append once, in order"
        hive.create_session_dir("sessions", "s1", "research", store=store)
        hive.plan_workers("sessions/s1", [{"name": "alpha", "task": "read"}], "one", store=store)
        hive.spawn_worker("sessions/s1", "alpha", store=store)
        steps = _every_statement(hooks, lambda: hive.heartbeat("sessions/s1", "alpha", store=store))
        assert steps >= 5, f"a hive step sent {steps} statements"
        state = hive.read_state("sessions/s1", store=store)["document"]
        (size,) = sql("SELECT bytes FROM statecore_logs WHERE log = 'sessions/s1/EVENTS.jsonl'")
        assert state["session_metadata"]["log_offset"] == size[0]


def test_a_watchers_session_ended_during_any_statement_is_reported_and_made_again(
    db: dict[str, str], hooks: list[_Hook | None]
) -> None:
    key, log = "p/.fctry/state.json", "p/s/EVENTS.jsonl"
    event = {"timestamp": "2026-11-25T10:00:00Z", "type": "progress", "agent": "w"}
    with PostgresStore() as store:
        store.update(key, "fctry.state", {"specVersion": "0"})
        store.append(log, "hive.event", {**event, "details": {"i": 0}})
        target = 1
        while target < 40:
            changes: queue.Queue[Any] = queue.Queue()
            errors: list[BaseException] = []
            hook = hooks[0] = _Hook(target, "before" if target % 2 else "during", True)
            failed: BaseException | None = None
            try:
                watcher = store.watch("p/", None, changes.put, on_error=errors.append)
            except Exception as error:
                failed = error
                hooks[0] = None
                watcher = store.watch("p/", None, changes.put, on_error=errors.append)
            assert failed is None or _is_store_error(failed), f"watch {target}: {failed!r}"
            with watcher:
                assert watcher.wait_ready(30)
                hooks[0] = hook  # the statements after the first reads, too
                store.update(key, "fctry.state", {"specVersion": str(target)})
                store.append(log, "hive.event", {**event, "details": {"i": target}})
                seen_document = seen_line = False
                until = time.monotonic() + 30
                while not (seen_document and seen_line) and time.monotonic() < until:
                    try:
                        change = changes.get(timeout=0.2)
                    except queue.Empty:
                        continue
                    if change["path"] == key:
                        seen_document |= change["document"]["specVersion"] == str(target)
                    elif change["path"] == log:
                        seen_line |= any(r["details"]["i"] == target for r in change["records"])
                assert seen_document, f"statement {target}: {errors!r}"
                assert seen_line, f"statement {target}: {errors!r}"
                for error in errors:
                    assert _is_store_error(error), f"statement {target}: {error!r}"
            hooks[0] = None
            if not hook.fired:
                break
            target += 1
        assert target > 5, f"the watcher sent {target - 1} statements"


def test_a_partial_schema_is_a_store_error_that_says_what_to_do(db: dict[str, str]) -> None:
    PostgresStore().close()
    cases = [
        ("the version row removed", "DELETE FROM statecore_meta"),
        ("version 1 on version 2 tables", "UPDATE statecore_meta SET value = '1'"),
    ]
    for what, change in cases:
        sql(change)
        with pytest.raises(statecore.StoreError) as refused:
            PostgresStore()
        error = refused.value
        assert (error.code, error.details["retryable"]) == ("E_STORE", False), what
        assert "statecore_meta" in str(error) or "schema" in str(error), what
        sql(
            "INSERT INTO statecore_meta VALUES ('schema_version', '2') "
            "ON CONFLICT (name) DO UPDATE SET value = '2'"
        )
    sql("ALTER TABLE statecore_documents DROP COLUMN etag")
    with PostgresStore() as store:
        calls: list[Callable[[], object]] = [
            lambda: store.read("a.json", "json"),
            lambda: store.update("a.json", "json", {"v": 1}),
            lambda: store.update("a.json", "json", lambda d: d),
        ]
        for call in calls:
            with pytest.raises(statecore.StoreError) as broken:
                call()
            assert broken.value.details["retryable"] is False
            assert broken.value.details["sqlstate"] == "42703"
            assert "etag" in str(broken.value)
        sql("DROP FUNCTION statecore_append(text, text, text, text)")
        with pytest.raises(statecore.StoreError) as missing:
            store.append("l.jsonl", "json", {})
        assert missing.value.details["sqlstate"] == "42883"


def test_no_store_message_or_detail_shows_a_urls_password(db: dict[str, str]) -> None:
    secret = "s3cr3t-pw"
    url = f"postgresql://{db['PGUSER']}:{secret}@{db['PGHOST']}:1/{db['PGDATABASE']}"
    with pytest.raises(statecore.StoreError) as refused:
        PostgresStore(url, connect_timeout=5)
    shown = f"{refused.value} {refused.value.details!r}"
    assert secret not in shown, shown
    for keywords in (f"host={db['PGHOST']} port=1 password={secret}",):
        with pytest.raises(statecore.StoreError) as again:
            PostgresStore(keywords, connect_timeout=5)
        shown = f"{again.value} {again.value.details!r}"
        assert secret not in shown, shown
    cli = subprocess.run(
        [sys.executable, "-m", "statecore", "show", f"{url}/proj/.fctry/state.json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 2, cli.stderr
    assert "E_STORE" in cli.stdout + cli.stderr or "connect" in cli.stderr
    assert secret not in cli.stdout + cli.stderr, cli.stderr
