"""Append-only JSONL logs (ARCHITECTURE §5): :func:`append_line` writes one record under the lock
(one O_APPEND ``write()`` ending in ``\\n``, fsync), repairing a torn last line first (kept as a
``.corrupt-`` copy); :func:`repair_log` does that repair alone; :func:`read_log` drops a torn
last line with a warning and never writes. The core parses. A log is a regular file: a
symbolic link, FIFO or device at the path is the core's ``E_FILE_TYPE`` (``read_log`` follows
a link to a regular file; ``append_line`` and ``repair_log`` never write through one).
Behaviour matches ``npm/lib/logs.cjs``."""

from __future__ import annotations

import contextlib
import stat

from statecore import _atomic, _runtime, _sys
from statecore._generated.root import file_type_error
from statecore._lock import acquire, sweep
from statecore._statecore import call as _call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from typing_extensions import Unpack

    from statecore._files import StrPath
    from statecore._log_types import AppendOptions, AppendResult, LogResult, RepairResult
else:

    def __getattr__(name: str) -> object:
        """The result and option types (``statecore._log_types``), imported on first use."""
        if name in ("AppendOptions", "AppendResult", "LogResult", "RepairResult"):
            from statecore import _log_types

            return getattr(_log_types, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def append_line(path: StrPath, value: object, **options: Unpack[AppendOptions]) -> AppendResult:
    """Appends one JSONL record under the lock: one O_APPEND ``write()``, then fsync.

    A torn last line is first moved to ``<path>.corrupt-<timestamp>`` and cut off; a last
    record without ``\\n`` gets one. ``E_LOG_CORRUPT`` (an unparseable line that is not a torn
    last line) propagates and the file is left alone. ``timeout``: seconds to wait for the lock
    (None: the default). A symbolic link, FIFO or device at ``path`` is ``E_FILE_TYPE``; the
    holder of the lock also removes dead writers' leftovers, as a document update does.
    """
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
    """
    with _under_lock(path, options) as (file, data):
        plan = _call("log_repair", (data,))
        result = _cut_torn_tail(file, data, plan)
        torn = None if result["corrupt_copy"] is None else plan["torn_line"]
        return {"torn_line": torn, **result}


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
