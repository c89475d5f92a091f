"""Document stores (docs/store.md): the same documents and logs in a directory (``FileStore``)
or in PostgreSQL (``PostgresStore``), behind one interface: ``read``, ``update`` (a patch or a
function, with ``if_match``), ``append`` (exactly once with an ``id``) and ``read_log``. The
rules are the core's: an update crosses into it once (``update_file`` over the file's or the
row's text), and the SQL both languages run is the core's (``store_schema``). The npm twin is
``npm/lib/store/store.cjs``."""

from __future__ import annotations

import re
import select

from statecore._generated.root import (
    check_if_match,
    finish_update,
    load_document,
    log_line,
    store_failure,
    store_key,
    store_lock_timeout,
    store_migrations,
    store_schema,
    store_schema_mismatch,
    store_unavailable,
)
from statecore._generated.tables import (
    LOGS,
    STORE_KEEPALIVE_COUNT,
    STORE_KEEPALIVE_IDLE_S,
    STORE_KEEPALIVE_INTERVAL_S,
    STORE_TCP_USER_TIMEOUT_MS,
)
from statecore._host import documents as _documents
from statecore._host import runtime as _runtime
from statecore._host.routines import query_file, update_file
from statecore._host.runtime import clock
from statecore._store import sessions as _store_sessions
from statecore._store.file_store import FileStore, _check_record
from statecore._store.job import facts
from statecore._store.known_rows import Known
from statecore._store.update_job import run_update

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any

    from statecore._generated.host_types import FileResult, StoreAppend
    from statecore._store.watch import StoreWatcher
    from statecore.types import DocumentKind, Json, LoadResult, Now, WatchChange


#: ``$1``... as psycopg's named placeholders (a statement holds no ``%``).
_PARAM = re.compile(r"\$(\d+)")


def _readable(fd: int) -> bool:
    """Whether the socket ``fd`` has data (or its end) waiting, without waiting."""
    if hasattr(select, "poll"):
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        return bool(poll.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


def _read_waiting(pgconn: Any) -> None:
    """Takes in what the server sent an idle connection: the ``OperationalError`` of a
    session it ended (its last message, then the end of the connection)."""
    for _ in range(4):
        if not _readable(pgconn.socket):
            return
        pgconn.consume_input()


class PostgresStore:
    """Documents and logs in PostgreSQL (docs/store.md): one row per document, updated in one
    transaction that locks the row (``SELECT ... FOR UPDATE``) for the time of one core
    crossing; logs as an append-only table with a per-log sequence. ``conninfo`` is a libpq
    connection string or URL; empty: the usual ``PG*`` environment variables. The schema is
    created or migrated on connect. Needs ``pip install 'statecore[postgres]'`` (psycopg 3).
    One connection per store: use one store per thread."""

    def __init__(self, conninfo: str = "", *, connect_timeout: float = 10.0) -> None:
        import psycopg  # the `statecore[postgres]` extra

        self._psycopg = psycopg
        self._conninfo = conninfo
        self._timeout = max(1, int(connect_timeout))
        self._schema = store_schema()
        statements = self._schema["statements"].items()
        self._sql = {name: _PARAM.sub(r"%(p\1)s", sql) for name, sql in statements}
        self._conn: Any = None
        self._known = Known()
        self._connect()

    def _connect(self) -> Any:
        """The connection, made (and the schema created or migrated) when there is none or
        the last one was lost (also while it was idle: docs/store.md § Failures)."""
        if self._conn is not None and not self._conn.closed:
            try:
                # Reads what the server sent since (nothing blocks): a session it ended while
                # the connection was idle is found here, not by the operation's statement.
                _read_waiting(self._conn.pgconn)
                return self._conn
            except self._psycopg.OperationalError:
                self.close()
                self._conn = None
        shown = self._conninfo or "(PG* environment)"
        try:
            self._conn = self._open()
        except self._psycopg.OperationalError as error:
            store_unavailable("connect", shown, str(error))
        try:
            self._migrate(self._schema)
        except BaseException:
            self.close()
            self._conn = None
            raise
        return self._conn

    def _open(self, **options: object) -> Any:
        """A new connection (autocommit; ``options``: more connection parameters) with
        keepalives and a bound on unacknowledged data on both its sides (docs/store.md §
        Failures): the client's where the connection string does not set them, the server's by
        the ``keepalives`` statement, so that a vanished host's session and row locks end
        within seconds."""
        given = self._psycopg.conninfo.conninfo_to_dict(self._conninfo)
        keepalives = {
            "keepalives": 1,
            "keepalives_idle": STORE_KEEPALIVE_IDLE_S,
            "keepalives_interval": STORE_KEEPALIVE_INTERVAL_S,
            "keepalives_count": STORE_KEEPALIVE_COUNT,
            "tcp_user_timeout": STORE_TCP_USER_TIMEOUT_MS,
        }
        params: dict[str, Any] = {k: v for k, v in keepalives.items() if k not in given}
        params.update(options, connect_timeout=self._timeout, autocommit=True)
        conn = self._psycopg.connect(self._conninfo, **params)
        try:
            settings = (
                STORE_KEEPALIVE_IDLE_S,
                STORE_KEEPALIVE_INTERVAL_S,
                STORE_KEEPALIVE_COUNT,
                STORE_TCP_USER_TIMEOUT_MS,
            )
            values = {f"p{i}": str(value) for i, value in enumerate(settings, 1)}
            conn.execute(self._sql["keepalives"], values)
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        """Closes the connection."""
        if self._conn is not None:
            self._conn.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, name: str, *params: object) -> Any:
        """Runs the statement ``name`` with ``$1``... = ``params``; its cursor."""
        values = {f"p{i}": value for i, value in enumerate(params, 1)}
        return self._conn.execute(self._sql[name], values)

    def _migrate(self, schema: Mapping[str, Any]) -> None:
        """Creates or migrates the schema, one migrator at a time (an advisory lock)."""
        with _Guard(self, "migrate", "schema"), self._conn.transaction():
            self._run("lock_migrations", schema["migration_lock"])
            self._conn.execute(schema["bootstrap"])
            row = self._run("read_version").fetchone()
            for migration in store_migrations(None if row is None else row[0]):
                self._conn.execute(migration["sql"])
                self._run("write_version", str(migration["version"]))

    def _guard(self, operation: str, key: str, timeout: float | None = None) -> _Guard:
        """The context of one operation's transaction: a lost connection is ``E_STORE`` (the
        next operation connects again), a row locked past ``timeout`` ``E_LOCK_TIMEOUT``."""
        self._connect()
        return _Guard(self, operation, key, timeout)

    def read(
        self, key: str, kind: DocumentKind, *, timeout: float | None = None
    ) -> LoadResult[Any]:
        """The document at ``key`` with its etag (the default document when there is none); a
        hive session's state as ``read_state`` reads it, rebuilt from its log when behind
        (``timeout``: seconds to wait for its row then)."""
        key = store_key(key)
        if kind in LOGS:
            result: LoadResult[Any] = _store_sessions.read(self, key, kind, timeout)[0]
            return result
        return load_document(kind, self._text(key))

    def _text(self, key: str) -> bytes | None:
        """The text of the row at ``key`` (checked), None when there is none."""
        with self._guard("read", key):
            row = self._run("read", key).fetchone()
        return None if row is None else row[0].encode()

    def query(self, key: str, kind: DocumentKind, op: str, args: tuple[object, ...] = ()) -> Any:
        """A reader of the table (``"fctry_context_health"``) on the document at ``key``, its
        ``args`` after the document."""
        key = store_key(key)
        if kind in LOGS:
            return query_file(kind, op, _store_sessions.read(self, key, kind, None)[1], args)
        return query_file(kind, op, self._text(key), args)

    def update(
        self,
        key: str,
        kind: DocumentKind,
        patch_or_function: object,
        merge: Mapping[str, object] | None = None,
        *,
        now: Now | None = None,
        if_match: str | None = None,
        reset: bool = False,
        timeout: float | None = None,
    ) -> FileResult[Any, None]:
        """One transaction: the row read and locked, the change applied by the core (a patch
        merged with ``merge``, or a function of the document), validated, and written when it
        changed; ``if_match`` requires the row's etag (``ConflictError``)."""
        if callable(patch_or_function):
            if now is not None:
                raise TypeError("now stamps a patch; an update function writes its fields itself")
            host = (if_match, reset, timeout)
            return self._transact(key, kind, patch_or_function, (), None, host)
        args = (patch_or_function, merge)
        return self._transact(key, kind, "merge", args, now, (if_match, reset, timeout))

    def change(
        self,
        key: str,
        kind: DocumentKind,
        change: str,
        args: tuple[object, ...] = (),
        *,
        now: Now | None = None,
        if_match: str | None = None,
        reset: bool = False,
        timeout: float | None = None,
    ) -> FileResult[Any, Any]:
        """A change the core names applied to the document at ``key`` in one transaction:
        ``change`` is a writer of the table (``"fctry_start_step"``, its ``args`` after the
        document), ``""`` (replace with ``args[0]``) or ``"merge"`` (``args`` = patch,
        options), as ``update_file`` takes it. ``timeout``: seconds to wait for a row another
        writer's transaction holds (``LockTimeoutError``; default: wait). A hive session's
        state changes by a step that appends its event line to the log beside it in the same
        transaction (docs/store.md § Hive sessions)."""
        if kind in LOGS:
            given = {"if_match": if_match, "reset": reset or None}
            _runtime.check_options("logged", {k: v for k, v in given.items() if v is not None})
            result: FileResult[Any, Any] = _store_sessions.step(
                self, store_key(key), kind, change, args, now, timeout
            )
            return result
        return self._transact(key, kind, change, args, now, (if_match, reset, timeout))

    def _transact(
        self,
        key: str,
        kind: DocumentKind,
        change: object,
        args: tuple[object, ...],
        now: Now | None,
        host: tuple[str | None, bool, float | None],
    ) -> FileResult[Any, Any]:
        """The update as the core's job (docs/store.md § The update as a job): a
        compare-and-swap on the text this store kept, or on the row read, or the locked
        transaction; this only runs the statements it asks for and applies the change.
        ``host``: ``(if_match, reset, timeout)``."""
        key = store_key(key)
        if_match, reset, timeout = host

        def apply(data: bytes | None) -> Any:
            if callable(change):
                loaded = load_document(kind, data)
                check_if_match(loaded["etag"], if_match)
                returned = change(loaded["document"])
                document = loaded["document"] if returned is None else returned
                return finish_update(kind, data, document, None, reset)
            at = clock() if now is None else now
            return update_file(kind, str(change), data, args, at, if_match, reset)

        known = self._known.recall(key)
        setup = {
            "key": key,
            "kind": kind,
            "function": callable(change),
            "timeout_ms": None if timeout is None else round(timeout * 1000),
            "known": None if known is None else {"etag": known[1], "trusted": known[2]},
        }
        self._connect()
        result = run_update(self, setup, apply, known, self._known)
        out: FileResult[Any, Any] = _documents.outcome(result, list(result["warnings"]), None)
        return out

    def _keys(self, prefix: str) -> list[str]:
        """The keys of the documents and logs that start with ``prefix``, in order."""
        with self._guard("list", prefix):
            documents = self._run("list_documents", prefix).fetchall()
            logs = self._run("list_logs", prefix).fetchall()
        return sorted({row[0] for row in documents} | {row[0] for row in logs})

    def watch(
        self,
        prefix: str,
        kind: DocumentKind | None,
        callback: Callable[[WatchChange], object],
        *,
        initial: bool = True,
        on_error: Callable[[BaseException], object] | None = None,
    ) -> StoreWatcher:
        """Calls ``callback(change)`` on a thread of its own for each change of a document or
        log whose key starts with ``prefix`` and that the viewer would show (of ``kind`` only,
        when given), as ``statecore.watch`` does for files (docs/store.md § Watching): a
        document's text when it changed, a log's lines appended since the last report.
        ``initial``: report each as it is first."""
        from statecore._store.watch import StoreWatcher

        _runtime.check_options("store_watch", {"initial": initial})
        return StoreWatcher(self, prefix, kind, callback, initial, on_error)

    def append(
        self, log: str, kind: DocumentKind, value: Json, *, id: str | None = None
    ) -> StoreAppend:
        """Validates ``value`` as ``kind`` and appends it to the log: ``{seq, appended}``. With
        ``id``, exactly once: a record already appended with that id is not appended again
        (``appended`` false, its ``seq``)."""
        log = store_key(log)
        _runtime.check_options("store_append", {"id": id})
        _check_record(kind, value)
        line = log_line(value).rstrip("\n")
        with self._guard("append", log):
            seq, appended, _end = self._run("append", log, kind, id, line).fetchone()
        return {"seq": seq, "appended": appended}

    def read_log(self, log: str, *, after: int = 0, limit: int | None = None) -> list[Json]:
        """The log's records after sequence number ``after``, in order."""
        return [record for _seq, record in self.read_log_lines(log, after=after, limit=limit)]

    def read_log_lines(
        self, log: str, *, after: int = 0, limit: int | None = None
    ) -> Iterator[tuple[int, Json]]:
        """``(seq, record)`` of the log's records after ``after``, in order."""
        from statecore._generated.root import parse

        log = store_key(log)
        _runtime.check_options("read_log", {"after": after, "limit": limit})
        with self._guard("read_log", log):
            rows = self._run("read_log", log, after, limit).fetchall()
        return iter([(seq, parse(text)) for seq, text in rows])


class _Guard:
    """Turns a failed statement into what the core's ``store_failure`` says it is: a lost or
    refused connection the retryable ``E_STORE`` error (the store connects again on its next
    operation), a row held too long ``E_LOCK_TIMEOUT``, a partial schema the ``E_STORE`` that
    says what to do; a statement's own error as it is."""

    __slots__ = ("_key", "_operation", "_store", "_timeout")

    def __init__(
        self, store: PostgresStore, operation: str, key: str, timeout: float | None = None
    ) -> None:
        self._store = store
        self._operation = operation
        self._key = key
        self._timeout = timeout

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, tb: object) -> None:
        store = self._store
        if not isinstance(error, store._psycopg.Error):
            return
        seen = facts(error, store._psycopg)  # what the error is, as the update job is told
        verdict = store_failure(seen["sqlstate"], seen["connection"])  # the core's rule
        if verdict == "lock_timeout":
            store_lock_timeout(self._key, round((self._timeout or 0) * 1000))
        if verdict == "unavailable":
            store.close()
            store._conn = None
            store_unavailable(self._operation, self._key, str(error))
        if verdict == "schema":
            store_schema_mismatch(self._operation, self._key, str(error.sqlstate), str(error))


__all__ = ["FileStore", "PostgresStore"]
