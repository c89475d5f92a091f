"""The file watching every Python watcher stands on (``watch`` in ``_host/watch.py``, the Hivemind
watcher in ``_host/hivemind_watch.py``; ``PostgresStore.watch`` shares its thread): a thread of the
watcher's own (:class:`Threaded`), watchfiles' changes of a directory as batches of paths in
path order (:func:`batches`), and the directories never watched. The Python twin of
``npm/lib/host/file-watch.cjs``. Only I/O here: what a reaction does is the caller's."""

from __future__ import annotations

import os
import threading
import time

from statecore._generated.tables import SKIPPED_DIRECTORIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import ModuleType
    from typing import TypeVar

    _T = TypeVar("_T", bound="Threaded")

#: Default quiet time of a file before the watcher reacts to it, in ms (Node's too).
DEFAULT_DEBOUNCE_MS = 50
#: A file is looked at again this long after it was read (a write folded into the previous
#: event is still seen), in seconds (Node's ``RECHECK_MS``).
RECHECK_S = 0.15
#: How long the watching thread waits for an event before it looks at its timers, in ms.
TICK_MS = 50


def skipped(root: str, path: str) -> bool:
    """True when a part of ``path`` below ``root`` is a directory never watched (``root``
    itself may be inside one)."""
    rel = os.path.relpath(path, root)
    return any(part in SKIPPED_DIRECTORIES for part in rel.split(os.sep))


def batches(
    watchfiles: ModuleType,
    directory: str,
    accept: Callable[[str], bool],
    debounce_ms: int,
    stop: threading.Event,
    *,
    recursive: bool = True,
    removals: bool = True,
) -> Iterator[list[str]]:
    """watchfiles' changes under ``directory`` of the paths ``accept(path)`` lets through (a
    removal only with ``removals``), each batch as its paths without repeats, in path order: a
    batch once ``debounce_ms`` passed without a change, an empty one every :data:`TICK_MS`
    without any (the caller's timers run then), until ``stop`` is set.

    A new directory is looked at once more :data:`RECHECK_S` after it appeared, and a file in
    it that was not reported comes in the next batch: the watcher starts watching a new
    directory only after it appeared, so a file made in it at once (a project made with
    ``mkdir -p`` and its first file) may never be reported otherwise."""
    removed = watchfiles.Change.deleted
    added = watchfiles.Change.added
    known: set[str] = set()  # the files reported, until their removal
    new_directories: dict[str, float] = {}  # directory -> when to look at it

    def keep(change: object, path: str) -> bool:
        if change == removed:
            known.discard(path)
        elif recursive and change == added and not skipped(directory, path) and os.path.isdir(path):
            new_directories[path] = time.monotonic() + RECHECK_S
        return (removals or change != removed) and accept(path)

    def unreported() -> set[str]:
        now = time.monotonic()
        found: set[str] = set()
        for new in [d for d, due in new_directories.items() if due <= now]:
            del new_directories[new]
            found.update(f for f in _files_below(directory, new, accept) if f not in known)
        return found

    changes = watchfiles.watch(
        directory,
        watch_filter=keep,
        debounce=max(1600, debounce_ms),
        step=debounce_ms,
        stop_event=stop,
        rust_timeout=TICK_MS,
        yield_on_timeout=True,
        recursive=recursive,
        raise_interrupt=False,
    )
    for batch in changes:
        paths = {path for _change, path in batch}
        known.update(path for change, path in batch if change != removed)
        if new_directories:
            late = unreported()
            known.update(late)
            paths.update(late)
        yield sorted(paths)


def _files_below(root: str, start: str, accept: Callable[[str], bool]) -> list[str]:
    """The regular files below ``start`` (a directory under the watched ``root``) that
    ``accept`` lets through, links not followed, without the directories never watched; a
    directory gone meanwhile has none."""
    found: list[str] = []
    try:
        entries = list(os.scandir(start))
    except OSError:
        return found
    for entry in entries:
        if skipped(root, entry.path):
            continue
        if entry.is_dir(follow_symlinks=False):
            found.extend(_files_below(root, entry.path, accept))
        elif entry.is_file(follow_symlinks=False) and accept(entry.path):
            found.append(entry.path)
    return found


class Threaded:
    """What the watchers share (``watch``, ``watch_workspace``, ``PostgresStore.watch``): a
    thread of their own, started by :meth:`_start`, that calls back; ``on_error`` for what it
    raises. Use one as a context manager, or call :meth:`close`."""

    #: How the log names the watcher.
    _name = "statecore watch"

    def _start(self, on_error: Callable[[BaseException], object] | None) -> None:
        """Starts the thread running ``self._run``."""
        self._on_error = on_error
        self._stop = threading.Event()
        self._ready = threading.Event()
        name = self._name.replace(" ", "-")
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        raise NotImplementedError

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Waits until watching has begun and each file or row as it first was has been
        reported; False when ``timeout`` (seconds) passed first."""
        return self._ready.wait(timeout)

    def close(self, timeout: float | None = None) -> None:
        """Stops watching and waits for the thread (a read under way finishes); no callback is
        called once it returns (unless called from the callback itself)."""
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, error: BaseException) -> None:
        """Gives ``error`` to ``on_error``, else logs it; the watcher goes on."""
        if self._on_error is not None:
            try:
                self._on_error(error)
                return
            except Exception as thrown:  # the handler's own error is logged
                error = thrown
        import logging

        logging.getLogger("statecore").error("%s: %r", self._name, error, exc_info=error)

    def _guard(self, job: Callable[..., None], *args: object) -> None:
        """Runs ``job``; what it raises goes to :meth:`_fail`."""
        try:
            job(*args)
        except Exception as error:
            self._fail(error)
