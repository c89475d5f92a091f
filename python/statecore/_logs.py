"""Append-only JSONL logs (ARCHITECTURE §5): :func:`append_line` writes one record under the lock
(one O_APPEND ``write()`` ending in ``\\n``, fsync), repairing a torn last line first (kept as a
``.corrupt-`` copy); :func:`read_log` drops a torn last line with a warning and never writes.
The core parses. Behaviour matches ``npm/lib/logs.cjs``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypedDict

from statecore import _atomic, _runtime
from statecore._lock import DEFAULT_TIMEOUT, acquire_lock, now_iso
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
    line: str = _call("log_line", (value,))
    with acquire_lock(file, DEFAULT_TIMEOUT if timeout is None else timeout):
        data = _atomic.read_maybe(file)
        warnings: list[Any] = []
        copy = None
        prefix = ""
        if data is not None:
            log = _call("parse_log", (data,))
            torn = log["torn"]
            if torn is not None:
                stamp = now_iso().replace("-", "").replace(":", "").replace(".", "")
                copy = _atomic.write_copy(f"{file}.corrupt-{stamp}", data[torn["offset"] :])
                os.truncate(file, torn["offset"])
                warnings.append(
                    {
                        "code": "W_TORN_TAIL",
                        "path": "",
                        "message": f"line {torn['line']} was an incomplete (torn) write; "
                        f"it was moved to {copy} and the log repaired",
                    }
                )
            elif log["needs_newline"]:
                prefix = "\n"
        _atomic.append_once(file, prefix + line, data is None)
        return {"warnings": warnings, "corrupt_copy": copy}


def read_log(path: StrPath) -> LogResult:
    """Reads a JSONL log: ``{records, torn, warnings}``; missing = empty; never writes."""
    data = _atomic.read_maybe(os.fspath(path))
    if data is None:
        return {"records": [], "torn": None, "warnings": []}
    log = _call("parse_log", (data,))
    torn = log["torn"]
    warnings: list[Any] = []
    if torn is not None:
        warnings.append(
            {
                "code": "W_TORN_TAIL",
                "path": "",
                "message": f"line {torn['line']} is an incomplete (torn) write and was ignored; "
                "the next append repairs it",
            }
        )
    return {"records": log["records"], "torn": torn, "warnings": warnings}
