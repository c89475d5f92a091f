"""What the generated functions (``statecore._generated``) and the host layer need of the host:
the clock, random bytes, whether an argument is a directory, path arguments, and options given
as a dict or as keywords (checked by the core)."""

from __future__ import annotations

import math
import os
import time

from statecore._generated.tables import HOST_OPTIONS, LOCK_TIMEOUT_MS, RANDOM_BYTES
from statecore._statecore import call as _call
from statecore.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypeVar

    T = TypeVar("T")

DEFAULT_TIMEOUT = LOCK_TIMEOUT_MS / 1000
"""Default seconds to wait for a lock before :class:`LockTimeoutError`."""
_LONGEST_TIMEOUT = 1e9
"""Seconds: a longer timeout (a huge int) waits this long, which is forever in practice."""


def overload(function: T) -> T:
    """``typing.overload`` at run time, where the generated modules use it without importing
    ``typing`` (slow to import): type checkers read the overloads, and the implementation
    defined after them replaces them."""
    return function


def cast(typ: object, val: T) -> T:
    """``typing.cast`` at run time, without importing ``typing``: ``val`` unchanged."""
    return val


def clock() -> int:
    """The host's clock: epoch milliseconds (the core never reads a clock)."""
    return time.time_ns() // 1_000_000


def random(value: str | bytes | None) -> str | bytes:
    """An id suffix as given, or random bytes for the core to draw one from."""
    return os.urandom(RANDOM_BYTES) if value is None else value


def is_path(value: object) -> bool:
    """True for a directory argument (``str`` or ``os.PathLike``), false for a document.
    ``bytes`` (never a document) counts as a path, so that it is refused as one (``E_ARGUMENT``)."""
    return isinstance(value, (str, bytes, os.PathLike))


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def path_arg(value: object, argument: str = "path") -> str:
    """A path argument (``str`` or ``os.PathLike[str]``) as an ABSOLUTE path, resolved once so
    that a later ``chdir`` changes nothing; anything else (``bytes`` paths included) is
    ``UsageError`` ``E_ARGUMENT`` with ``details.argument``."""
    text: object = value
    if isinstance(value, os.PathLike):
        text = os.fspath(value)
    if isinstance(text, str):
        return os.path.abspath(text)
    shown = f"a path of {_type_name(text)}" if text is not value else _type_name(value)
    raise UsageError(
        f"{argument} must be a str or an os.PathLike of str, not {shown}",
        code="E_ARGUMENT",
        details={"argument": argument},
    )


def no_options(options: Mapping[str, object]) -> None:
    """``TypeError`` when file options are given with a document (they apply to a directory)."""
    if options:
        raise TypeError(f"{', '.join(options)} applies to a directory, not to a document")


def options(
    name: str, given: Mapping[str, Any] | None, **keywords: Any
) -> Mapping[str, Any] | None:
    """Options given as one dict or as keywords (not both): the dict, or the keywords set."""
    chosen = {key: value for key, value in keywords.items() if value is not None}
    if not chosen:
        return given
    if given is not None:
        raise UsageError(
            f"pass {name} either as the {name} dict or as keywords, not both", code="E_OPTIONS"
        )
    return chosen


def is_timeout(value: object) -> bool:
    """True for a timeout the core accepts: absent (None), or a finite int/float ≥ 0 (not bool)."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value >= 0 and (isinstance(value, int) or math.isfinite(value))


def _value_ok(key: str, value: object) -> bool:
    """The fast path of the core's value check (the core has the final word)."""
    if key == "timeout":
        return is_timeout(value)
    if key == "if_match":
        return value is None or isinstance(value, str)
    if key in ("reset", "initial"):
        return value is None or isinstance(value, bool)
    if key == "id":
        return value is None or isinstance(value, str)
    if key in ("after", "limit"):
        whole = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        return value is None or whole
    return True  # now, merge options: checked by the core where they are used


def as_json(value: object) -> object:
    """``value`` when the core can receive it as JSON, else its text (``nan``, ``inf``, the
    ``repr`` of another object), so that the core reports it (``E_OPTIONS``), not the
    conversion."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return repr(value)


def check_options(
    set_name: str, given: Mapping[str, object], also: tuple[str, ...] = ()
) -> Mapping[str, object]:
    """``given`` when every key is one of the host options ``set_name`` (or ``also``) and every
    value has its option's type; else the core's ``E_OPTIONS`` (``UsageError``) naming the
    nearest valid key or the bad value (a value JSON cannot hold is passed as its text)."""
    known = HOST_OPTIONS[set_name]
    if any(
        (key not in known and key not in also) or not _value_ok(key, value)
        for key, value in given.items()
    ):
        shown = {key: as_json(value) if key in known else None for key, value in given.items()}
        _call("check_options", (set_name, shown, False, list(also)))  # raises E_OPTIONS
    return given


def timeout_seconds(value: object) -> float:
    """A checked ``timeout`` option in seconds: None is the default."""
    if value is None:
        return DEFAULT_TIMEOUT
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AssertionError(f"unchecked timeout {value!r}")  # check_options refused it
    return float(value) if value < _LONGEST_TIMEOUT else _LONGEST_TIMEOUT


def check_timeout(set_name: str, value: object) -> float:
    """A ``timeout`` argument checked by the core (``E_OPTIONS`` before any lock), in seconds."""
    if not is_timeout(value):
        check_options(set_name, {"timeout": value})
    return timeout_seconds(value)
