"""The Python host layer (docs/locking.md): locked, atomic file I/O around the pure core, in
modules: ``statecore._host.lock`` (the lock protocol of docs/locking.md), ``statecore._host.atomic``
(atomic replaces, copies, appends), ``statecore._host.documents`` (documents: one core crossing per
update), ``statecore._host.logs`` (JSONL logs), ``statecore._host.watch`` (watchers). Every
rule is the core's; these modules read and write bytes, hold locks, watch and supply the clock.
Behaviour and file formats match the Node host layer (``npm/lib/host/host.cjs``)."""

from __future__ import annotations

from statecore._generated.host import read_document, update_document
from statecore._host.lock import DEFAULT_TIMEOUT, Lock, acquire_lock
from statecore._host.logs import append_line, read_log, repair_log
from statecore._host.watch import Watcher, watch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore._generated.host_types import AppendResult, LogResult, RepairResult
    from statecore._host.documents import StrPath
else:

    def __getattr__(name: str) -> object:
        """``AppendResult``, ``LogResult``, ``RepairResult`` and ``StrPath``, made on first
        use: ``typing`` is slow to import."""
        if name == "StrPath":
            from statecore._host import documents as module
        elif name in ("AppendResult", "LogResult", "RepairResult"):
            from statecore._generated import host_types as module
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = globals()[name] = getattr(module, name)
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), "AppendResult", "LogResult", "RepairResult", "StrPath"})


__all__ = [
    "DEFAULT_TIMEOUT",
    "AppendResult",
    "Lock",
    "LogResult",
    "RepairResult",
    "StrPath",
    "Watcher",
    "acquire_lock",
    "append_line",
    "read_document",
    "read_log",
    "repair_log",
    "update_document",
    "watch",
]
