"""The Python host layer (ARCHITECTURE §5): locked, atomic file I/O around the pure core.

Every rule (parsing, merging, validation, etags, JSONL) is the core's; this module only reads
and writes bytes, holds the sidecar lock of docs/locking.md (see :mod:`statecore._lock`) and
supplies the clock. Behaviour and file formats match ``npm/lib/host.cjs``.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable
from typing import Any, TypedDict, Union

from statecore import _statecore as _core
from statecore._lock import DEFAULT_TIMEOUT, Lock, acquire_lock, now_iso, sweep, unlink_quiet

__all__ = [
    "DEFAULT_TIMEOUT",
    "AppendResult",
    "Lock",
    "LogResult",
    "ReadResult",
    "UpdateResult",
    "acquire_lock",
    "append_line",
    "read_document",
    "read_log",
    "update_document",
]

StrPath = Union[str, "os.PathLike[str]"]

_DIR_FSYNC_UNSUPPORTED = {errno.EINVAL, errno.EISDIR, errno.EPERM, errno.ENOTSUP, errno.EBADF}


class ReadResult(TypedDict):
    """What :func:`read_document` returns: the core's ``load_document`` over the bytes."""

    document: Any
    etag: str | None
    corrupt: bool
    valid: bool
    errors: list[dict[str, Any]]
    warnings: list[dict[str, Any]]


class UpdateResult(TypedDict):
    """What :func:`update_document` returns."""

    document: Any
    etag: str
    changed: bool
    warnings: list[dict[str, Any]]
    corrupt_copy: str | None


class AppendResult(TypedDict):
    """What :func:`append_line` returns."""

    warnings: list[dict[str, Any]]
    corrupt_copy: str | None


class LogResult(TypedDict):
    """What :func:`read_log` returns."""

    records: list[Any]
    torn: dict[str, int] | None
    warnings: list[dict[str, Any]]


# --- file helpers --------------------------------------------------------------------------


def _read_maybe(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _fsync_dir(directory: str) -> None:
    """fsyncs a directory; a platform that cannot is ignored."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError as error:
        if error.errno in _DIR_FSYNC_UNSUPPORTED:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in _DIR_FSYNC_UNSUPPORTED:
            raise
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _write_atomic(path: str, text: str) -> None:
    """Atomic replace: ``.<name>.tmp-<token>``, fsync, rename over ``path``, fsync the dir."""
    try:
        mode: int | None = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    directory, name = os.path.split(os.path.abspath(path))
    tmp = os.path.join(directory, f".{name}.tmp-{secrets.token_hex(16)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            _write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        unlink_quiet(tmp)
        raise
    _fsync_dir(directory)


def _corrupt_copy(path: str, data: bytes) -> str:
    """Writes ``data`` to a new ``<path>.corrupt-<YYYYMMDDTHHMMSSmmmZ>[-n]`` and returns it."""
    base = f"{path}.corrupt-{now_iso().replace('-', '').replace(':', '').replace('.', '')}"
    n = 0
    while True:
        copy = base if n == 0 else f"{base}-{n}"
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n += 1
            continue
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(os.path.dirname(os.path.abspath(copy)))
        return copy


# --- documents -----------------------------------------------------------------------------


def read_document(path: StrPath, kind: str) -> ReadResult:
    """Reads a document: the core's ``load_document`` over the file's bytes.

    A missing file gives the kind's default (``etag`` None); an unparseable one the default
    and a ``W_UNPARSEABLE`` warning. Readers never write.
    """
    result: ReadResult = _core.load_document(kind, _read_maybe(os.fspath(path)))
    return result


def _with_now(options: dict[str, Any] | None, now: str | int | None) -> dict[str, Any] | None:
    """``options`` with ``stamp.now`` filled from ``now`` or the clock when a stamp lacks it."""
    if options is None:
        return None
    stamp = options.get("stamp")
    if not isinstance(stamp, dict) or stamp.get("now") is not None:
        return options
    return {**options, "stamp": {**stamp, "now": now if now is not None else now_iso()}}


def update_document(
    path: StrPath,
    kind: str,
    patch_or_function: Any | Callable[[Any], Any],
    options: dict[str, Any] | None = None,
    *,
    if_match: str | None = None,
    now: str | int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult:
    """Locked read-merge-validate-write of ``path``.

    ``patch_or_function`` is a patch (merged with ``options``) or a function given the current
    document that returns the new one, or mutates it and returns None. Unparseable old bytes
    are first copied to ``<path>.corrupt-<timestamp>``. Raises ``ValidationError`` (file
    untouched), ``ConflictError`` (``if_match`` differs), ``LockTimeoutError``.
    """
    file = os.fspath(path)
    is_function = callable(patch_or_function)
    if is_function and options is not None:
        raise TypeError("merge options apply to a patch; an update function builds the document")
    with acquire_lock(file, timeout):
        sweep(file)
        data = _read_maybe(file)
        if is_function:
            loaded = _core.load_document(kind, data)
            _core.check_if_match(loaded["etag"], if_match)
            document = loaded["document"]
            returned = patch_or_function(document)
            new_document = document if returned is None else returned
            result = _core.finish_update(kind, data, new_document, None)
        else:
            result = _core.apply_update(
                kind, data, patch_or_function, _with_now(options, now), if_match
            )
        warnings: list[dict[str, Any]] = list(result["warnings"])
        copy = None
        if result["corrupt"] and data is not None:
            copy = _corrupt_copy(file, data)
            warnings.append(
                {
                    "code": "W_CORRUPT_COPY",
                    "path": "",
                    "message": f"the unparseable file was kept as {copy} before being replaced",
                }
            )
        if result["changed"]:
            _write_atomic(file, result["text"])
        return {
            "document": result["document"],
            "etag": result["etag"],
            "changed": result["changed"],
            "warnings": warnings,
            "corrupt_copy": copy,
        }


# --- append-only logs ----------------------------------------------------------------------


def append_line(path: StrPath, value: Any, *, timeout: float = DEFAULT_TIMEOUT) -> AppendResult:
    """Appends one JSONL record under the lock: one O_APPEND ``write()``, then fsync.

    A torn last line is first moved to ``<path>.corrupt-<timestamp>`` and cut off; a last
    record without ``\\n`` gets one. ``E_LOG_CORRUPT`` (garbage before the last valid line)
    propagates and the file is left alone. Reads the whole log each time (docs/locking.md).
    """
    file = os.fspath(path)
    line: str = _core.log_line(value)
    with acquire_lock(file, timeout):
        data = _read_maybe(file)
        warnings: list[dict[str, Any]] = []
        copy = None
        prefix = ""
        if data is not None:
            log = _core.parse_log(data)
            torn = log["torn"]
            if torn is not None:
                copy = _corrupt_copy(file, data[torn["offset"] :])
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
        fd = os.open(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            _write_all(fd, (prefix + line).encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        if data is None:
            _fsync_dir(os.path.dirname(os.path.abspath(file)))
        return {"warnings": warnings, "corrupt_copy": copy}


def read_log(path: StrPath) -> LogResult:
    """Reads a JSONL log: ``{records, torn, warnings}``; missing = empty; never writes."""
    data = _read_maybe(os.fspath(path))
    if data is None:
        return {"records": [], "torn": None, "warnings": []}
    log = _core.parse_log(data)
    torn = log["torn"]
    warnings = []
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
