"""The Python host layer (docs/locking.md): locked, atomic file I/O around the pure core, in
modules: ``statecore._lock`` (the lock protocol of docs/locking.md), ``statecore._atomic``
(atomic replaces, copies, appends), ``statecore._files`` (documents: one core crossing per
update), ``statecore._logs`` (JSONL logs), ``statecore._watch`` (watchers). Every rule is the
core's; these modules read and write bytes, hold locks, watch and supply the clock. Behaviour
and file formats match the Node host layer (``npm/lib/host.cjs``)."""

from __future__ import annotations

from statecore._generated.host import read_document, update_document
from statecore._lock import DEFAULT_TIMEOUT, Lock, acquire_lock
from statecore._logs import append_line, read_log, repair_log
from statecore._watch import Watcher, watch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore._files import StrPath
    from statecore._generated.host_types import AppendResult, LogResult, RepairResult
else:

    def __getattr__(name: str) -> object:
        """``AppendResult``, ``LogResult``, ``RepairResult`` and ``StrPath``, made on first
        use: ``typing`` is slow to import."""
        if name == "StrPath":
            from statecore import _files as module
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
