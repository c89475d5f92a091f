"""What the generated functions (``statecore._generated``) need of the host: the clock, random
bytes, whether an argument is a directory, and options given as a dict or as keywords."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from statecore._generated.tables import HOST_OPTIONS, RANDOM_BYTES
from statecore._statecore import call as _call
from statecore.errors import UsageError


def clock() -> int:
    """The host's clock: epoch milliseconds (the core never reads a clock)."""
    return time.time_ns() // 1_000_000


def random(value: str | bytes | None) -> str | bytes:
    """An id suffix as given, or random bytes for the core to draw one from."""
    return os.urandom(RANDOM_BYTES) if value is None else value


def is_path(value: object) -> bool:
    """True for a directory argument (``str`` or ``os.PathLike``), false for a document."""
    return isinstance(value, (str, os.PathLike))


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


def check_options(
    set_name: str, given: Mapping[str, object], also: tuple[str, ...] = ()
) -> Mapping[str, object]:
    """``given`` when every key is one of the host options ``set_name`` (or ``also``); else the
    core's ``E_OPTIONS`` (``UsageError``) naming the nearest valid key."""
    known = HOST_OPTIONS[set_name]
    if any(key not in known and key not in also for key in given):
        _call("check_options", (set_name, given, False, list(also)))  # raises E_OPTIONS
    return given
