"""The statecore exception classes (docs/api.md, "Errors").

They are defined here, in Python, and the native module raises them by name (the core's
``code.class_name()``), so one abi3 wheel serves every Python version and ``except`` clauses
work as usual. Every error has a stable ``code`` (``"E_PARSE"``, ...), a JSON-pointer ``path``
(``""`` is the whole document), a one-line ``message`` and structured ``details`` (a dict).
Classes whose cause is a bad argument also subclass ``ValueError``.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "CLASSES",
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
    "error_class",
]


class StatecoreError(Exception):
    """Base class of every statecore error.

    ``StatecoreError(message, code=None, path="", details=None)``; ``code`` defaults to the
    first code of the class (``codes[0]``).
    """

    #: The codes this class is raised for, first one the default.
    codes: ClassVar[tuple[str, ...]] = ()

    code: str
    path: str
    message: str
    details: dict[str, Any]

    def __init__(
        self,
        message: str,
        code: str | None = None,
        path: str = "",
        details: dict[str, Any] | None = None,
    ) -> None:
        if code is None:
            if not self.codes:
                raise TypeError(f"{type(self).__name__} needs an error code")
            code = self.codes[0]
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path
        self.details = {} if details is None else details

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.code}{where}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r}, path={self.path!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.code, self.path, self.details))


class ParseError(StatecoreError, ValueError):
    """The bytes are not JSON, or an object repeats a key."""

    codes = ("E_PARSE", "E_DUPLICATE_KEY")


class LimitError(StatecoreError, ValueError):
    """A documented limit (depth, document size, string length) was exceeded."""

    codes = ("E_LIMIT",)


class DataError(StatecoreError, ValueError):
    """A value that is not JSON (``E_VALUE``) or that Python cannot hold (``E_PRECISION``)."""

    codes = ("E_VALUE", "E_PRECISION")


class UsageError(StatecoreError, ValueError):
    """An unknown document kind, malformed merge options, a malformed machine, or an argument
    outside its allowed values (an unknown fctry command, step or agent)."""

    codes = ("E_KIND", "E_OPTIONS", "E_MACHINE", "E_ARGUMENT")


class MergeError(StatecoreError, ValueError):
    """Merge inputs of the wrong shape."""

    codes = ("E_MERGE",)


class TimestampError(StatecoreError, ValueError):
    """A timestamp that is not RFC 3339 with a time zone, or out of range."""

    codes = ("E_TIMESTAMP",)


class ValidationError(StatecoreError, ValueError):
    """A document was refused because it is invalid; ``details`` is the validation report."""

    codes = ("E_INVALID",)

    @property
    def report(self) -> dict[str, Any]:
        """The whole report: ``{valid, errors, warnings}``."""
        return self.details


class TransitionError(StatecoreError):
    """The event is not legal from the machine's current state."""

    codes = ("E_TRANSITION",)


class LogCorruptError(StatecoreError):
    """A JSONL log has an unparseable line before its last valid line."""

    codes = ("E_LOG_CORRUPT",)


class ConflictError(StatecoreError):
    """A write required an etag (``if_match``) that no longer matches the file."""

    codes = ("E_CONFLICT",)


class LockTimeoutError(StatecoreError, TimeoutError):
    """A lock held by a live owner was not released in time (raised by the host layer)."""

    codes = ("E_LOCK_TIMEOUT",)


#: Every code and the class raised for it.
CLASSES: dict[str, type[StatecoreError]] = {
    code: cls
    for cls in (
        ParseError,
        LimitError,
        DataError,
        UsageError,
        MergeError,
        TimestampError,
        ValidationError,
        TransitionError,
        LogCorruptError,
        ConflictError,
        LockTimeoutError,
    )
    for code in cls.codes
}


def error_class(code: str) -> type[StatecoreError]:
    """The class raised for ``code`` (``StatecoreError`` for a code this version lacks)."""
    return CLASSES.get(code, StatecoreError)
