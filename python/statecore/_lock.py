"""The sidecar lock protocol of docs/locking.md, byte-compatible with npm/lib/lock.cjs.

A lock on ``<file>`` is the file ``<file>.lock`` holding a JSON owner record. It is created
complete (record written to a temp file, then ``link()``-ed into place), broken only when its
owner is provably dead (through a ``<file>.lock.break-<id>`` marker so that only one process
may remove it), and released only by its holder.

Every rule is the core's (``statecore.lock``: the record's bytes, what a lock file says of its
owner, the verdict on whether that owner is gone, the timeout error); this module makes the
system calls and gathers the facts (the file's stamp, ``kill(pid, 0)``, ``/proc/<pid>/stat``).
"""

from __future__ import annotations

import errno
import os
import random
import socket
import sys
import time
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

from statecore._atomic import unlink_quiet
from statecore._generated import lock as _rules
from statecore._generated.tables import LOCK_GRACE_MS, LOCK_LEASE_MS, LOCK_TIMEOUT_MS, TOKEN_BYTES

if TYPE_CHECKING:
    from statecore.types import LockFacts, LockIdentity, LockRecord, LockRecordText

LEASE_SECONDS = LOCK_LEASE_MS / 1000
"""A lock whose owner runs on another host is broken only this long after ``acquired_at``."""
GRACE_SECONDS = LOCK_GRACE_MS / 1000
"""A malformed lock record (or break marker) is broken only when its mtime is this old."""
DEFAULT_TIMEOUT = LOCK_TIMEOUT_MS / 1000
"""Default seconds to wait for a lock before :class:`LockTimeoutError`."""
MAX_BACKOFF = 0.025
"""Polling backoff: 1 ms doubling to this, plus up to 25 % jitter."""

_LINK_UNSUPPORTED = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}


def clock_ms() -> int:
    """The host's clock in epoch milliseconds."""
    return time.time_ns() // 1_000_000


# --- process identity and liveness -------------------------------------------------------


def proc_stat_text(pid: int) -> str | None:
    """The text of ``/proc/<pid>/stat``, or None (no /proc, or no such process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().decode("latin-1")
    except OSError:
        return None


_identity: list[LockIdentity] = []  # this process's, computed once per pid


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
        _identity[:] = [{"pid": pid, "start": start, "boot": boot, "host": socket.gethostname()}]
    return _identity[0]


def new_record() -> LockRecordText:
    """A fresh owner record and the lock file's bytes: ``{record, text}`` (the core's format)."""
    return _rules.record(identity(), os.urandom(TOKEN_BYTES), clock_ms())


@dataclass(frozen=True)
class Owner:
    """What a lock file or break marker holds (the core's reading of it)."""

    record: LockRecord | None
    """The owner record, or None when malformed."""
    id: str
    """The token, or for a malformed record ``m`` + a hash of its stamp and bytes."""
    mtime_ms: int
    """The file's mtime (epoch ms)."""
    text: str
    """The raw content (for messages)."""


def read_owner(path: str) -> Owner | None:
    """Reads a lock file or break marker; None when it does not exist."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read()
    except FileNotFoundError:
        return None
    owner = _rules.owner(data, f"{st.st_ino}:{st.st_mtime_ns}")
    text = data.decode("utf-8", "replace")
    return Owner(owner["record"], owner["id"], st.st_mtime_ns // 1_000_000, text)


def process_exists(pid: int) -> bool:
    """Whether ``pid`` exists (``kill(pid, 0)``; another user's process exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_dead(owner: Owner) -> bool:
    """Whether a lock (or marker) may be broken: the core's verdict on the facts seen here."""
    me = identity()
    r = owner.record
    probe = sys.platform != "win32"  # no kill(pid, 0) there: never guess
    local = r is not None and r["host"] == me["host"] and probe
    pid = r["pid"] if r is not None else 0
    facts: LockFacts = {
        "now_ms": clock_ms(),
        "mtime_ms": owner.mtime_ms,
        "host": me["host"],
        "boot": me["boot"],
        "probe": probe,
        "exists": process_exists(pid) if local else None,
        "stat": proc_stat_text(pid) if local else None,
    }
    return _rules.verdict(r, facts)["dead"]


# --- the protocol ------------------------------------------------------------------------


def _create_exclusive(target: str, text: str) -> bool:
    """``open(O_CREAT|O_EXCL)`` + write: the fallback where link() is unsupported."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    return True


def create_complete(target: str, mine: LockRecordText) -> bool:
    """Creates ``target`` holding ``mine`` (a new record), complete from its first instant.

    Its bytes go to ``<target>.<token>.tmp``, which is link()-ed to ``target``
    (EEXIST = held by someone else). Returns True when we created it.
    """
    text: str = mine["text"]
    tmp = f"{target}.{mine['record']['token']}.tmp"
    attempt = 0
    while True:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
        try:
            os.link(tmp, target)
            return True
        except FileExistsError:
            return False
        except FileNotFoundError:
            # Our temp file was swept as litter while we were stopped; write it again.
            attempt += 1
            if attempt > 3:
                raise
        except OSError as error:
            if error.errno in _LINK_UNSUPPORTED:
                return _create_exclusive(target, text)
            raise
        finally:
            unlink_quiet(tmp)


def release_file(path: str, mine: LockRecordText) -> bool:
    """Unlinks ``path`` if it still holds exactly our record's bytes; never anyone else's."""
    try:
        with open(path, encoding="utf-8") as f:
            current = f.read()
    except FileNotFoundError:
        return False
    if current != mine["text"]:
        return False
    unlink_quiet(path)
    return True


def break_file(lock_path: str, target: str, owner: Owner, depth: int = 0) -> bool:
    """Removes ``target`` (the lock or a marker) whose ``owner`` was judged dead.

    Only the winner of the marker ``<lock>.break-<owner.id>`` may: it re-reads ``target``,
    confirms the same owner is there and still dead, and unlinks it. A marker whose own owner
    is dead is removed the same way one level up. Returns True after progress (something
    removed, or already gone), False to wait for a live breaker.
    """
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
    """One attempt: ``(our record, None)`` when acquired, else ``(None, holder to wait for)``."""
    owner: Owner | None = None
    for _ in range(8):
        mine = new_record()
        if create_complete(lock_path, mine):
            return mine, None
        owner = read_owner(lock_path)
        if owner is None:
            continue  # released meanwhile
        if not owner_dead(owner) or not break_file(lock_path, lock_path, owner):
            return None, owner
    return None, owner


class Lock:
    """A held lock on ``<file>.lock``; a context manager that releases on exit."""

    def __init__(self, path: str, mine: LockRecordText) -> None:
        self.path = path
        """The lock file."""
        self.record: LockRecord = mine["record"]
        """Our owner record (its ``token`` identifies this holder)."""
        self._mine = mine
        self._released = False

    def release(self) -> bool:
        """Releases the lock; True when our lock file was removed, False if it was not ours."""
        if self._released:
            return False
        self._released = True
        return release_file(self.path, self._mine)

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def acquire_lock(path: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> Lock:
    """Takes the lock of ``path`` (the sidecar ``<path>.lock``), waiting up to ``timeout`` s.

    Raises :class:`LockTimeoutError` (``E_LOCK_TIMEOUT``, ``details`` = path and owner record).
    """
    lock_path = os.fspath(path) + ".lock"
    deadline = time.monotonic() + timeout
    attempt = 0
    while True:
        mine, owner = _try_acquire(lock_path)
        if mine is not None:
            return Lock(lock_path, mine)
        left = deadline - time.monotonic()
        if left <= 0:
            held = (
                None
                if owner is None
                else {"record": owner.record, "id": owner.id, "text": owner.text}
            )
            _rules.timeout(lock_path, held, round(timeout * 1000))
        base = min(0.001 * 2**attempt, MAX_BACKOFF)
        time.sleep(max(0.0, min(left, base * (1 + random.random() / 4))))
        attempt = min(attempt + 1, 10)


def sweep(path: str) -> None:
    """Removes what dead writers left next to ``path``; called by the lock holder.

    ``.<name>.tmp-*`` (no one else writes while we hold the lock), and lock temp files and
    break markers whose owners are dead.
    """
    directory, name = os.path.split(os.path.abspath(path))
    lock_path = path + ".lock"
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    # Only names that contain the file's name (other than it and its lock) can be its litter:
    # no crossing when there are none.
    own = (name, f"{name}.lock")
    candidates = [entry for entry in entries if entry not in own and name in entry]
    if not candidates:
        return
    for item in _rules.litter(name, candidates):
        full = os.path.join(directory, item["entry"])
        if item["what"] == "write_temp":
            unlink_quiet(full)  # nobody else writes while we hold the lock
            continue
        # A lock temp file or break marker holds its creator's record: judged like a lock.
        owner = read_owner(full)
        if owner is None or not owner_dead(owner):
            continue
        if item["what"] == "lock_temp":
            unlink_quiet(full)
        else:
            break_file(lock_path, full, owner)
