"""The sidecar lock protocol of docs/locking.md, byte-compatible with npm/lib/host/lock.cjs.

A lock on ``<file>`` is the file ``<file>.lock`` holding a JSON owner record. It is created
complete (record written to a temp file, then ``link()``-ed into place), broken only when its
owner is provably dead (through a ``<file>.lock.break-<id>`` marker so that only one process
may remove it), and released only by its holder (in the process that took it). A lock path
holding another tool's file (``poetry.lock``) is never touched: ``E_LOCK_FOREIGN``. Waiters are
served fairly: one that has waited a moment claims the next turn in ``<file>.lock.next``.

The protocol is the core's: its acquisition (with the fair queue), its release and the holder's
sweep are jobs (``Job``, started by the table's ``lock_*_job`` rows: docs/locking.md § The lock
as a job) that ask for one system call at a time. This module is their driver: it performs each
step (each file-system call through the fault-injection seam, ``statecore._host.sys``) and
answers with what it saw.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextvars import ContextVar

from statecore._generated.tables import LOCK_GRACE_MS, LOCK_LEASE_MS, TOKEN_BYTES
from statecore._host import runtime as _runtime
from statecore._host import sys as _sys
from statecore._host.atomic import unlink_quiet
from statecore._host.jobs import drive
from statecore._host.lock_claim import create_complete, displace, read_record, watch_claim
from statecore._host.lock_identity import identity, proc_stat_text
from statecore._statecore import Job
from statecore._statecore import call as _call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType
    from typing import Any

    from statecore.types import LockRecord, LockRecordText

LEASE_SECONDS = LOCK_LEASE_MS / 1000
"""A lock whose owner runs on another host is broken only this long after ``acquired_at``."""
GRACE_SECONDS = LOCK_GRACE_MS / 1000
"""A malformed lock record (or break marker) is broken only when its mtime is this old."""
DEFAULT_TIMEOUT = _runtime.DEFAULT_TIMEOUT
"""Default seconds to wait for a lock before :class:`LockTimeoutError`."""
PROBE = sys.platform != "win32"
"""Processes can be probed here (no ``kill(pid, 0)`` on Windows: never guess)."""


def process_exists(pid: int) -> bool:
    """Whether ``pid`` exists (``kill(pid, 0)``; another user's process exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lock:
    """A held lock on ``<file>.lock``; a context manager that releases on exit.

    Only the process that took it releases it: after a ``fork``, :meth:`release` in the child
    does nothing and returns False (the parent still holds the lock)."""

    def __init__(self, path: str, mine: LockRecordText, release: dict[str, Any]) -> None:
        self.path = path
        """The lock file (an absolute path)."""
        self.record: LockRecord = mine["record"]
        """Our owner record (its ``token`` identifies this holder)."""
        self._mine = mine
        self._release = release  # the release job's first step, which the core gave ahead
        self._pid = os.getpid()
        self._released = False

    def release(self) -> bool:
        """Releases the lock; True when our lock file was removed, False if it was not ours
        (or when called in another process than the one that took it).

        Never raises for a file-system error (EIO, say): it returns False and the lock stays,
        ours, until this process exits (then it is broken as a dead owner's); the caller's own
        outcome, or error, is what it must see."""
        if self._released or os.getpid() != self._pid:
            return False
        self._released = True
        try:
            text = self._mine["text"]

            def make() -> Job:
                args = (self.path, text, identity(), PROBE, _seed(), *_clocks())
                job: Job = _call("lock_release_job", args)
                return job

            # The release's first plan came with the lock: a job only if it does not end there.
            released: bool = _drive(self.path, _Ahead(self._release, make))["released"]
            return released
        except Exception:
            return False

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


#: The cancellation of the call running in this context (``statecore.aio.run`` sets it for
#: its worker thread): a wait for a lock stops at its next poll once it is set, before the
#: lock is taken.
CANCEL: ContextVar[threading.Event | None] = ContextVar("statecore_cancel", default=None)


class Cancelled(BaseException):
    """A lock wait stopped because its ``statecore.aio`` caller was cancelled (never seen by
    the caller: ``aio.run`` raises ``asyncio.CancelledError``)."""


def _cancelled() -> None:
    """Raises :class:`Cancelled` when the call's caller was cancelled."""
    event = CANCEL.get()
    if event is not None and event.is_set():
        raise Cancelled


def _clocks() -> tuple[int, float]:
    """The wall clock (epoch ms) and the monotonic clock (ms) a job reads."""
    return time.time_ns() // 1_000_000, time.monotonic() * 1000


def _seed() -> bytes:
    """Random bytes for a job's records and jitter."""
    return os.urandom(TOKEN_BYTES)


def perform(step: dict[str, Any]) -> dict[str, object]:
    """A step of a lock job other than a pause or a watch, performed: what the job is answered
    (without the clocks)."""
    what = step["do"]
    if what == "stat":
        # access first: a claim file is missing on the uncontended path, and a failed stat
        # raises (dearer than the access).
        if not _sys.exists(step["path"]):
            return {"missing": True}
        try:
            st = _sys.stat(step["path"])
        except FileNotFoundError:
            return {"missing": True}
        return {"ino": str(st.st_ino), "mtime_ms": st.st_mtime_ns // 1_000_000}
    if what == "read":
        read = read_record(step["path"])
        if read is None:
            return {"missing": True}
        data, st = read
        return {
            "latin1": data.decode("latin-1"),
            "key": f"{st.st_ino}:{st.st_mtime_ns}",
            "mtime_ms": st.st_mtime_ns // 1_000_000,
        }
    if what == "probe":
        return {"exists": process_exists(step["pid"]), "stat": proc_stat_text(step["pid"])}
    if what == "create":
        return {"created": create_complete(step["path"], step["tmp"], step["text"].encode())}
    if what == "unlink":
        unlink_quiet(step["path"])
        return {}
    if what == "rename":
        _sys.replace(step["from"], step["to"])
        return {}
    if what == "displace":
        displace(step["path"], step["tmp"], step["text"].encode(), step["dated_ms"])
        return {}
    raise TypeError(f"statecore: a lock job asked for an unknown step {what!r}")


class _Ahead:
    """A job known by its first step (``first``, which the core gave ahead: a release's, with
    the lock), made by ``make`` only if that step does not end it."""

    def __init__(self, first: dict[str, Any], make: Callable[[], Job]) -> None:
        self.first = first
        self._make = make
        self._job: Job | None = None

    def next(self, answer: object, data: bytes | None = None) -> Any:
        if self._job is None:
            self._job = self._make()
        return self._job.next(answer, data)


def _drive(lock_path: str, job: Job | _Ahead) -> dict[str, Any]:
    """Runs a lock job to its end on the one job driver (``_host.jobs``): each step performed
    and answered with the clocks, a failure answered as ``{failed}``; a pause is where a
    cancelled caller stops (the job then removes its claim and gives the lock up). Returns the
    job's last step (``done``)."""

    def take(step: dict[str, Any], fail: Callable[[BaseException], int]) -> dict[str, object]:
        what = step["do"]
        try:
            if what == "pause":
                _cancelled()
                time.sleep(step["ms"] / 1000)
                _cancelled()  # before the job tries again (or takes a lock handed to it)
                answer: dict[str, object] = {}
            elif what == "watch":
                _cancelled()
                seconds, every = step["ms"] / 1000, step["step_ms"] / 1000
                watch_claim(
                    lock_path, lock_path + ".next", seconds, every, step["lock_too"], step["ino"]
                )
                _cancelled()
                answer = {}
            else:
                answer = perform(step)
        except (Exception, Cancelled) as error:
            answer = {"failed": fail(error)}
        answer["now_ms"] = time.time_ns() // 1_000_000
        answer["mono_ms"] = time.monotonic() * 1000
        return answer

    return drive(job, take)


def acquire(lock_path: str, timeout: float) -> Lock:
    """Takes the lock file ``lock_path`` (absolute), waiting up to ``timeout`` seconds (checked).

    Fair under contention (docs/locking.md § Fairness): a waiter that has waited
    ``LOCK_QUEUE_AFTER_MS`` claims the next turn in ``<lock>.next`` (refreshed every half
    ``LOCK_TURN_MS``); every other acquirer lets a live claimant go first."""
    _cancelled()
    args = (lock_path, True, timeout * 1000, identity(), PROBE, _seed(), *_clocks())
    job: Job = _call("lock_acquire_job", args)
    done = _drive(lock_path, job)
    return Lock(lock_path, {"record": done["record"], "text": done["text"]}, done["release"])


def acquire_lock(path: str | os.PathLike[str], timeout: float | None = DEFAULT_TIMEOUT) -> Lock:
    """Takes the lock of ``path`` (the sidecar ``<path>.lock``), waiting up to ``timeout`` s
    (None: the default; 0: one attempt).

    Raises :class:`LockTimeoutError` (``E_LOCK_TIMEOUT``, ``details`` = path and owner record),
    :class:`LockForeignError` (``E_LOCK_FOREIGN``) when ``<path>.lock`` is another tool's file
    (left alone), ``UsageError`` for a bad path (``E_ARGUMENT``) or timeout (``E_OPTIONS``).
    """
    seconds = _runtime.check_timeout("append", timeout)
    return acquire(_runtime.path_arg(path) + ".lock", seconds)


def sweep(path: str) -> None:
    """Removes what dead writers left next to ``path``; called by the lock holder.

    ``.<name>.tmp-*`` (no one else writes while we hold the lock), and lock temp files and
    break markers whose owners are dead (never a foreign file). ``path`` is the file whose
    lock is held (``path + ".lock"``), absolute as every caller's is (``runtime.path_arg``).
    """
    directory, name = os.path.split(path)
    lock_path = path + ".lock"
    try:
        entries = _sys.listdir(directory)
    except OSError:
        return
    # Only names that contain the file's name (other than it and its lock) can be its litter:
    # no crossing when there are none.
    own = (name, f"{name}.lock", f"{name}.lock.next")
    names = [entry for entry in entries if entry not in own and name in entry]
    if not names:
        return
    paths = [os.path.join(directory, entry) for entry in names]
    args = (lock_path, name, names, paths, identity(), PROBE, _seed(), *_clocks())
    job: Job = _call("lock_sweep_job", args)
    _drive(lock_path, job)
