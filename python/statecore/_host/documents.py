"""Documents on files (docs/locking.md): the one update routine every writer uses (the protocol
helpers generated in ``statecore._generated`` and :func:`statecore.update_document`): the core's
update job (docs/locking.md § The update as one job) takes the lock, reads, changes, keeps a
``.corrupt-`` copy of unparseable old bytes, writes atomically and releases the lock, asking
for the system calls; an update by a function runs the lock's and the file update's jobs one by
one. Readers read without the lock. Paths are made absolute once, first; only a
regular file is read (``E_FILE_TYPE`` otherwise), at most one byte past the core's limit.
Behaviour matches ``npm/lib/host/documents.cjs``.
"""

from __future__ import annotations

import os
import time

from statecore._generated.tables import LOGS
from statecore._host import atomic as _atomic
from statecore._host import runtime as _runtime
from statecore._host import sessions as _sessions
from statecore._host import sys as _sys
from statecore._host.jobs import BYTES, drive
from statecore._host.lock import PROBE as _lock_probe
from statecore._host.lock import acquire, sweep
from statecore._host.lock_identity import identity as _identity
from statecore._host.locked_update import locked_steps
from statecore._host.routines import query_file
from statecore._statecore import Job
from statecore._statecore import call as _call
from statecore._statecore import update_job as _update_job

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Union, cast

    # The results' and options' types are generated from the core's host-routine table.
    from statecore._generated.host_types import FileResult as FileResult
    from statecore._generated.host_types import HelperOptions as HelperOptions
    from statecore._generated.host_types import LoggedResult as LoggedResult
    from statecore._generated.host_types import SessionOptions as SessionOptions
    from statecore._generated.host_types import UpdateKeywords as UpdateKeywords
    from statecore.store import FileStore, PostgresStore
    from statecore.types import (
        DocumentKind,
        FileUpdate,
        Now,
    )

    #: A document store (docs/store.md).
    Store = Union[FileStore, PostgresStore]

    #: A file or directory path.
    StrPath = Union[str, "os.PathLike[str]"]
else:
    from statecore._host.runtime import cast

    def __getattr__(name: str) -> object:
        """``StrPath`` (``Union[str, "os.PathLike[str]"]``), made on first use: ``typing`` is
        not imported with statecore."""
        if name == "StrPath":
            from typing import Union

            value = globals()["StrPath"] = Union[str, "os.PathLike[str]"]
            return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def fspath(file: object) -> str:
    """A path argument as an absolute ``str`` (``E_ARGUMENT`` for anything else)."""
    return _runtime.path_arg(file)


def path(base: object, parts: tuple[str, ...]) -> str:
    """``base`` (a directory argument, made absolute) joined with a protocol file's path
    components."""
    return os.path.join(_runtime.path_arg(base), *parts)


def read(kind: DocumentKind, file: str) -> Any:
    """The core's ``load_document`` over the file's bytes (never writes)."""
    return _call("load_document", (kind, _atomic.read_document(file)))


def query(kind: DocumentKind, file: str, op: str, args: tuple[object, ...]) -> Any:
    """A reader of the table on the file's document (or bytes): one crossing, no lock (a file
    kept with a log is read as :func:`read_logged` reads it)."""
    log = LOGS.get(kind)
    if log is not None:
        _result, text = _sessions.read(kind, file, log, _runtime.timeout_seconds(None))
        return query_file(kind, op, text, args)
    return query_file(kind, op, _atomic.read_document(file), args)


def _logged_timeout(options: Mapping[str, object]) -> float:
    """The checked options of a step of a file kept with its log (``timeout``; ``now`` is an
    argument in Python): the lock's timeout in seconds."""
    _runtime.check_options("logged", options)
    return _runtime.timeout_seconds(options.get("timeout"))


def read_logged(kind: DocumentKind, file: str, options: Mapping[str, object]) -> Any:
    """Reads a file kept with its event log, rebuilding it from the log when it is missing,
    unreadable or behind (under the lock)."""
    return _sessions.read(kind, file, LOGS[kind], _logged_timeout(options))[0]


def _guarded(kind: str, file: str, change: Callable[[bytes | None], FileUpdate[Any]]) -> Any:
    """The guarded read-change-write of docs/locking.md § Files people edit, under the lock the
    caller holds, as the core's file update job decides it (§ The update as a job, run on the
    one job driver): ``file`` is read with its stamp (``load``), waited on while a person may
    be saving it (``pause``), ``change(data)`` computes the core's update (``apply``), an
    unparseable file is copied (``copy``) before the new text is written, on the condition that
    the file is still the one read (``write``); from the read again when it is not. Behaviour
    matches ``guarded`` in ``npm/lib/host/documents.cjs``."""
    kept: dict[str, Any] = {"data": None, "stamp": None, "result": None}
    job: Job = _call("file_update_job", (kind, file, _runtime.clock()))

    def take(step: dict[str, Any], fail: Callable[[BaseException], int]) -> dict[str, Any]:
        what = step["do"]
        try:
            if what == "load":
                data, kept["stamp"], age_ms = _atomic.read_stamped(step["path"])
                kept["data"] = data
                if data is None:
                    return {"missing": True}
                if "bytes" in step:
                    return {"missing": False, "age_ms": age_ms, BYTES: data}
                return {"missing": False, "age_ms": age_ms}
            if what == "apply":
                result = kept["result"] = change(kept["data"])
                return {"changed": result["changed"], "corrupt": result["corrupt"]}
            if what == "write":
                edited = "edited" in step
                guard = _atomic.Guard(kept["stamp"], edited, step["backdate_ms"] if edited else 0)
                return {"written": _atomic.write_atomic(file, kept["result"]["text"], guard)}
            if what == "copy":
                # The whole file: the bytes read stop at the limit + 1.
                return {"path": _atomic.copy_file(file, step["to"], kept["data"] or b"")}
            if what == "pause":
                time.sleep(step["ms"] / 1000)
                return {}
            raise TypeError(f"statecore: a file update job asked for an unknown step {what!r}")
        except Exception as error:
            return {"failed": fail(error)}

    done = drive(job, take)
    result: FileUpdate[Any] = kept["result"]
    warnings: list[Any] = list(result["warnings"])
    copy = done.get("corrupt_copy")
    if copy is not None:
        warnings.append(done["warning"])
    return outcome(result, warnings, copy)


def outcome(result: FileUpdate[Any], warnings: list[Any], copy: str | None) -> Any:
    """What an update's caller gets of the core's result: the document, its etag, whether it
    changed, the warnings, the corrupt copy, and the operation's own result or item."""
    out = {
        "document": result["document"],
        "etag": result["etag"],
        "changed": result["changed"],
        "warnings": warnings,
        "corrupt_copy": copy,
    }
    for extra in ("result", "item"):
        if extra in result:
            out[extra] = result[extra]
    return out


class _Host:
    """Checked host options of one update: ``if_match``, ``timeout`` (seconds), ``reset``."""

    __slots__ = ("if_match", "reset", "timeout")

    def __init__(self, options: Mapping[str, object]) -> None:
        _runtime.check_options("update", options)
        if_match = options.get("if_match")
        self.if_match: str | None = if_match if isinstance(if_match, str) else None
        self.timeout: float = _runtime.timeout_seconds(options.get("timeout"))
        self.reset: bool = options.get("reset") is True


def update(
    kind: DocumentKind,
    file: str,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    host: _Host,
) -> Any:
    """The one update routine: the core's update job (docs/locking.md § The update as one job)
    on ``file`` (absolute), a document of ``kind``, by ``change`` (a writer of the table, ``""``
    to replace the document, ``"merge"`` for a patch) with ``args``: the job takes the lock,
    sweeps, reads, applies the change, keeps a copy of an unparseable file, writes and releases
    the lock, asking for the system calls (``statecore._host.locked_update``); its common path
    crosses into the core twice."""
    waiter = {
        "identity": _identity(),
        "probe": _lock_probe,
        "watching": True,
        "timeout_ms": host.timeout * 1000,
        "with_document": True,
        "numbers": "python",
        "now_ms": time.time_ns() // 1_000_000,
        "mono_ms": time.monotonic() * 1000,
    }
    seed = os.urandom(16)
    job = _update_job(kind, change, file, args, now, host.if_match, host.reset, waiter, seed)
    done: dict[str, Any] = drive(job, locked_steps())
    return outcome(cast("FileUpdate[Any]", done), done["warnings"], done["corrupt_copy"])


def update_with(kind: DocumentKind, file: str, function: Callable[[Any], Any], host: _Host) -> Any:
    """An update by a function of the current document (it returns the new one, or changes it
    and returns ``None``): the core loads the bytes, the function runs, the core finishes. A
    file the core refuses to replace (a limit, a repeated key) raises before the function
    runs, unless ``reset``."""

    def change(data: bytes | None) -> FileUpdate[Any]:
        loaded = _call("load_document", (kind, data))
        _call("check_if_match", (loaded["etag"], host.if_match))
        document = loaded["document"]
        if loaded["corrupt"] and not host.reset:
            # The core's refusal of a file that breaks a limit, before the function runs.
            _call("finish_update", (kind, data, loaded["document"], None, False))
        returned = function(document)
        new_document = document if returned is None else returned
        return cast(
            "FileUpdate[Any]", _call("finish_update", (kind, data, new_document, None, host.reset))
        )

    with acquire(file + ".lock", host.timeout):
        sweep(file)
        return _guarded(kind, file, change)


def write(
    kind: DocumentKind,
    file: str,
    change: str,
    args: tuple[object, ...],
    options: Mapping[str, object],
) -> Any:
    """A protocol helper's locked write: ``.fctry/``-like directories created first; a file
    kept with its event log is changed by a step that appends its line (``_sessions``)."""
    log = LOGS.get(kind)
    if log is not None:
        timeout = _logged_timeout(options)
        _sys.makedirs(os.path.dirname(file))
        return _sessions.step(kind, file, log, change, args, None, timeout)
    host = _Host(options)
    _sys.makedirs(os.path.dirname(file))
    return update(kind, file, change, args, None, host)


def patch(
    kind: DocumentKind,
    file: str,
    patch_or_function: object,
    merge: Mapping[str, object] | None,
    now: Now | None,
    options: Mapping[str, object],
) -> Any:
    """``update_<file>``: a patch merged with the protocol's options, or a function."""
    host = _Host(options)
    _sys.makedirs(os.path.dirname(file))
    if callable(patch_or_function):
        if now is not None:
            raise TypeError("now stamps a patch; an update function writes its fields itself")
        return update_with(kind, file, patch_or_function, host)
    return update(kind, file, "merge", (patch_or_function, merge), now, host)


def _in_store(
    kind: DocumentKind,
    base: object,
    parts: tuple[str, ...],
    options: Mapping[str, object],
    checked_as: str = "update",
) -> tuple[Any, str, dict[str, Any]] | None:
    """``(store, key, options)`` when ``options`` name a store (the directory a key prefix:
    ``store_file_key``), else None; the other options checked as the host options
    ``checked_as`` (a file kept with its event log: ``logged``)."""
    store = options.get("store")
    if store is None:
        return None
    from statecore.store import FileStore, PostgresStore

    if not isinstance(store, (FileStore, PostgresStore)):
        raise TypeError(f"store must be a FileStore or a PostgresStore, not {type(store).__name__}")
    rest = {k: v for k, v in options.items() if k != "store"}
    _runtime.check_options("logged" if kind in LOGS else checked_as, rest)
    key: str = _call("store_file_key", (os.fspath(base), list(parts)))  # type: ignore[call-overload]
    return store, key, rest


def read_at(kind: DocumentKind, base: object, parts: tuple[str, ...], store: object) -> Any:
    """``read_<file>``: :func:`read` of ``base``'s protocol file, or its document in
    ``store``."""
    found = _in_store(kind, base, parts, {"store": store})
    if found is None:
        return read(kind, path(base, parts))
    return found[0].read(found[1], kind)


def read_logged_at(
    kind: DocumentKind, base: object, parts: tuple[str, ...], options: Mapping[str, object]
) -> Any:
    """``read_<file>`` of a file kept with its log: :func:`read_logged`, or through
    ``options["store"]``."""
    found = _in_store(kind, base, parts, options)
    if found is None:
        return read_logged(kind, path(base, parts), options)
    store, key, rest = found
    return store.read(key, kind, **rest)


def query_at(
    kind: DocumentKind,
    base: object,
    parts: tuple[str, ...],
    op: str,
    args: tuple[object, ...],
    store: object,
) -> Any:
    """A reader helper: :func:`query` on ``base``'s protocol file, or on its document in
    ``store``."""
    found = _in_store(kind, base, parts, {"store": store})
    if found is None:
        return query(kind, path(base, parts), op, args)
    return found[0].query(found[1], kind, op, args)


def write_at(
    kind: DocumentKind,
    base: object,
    parts: tuple[str, ...],
    change: str,
    args: tuple[object, ...],
    options: Mapping[str, object],
) -> Any:
    """:func:`write` on ``base``'s protocol file, or through ``options["store"]``."""
    found = _in_store(kind, base, parts, options)
    if found is None:
        return write(kind, path(base, parts), change, args, options)
    store, key, rest = found
    return store.change(key, kind, change, args, **rest)


def patch_at(
    kind: DocumentKind,
    base: object,
    parts: tuple[str, ...],
    patch_or_function: object,
    merge: Mapping[str, object] | None,
    now: Now | None,
    options: Mapping[str, object],
) -> Any:
    """:func:`patch` on ``base``'s protocol file, or through ``options["store"]``."""
    found = _in_store(kind, base, parts, options)
    if found is None:
        return patch(kind, path(base, parts), patch_or_function, merge, now, options)
    store, key, rest = found
    if callable(patch_or_function):
        if now is not None:
            raise TypeError("now stamps a patch; an update function writes its fields itself")
        return store.update(key, kind, patch_or_function, **rest)
    return store.change(key, kind, "merge", (patch_or_function, merge), now=now, **rest)


def _merge_options(given: object) -> Mapping[str, object] | None:
    """Merge options as the core receives them: a mapping as a ``dict``; anything else that is
    not None is the core's ``E_OPTIONS`` at once (before any lock)."""
    if given is None:
        return None
    from collections.abc import Mapping  # here: not imported with statecore

    if isinstance(given, Mapping):
        return dict(given)
    _call("merge", ({}, {}, _runtime.as_json(given)))  # raises E_OPTIONS
    raise AssertionError("merge options that are not a mapping were accepted")


def update_document(
    file: object,
    kind: DocumentKind,
    patch_or_function: object,
    options: object,
    keywords: Mapping[str, object],
) -> Any:
    """:func:`statecore.update_document`: ``keywords`` are the host options (``if_match``,
    ``now``, ``timeout``, ``reset``) and the merge options (``strategy``, ``rules``,
    ``stamp``). Options are checked, and the path made absolute, before the lock is taken."""
    merge_keys = ("strategy", "rules", "stamp")
    _runtime.check_options("update", keywords, merge_keys)
    merge = _runtime.options(
        "merge options",
        _merge_options(options),
        **{key: keywords.get(key) for key in merge_keys},
    )
    host = _Host({k: v for k, v in keywords.items() if k not in merge_keys and k != "now"})
    target = _runtime.path_arg(file)
    if callable(patch_or_function):
        if merge is not None:
            # The core's check first: an update option given here is told where it goes.
            _call("merge", ({}, {}, dict(merge)))
            raise TypeError(
                "merge options apply to a patch; an update function builds the document"
            )
        return update_with(kind, target, patch_or_function, host)
    now = cast("Now | None", keywords.get("now"))  # checked by the core
    return update(kind, target, "merge", (patch_or_function, merge), now, host)
