"""Files kept with an event log (docs/hive.md § Files): a hive session's ``STATE.json`` and its
``EVENTS.jsonl``. A step runs under the lock of the state: its bytes and the log's size cross
into the core once (``update_logged``), which answers with the line to append and the state to
write (the log first, so that a crash between the two leaves the state behind its log, never
ahead). When the state is behind the log (a crash), missing or unreadable, the log is streamed
from where the state stops (``LogReplay``, chunks of 64 KiB: the file is never held whole), an
unreadable state is kept as a ``.corrupt-`` copy, a torn last line is cut off (kept as a copy
too), and the step is taken on the replayed state. A read takes the lock only when the state
must be rebuilt. Only I/O is here; every decision is the core's. Behaviour matches
``npm/lib/host/sessions.cjs``.
"""

from __future__ import annotations

import os
import stat

from statecore._host import atomic as _atomic
from statecore._host import runtime as _runtime
from statecore._host import sys as _sys
from statecore._host.lock import acquire, sweep
from statecore._statecore import LogReplay, update_logged
from statecore._statecore import call as _call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from statecore.types import DocumentKind, Now

#: How many bytes of a log are read at a time.
CHUNK = 1 << 16


def _size(log: str) -> int:
    """The size of the regular file ``log`` (0 when missing); ``E_FILE_TYPE`` for a link or a
    FIFO."""
    try:
        mode = _sys.lstat(log)
    except FileNotFoundError:
        return 0
    if not stat.S_ISREG(mode.st_mode):
        what = "symbolic link" if stat.S_ISLNK(mode.st_mode) else _atomic.file_type(mode.st_mode)
        _call("file_type_error", (log, what))
    return mode.st_size


def _read_from(log: str, start: int, feed: Any) -> None:
    """Calls ``feed(chunk)`` with the bytes of ``log`` from byte ``start`` to its end (none when
    missing)."""
    opened = _atomic.open_regular(log, _atomic.READ_FLAGS | _atomic.NOFOLLOW)
    if opened is None:
        return
    fd = opened[0]
    try:
        os.lseek(fd, start, os.SEEK_SET)
        while True:
            chunk = _sys.read(fd, CHUNK)
            if not chunk:
                return
            feed(chunk)
    finally:
        _sys.close(fd)


def _where(file: str, log_name: str) -> tuple[str, str]:
    """The log of the state file ``file`` (``log_name`` in its directory) and the session id."""
    directory = os.path.dirname(file)
    return os.path.join(directory, log_name), os.path.basename(directory)


def step(
    kind: DocumentKind,
    file: str,
    log_name: str,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    timeout: float,
) -> Any:
    """A step ``change`` (a writer of the table; ``""`` for a read that rebuilds) of the state
    file ``file`` kept with the log ``log_name``, with ``args`` after the state: ``{document,
    etag, changed, warnings, corrupt_copy, result, recovered}``."""
    with acquire(file + ".lock", timeout):
        sweep(file)
        return _locked(kind, file, log_name, change, args, now)


def _event_id() -> str:
    """A new event id: 12 random bytes, hex (the core has no randomness; every line gets one)."""
    return os.urandom(12).hex()


def _locked(
    kind: DocumentKind,
    file: str,
    log_name: str,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
) -> Any:
    """The step, under the lock. The state's copy (when the core says it is unreadable) is made
    only once the replay has succeeded, just before the state is written: a call that fails
    copies nothing."""
    log, session_id = _where(file, log_name)
    data = _atomic.read_document(file)
    size = _size(log)
    clock = _runtime.clock() if now is None else now
    event_id = _event_id() if change else None
    out = update_logged(kind, session_id, change, data, size, args, clock, event_id)
    warnings: list[Any] = []
    copy = None
    corrupt = False
    # A replay from the state's offset may ask for a replay of the whole log (its offset fell
    # inside a line, or a line after it cannot be applied): at most two rounds.
    while out["replay_from"] is not None:
        corrupt = corrupt or out["corrupt"]
        warnings.extend(out["warnings"])
        start = out["replay_from"]
        replay = LogReplay(
            kind, session_id, None if out["corrupt"] else data, start, out["corrupt"]
        )
        _read_from(log, start, replay.feed)
        out = replay.commit(change, args, clock, event_id)
        if out["replay_from"] is None and corrupt and data is not None:
            suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
            copy = _atomic.copy_file(file, file + suffix, data)
            warnings.append(_call("corrupt_copy_warning", (copy,)))
        cut = out["truncate_at"]
        if cut is not None:
            torn: list[bytes] = []
            _read_from(log, cut, torn.append)
            suffix = _call("corrupt_copy_suffix", (_runtime.clock(),))
            torn_copy = _atomic.write_copy(log + suffix, b"".join(torn), log)
            _atomic.truncate(log, cut)
            warnings.append(_call("log_repaired", (out["torn_line"], torn_copy)))
    if out["line"] is not None:
        _atomic.append_once(log, out["line"], size == 0)
    if out["write"]:
        _atomic.write_atomic(file, out["text"])
    warnings.extend(out["warnings"])
    result = {
        "document": out["document"],
        "etag": out["etag"],
        "changed": out["write"],
        "warnings": warnings,
        "corrupt_copy": copy,
        "recovered": out["recovered"],
    }
    if change:
        result["result"] = {"state": out["document"], "event": out["event"]}
    return result


def read(kind: DocumentKind, file: str, log_name: str, timeout: float) -> tuple[Any, str]:
    """Reads the state file ``file``: as it is when it folds its whole log (no lock); else
    (missing, unreadable, behind) rebuilt from the log under the lock and written. Returns the
    result and the state's text."""
    log, session_id = _where(file, log_name)
    data = _atomic.read_document(file)
    out = update_logged(kind, session_id, "", data, _size(log), (), _runtime.clock())
    if out["replay_from"] is None:
        result = {
            "document": out["document"],
            "etag": out["etag"],
            "changed": False,
            "warnings": out["warnings"],
            "corrupt_copy": None,
            "recovered": None,
        }
        return result, out["text"]
    with acquire(file + ".lock", timeout):
        sweep(file)
        result = _locked(kind, file, log_name, "", (), None)
        return result, _text(result)


def _text(result: Any) -> str:
    """The state's canonical text (for a reader of the table)."""
    text: str = _call("serialize", (result["document"],))
    return text
