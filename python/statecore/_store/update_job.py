"""The driver of a PostgreSQL store's update job (docs/store.md § The update as a job): the core
decides which statements run, in which transaction, when the text the store kept is trusted and
what a failed statement means; ``_store/job.py`` runs its steps, and this applies the change
(``apply``) and keeps the text the job says. The npm twin is
``npm/lib/store/update-job.cjs``."""

from __future__ import annotations

from statecore._statecore import call as _call
from statecore._store.job import Kept, run_job

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from statecore._store.known_rows import Known


def run_update(
    store: Any,
    setup: Mapping[str, object],
    apply: Callable[[bytes | None], Any],
    known: tuple[str, str, bool] | None,
    cache: Known,
) -> Any:
    """Runs the update job of ``setup`` on ``store``'s connection, ``apply(data)`` making the
    update's result from a row's bytes (None: no row) and ``known`` the text the store kept
    (``(text, etag, trusted)`` or None): the result of the last apply, the kept text set as the
    job says; the job's error or the host's own raised."""

    def act(step: Mapping[str, Any], kept: Kept, _rows: object) -> Mapping[str, object]:
        if step["do"] != "apply":
            raise TypeError(f"statecore: a store job asked for an unknown step {step['do']!r}")
        if step["on"] == "known" and known is not None:
            data: bytes | None = known[0].encode()
        else:
            text = None if kept.row is None else kept.row[0]
            data = None if text is None else text.encode()
        result = kept.result = apply(data)
        return {"changed": result["changed"], "corrupt": result["corrupt"], "etag": result["etag"]}

    done, kept = run_job(store, _call("store_job", ("update", setup)), act)
    return _finish(done, str(setup["key"]), cache, kept)


def _finish(done: Mapping[str, Any], key: str, cache: Known, kept: Kept) -> Any:
    """The job's end: the kept text set as it says (the result's or the row's; forgotten when
    that is none); the last apply's result."""
    how = done["cache"]
    if how == "leave":
        return kept.result
    row: tuple[str | None, str | None] | None = None
    if how != "forget":
        result = kept.result
        row = (result["text"], result["etag"]) if how["keep"] == "result" else kept.row
    if row is None or row[0] is None or row[1] is None:
        cache.forget(key)
    else:
        cache.remember(key, row[0], row[1], how["trusted"])
    return kept.result
