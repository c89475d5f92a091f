"""A hive session in PostgreSQL (docs/store.md § Hive sessions): its ``STATE.json`` a row and
its ``EVENTS.jsonl`` a log of the store. A step is one transaction, the core's job
(``session_step``; ``session_read`` reads first, without a lock): the state's row locked, its
text and the log's length (``statecore_logs.bytes``, the bytes a file of its lines would hold)
crossing into the core once (``update_logged``, as on files), the event line appended and the
state written together, so the two never disagree after a crash; a state that is missing,
unreadable or behind its log is rebuilt by replaying the log's lines from where it stops. Here
only the job's own steps: the change applied (``apply``), a replay made (``replay``) and fed a
page of the log's lines (``feed``). The npm twin is ``npm/lib/store/sessions.cjs``.
"""

from __future__ import annotations

import os

from statecore._generated.root import store_logged
from statecore._host import documents as _documents
from statecore._host.runtime import clock
from statecore._statecore import LogReplay, update_logged
from statecore._statecore import call as _call
from statecore._store.job import Kept, run_job

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from statecore.store import PostgresStore
    from statecore.types import DocumentKind, Now


def read(store: PostgresStore, key: str, kind: DocumentKind, timeout: float | None) -> Any:
    """The state at ``key`` as it is when it folds its whole log; else rebuilt from the log
    (and written) in a step's transaction. Returns the result and the state's text."""
    return _run(store, "session_read", key, kind, "", (), None, timeout)


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
    return _run(store, "session_step", key, kind, change, args, now, timeout)[0]


def _seen(out: Mapping[str, Any]) -> dict[str, object]:
    """What the job sees of an apply's (or a replay's commit's) result."""
    return {
        "replay_from": out["replay_from"],
        "corrupt": out["corrupt"],
        "line": out["line"] is not None,
        "write": out["write"],
        "log_offset": out["log_offset"],
        "torn": out["truncate_at"] is not None,
    }


def _run(
    store: PostgresStore,
    job: str,
    key: str,
    kind: DocumentKind,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    timeout: float | None,
) -> tuple[Any, str]:
    """Runs the session job ``job`` of the state at ``key`` with the change ``change`` (``""``:
    none): the result and the state's text."""
    where = store_logged(key, kind)
    assert where is not None  # a kind kept with a log
    session_id = where["session_id"]
    setup = {
        "key": key,
        "kind": kind,
        "timeout_ms": None if timeout is None else round(timeout * 1000),
    }
    at = clock() if now is None else now
    event_id = os.urandom(12).hex() if change else None
    replay: list[LogReplay] = []

    def act(
        step: Mapping[str, Any], kept: Kept, rows: Callable[[list[object]], list[Any]]
    ) -> Mapping[str, object]:
        text = None if kept.row is None else kept.row[0]
        data = None if text is None else text.encode()
        what = step["do"]
        if what == "apply":
            if step["on"] == "replay":
                kept.result = replay[-1].commit(change, args, at, event_id)
            else:
                size = step["size"]
                kept.result = update_logged(
                    kind, session_id, change, data, size, args, at, event_id
                )
            return _seen(kept.result)
        if what == "replay":
            corrupt = step["corrupt"]
            replay.append(
                LogReplay(kind, session_id, None if corrupt else data, step["from"], corrupt)
            )
            return {}
        if what == "feed":
            # The lines' bytes as a file of them holds them, from byte ``from`` on.
            start = step["from"]
            lines = rows(step["params"])
            end = None
            for line_text, line_end in lines:
                line = (line_text + "\n").encode()
                begin = line_end - len(line)
                replay[-1].feed(line[start - begin :] if begin < start else line)
                end = line_end
            return (
                {"count": len(lines)} if end is None else {"count": len(lines), "end_offset": end}
            )
        raise TypeError(f"statecore: a session job asked for an unknown step {what!r}")

    store._connect()
    _, kept = run_job(store, _call("store_job", (job, setup)), act)
    return _result(kept.result, change), kept.result["text"]


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
