"""The driver of a PostgreSQL store's jobs (docs/store.md § The update as a job, § Hive
sessions): the core decides which statements run, in which transaction, and what a failed one
means; this runs each step it asks for on the store's connection (``statement``, ``begin``,
``commit``, ``rollback``, ``drop``, a plan of them: ``all``), hands the job's own steps
(``apply``, and a session's ``replay`` and ``feed``) to the caller's ``act``, and feeds back
what it saw. The npm twin is ``npm/lib/store/job.cjs``."""

from __future__ import annotations

from typing import TypedDict

from statecore._host.jobs import drive
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


class Facts(TypedDict):
    """What a failed step's error is to the job (and to ``store_failure``)."""

    sqlstate: str | None
    connection: bool
    message: str
    refused: bool


def facts(error: BaseException, psycopg: Any) -> Facts:
    """What a failed step's error is to the job: the statement's SQLSTATE (None: none), whether
    psycopg says the connection failed (``OperationalError``), the driver's message, and whether
    the core refused it."""
    if isinstance(error, psycopg.Error):
        sqlstate = error.sqlstate
        connection = isinstance(error, psycopg.OperationalError)
    else:
        sqlstate, connection = None, False
    return {
        "sqlstate": sqlstate,
        "connection": connection,
        "message": str(error),
        "refused": isinstance(error, StatecoreError),
    }


class Kept:
    """What a job's steps kept: ``result``, what ``act`` made last (a mapping with its
    ``text``, ``etag`` and, for a session, ``line``); ``row``, the last row a statement with
    ``row: true`` read, ``(text, etag)`` or None."""

    __slots__ = ("result", "row")

    def __init__(self) -> None:
        self.result: Any = None
        self.row: tuple[str | None, str | None] | None = None


def run_job(store: Any, job: Any, act: Callable[..., Mapping[str, object]]) -> tuple[Any, Kept]:
    """Runs ``job`` on ``store``'s connection (its ``_run``, ``_conn``, ``_psycopg``,
    ``close``) to its end: the job's last step and what the steps kept. ``act(step, kept,
    rows)`` performs a step of the job's own. Raises the job's error or the host's own. Run
    on the one job driver (``_host.jobs``)."""
    kept = Kept()

    def param(p: object) -> object:
        """A statement's parameter: a value, or the text, etag or line of the result or row."""
        if not isinstance(p, dict):
            return p
        if "line" in p:
            return str(kept.result["line"]).strip("\n")
        what = "text" if "text" in p else "etag"
        if p[what] == "result":
            return kept.result[what]
        if kept.row is None:
            return None
        return kept.row[0] if what == "text" else kept.row[1]

    def take(step: dict[str, Any], fail: Callable[[BaseException], int]) -> dict[str, Any]:
        """One step performed: what the job is answered."""
        try:
            what = step["do"]
            if what == "statement":
                cursor = store._run(step["name"], *[param(p) for p in step["params"]])
                names = [c.name for c in cursor.description or ()]
                first = cursor.fetchone() if names else None
                columns = {} if first is None else dict(zip(names, first))
                if step.get("row"):
                    found = None if first is None else (columns.get("text"), columns.get("etag"))
                    kept.row = found
                columns.pop("text", None)
                return {"count": max(cursor.rowcount, 0), **columns}
            if what in ("begin", "commit", "rollback"):
                store._conn.execute(what.upper())
                return {}
            if what == "drop":
                store.close()
                store._conn = None
                return {}

            def rows(params: list[object]) -> list[tuple[Any, ...]]:
                return list(store._run(step["name"], *[param(p) for p in params]).fetchall())

            return dict(act(step, kept, rows))
        except Exception as error:
            return {"failed": fail(error), **facts(error, store._psycopg)}

    return drive(job, take), kept
