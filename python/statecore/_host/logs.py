"""Append-only JSONL logs (docs/locking.md): :func:`append_line` writes one record under the lock
(one O_APPEND ``write()`` ending in ``\\n``, fsync), repairing a torn last line first (kept as a
``.corrupt-`` copy); :func:`repair_log` does that repair alone; :func:`read_log` drops a torn
last line with a warning and never writes. The core parses. A log is a regular file: a
symbolic link, FIFO or device at the path is the core's ``E_FILE_TYPE`` (``read_log`` follows
a link to a regular file; ``append_line`` and ``repair_log`` never write through one).
Behaviour matches ``npm/lib/host/logs.cjs``."""

from __future__ import annotations

import contextlib
import os
import stat

from statecore._generated.root import file_type_error
from statecore._host import atomic as _atomic
from statecore._host import runtime as _runtime
from statecore._host import sessions as _sessions
from statecore._host import sys as _sys
from statecore._host.lock import acquire, sweep
from statecore._statecore import call as _call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from typing_extensions import Unpack

    from statecore._generated.host_types import AppendResult, LogResult, RepairResult
    from statecore._host.documents import StrPath
    from statecore.types import AppendOptions


@contextlib.contextmanager
def _under_lock(path: StrPath, options: Mapping[str, object]) -> Iterator[tuple[str, bytes | None]]:
    """The log's absolute path and bytes, under its lock (``options`` checked first). A
    symbolic link is refused (``E_FILE_TYPE``): a writer never modifies a link's target."""
    _runtime.check_options("append", options)
    timeout = _runtime.timeout_seconds(options.get("timeout"))
    file = _runtime.path_arg(path)
    with acquire(file + ".lock", timeout):
        sweep(file)
        _refuse_link(file)
        yield file, _atomic.read_maybe(file, None, _atomic.READ_FLAGS | _atomic.NOFOLLOW)


def _cut_torn_tail(file: str, data: bytes | None, plan: Mapping[str, Any]) -> AppendResult:
    """Moves the torn last line the core's ``plan`` names (``truncate_at``, ``torn_line``) to a
    ``.corrupt-`` copy and cuts it off (nothing done when there is none)."""
    cut = plan["truncate_at"]
    if cut is None or data is None:
        return {"warnings": [], "corrupt_copy": None}
    suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
    copy = _atomic.write_copy(file + suffix, data[cut:], file)
    _atomic.truncate(file, cut)
    return {"warnings": [_call("log_repaired", (plan["torn_line"], copy))], "corrupt_copy": copy}


def _owner(file: str) -> dict[str, Any] | None:
    """The file the log ``file`` is kept with, when it is there (the core's ``log_owner``: a
    hive session's ``STATE.json`` beside its ``EVENTS.jsonl``), its path in ``path``; None for
    any other log."""
    owner: dict[str, Any] | None = _call("log_owner", (file,))
    if owner is None:
        return None
    kept = os.path.join(os.path.dirname(file), owner["file"])
    return {**owner, "path": kept} if os.path.lexists(kept) else None


def append_line(path: StrPath, value: object, **options: Unpack[AppendOptions]) -> AppendResult:
    """Appends one JSONL record under the lock: one O_APPEND ``write()``, then fsync.

    A torn last line is first moved to ``<path>.corrupt-<timestamp>`` and cut off; a last
    record without ``\\n`` gets one. ``E_LOG_CORRUPT`` (an unparseable line that is not a torn
    last line) propagates and the file is left alone. ``timeout``: seconds to wait for the lock
    (None: the default). A symbolic link, FIFO or device at ``path`` is ``E_FILE_TYPE``; the
    holder of the lock also removes dead writers' leftovers, as a document update does.

    A hive session's log (``EVENTS.jsonl``) is its session's: the record is appended by the
    step ``apply_event`` under the lock of the session's ``STATE.json`` (one session, one
    lock), checked as a ``hive.event`` first (``E_INVALID``, nothing written) and written with
    the state that folds it (docs/hive.md § Files).
    """
    owner = _owner(_runtime.path_arg(path))
    if owner is not None:
        # One session, one lock: a session's log is appended to by its step (apply_event),
        # under the lock of its state, the record checked as an event and applied.
        _runtime.check_options("append", options)
        timeout = _runtime.timeout_seconds(options.get("timeout"))
        log = os.path.basename(_runtime.path_arg(path))
        with acquire(owner["path"] + ".lock", timeout):
            sweep(owner["path"])
            out = _sessions._locked(
                owner["kind"], owner["path"], log, owner["step"], (value,), None
            )
        return {"warnings": out["warnings"], "corrupt_copy": out["corrupt_copy"]}
    with _under_lock(path, options) as (file, data):
        plan = _call("log_append", (data, value))
        result = _cut_torn_tail(file, data, plan)
        _atomic.append_once(file, plan["text"], data is None)
        return result


def repair_log(path: StrPath, **options: Unpack[AppendOptions]) -> RepairResult:
    """Cuts a JSONL log's torn last line off under the lock, keeping a copy.

    The torn line's bytes go to ``<path>.corrupt-<timestamp>``; ``torn_line`` is None (and
    nothing is written) when the last line is not torn. ``E_LOG_CORRUPT`` (a bad line that is
    not the last) propagates and the file is left alone. ``timeout`` and links as
    :func:`append_line`.

    A hive session's log is repaired under the lock of its ``STATE.json``: every line a read
    refuses (and a torn last line) is moved to ``<path>.corrupt-<timestamp>`` (``W_SET_ASIDE``),
    the log rewritten without them and the state brought up to it.
    """
    owner = _owner(_runtime.path_arg(path))
    if owner is not None:
        return _repair_session(_runtime.path_arg(path), owner, options)
    with _under_lock(path, options) as (file, data):
        plan = _call("log_repair", (data,))
        result = _cut_torn_tail(file, data, plan)
        torn = None if result["corrupt_copy"] is None else plan["torn_line"]
        return {"torn_line": torn, **result}


def _repair_session(
    file: str, owner: Mapping[str, Any], options: Mapping[str, object]
) -> RepairResult:
    """The repair of a session's log, under the lock of its state: every line a read refuses
    (and a torn last line) is moved to a ``.corrupt-`` side file (never dropped), the log
    replaced by the lines kept, then the state brought up to the log."""
    _runtime.check_options("append", options)
    timeout = _runtime.timeout_seconds(options.get("timeout"))
    with acquire(owner["path"] + ".lock", timeout):
        sweep(owner["path"])
        _refuse_link(file)
        data = _atomic.read_maybe(file, None, _atomic.READ_FLAGS | _atomic.NOFOLLOW)
        session = os.path.basename(os.path.dirname(file))
        plan = _call("session_log_repair", (owner["kind"], session, data))
        if not plan["set_aside"] or data is None:
            return {"torn_line": None, "warnings": [], "corrupt_copy": None}
        aside = b"".join(data[line["start"] : line["end"]] for line in plan["set_aside"])
        suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
        copy = _atomic.write_copy(file + suffix, aside)
        kept = b"".join(data[start:end] for start, end in plan["keep"])
        _atomic.write_atomic(file, kept.decode())
        name = os.path.basename(file)
        read = _sessions._locked(owner["kind"], owner["path"], name, "", (), None)
        torn = [line["line"] for line in plan["set_aside"] if line["code"] == "W_TORN_TAIL"]
        lines = [line["line"] for line in plan["set_aside"]]
        warning = _call("log_set_aside", (lines, copy))
        return {
            "torn_line": torn[0] if torn else None,
            "warnings": [warning, *read["warnings"]],
            "corrupt_copy": copy,
        }


def _refuse_link(file: str) -> None:
    """The core's ``E_FILE_TYPE`` when ``file`` is a symbolic link (never appended through)."""
    try:
        mode = _sys.lstat(file).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        file_type_error(file, "symbolic link")


def read_log(path: StrPath) -> LogResult:
    """Reads a JSONL log: ``{records, torn, warnings}``; missing = empty; never writes.

    A symbolic link is followed; anything but a regular file is ``E_FILE_TYPE``."""
    result: LogResult = _call("log_read", (_atomic.read_maybe(_runtime.path_arg(path)),))
    return result
