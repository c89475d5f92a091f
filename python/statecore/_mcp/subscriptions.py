"""The subscriptions of ``statecore mcp`` (docs/mcp.md § Subscriptions): ``resources/subscribe``
on a ``statecore://`` URI watches that file with the library's ``watch`` (``_host/watch.py``, on the
one file-watching primitive, ``_host/file_watch.py``), so a change is sent as
``notifications/resources/updated`` once the file reads whole (a torn write is never sent);
once a client has listed the resources, a protocol document created or removed under DIR sends
``notifications/resources/list_changed``. Unsubscribing, and the connection closing, close the
watchers. The Python twin of ``npm/lib/mcp/subscriptions.cjs``."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from statecore._host.file_watch import DEFAULT_DEBOUNCE_MS, Threaded, batches, skipped

#: Every watcher open now, across the connections of this process (what a test counts).
_OPEN: set[Any] = set()
_OPEN_LOCK = threading.Lock()


def open_watchers() -> int:
    """How many watchers are open now (subscriptions and resource lists of every connection)."""
    with _OPEN_LOCK:
        return len(_OPEN)


def _opened(watcher: Any) -> Any:
    with _OPEN_LOCK:
        _OPEN.add(watcher)
    return watcher


def _close(watcher: Any) -> None:
    with _OPEN_LOCK:
        _OPEN.discard(watcher)
    watcher.close()


class _ListWatcher(Threaded):
    """Watches ``root`` for protocol documents created or removed: ``changed()`` on each batch
    that holds one."""

    _name = "statecore mcp list"

    def __init__(
        self, root: str, is_resource: Callable[[str], bool], changed: Callable[[], None]
    ) -> None:
        import watchfiles  # the `statecore[watch]` extra, which `statecore[mcp]` brings

        self._watchfiles = watchfiles
        self._root = root
        self._is_resource = is_resource
        self._changed = changed
        self._start(None)

    def _accept(self, path: str) -> bool:
        if skipped(self._root, path):
            return False
        rel = os.path.relpath(path, self._root).replace(os.sep, "/")
        return self._is_resource(rel)

    def _run(self) -> None:
        try:
            watching = self._watchfiles, self._root, self._accept, DEFAULT_DEBOUNCE_MS, self._stop
            for paths in batches(*watching):
                self._ready.set()
                if paths:
                    self._guard(self._changed)
        except Exception as error:
            self._fail(error)
        finally:
            self._ready.set()


class Subscriptions:
    """One connection's subscriptions and list watcher. ``resolve(uri)`` is the server's check of
    a resource's URI (the read's: ``(file, kind)``, or it raises the read's refusal);
    ``listing()`` the resource list's URIs; ``is_resource(rel)`` whether a path below ``root``
    is a protocol document. Notifications go through the SDK's server session given with a
    subscription, on the connection's event loop."""

    def __init__(
        self,
        root: str,
        resolve: Callable[[str], tuple[str, Any]],
        listing: Callable[[], list[str]],
        is_resource: Callable[[str], bool],
    ) -> None:
        self._root = root
        self._resolve = resolve
        self._listing = listing
        self._is_resource = is_resource
        self._subscribed: dict[str, Any] = {}
        self._lister: _ListWatcher | None = None
        self._last: list[str] = []
        self._lock = threading.Lock()
        self._closed = False

    def _send(
        self, loop: asyncio.AbstractEventLoop, make: Callable[[], Coroutine[Any, Any, None]]
    ) -> None:
        """Sends a notification from a watcher's thread (dropped once the connection closed)."""
        if self._closed or loop.is_closed():
            return

        async def run() -> None:
            try:
                await make()
            except Exception:  # the connection went away: nothing to tell
                return

        try:
            asyncio.run_coroutine_threadsafe(run(), loop)
        except RuntimeError:  # the loop stopped meanwhile
            return

    def subscribe(self, uri: str, session: Any, loop: asyncio.AbstractEventLoop) -> None:
        """Watches the resource ``uri`` (refused as its read is); once per URI. Called in a
        worker thread (it waits for the watch to begin)."""
        from statecore import watch

        file, kind = self._resolve(uri)
        with self._lock:
            if self._closed or uri in self._subscribed:
                return

            def changed(_change: object) -> None:
                self._send(loop, lambda: session.send_resource_updated(uri))

            self._subscribed[uri] = _opened(watch(file, kind, changed, initial=False))
        self._subscribed[uri].wait_ready(10)

    def unsubscribe(self, uri: str) -> None:
        """Stops watching ``uri`` (not subscribed: nothing)."""
        with self._lock:
            watcher = self._subscribed.pop(uri, None)
        if watcher is not None:
            _close(watcher)

    def listed(self, uris: list[str], session: Any, loop: asyncio.AbstractEventLoop) -> None:
        """The client listed the resources (``uris``): the list is watched from now on. Called
        in a worker thread (it waits for the watch to begin)."""
        with self._lock:
            self._last = uris
            if self._closed or self._lister is not None:
                return

            def changed() -> None:
                now = self._listing()
                with self._lock:
                    if now == self._last:
                        return
                    self._last = now
                self._send(loop, session.send_resource_list_changed)

            self._lister = _opened(_ListWatcher(self._root, self._is_resource, changed))
        self._lister.wait_ready(10)

    def close(self) -> None:
        """Closes every watcher of the connection."""
        with self._lock:
            self._closed = True
            watchers = [*self._subscribed.values(), *([self._lister] if self._lister else [])]
            self._subscribed.clear()
            self._lister = None
        for watcher in watchers:
            _close(watcher)


class Registry:
    """The subscriptions of each connection of a server, by its session id (None: stdio's one
    connection): made on a connection's first subscription or listing, closed when it ends."""

    def __init__(
        self,
        root: str,
        resolve: Callable[[str], tuple[str, Any]],
        listing: Callable[[], list[str]],
        is_resource: Callable[[str], bool],
    ) -> None:
        self._args = root, resolve, listing, is_resource
        self._by: dict[str | None, Subscriptions] = {}
        self._lock = threading.Lock()

    def of(self, ctx: Any) -> Subscriptions:
        """The subscriptions of the connection a request (its SDK context ``ctx``) came on."""
        connection = getattr(ctx.session, "_connection", None)
        key = getattr(connection, "session_id", None)
        with self._lock:
            if key not in self._by:
                self._by[key] = Subscriptions(*self._args)
            return self._by[key]

    def end(self, key: str | None) -> None:
        """The connection ``key`` ended: its watchers are closed."""
        with self._lock:
            subscriptions = self._by.pop(key, None)
        if subscriptions is not None:
            subscriptions.close()

    def close_all(self) -> None:
        """Every connection's watchers closed (the server stops)."""
        with self._lock:
            keys = list(self._by)
        for key in keys:
            self.end(key)
