"""statecore under asyncio: any helper run without stalling the event loop.

``await statecore.aio.run(helper, *args, **kwargs)`` runs a statecore helper (a document
update, a log append, any protocol helper of ``statecore.fctry``, ``agency``, ``hivemind``,
``hive``, ``specify``) on a worker thread, so its wait for a file's lock sleeps there and the
event loop goes on; it returns the helper's result, or raises its error. One function for
every helper, typed by the helper's own signature (``ParamSpec``): nothing is written twice.

Cancellation never leaves a lock behind and never writes behind the caller's back:

- cancelled while it waits for the lock, the wait stops at its next poll (within a few tens
  of milliseconds), before the lock is taken: nothing is written;
- cancelled once the lock is held, the update finishes (it is atomic: old or new document,
  never a part) and the lock is released; then ``CancelledError`` is raised.

Either way ``run`` returns only once the worker is done. ``acquire_lock`` is the lock
itself, as an async context manager (docs/locking.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import TYPE_CHECKING, TypeVar

from statecore._host import lock as _lock

if TYPE_CHECKING:
    import os
    from collections.abc import AsyncIterator, Callable

    from typing_extensions import ParamSpec

    P = ParamSpec("P")

R = TypeVar("R")

__all__ = ["acquire_lock", "run"]


async def run(helper: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Runs ``helper(*args, **kwargs)`` on a worker thread and returns its result (see the
    module's docstring for cancellation)."""
    cancel = threading.Event()
    token = _lock.CANCEL.set(cancel)
    try:
        # The worker runs in a copy of this context: it sees its own ``cancel``.
        work = asyncio.ensure_future(asyncio.to_thread(helper, *args, **kwargs))
    finally:
        _lock.CANCEL.reset(token)
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        cancel.set()
        # Wait for the worker: it stops before the lock, or finishes what it holds the lock for.
        with contextlib.suppress(_lock.Cancelled, Exception):
            await work
        raise


@contextlib.asynccontextmanager
async def acquire_lock(
    path: str | os.PathLike[str], timeout: float | None = _lock.DEFAULT_TIMEOUT
) -> AsyncIterator[_lock.Lock]:
    """The lock of ``path`` (``statecore.lock.acquire_lock``), waited for without stalling the
    event loop; released when the block ends, also when it is cancelled."""
    held = await run(_lock.acquire_lock, path, timeout)
    try:
        yield held
    finally:
        held.release()
