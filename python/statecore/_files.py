"""Documents on files (ARCHITECTURE §5): the one update routine every writer uses (the protocol
helpers generated in ``statecore._generated`` and :func:`statecore.update_document`): under the
lock of the file, its bytes and the change cross into the core once (one parse, one validation,
one serialization), then a ``.corrupt-`` copy of unparseable old bytes is kept and the new text
written atomically. Readers read without the lock. Behaviour matches ``npm/lib/documents.cjs``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Union, cast

from statecore import _atomic, _runtime
from statecore._lock import DEFAULT_TIMEOUT, acquire_lock, sweep
from statecore._routines import query_file, update_file
from statecore._statecore import call as _call

if TYPE_CHECKING:
    from typing_extensions import NotRequired, TypedDict

    from statecore.types import (
        DocumentKind,
        FileUpdate,
        Issue,
        Json,
        MergeRule,
        MergeStamp,
        MergeStrategy,
        Now,
    )

    D = TypeVar("D")
    R = TypeVar("R")

    class FileResult(TypedDict, Generic[D, R]):
        """What a locked update returns."""

        document: D
        etag: str | None
        changed: bool
        warnings: list[Issue]
        corrupt_copy: str | None
        result: NotRequired[R]
        item: NotRequired[Json]

    class HelperOptions(TypedDict, total=False):
        """The options of a locked update of a protocol file."""

        if_match: str | None
        timeout: float

    class UpdateKeywords(TypedDict, total=False):
        """The keywords of :func:`statecore.update_document`: host and merge options."""

        if_match: str | None
        now: str | int | None
        timeout: float
        strategy: MergeStrategy
        rules: list[MergeRule]
        stamp: MergeStamp


#: A file or directory path.
StrPath = Union[str, "os.PathLike[str]"]


def fspath(file: StrPath) -> str:
    """A path as ``str``."""
    return os.fspath(file)


def path(base: StrPath, parts: tuple[str, ...]) -> str:
    """``base`` joined with a protocol file's path components."""
    return os.path.join(os.fspath(base), *parts)


def read(kind: DocumentKind, file: str) -> Any:
    """The core's ``load_document`` over the file's bytes (never writes)."""
    return _call("load_document", (kind, _atomic.read_maybe(file)))


def query(kind: DocumentKind, file: str, op: str, args: tuple[object, ...]) -> Any:
    """A reader of the table on the file's document (or bytes): one crossing, no lock."""
    return query_file(kind, op, _atomic.read_maybe(file), args)


def _finish(file: str, data: bytes | None, result: FileUpdate[Any]) -> Any:
    """Keeps a ``.corrupt-`` copy of unparseable old bytes before they are replaced, writes the
    new text when it changed, and returns what the caller gets."""
    warnings: list[Any] = list(result["warnings"])
    copy = None
    if result["corrupt"] and data is not None and result["changed"]:
        suffix: str = _call("corrupt_copy_suffix", (_runtime.clock(),))
        copy = _atomic.write_copy(file + suffix, data)
        warnings.append(_call("corrupt_copy_warning", (copy,)))
    if result["changed"]:
        _atomic.write_atomic(file, result["text"])
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


def update(
    kind: DocumentKind,
    file: str,
    change: str,
    args: tuple[object, ...],
    now: Now | None,
    if_match: str | None,
    timeout: float,
) -> Any:
    """The one update routine: under the lock of ``file``, its bytes and ``change`` (a writer
    of the table, ``""`` to replace the document, ``"merge"`` for a patch) with ``args`` go to
    the core once."""
    with acquire_lock(file, timeout):
        sweep(file)
        data = _atomic.read_maybe(file)
        result = update_file(kind, change, data, args, now, if_match)
        return _finish(file, data, result)


def update_with(
    kind: DocumentKind,
    file: str,
    function: Callable[[Any], Any],
    if_match: str | None,
    timeout: float,
) -> Any:
    """An update by a function of the current document (it returns the new one, or changes it
    and returns ``None``): the core loads the bytes, the function runs, the core finishes."""
    with acquire_lock(file, timeout):
        sweep(file)
        data = _atomic.read_maybe(file)
        loaded = _call("load_document", (kind, data))
        _call("check_if_match", (loaded["etag"], if_match))
        document = loaded["document"]
        returned = function(document)
        new_document = document if returned is None else returned
        result = _call("finish_update", (kind, data, new_document, None))
        return _finish(file, data, result)


def _host_options(options: Mapping[str, object], also: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """``(if_match, timeout)`` of checked host options."""
    _runtime.check_options("update", options, also)
    timeout = options.get("timeout", DEFAULT_TIMEOUT)
    return options.get("if_match"), DEFAULT_TIMEOUT if timeout is None else timeout


def write(
    kind: DocumentKind,
    file: str,
    change: str,
    args: tuple[object, ...],
    options: Mapping[str, object],
) -> Any:
    """A protocol helper's locked write: ``.fctry/``-like directories created first."""
    if_match, timeout = _host_options(options)
    os.makedirs(os.path.dirname(file), exist_ok=True)
    return update(kind, file, change, args, None, if_match, timeout)


def patch(
    kind: DocumentKind,
    file: str,
    patch_or_function: object,
    merge: Mapping[str, object] | None,
    now: Now | None,
    options: Mapping[str, object],
) -> Any:
    """``update_<file>``: a patch merged with the protocol's options, or a function."""
    if_match, timeout = _host_options(options)
    os.makedirs(os.path.dirname(file), exist_ok=True)
    if callable(patch_or_function):
        if now is not None:
            raise TypeError("now stamps a patch; an update function writes its fields itself")
        return update_with(kind, file, patch_or_function, if_match, timeout)
    return update(kind, file, "merge", (patch_or_function, merge), now, if_match, timeout)


def update_document(
    file: StrPath,
    kind: DocumentKind,
    patch_or_function: object,
    options: Mapping[str, object] | None,
    keywords: Mapping[str, object],
) -> Any:
    """:func:`statecore.update_document`: ``keywords`` are the host options (``if_match``,
    ``now``, ``timeout``) and the merge options (``strategy``, ``rules``, ``stamp``)."""
    merge_keys = ("strategy", "rules", "stamp")
    _runtime.check_options("update", keywords, merge_keys)
    merge = _runtime.options(
        "merge options", options, **{key: keywords.get(key) for key in merge_keys}
    )
    if_match, timeout = _host_options(
        {k: v for k, v in keywords.items() if k not in merge_keys and k != "now"}
    )
    target = os.fspath(file)
    if callable(patch_or_function):
        if merge is not None:
            raise TypeError(
                "merge options apply to a patch; an update function builds the document"
            )
        return update_with(kind, target, patch_or_function, if_match, timeout)
    now = cast("Now | None", keywords.get("now"))  # checked by the core
    return update(kind, target, "merge", (patch_or_function, merge), now, if_match, timeout)
