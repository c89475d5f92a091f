"""``PostgresStore.watch`` (docs/store.md § Watching): each change of a document or log under a
key prefix, read and checked as its kind, on a thread of the watcher's own with its own
connection, woken by the store's ``pg_notify`` triggers (``LISTEN statecore``); a lost
connection is reported (``E_STORE``) and made again, and what changed meanwhile reported.
What a row's text is is the core's (``watch_target``, ``watch_read``): a change reported here
is the same ``WatchChange`` a file watcher reports. The npm twin is ``npm/lib/store/watch.cjs``."""

from __future__ import annotations

import json

from statecore._generated.root import (
    store_failure,
    store_schema_mismatch,
    store_unavailable,
    watch_read,
    watch_target,
)
from statecore._host.file_watch import Threaded
from statecore.errors import StoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from statecore.store import PostgresStore
    from statecore.types import DocumentKind, WatchChange, WatchTarget

#: How long the thread waits for a notification before it looks whether it was closed, in s.
TICK_S = 0.1
#: The watcher's connection's ``application_name`` (as ``pg_stat_activity`` shows it).
APPLICATION = "statecore watch"
#: The waits before each attempt to connect again after the connection was lost, in s (the
#: last one repeats until it connects or is closed).
RECONNECT_S = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


class _Seen:
    """What the watcher keeps of a key: what it reads it as, and where it stopped."""

    __slots__ = ("etag", "line", "seq", "target")

    def __init__(self, target: WatchTarget | None) -> None:
        self.target = target
        self.etag: str | None = None
        self.seq = 0
        self.line = 0


class StoreWatcher(Threaded):
    """A running watcher of a store (:meth:`PostgresStore.watch`): use it as a context manager,
    or call :meth:`close`."""

    _name = "statecore store watch"

    def __init__(
        self,
        store: PostgresStore,
        prefix: str,
        kind: DocumentKind | None,
        callback: Callable[[WatchChange], object],
        initial: bool,
        on_error: Callable[[BaseException], object] | None,
    ) -> None:
        self._store = store
        self._prefix = prefix
        self._kind = kind
        self._callback = callback
        self._initial = initial
        self._seen: dict[str, _Seen] = {}
        self._conn: Any = None
        try:
            self._connect()
        except store._psycopg.OperationalError as error:
            # Lost before it listens: the retryable ``E_STORE`` of this call.
            if self._conn is not None:
                self._conn.close()
            store_unavailable("watch", prefix, str(error))
        self._start(on_error)

    def _connect(self) -> None:
        """A connection of the watcher's own that listens (before anything is read, so that
        no change between the read and the listen is missed)."""
        store = self._store
        self._conn = store._open(application_name=APPLICATION)
        self._conn.execute(store._sql["listen"])

    def _q(self, name: str, *params: object) -> Any:
        values = {f"p{i}": value for i, value in enumerate(params, 1)}
        return self._conn.execute(self._store._sql[name], values)

    def _state(self, key: str) -> _Seen:
        seen = self._seen.get(key)
        if seen is None:
            found = None
            if key.startswith(self._prefix):
                found = watch_target(key, self._kind, False)
            seen = self._seen[key] = _Seen(found)
        return seen

    def _document(self, key: str, report: bool = True) -> None:
        """Reads the row of ``key`` and reports it when its text changed (``report``: else
        only remembers it)."""
        seen = self._state(key)
        if seen.target is None:
            return
        row = self._q("read", key).fetchone()
        data = None if row is None else row[0].encode()
        facts = {"attempt": 0, "locked": False, "etag": seen.etag}
        answer = watch_read(seen.target, data, facts)
        seen.etag = answer["etag"]
        if report and answer["action"] == "report" and answer["change"] is not None:
            self._callback(answer["change"])

    def _log(self, log: str, report: bool = True) -> None:
        """Reads the lines of ``log`` after the last one reported, and reports them."""
        seen = self._state(log)
        if seen.target is None:
            return
        rows = self._q("read_log", log, seen.seq, None).fetchall()
        if not rows:
            return
        data = "".join(text + "\n" for _seq, text in rows).encode()
        facts = {"attempt": 0, "locked": False, "line": seen.line}
        answer = watch_read(seen.target, data, facts)
        seen.seq, seen.line = rows[-1][0], answer["line"]
        if report and answer["action"] == "report" and answer["change"] is not None:
            self._callback(answer["change"])

    def _guarded(self, job: Callable[[str, bool], None], key: str, report: bool = True) -> None:
        """Runs ``job``; its error goes to ``on_error``, unless the connection was lost."""
        try:
            job(key, report)
        except self._store._psycopg.OperationalError:
            raise
        except self._store._psycopg.Error as error:
            if store_failure(error.sqlstate, False) != "schema":
                self._fail(error)
                return
            try:  # a partial schema: the ``E_STORE`` that says what to do
                store_schema_mismatch("watch", self._prefix, str(error.sqlstate), str(error))
            except StoreError as schema:
                self._fail(schema)
        except Exception as error:
            self._fail(error)

    def _sync(self, report: bool) -> None:
        """Reads every document and log under the prefix: each is reported when it changed
        since it was last reported (``report``), so a change made while the watcher was not
        connected is reported once."""
        for (key,) in self._q("list_documents", self._prefix).fetchall():
            self._guarded(self._document, key, report)
        for (log,) in self._q("list_logs", self._prefix).fetchall():
            self._guarded(self._log, log, report)

    def _listen(self) -> None:
        """Reads what each notification names, until closed or the connection is lost."""
        while not self._stop.is_set():
            # The generator holds the connection: gather, then read (stop_after: at once).
            notes = list(self._conn.notifies(timeout=TICK_S, stop_after=1))
            for note in notes:
                if self._stop.is_set():
                    break
                payload = json.loads(note.payload)
                if "key" in payload:
                    self._guarded(self._document, payload["key"])
                elif "log" in payload:
                    self._guarded(self._log, payload["log"])

    def _lost(self, error: BaseException) -> None:
        """Reports a lost connection (the core's retryable ``E_STORE``) and drops it."""
        try:
            store_unavailable("watch", self._prefix, str(error))
        except StoreError as unavailable:
            self._fail(unavailable)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _run(self) -> None:
        """The watching thread: the rows as they are, then each notification in turn; after a
        lost connection, connects again (``RECONNECT_S``) and reports what changed meanwhile."""
        lost = self._store._psycopg.OperationalError
        first, attempt = True, 0
        try:
            while not self._stop.is_set():
                try:
                    if self._conn is None:
                        self._connect()
                    self._sync(self._initial or not first)
                    first, attempt = False, 0
                    self._ready.set()
                    self._listen()
                except lost as error:
                    self._lost(error)
                    self._stop.wait(RECONNECT_S[min(attempt, len(RECONNECT_S) - 1)])
                    attempt += 1
        except Exception as error:
            self._fail(error)
        finally:
            self._ready.set()
            if self._conn is not None:
                self._conn.close()
