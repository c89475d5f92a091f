"""This process's identity for lock records (docs/locking.md § The lock file): its pid,
its start time from ``/proc/<pid>/stat``, the boot id and the host name, which the core's lock
jobs put in the records they make. Split from ``statecore._host.lock``, their driver.
"""

from __future__ import annotations

import os

from statecore._generated import lock as _rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore.types import LockIdentity


def proc_stat_text(pid: int) -> str | None:
    """The text of ``/proc/<pid>/stat``, or None (no /proc, or no such process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().decode("latin-1")
    except OSError:
        return None


_identity: list[LockIdentity] = []  # this process's, computed once per pid


def _hostname() -> str:
    """The host's name, as ``socket.gethostname()`` gives it (``uname`` where there is one:
    the same name, without importing ``socket`` with statecore)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def identity() -> LockIdentity:
    """This process's ``{pid, start, boot, host}`` (recomputed after a fork)."""
    pid = os.getpid()
    if not _identity or _identity[0]["pid"] != pid:
        boot: str | None
        try:
            with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
                boot = f.read().strip() or None
        except OSError:
            boot = None
        text = proc_stat_text(pid)
        stat = None if text is None else _rules.proc_stat(text)
        start = stat["start"] if stat else None
        _identity[:] = [{"pid": pid, "start": start, "boot": boot, "host": _hostname()}]
    return _identity[0]
