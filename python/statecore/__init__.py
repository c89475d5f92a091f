"""statecore: JSON state documents with a Rust core.

Pure functions over documents (``parse``, ``merge``, ``validate``, ...) come from the native
module ``statecore._statecore``; ``statecore.machine`` runs state machines; ``statecore.fctry``
performs the fctry workflow operations; the host functions (``read_document``,
``update_document``, ``append_line``, ``read_log``) do safe file I/O.
Documents are plain ``dict``/``list``/``str``/``int``/``float``/``bool``/``None`` values; the
API is the same as in every other language (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from statecore import _statecore, agency, fctry, hivemind, machine
from statecore._statecore import (
    canonical,
    check_if_match,
    default_document,
    etag,
    finish_update,
    format_timestamp,
    kinds,
    limits,
    load_document,
    log_line,
    parse,
    parse_log,
    parse_timestamp,
    prepare_document,
    schema,
    serialize,
    validate,
    validate_text,
)
from statecore.errors import (
    ConflictError,
    DataError,
    LimitError,
    LockTimeoutError,
    LogCorruptError,
    MergeError,
    ParseError,
    StatecoreError,
    TimestampError,
    TransitionError,
    UsageError,
    ValidationError,
)

try:
    from statecore.host import append_line, read_document, read_log, update_document
except ModuleNotFoundError as _missing:  # pragma: no cover - only until the host layer lands
    if _missing.name != "statecore.host":
        raise

__version__: str = _statecore.__version__

__all__ = [
    "ConflictError",
    "DataError",
    "LimitError",
    "LockTimeoutError",
    "LogCorruptError",
    "MergeError",
    "ParseError",
    "StatecoreError",
    "TimestampError",
    "TransitionError",
    "UsageError",
    "ValidationError",
    "__version__",
    "agency",
    "append_line",
    "apply_update",
    "canonical",
    "check_if_match",
    "default_document",
    "etag",
    "fctry",
    "finish_update",
    "format_timestamp",
    "hivemind",
    "kinds",
    "limits",
    "load_document",
    "log_line",
    "machine",
    "merge",
    "merge_text",
    "parse",
    "parse_log",
    "parse_timestamp",
    "prepare_document",
    "read_document",
    "read_log",
    "schema",
    "serialize",
    "update_document",
    "validate",
    "validate_text",
]


def _options(
    options: dict[str, Any] | None,
    strategy: str | None,
    rules: list[dict[str, Any]] | None,
    stamp: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """The merge options: the ``options`` dict, or one built from the keywords (not both)."""
    if strategy is None and rules is None and stamp is None:
        return options
    if options is not None:
        raise UsageError(
            "pass merge options either as the options dict or as keywords, not both",
            code="E_OPTIONS",
        )
    built: dict[str, Any] = {}
    if strategy is not None:
        built["strategy"] = strategy
    if rules is not None:
        built["rules"] = rules
    if stamp is not None:
        built["stamp"] = stamp
    return built


def merge(
    doc: Any,
    patch: Any,
    options: dict[str, Any] | None = None,
    *,
    strategy: str | None = None,
    rules: list[dict[str, Any]] | None = None,
    stamp: dict[str, Any] | None = None,
) -> Any:
    """Merges ``patch`` into ``doc`` and returns the merged document (inputs are not changed).

    ``strategy`` is ``"deep"`` (default), ``"shallow"`` or ``"merge_patch"`` (RFC 7396);
    ``rules`` like ``[{"path": "/steps", "mode": "append"}]``; ``stamp`` like
    ``{"field": "lastUpdated", "now": "2026-01-01T00:00:00.000Z"}``. Give them as keywords or
    as one ``options`` dict.
    """
    return _statecore.merge(doc, patch, _options(options, strategy, rules, stamp))


def merge_text(
    doc: str | bytes,
    patch: str | bytes,
    options: dict[str, Any] | None = None,
    *,
    strategy: str | None = None,
    rules: list[dict[str, Any]] | None = None,
    stamp: dict[str, Any] | None = None,
) -> str:
    """:func:`merge` over JSON text: returns the canonical text (numbers kept exactly)."""
    return _statecore.merge_text(doc, patch, _options(options, strategy, rules, stamp))


def apply_update(
    kind: str,
    data: str | bytes | None,
    patch: Any,
    options: dict[str, Any] | None = None,
    if_match: str | None = None,
    *,
    strategy: str | None = None,
    rules: list[dict[str, Any]] | None = None,
    stamp: dict[str, Any] | None = None,
) -> Any:
    """The pure update step of a file (``data`` its contents, ``None`` if missing).

    Returns ``{document, text, etag, changed, corrupt, warnings}``; merge options as in
    :func:`merge`; ``if_match`` requires the file's current etag.
    """
    return _statecore.apply_update(
        kind, data, patch, _options(options, strategy, rules, stamp), if_match
    )
