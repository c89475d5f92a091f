"""A hive session in PostgreSQL (docs/store.md § Hive sessions): its ``STATE.json`` a row and
its ``EVENTS.jsonl`` a log of the store. A step is one transaction: the state's row locked,
its text and the log's length (``statecore_logs.bytes``, the bytes a file of its lines would
hold) crossing into the core once (``update_logged``, as on files), the event line appended
and the state written together, so the two never disagree after a crash. A state that is
missing, unreadable or behind its log (lines appended by ``append``) is rebuilt by replaying
the log's lines from where it stops, as on files. Only I/O is here; every decision is the
core's. The npm twin is ``npm/lib/store/sessions.cjs``.
"""

from __future__ import annotations

import os

from statecore._generated.root import store_logged, store_unavailable
from statecore._host import documents as _documents
from statecore._host.runtime import clock
from statecore._statecore import LogReplay, update_logged

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from statecore.store import PostgresStore
    from statecore.types import DocumentKind, Now

#: How many times a step that another writer got in the way of is tried again.
CREATE_RETRIES = 8
#: How many log lines a replay reads at a time.
PAGE = 1000


class Retry(Exception):
    """Another writer got between the read and the write (created the state, or appended to
    the log outside a step): the step runs again."""


def read(store: PostgresStore, key: str, kind: DocumentKind, timeout: float | None) -> Any:
    """The state at ``key`` as it is when it folds its whole log; else rebuilt from the log
    (and written) in a step's transaction. Returns the result and the state's text."""
    where = store_logged(key, kind)
    assert where is not None  # a kind kept with a log
    with store._guard("read", key):
        text, size = store._run("read_logged", key, where["log"]).fetchone()
    data = None if text is None else text.encode()
    at = clock()
    out = update_logged(kind, where["session_id"], "", data, size or 0, (), at)
    if out["replay_from"] is None:
        return _result(out, ""), out["text"]
    return _step(store, key, kind, "", (), None, timeout)


def step(
    store: PostgresStore,
    key: str,
    kind: DocumentKind,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    timeout: float | None,
) -> Any:
    """The step ``change`` (a writer of the table) of the state at ``key``, with ``args``
    after the state: ``{document, etag, changed, warnings, corrupt_copy, result,
    recovered}``, as on files."""
    return _step(store, key, kind, change, args, now, timeout)[0]


def _step(
    store: PostgresStore,
    key: str,
    kind: DocumentKind,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    timeout: float | None,
) -> tuple[Any, str]:
    """The step ``change`` (``""``: a read that rebuilds) in one transaction, again when
    another writer got in between: the result and the state's text."""
    where = store_logged(key, kind)
    assert where is not None  # a kind kept with a log
    for _ in range(CREATE_RETRIES):
        try:
            with store._guard("update", key, timeout), store._conn.transaction():
                if timeout is not None:
                    store._run("lock_timeout", f"{max(1, round(timeout * 1000))}ms")
                return _locked(store, key, kind, where, change, args, now)
        except Retry:
            continue
    store_unavailable("update", key, "other writers kept changing the session meanwhile")
    raise AssertionError("unreachable")  # store_unavailable raises


def _locked(
    store: PostgresStore,
    key: str,
    kind: DocumentKind,
    where: Any,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
) -> tuple[Any, str]:
    """The step inside its transaction: the state's row locked, one crossing (and a replay
    when the state does not fold the whole log), the line appended, the row written; the
    result and the state's text."""
    log, session_id = where["log"], where["session_id"]
    row = store._run("read_for_update", key).fetchone()
    data = None if row is None else row[0].encode()
    found = store._run("log_bytes", log).fetchone()
    size = 0 if found is None else found[0]
    at = clock() if now is None else now
    event_id = os.urandom(12).hex() if change else None
    out = update_logged(kind, session_id, change, data, size, args, at, event_id)
    kept = False
    # A replay from the state's offset may ask for a replay of the whole log (a line after
    # the offset that cannot be applied): at most two rounds.
    while out["replay_from"] is not None:
        corrupt = out["corrupt"]
        if corrupt and row is not None and not kept:
            store._run("keep_corrupt", key, row[0])
            kept = True
        replay = LogReplay(kind, session_id, None if corrupt else data, out["replay_from"], corrupt)
        _feed(store, log, out["replay_from"], replay.feed)
        out = replay.commit(change, args, at, event_id)
        # Every line of a store's log ends where it should: none is ever torn.
        assert out["truncate_at"] is None
    if out["line"] is not None:
        text = out["line"].strip("\n")
        appended = store._run("append", log, where["record"], None, text).fetchone()
        if appended[2] != out["log_offset"]:
            raise Retry  # a line appended outside a step got in first
    if out["write"] and not store._write_row(key, kind, row, out["text"], out["etag"]):
        raise Retry
    return _result(out, change), out["text"]


def _feed(store: PostgresStore, log: str, start: int, feed: Callable[[bytes], object]) -> None:
    """Calls ``feed(chunk)`` with the bytes of ``log``'s lines from byte ``start`` on, as a
    file of its lines holds them, a page of lines at a time."""
    at = start
    while True:
        rows = store._run("read_log_from", log, at, PAGE).fetchall()
        for text, end in rows:
            line = (text + "\n").encode()
            begin = end - len(line)
            feed(line[at - begin :] if begin < at else line)
            at = end
        if len(rows) < PAGE:
            return


def _result(out: Any, change: str) -> Any:
    """What a step's caller gets (as ``_sessions``: files)."""
    result = _documents.outcome(
        {
            "document": out["document"],
            "etag": out["etag"],
            "changed": out["write"],
        },  # type: ignore[typeddict-item]
        list(out["warnings"]),
        None,
    )
    result["recovered"] = out["recovered"]
    if change:
        result["result"] = {"state": out["document"], "event": out["event"]}
    return result
