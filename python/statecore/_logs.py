"""Append-only JSONL logs (ARCHITECTURE §5): :func:`append_line` writes one record under the lock
(one O_APPEND ``write()`` ending in ``\\n``, fsync), repairing a torn last line first (kept as a
``.corrupt-`` copy); :func:`read_log` drops a torn last line with a warning and never writes.
The core parses. A log is a regular file: a symbolic link, FIFO or device at the path is the
core's ``E_FILE_TYPE`` (``read_log`` follows a link to a regular file; ``append_line`` never
writes through one). Behaviour matches ``npm/lib/logs.cjs``."""

from __future__ import annotations

import stat

from statecore import _atomic, _runtime, _sys
from statecore._generated.root import file_type_error
from statecore._lock import acquire, sweep
from statecore._statecore import call as _call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Unpack

    from statecore._files import StrPath
    from statecore._log_types import AppendOptions, AppendResult, LogResult
else:

    def __getattr__(name: str) -> object:
        """The result and option types (``statecore._log_types``), imported on first use."""
        if name in ("AppendOptions", "AppendResult", "LogResult"):
            from statecore import _log_types

            return getattr(_log_types, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def append_line(path: StrPath, value: object, **options: Unpack[AppendOptions]) -> AppendResult:
    """Appends one JSONL record under the lock: one O_APPEND ``write()``, then fsync.

    A torn last line is first moved to ``<path>.corrupt-<timestamp>`` and cut off; a last
    record without ``\\n`` gets one. ``E_LOG_CORRUPT`` (an unparseable line that is not a torn
    last line) propagates and the file is left alone. ``timeout``: seconds to wait for the lock
    (None: the default). A symbolic link, FIFO or device at ``path`` is ``E_FILE_TYPE``; the
    holder of the lock also removes dead writers' leftovers, as a document update does.
    """
    _runtime.check_options("append", options)
    timeout = _runtime.timeout_seconds(options.get("timeout"))
    file = _runtime.path_arg(path)
    with acquire(file + ".lock", timeout):
        sweep(file)
        _refuse_link(file)
        data = _atomic.read_maybe(file, None, _atomic.READ_FLAGS | _atomic.NOFOLLOW)
        # The core's plan; E_LOG_CORRUPT propagates and the file is left alone.
        plan = _call("log_append", (data, value))
        warnings: list[Any] = []
        copy = None
        cut = plan["truncate_at"]
        if cut is not None and data is not None:
            suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
            copy = _atomic.write_copy(file + suffix, data[cut:])
            _atomic.truncate(file, cut)
            warnings.append(_call("log_repaired", (plan["torn_line"], copy)))
        _atomic.append_once(file, plan["text"], data is None)
        return {"warnings": warnings, "corrupt_copy": copy}


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
