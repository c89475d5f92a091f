"""This process's identity for lock records (docs/locking.md § The lock file): its pid,
its start time from ``/proc/<pid>/stat``, the boot id and the host name, and fresh records
made from them by the core (``statecore.lock``). Split from ``statecore._host.lock``, which makes
the lock's system calls.
"""

from __future__ import annotations

import os
import time

from statecore._generated import lock as _rules
from statecore._generated.tables import TOKEN_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore.types import LockIdentity, LockRecordText


def clock_ms() -> int:
    """The host's clock in epoch milliseconds."""
    return time.time_ns() // 1_000_000


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


def new_record(now_ms: int | None = None) -> LockRecordText:
    """A fresh owner record and the lock file's bytes: ``{record, text}`` (the core's format),
    dated ``now_ms`` (epoch ms; the clock when None: a waiter's claim is dated when it started
    waiting)."""
    return _rules.record(
        identity(), os.urandom(TOKEN_BYTES), clock_ms() if now_ms is None else now_ms
    )
