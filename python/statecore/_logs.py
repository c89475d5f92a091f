"""Append-only JSONL logs (ARCHITECTURE §5): :func:`append_line` writes one record under the lock
(one O_APPEND ``write()`` ending in ``\\n``, fsync), repairing a torn last line first (kept as a
``.corrupt-`` copy); :func:`read_log` drops a torn last line with a warning and never writes.
The core parses. Behaviour matches ``npm/lib/logs.cjs``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypedDict

from statecore import _atomic, _runtime
from statecore._lock import DEFAULT_TIMEOUT, acquire_lock
from statecore._statecore import call as _call

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from statecore._files import StrPath
    from statecore.types import Issue, Json, TornLine


class AppendResult(TypedDict):
    """What :func:`append_line` returns."""

    warnings: list[Issue]
    corrupt_copy: str | None


class LogResult(TypedDict):
    """What :func:`read_log` returns."""

    records: list[Json]
    torn: TornLine | None
    warnings: list[Issue]


class AppendOptions(TypedDict, total=False):
    """The options of :func:`append_line`."""

    timeout: float


def append_line(path: StrPath, value: object, **options: Unpack[AppendOptions]) -> AppendResult:
    """Appends one JSONL record under the lock: one O_APPEND ``write()``, then fsync.

    A torn last line is first moved to ``<path>.corrupt-<timestamp>`` and cut off; a last
    record without ``\\n`` gets one. ``E_LOG_CORRUPT`` (garbage before the last valid line)
    propagates and the file is left alone. ``timeout``: seconds to wait for the lock.
    """
    _runtime.check_options("append", options)
    timeout = options.get("timeout", DEFAULT_TIMEOUT)
    file = os.fspath(path)
    with acquire_lock(file, DEFAULT_TIMEOUT if timeout is None else timeout):
        data = _atomic.read_maybe(file)
        # The core's plan; E_LOG_CORRUPT propagates and the file is left alone.
        plan = _call("log_append", (data, value))
        warnings: list[Any] = []
        copy = None
        cut = plan["truncate_at"]
        if cut is not None and data is not None:
            suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
            copy = _atomic.write_copy(file + suffix, data[cut:])
            os.truncate(file, cut)
            warnings.append(_call("log_repaired", (plan["torn_line"], copy)))
        _atomic.append_once(file, plan["text"], data is None)
        return {"warnings": warnings, "corrupt_copy": copy}


def read_log(path: StrPath) -> LogResult:
    """Reads a JSONL log: ``{records, torn, warnings}``; missing = empty; never writes."""
    result: LogResult = _call("log_read", (_atomic.read_maybe(os.fspath(path)),))
    return result
