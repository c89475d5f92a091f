"""The types of :func:`statecore.host.append_line`, :func:`statecore.host.repair_log` and
:func:`statecore.host.read_log`
(TypedDicts): a module of their own, imported on first use (``statecore._logs`` and
``statecore.host`` give them by name), because ``typing`` is slow to import."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from statecore.types import Issue, Json, TornLine


class AppendResult(TypedDict):
    """What :func:`append_line` returns."""

    warnings: list[Issue]
    corrupt_copy: str | None


class RepairResult(TypedDict):
    """What :func:`repair_log` returns."""

    torn_line: int | None
    warnings: list[Issue]
    corrupt_copy: str | None


class LogResult(TypedDict):
    """What :func:`read_log` returns."""

    records: list[Json]
    torn: TornLine | None
    warnings: list[Issue]


class AppendOptions(TypedDict, total=False):
    """The options of :func:`append_line`."""

    timeout: float | None
