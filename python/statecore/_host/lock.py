"""The sidecar lock protocol of docs/locking.md, byte-compatible with npm/lib/host/lock.cjs.

A lock on ``<file>`` is the file ``<file>.lock`` holding a JSON owner record. It is created
complete (record written to a temp file, then ``link()``-ed into place), broken only when its
owner is provably dead (through a ``<file>.lock.break-<id>`` marker so that only one process
may remove it), and released only by its holder (in the process that took it). A lock path
holding another tool's file (``poetry.lock``) is never touched: ``E_LOCK_FOREIGN``. Waiters are
served fairly: one that has waited a moment claims the next turn in ``<file>.lock.next``.

Every rule is the core's (``statecore.lock``: the record's bytes, what a lock file says of its
owner, the verdict on whether that owner is gone, whose turn it is, the timeout error); this
module makes the system calls (each file-system call through the fault-injection seam,
``statecore._host.sys``) and gathers the facts (the file's stamp, ``kill(pid, 0)``,
``/proc/<pid>/stat``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextvars import ContextVar

from statecore._generated import lock as _rules
from statecore._generated.tables import (
    LOCK_GRACE_MS,
    LOCK_LEASE_MS,
    LOCK_QUEUE_AFTER_MS,
    LOCK_TURN_MS,
)
from statecore._host import runtime as _runtime
from statecore._host import sys as _sys
from statecore._host.atomic import unlink_quiet
from statecore._host.lock_claim import (
    Claim,
    create_complete,
    read_record,
    release_file,
    watch_claim,
)
from statecore._host.lock_identity import clock_ms, identity, new_record, proc_stat_text
from statecore.errors import FileTypeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Final

    from statecore.types import (
        LockFacts,
        LockOwner,
        LockRecord,
        LockRecordText,
        LockTurn,
    )

LEASE_SECONDS = LOCK_LEASE_MS / 1000
"""A lock whose owner runs on another host is broken only this long after ``acquired_at``."""
GRACE_SECONDS = LOCK_GRACE_MS / 1000
"""A malformed lock record (or break marker) is broken only when its mtime is this old."""
DEFAULT_TIMEOUT = _runtime.DEFAULT_TIMEOUT
"""Default seconds to wait for a lock before :class:`LockTimeoutError`."""
MAX_BACKOFF = 0.025
"""The longest pause of a waiter (seconds): the core's ``lock.pause`` is the schedule."""


class Owner:
    """What a lock file, break marker or turn claim holds (the core's reading of it); read-only."""

    __slots__ = ("foreign", "id", "mtime_ms", "record", "text")

    def __init__(
        self, record: LockRecord | None, id: str, foreign: bool, mtime_ms: int, text: str
    ) -> None:
        self.record: Final[LockRecord | None] = record
        """The owner record, or None when malformed."""
        self.id: Final[str] = id
        """The token, or for a malformed record ``m`` + a hash of its stamp and bytes."""
        self.foreign: Final[bool] = foreign
        """Not a statecore file at all (``poetry.lock``): never judged, never removed."""
        self.mtime_ms: Final[int] = mtime_ms
        """The file's mtime (epoch ms)."""
        self.text: Final[str] = text
        """The raw content (for messages)."""

    def reading(self) -> LockOwner:
        """The core's ``{record, id, foreign}`` of the file."""
        return {"record": self.record, "id": self.id, "foreign": self.foreign}


def read_owner(path: str) -> Owner | None:
    """Reads a lock file, break marker or claim (at most 64 KiB); None when it does not exist.

    Anything but a regular file (a FIFO, a directory) is the core's ``E_FILE_TYPE``."""
    read = read_record(path)
    if read is None:
        return None
    data, st = read
    owner = _rules.owner(data, f"{st.st_ino}:{st.st_mtime_ns}")
    text = data.decode("utf-8", "replace")
    return Owner(owner["record"], owner["id"], owner["foreign"], st.st_mtime_ns // 1_000_000, text)


def process_exists(pid: int) -> bool:
    """Whether ``pid`` exists (``kill(pid, 0)``; another user's process exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def facts(owner: Owner, liveness: bool = True) -> LockFacts:
    """What this host sees of a lock file's owner, for the core's verdict (and turn);
    ``liveness=False`` (a young claim a waiter peeks at): without probing its process."""
    me = identity()
    r = owner.record
    probe = sys.platform != "win32"  # no kill(pid, 0) there: never guess
    local = liveness and r is not None and r["host"] == me["host"] and probe
    pid = r["pid"] if r is not None else 0
    return {
        "now_ms": clock_ms(),
        "mtime_ms": owner.mtime_ms,
        "host": me["host"],
        "boot": me["boot"],
        "probe": probe,
        "exists": process_exists(pid) if local else None,
        "stat": proc_stat_text(pid) if local else None,
    }


def owner_dead(owner: Owner) -> bool:
    """Whether a lock (or marker) may be broken: the core's verdict on the facts seen here.

    A foreign file is never dead: it is not ours to remove."""
    return not owner.foreign and _rules.verdict(owner.record, facts(owner))["dead"]


# --- the protocol ------------------------------------------------------------------------


def release_lock(lock_path: str, mine: LockRecordText) -> bool:
    """Releases the lock ``lock_path`` if it still holds exactly our record's bytes: to the
    claimant of the next turn when the core's ``lock.turn`` says so (its claim file is renamed
    over the lock, so the lock is never free in between and the claimant, watching its claim,
    goes on at once), else by unlinking it. True when our lock was released."""
    next_path = lock_path + ".next"
    turn = _read_turn(lock_path, next_path, mine["record"]["token"])
    try:
        read = read_record(lock_path)
    except FileTypeError:
        return False
    if read is None or read[0] != mine["text"].encode():
        return False
    if turn is not None and turn["hand_over"]:
        try:
            _sys.replace(next_path, lock_path)
            return True
        except OSError:
            pass  # the claim went meanwhile (or cannot be moved): release as usual
    unlink_quiet(lock_path)
    return True


def _holds(lock_path: str, mine: LockRecordText) -> bool:
    """Whether the lock file holds exactly ``mine``'s bytes (the lock was handed to our claim)."""
    try:
        read = read_record(lock_path)
    except OSError:
        return False
    return read is not None and read[0] == mine["text"].encode()


def break_file(lock_path: str, target: str, owner: Owner, depth: int = 0) -> bool:
    """Removes ``target`` (the lock, a marker or a claim) whose ``owner`` was judged dead.

    Only the winner of the marker ``<lock>.break-<owner.id>`` may: it re-reads ``target``,
    confirms the same owner is there and still dead, and unlinks it. A marker whose own owner
    is dead is removed the same way one level up. A foreign file is never removed. Returns
    True after progress (something removed, or already gone), False to wait for a live
    breaker.
    """
    if owner.foreign:
        return False
    marker = f"{lock_path}.break-{owner.id}"
    mine = new_record()
    if create_complete(marker, mine):
        try:
            current = read_owner(target)
            if current is not None and current.id == owner.id and owner_dead(current):
                unlink_quiet(target)
        finally:
            release_file(marker, mine)
        return True
    breaker = read_owner(marker)
    if breaker is None:
        return True
    if depth >= 8 or not owner_dead(breaker):
        return False
    return break_file(lock_path, marker, breaker, depth + 1)


def _try_acquire(lock_path: str) -> tuple[LockRecordText | None, Owner | None]:
    """One attempt: ``(our record, None)`` when acquired, else ``(None, holder to wait for)``.

    A lock path holding another tool's file is the core's ``E_LOCK_FOREIGN`` at once."""
    owner: Owner | None = None
    for _ in range(8):
        # A held lock is judged without making a record, a temp file and a link: a waiter's
        # attempt then changes nothing in the directory (whose fsync the holder waits for).
        owner = read_owner(lock_path)
        if owner is None:
            mine = new_record()
            if create_complete(lock_path, mine):
                return mine, None
            owner = read_owner(lock_path)
        if owner is None:
            continue  # released meanwhile
        if owner.foreign:
            _rules.foreign(lock_path, owner.text)
        if not owner_dead(owner) or not break_file(lock_path, lock_path, owner):
            return None, owner
    return None, owner


class Lock:
    """A held lock on ``<file>.lock``; a context manager that releases on exit.

    Only the process that took it releases it: after a ``fork``, :meth:`release` in the child
    does nothing and returns False (the parent still holds the lock)."""

    def __init__(self, path: str, mine: LockRecordText) -> None:
        self.path = path
        """The lock file (an absolute path)."""
        self.record: LockRecord = mine["record"]
        """Our owner record (its ``token`` identifies this holder)."""
        self._mine = mine
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
            return release_lock(self.path, self._mine)
        except OSError:
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


def _read_turn(
    lock_path: str,
    next_path: str,
    token: str | None,
    waiting: bool = False,
    mine: Claim | None = None,
) -> LockTurn | None:
    """The core's ``lock.turn`` on what the claim file ``<lock>.next`` holds (``wait``: let
    its claimant go first; ``hand_over``: a releaser hands it the lock; ``displace_ms``: take
    it over), or None when there is none (no crossing then) or it cannot be read: the claim file
    never makes an acquisition or a release fail. A claim too young to be honoured is judged
    from its mtime alone by the core's ``lock.glance`` (``pass``: None), without reading it or
    checking its claimant's liveness, except by a ``waiting`` acquirer (one that has waited and
    holds no claim), which reads it without checking its claimant's liveness (``peek``): it may
    have waited longer than the claimant. A dead
    claimant's claim is broken. ``token``: our own claim's (or lock's); ``mine``: our claim, if
    we are a waiter: one that another file replaced (a longer waiter took it over) is no longer
    placed."""
    try:
        seen = _sys.stat(next_path)
    except FileNotFoundError:
        # Our claim is gone and the lock was not handed to us (checked before): placed again
        # after this attempt, not watched for (a claim renamed over ours and then broken as its
        # dead predecessor's would otherwise leave us watching a file that is not there).
        if mine is not None:
            mine.placed = False
        return None
    except OSError:
        return None
    try:
        if mine is not None and mine.placed and seen.st_ino != mine.ino:
            mine.placed = False  # taken over: we wait like the others (and may take it back)
            waiting = True
        glance = _rules.glance(clock_ms(), seen.st_mtime_ns // 1_000_000, waiting)
        if glance == "pass":
            return None
        claimed = read_owner(next_path)
    except OSError:
        return None
    if claimed is None:
        return None
    since = mine.since if mine is not None and waiting else None
    seen_facts = facts(claimed, glance == "judge")
    turn = _rules.turn(claimed.reading(), seen_facts, token, waiting, since)
    if turn["dead"]:
        try:
            break_file(lock_path, next_path, claimed)
        except OSError:
            return turn  # not broken now: tried again on a later poll
    return turn


def _timeout(lock_path: str, owner: Owner | None, timeout: float) -> None:
    """Raises the core's ``E_LOCK_TIMEOUT`` naming the holder (read now if not seen)."""
    if owner is None:
        try:
            owner = read_owner(lock_path)
        except OSError:
            owner = None
    held = None if owner is None else {"record": owner.record, "id": owner.id, "text": owner.text}
    _rules.timeout(lock_path, held, round(timeout * 1000))


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


def acquire(lock_path: str, timeout: float) -> Lock:
    """Takes the lock file ``lock_path`` (absolute), waiting up to ``timeout`` seconds (checked).

    Fair under contention (docs/locking.md § Fairness): a waiter that has waited
    ``LOCK_QUEUE_AFTER_MS`` claims the next turn in ``<lock>.next`` (refreshed every half
    ``LOCK_TURN_MS``); every other acquirer lets a live claimant go first."""
    next_path = lock_path + ".next"
    start = time.monotonic()
    claim = Claim()
    held: Lock | None = None
    owner: Owner | None = None
    attempt = 0
    try:
        while True:
            _cancelled()
            if claim.mine is not None and _holds(lock_path, claim.mine):
                held = Lock(lock_path, claim.mine)  # handed to us by its releaser
                return held
            token = None if claim.mine is None else claim.mine["record"]["token"]
            waiting = attempt > 0 and not claim.placed
            turn = _read_turn(lock_path, next_path, token, waiting, claim)
            deferred = turn is not None and turn["wait"]
            if deferred:
                claim.placed = False  # another's claim is there, not ours
                if turn is not None and turn["displace_ms"] is not None:
                    # We have waited longer than its claimant: the claim becomes ours.
                    claim.displace(next_path, turn["displace_ms"])
            else:
                mine, owner = _try_acquire(lock_path)
                if mine is not None:
                    held = Lock(lock_path, mine)
                    return held
            now = time.monotonic()
            elapsed = now - start
            if elapsed >= timeout:
                if claim.mine is not None:
                    claim.remove(next_path)
                    if _holds(lock_path, claim.mine):
                        held = Lock(lock_path, claim.mine)
                        return held
                _timeout(lock_path, owner, timeout)
            if claim.placed and (now - claim.at) * 1000 > LOCK_TURN_MS / 2:
                claim.remove(next_path)  # renewed below
            # Another's claim is there: ours could not be placed (no temp file, no link to fail).
            if not claim.placed and not deferred and elapsed * 1000 >= LOCK_QUEUE_AFTER_MS:
                claim.place(next_path, now)
            import random  # only a waiter needs it: not imported with statecore

            plan = _rules.pause(attempt, claim.age_ms(), True, random.random())
            pause = max(0.0, min(timeout - elapsed, plan["us"] / 1_000_000))
            if plan["watch"] != "none":
                step = plan["step_us"] / 1_000_000
                lock_too = plan["watch"] == "claim_and_lock"
                watch_claim(lock_path, next_path, pause, step, lock_too, claim.ino)
            else:
                time.sleep(pause)
            attempt = min(attempt + 1, 16)
    finally:
        if claim.mine is not None:
            claim.remove(next_path)
            # Handed the lock as we gave up (cancelled, an error): release it, never keep it.
            if held is None and _holds(lock_path, claim.mine):
                Lock(lock_path, claim.mine).release()


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
    break markers whose owners are dead (never a foreign file).
    """
    directory, name = os.path.split(os.path.abspath(path))
    lock_path = os.path.join(directory, name) + ".lock"
    try:
        entries = _sys.listdir(directory)
    except OSError:
        return
    # Only names that contain the file's name (other than it and its lock) can be its litter:
    # no crossing when there are none.
    own = (name, f"{name}.lock", f"{name}.lock.next")
    candidates = [entry for entry in entries if entry not in own and name in entry]
    if not candidates:
        return
    for item in _rules.litter(name, candidates):
        full = os.path.join(directory, item["entry"])
        if item["what"] == "write_temp":
            unlink_quiet(full)  # nobody else writes while we hold the lock
            continue
        # A lock temp file or break marker holds its creator's record: judged like a lock.
        try:
            owner = read_owner(full)
        except FileTypeError:
            continue  # not a file statecore made
        if owner is None or not owner_dead(owner):
            continue
        if item["what"] == "lock_temp":
            unlink_quiet(full)
        else:
            break_file(lock_path, full, owner)
