"""``watch(path, kind, callback)`` (docs/watch.md): each change of a state file or log, read,
checked as its kind and reported, with a write still under way never reported. What to read and
what the bytes are is the core's (``watch_target``, ``watch_read``): this module reads bytes (a
log from where the last read stopped, in pages), looks for the writer's lock just before and
just after each read, waits when the core says to read again, and calls back, on a thread of
its own over watchfiles (the ``statecore[watch]`` extra, imported on the first call). The
Python twin of ``npm/lib/host/watch.cjs``."""

from __future__ import annotations

import os
import stat
import time

from statecore._generated.root import check_options, watch_read, watch_target
from statecore._generated.tables import CONSTANTS, SKIPPED_DIRECTORIES
from statecore._host.atomic import NONBLOCK
from statecore._host.file_watch import (
    DEFAULT_DEBOUNCE_MS,
    RECHECK_S,
    Threaded,
    batches,
    skipped,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from statecore._host.documents import StrPath
    from statecore.types import DocumentKind, WatchChange, WatchFacts, WatchTarget

#: The most bytes read at once: a document's limit + 1, or a page of a log.
PAGE = CONSTANTS["max_document_bytes"] + 1


class _File:
    """What the watcher keeps of a file: what it reads it as, where a log's next read starts,
    and the stamp of the bytes it last read."""

    __slots__ = ("etag", "ino", "line", "offset", "recheck", "stamp", "target")

    def __init__(self, target: WatchTarget | None) -> None:
        self.target = target
        self.offset = 0
        self.line = 0
        self.ino: int | None = None
        self.etag: str | None = None
        self.stamp: str | None = None
        self.recheck: float | None = None


def _stamp(path: str) -> str | None:
    """``ino:size:mtime_ns`` of the regular file at ``path``, or None."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return f"{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"


def _read(path: str, log: bool, state: _File) -> tuple[bytes | None, bool, str | None]:
    """The bytes of the file at ``path`` as the core needs them: ``(data, more, stamp)``;
    ``data`` is None when the file is gone; a log is read from ``state.offset`` on, or from 0
    when the file was replaced or cut shorter (``state`` is then reset)."""
    try:
        # Without blocking: a FIFO put where the file was never waits for a writer here.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | NONBLOCK)
    except (FileNotFoundError, NotADirectoryError):
        return None, False, None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, False, None
        if log and (state.ino != info.st_ino or info.st_size < state.offset):
            state.offset, state.line = 0, 0
        state.ino = info.st_ino
        start = state.offset if log else 0
        length = min(max(info.st_size - start, 0), PAGE)
        parts: list[bytes] = []
        got = 0
        while got < length:
            chunk = os.pread(fd, length - got, start + got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        more = log and start + got < info.st_size
        return b"".join(parts), more, f"{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"
    finally:
        os.close(fd)


class Watcher(Threaded):
    """A running watcher (``watch``): a thread that reads each change and calls back. Use it
    as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        path: StrPath,
        kind: str | None,
        callback: Callable[[WatchChange], object],
        debounce_ms: int,
        initial: bool,
        on_error: Callable[[BaseException], object] | None,
    ) -> None:
        import watchfiles  # the `statecore[watch]` extra

        self._watchfiles = watchfiles
        given = os.fspath(path)
        self._abs = os.path.abspath(given)
        shown = given.replace(os.sep, "/")
        self._is_dir = os.path.isdir(self._abs)
        self._dir = self._abs if self._is_dir else os.path.dirname(self._abs)
        if not os.path.isdir(self._dir):
            raise FileNotFoundError(2, "no such directory to watch", self._dir)
        self._named = None if self._is_dir else watch_target(shown, kind, True)  # E_KIND now
        self._kind = kind
        self._prefix = shown.rstrip("/")
        self._callback = callback
        self._debounce_ms = max(1, debounce_ms)
        self._initial = initial
        self._files: dict[str, _File] = {}
        self._start(on_error)

    def _state(self, path: str) -> _File:
        """What the watcher keeps of the file at ``path`` (made on first sight)."""
        state = self._files.get(path)
        if state is not None:
            return state
        target: WatchTarget | None = None
        if not self._is_dir:
            target = self._named if path == self._abs else None
        else:
            rel = os.path.relpath(path, self._abs).replace(os.sep, "/")
            found = watch_target(rel, self._kind, False)
            if found is not None:
                shown = rel if self._prefix in ("", ".") else f"{self._prefix}/{rel}"
                target = {"path": shown, "kind": found["kind"], "log": found["log"]}
        state = self._files[path] = _File(target)
        return state

    def _react(self, path: str) -> None:
        """Reads ``path`` until the core reports it or has nothing to say, and calls back."""
        state = self._state(path)
        target = state.target
        if target is None:
            return
        attempt = 0
        unlocked = 0  # reads since the lock was last seen that found none
        lock = path + ".lock"
        while not self._stop.is_set():
            start = state.offset
            lock_before = os.path.lexists(lock)
            data, more, stamp = _read(path, target["log"], state)
            locked = lock_before or os.path.lexists(lock)
            facts: WatchFacts = {
                "attempt": attempt,
                "locked": locked,
                "unlocked": unlocked,
                "offset": state.offset,
                "line": state.line,
                "more": more,
                "etag": state.etag,
            }
            answer = watch_read(target, data, facts)
            if answer["action"] == "retry":
                self._stop.wait((answer["delay_ms"] or 0) / 1000)
                attempt += 1
                unlocked = 0 if locked else unlocked + 1
                continue
            state.offset, state.line, state.stamp = answer["offset"], answer["line"], stamp
            state.etag = answer["etag"]
            if data is None:
                state.ino = None
            change = answer["change"]
            if answer["action"] == "report" and change is not None:
                try:
                    self._callback(change)
                except Exception as error:
                    self._fail(error)
            if not (more and answer["offset"] > start):
                break
            attempt = unlocked = 0  # the next page of the log
        state.recheck = time.monotonic() + RECHECK_S

    def _watched(self, path: str) -> bool:
        """True for a path the watcher reacts to (never under ``.git`` or ``node_modules``)."""
        if not self._is_dir:
            return path == self._abs
        return not skipped(self._abs, path)

    def _scan(self) -> list[str]:
        """The files under the watched directory (or the named file), in path order."""
        if not self._is_dir:
            return [self._abs]
        found: list[str] = []
        for root, dirs, names in os.walk(self._abs):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRECTORIES)
            found.extend(os.path.join(root, name) for name in sorted(names))
        return found

    def _rechecks(self) -> None:
        """Reads again each file whose recheck is due and that changed since it was read."""
        now = time.monotonic()
        for path, state in list(self._files.items()):
            if state.recheck is not None and state.recheck <= now:
                state.recheck = None
                if _stamp(path) != state.stamp:
                    self._react(path)

    def _run(self) -> None:
        """The watching thread: watchfiles' changes, each path read in turn."""
        started = False
        try:
            watching = self._watchfiles, self._dir, self._watched, self._debounce_ms, self._stop
            for paths in batches(*watching, recursive=self._is_dir):
                if not started:  # the first answer: the watch is on
                    started = True
                    if self._initial:
                        for path in self._scan():
                            self._guard(self._react, path)
                    self._ready.set()
                for path in paths:
                    self._guard(self._react, path)
                self._guard(self._rechecks)
        except Exception as error:
            self._fail(error)
        finally:
            self._ready.set()


def watch(
    path: StrPath,
    kind: DocumentKind | None,
    callback: Callable[[WatchChange], object],
    *,
    debounce_ms: int | None = None,
    initial: bool | None = None,
    on_error: Callable[[BaseException], object] | None = None,
) -> Watcher:
    """Watches a file, or every file statecore knows under a directory (of ``kind`` only, when
    given), and calls ``callback(change)`` on the watcher's thread with each change checked as
    its kind (docs/watch.md). A write still under way (a torn document or last log line) is
    read again until it reads or the writer's lock is gone; a log reports the records appended
    since the last change. A named file's kind is ``kind``, or the kind its name gives
    (``UsageError`` ``E_KIND`` at once when none). ``debounce_ms``: quiet time before a file is
    read (50); ``initial``: report each file as it first is (True); ``on_error``: what is raised
    while watching (else logged). Needs ``pip install 'statecore[watch]'`` (watchfiles)."""
    check_options("watch", {"debounce_ms": debounce_ms, "initial": initial})
    if not callable(callback):
        raise TypeError("watch: callback must be callable")
    if on_error is not None and not callable(on_error):
        raise TypeError("watch: on_error must be callable")
    return Watcher(
        path,
        kind,
        callback,
        DEFAULT_DEBOUNCE_MS if debounce_ms is None else debounce_ms,
        True if initial is None else initial,
        on_error,
    )
