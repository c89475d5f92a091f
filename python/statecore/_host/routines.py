"""The one-crossing file routines (docs/architecture.md), the same as JS ``updateFile`` /
``queryFile``: pure functions of a file's bytes that the host layer (``statecore._host.documents``)
and tools with their own I/O use. Not table operations: they run one."""

from __future__ import annotations

from statecore._host import runtime as _runtime
from statecore._statecore import query as _query
from statecore._statecore import update as _update

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from statecore.types import DocumentKind, FileUpdate, Json, Now


def update_file(
    kind: DocumentKind,
    change: str,
    data: str | bytes | None,
    args: Sequence[object] = (),
    now: Now | None = None,
    if_match: str | None = None,
    reset: bool = False,
) -> FileUpdate[Any]:
    """One crossing per file update: the file's bytes (None: missing) read as ``kind``,
    ``change`` applied (``""``: replace with ``args[0]``; ``"merge"``: ``args`` = ``[patch,
    options]``; else a writer of the table, ``args`` being its arguments after the document),
    validated and serialized. ``now`` (default: the clock) fills stamps and ``now`` arguments.
    Raises ``ConflictError`` when ``if_match`` is not the file's etag, and the file's own error
    when it breaks a limit or repeats a key, unless ``reset`` (then it is replaced like an
    unparseable file: ``corrupt`` is true, keep a copy)."""
    clock = _runtime.clock() if now is None else now
    result: FileUpdate[Any] = _update(kind, change, data, tuple(args), clock, if_match, reset)
    return result


def query_file(
    kind: DocumentKind, op: str, data: str | bytes | None, args: Sequence[object] = ()
) -> Json:
    """One crossing per file read: the reader ``op`` of the table on the file's document (read
    from ``data`` as ``kind``; None: missing) or bytes, ``args`` after it."""
    result: Json = _query(kind, op, data, tuple(args), _runtime.clock())
    return result
