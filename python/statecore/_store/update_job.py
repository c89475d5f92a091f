"""The driver of a PostgreSQL store's update job (docs/store.md § The update as a job): the core
decides which statements run, in which transaction, when the text the store kept is trusted and
what a failed statement means; this runs each step it asks for on the store's connection
(``statement``, ``begin``, ``commit``, ``rollback``, ``drop``), applies the change (``apply``)
and keeps the texts, and feeds back what it saw. The npm twin is
``npm/lib/store/update-job.cjs``."""

from __future__ import annotations

from typing import TypedDict

from statecore._host.lock import _meets as meets
from statecore._statecore import Job
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from statecore._store.known_rows import Known


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


class UpdateJob:
    """One update job of a store (``store``: its ``_run``, ``_conn``, ``_psycopg``, ``close``)
    with ``apply(data)`` making the update's result from a row's bytes (None: no row) and
    ``known`` the text the store kept (``(text, etag, trusted)`` or None)."""

    __slots__ = ("_apply", "_errors", "_known", "_result", "_row", "_store")

    def __init__(
        self,
        store: Any,
        apply: Callable[[bytes | None], Any],
        known: tuple[str, str, bool] | None,
    ) -> None:
        self._store = store
        self._apply = apply
        self._known = known
        self._errors: list[BaseException] = []
        self._result: Any = None
        self._row: tuple[str, str] | None = None

    def run(self, setup: Mapping[str, object], cache: Known) -> Any:
        """Runs the job to its end: the result of the last apply, the kept text set as the job
        says; the job's error or the host's own raised."""
        job = Job.store("update", setup)
        step: dict[str, Any] = job.first
        key = str(setup["key"])
        while True:
            what = step["do"]
            if what == "raise":
                raise self._errors[step["failed"]]
            if what == "done":
                return self._finish(step, key, cache)
            if what == "all":
                answers: list[dict[str, object]] = []
                for one in step["steps"]:
                    if one["do"] == "done":
                        return self._finish(one, key, cache)
                    got = self._take(one)
                    answers.append(got)
                    if "failed" in got or not meets(got, one.get("expect")):
                        break
                answer: dict[str, object] = {"answers": answers}
            else:
                answer = self._take(step)
            step = job.next(answer)

    def _take(self, step: Mapping[str, Any]) -> dict[str, object]:
        """One step performed: what the job is answered."""
        store = self._store
        try:
            what = step["do"]
            if what == "apply":
                if step["on"] == "known" and self._known is not None:
                    data: bytes | None = self._known[0].encode()
                else:
                    data = None if self._row is None else self._row[0].encode()
                result = self._result = self._apply(data)
                return {
                    "changed": result["changed"],
                    "corrupt": result["corrupt"],
                    "etag": result["etag"],
                }
            if what == "statement":
                params = [self._param(p) for p in step["params"]]
                cursor = store._run(step["name"], *params)
                names = [c.name for c in cursor.description or ()]
                first = cursor.fetchone() if names else None
                columns = {} if first is None else dict(zip(names, first))
                if step.get("row"):
                    found = columns if first is not None else None
                    self._row = None if found is None else (found["text"], found["etag"])
                columns.pop("text", None)
                return {"count": max(cursor.rowcount, 0), **columns}
            if what in ("begin", "commit", "rollback"):
                store._conn.execute(what.upper())
                return {}
            if what == "drop":
                store.close()
                store._conn = None
                return {}
            raise TypeError(f"statecore: a store job asked for an unknown step {what!r}")
        except Exception as error:
            self._errors.append(error)
            return {"failed": len(self._errors) - 1, **facts(error, store._psycopg)}

    def _param(self, p: object) -> object:
        """A statement's parameter: a value, or the text or etag of the ``result`` or ``row``."""
        if not isinstance(p, dict):
            return p
        what = "text" if "text" in p else "etag"
        if p[what] == "result":
            return self._result[what]
        if self._row is None:
            return None
        return self._row[0] if what == "text" else self._row[1]

    def _finish(self, done: Mapping[str, Any], key: str, cache: Known) -> Any:
        """The job's end: the kept text set as it says (the result's or the row's; forgotten
        when that is none); the last apply's result."""
        kept = done["cache"]
        if kept == "leave":
            return self._result
        row: tuple[str, str] | None = None
        if kept != "forget":
            if kept["keep"] == "result":
                row = (self._result["text"], self._result["etag"])
            else:
                row = self._row
        if row is None:
            cache.forget(key)
        else:
            cache.remember(key, row[0], row[1], kept["trusted"])
        return self._result
