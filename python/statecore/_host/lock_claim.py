"""The files of the sidecar lock (docs/locking.md): a lock, marker or claim created complete
(``link()`` of a temp file, ``O_EXCL`` where links are unsupported), released only when it
still holds our record, and a waiter's claim to the next turn (placed, taken over from a waiter
that started later, watched). Every rule is the core's (``statecore.lock``); this module makes
the system calls, each through the fault-injection seam (``statecore._host.sys``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import time

from statecore._host import sys as _sys
from statecore._host.atomic import open_regular, read_fd, unlink_quiet, write_all
from statecore._host.lock_identity import clock_ms, new_record
from statecore.errors import FileTypeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore.types import LockRecordText

_LINK_UNSUPPORTED = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
RECORD_READ_LIMIT = 64 * 1024
"""A lock file, marker or claim is read up to this many bytes (a record is ~200)."""


def read_record(path: str) -> tuple[bytes, os.stat_result] | None:
    """The bytes (at most ``RECORD_READ_LIMIT``) and stat of the regular file ``path`` read
    through one descriptor; None when it does not exist, ``E_FILE_TYPE`` when it is not a
    regular file."""
    opened = open_regular(path)
    if opened is None:
        return None
    fd, st = opened
    try:
        return read_fd(fd, st.st_size, RECORD_READ_LIMIT), st
    finally:
        _sys.close(fd)


def _create_exclusive(target: str, data: bytes) -> bool:
    """``open(O_CREAT|O_EXCL)`` + write: the fallback where link() is unsupported. A failed
    write removes the half-made file again (it is ours)."""
    try:
        fd = _sys.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o644)
    except FileExistsError:
        return False
    try:
        try:
            write_all(fd, data)
        finally:
            _sys.close(fd)
    except BaseException:
        unlink_quiet(target)
        raise
    return True


def create_complete(target: str, mine: LockRecordText) -> bool:
    """Creates ``target`` holding ``mine`` (a new record), complete from its first instant.

    Its bytes go to ``<target>.<token>.tmp``, which is link()-ed to ``target``
    (EEXIST = held by someone else). Returns True when we created it. The temp file is
    removed whatever happens (a failed write, a full disk included). When that unlink itself
    fails (EIO) the temp file is left and nothing is raised: it holds our record and is swept
    once this process is gone, while after a successful link() the lock is ours and must be
    returned, or no one would ever release it.
    """
    data = mine["text"].encode()
    tmp = f"{target}.{mine['record']['token']}.tmp"
    attempt = 0
    while True:
        fd = _sys.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o644)
        try:
            try:
                write_all(fd, data)
            finally:
                _sys.close(fd)
            _sys.link(tmp, target)
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
                return _create_exclusive(target, data)
            raise
        finally:
            _unlink_ignoring_errors(tmp)


def _unlink_ignoring_errors(path: str) -> None:
    """Unlinks ``path`` if it is there; any ``OSError`` (EIO) is ignored."""
    try:
        unlink_quiet(path)
    except OSError:
        return


def release_file(path: str, mine: LockRecordText) -> bool:
    """Unlinks ``path`` if it still holds exactly our record's bytes; never anyone else's
    (nor anything that is not a regular file)."""
    try:
        read = read_record(path)
    except FileTypeError:
        return False
    if read is None or read[0] != mine["text"].encode():
        return False
    unlink_quiet(path)
    return True


class Claim:
    """This waiter's claim to the next turn: one record per acquisition, dated when the waiter
    started waiting (the lock may be handed to it; a longer waiter takes the claim over),
    whether ``<lock>.next`` holds it (as far as we know), and since when."""

    __slots__ = ("at", "dated", "ino", "mine", "placed", "since")

    def __init__(self) -> None:
        self.mine: LockRecordText | None = None
        self.placed = False
        self.at = 0.0
        self.dated = 0
        """The claim file's mtime (epoch ms): its age is judged from it, as the others do."""
        self.ino = 0
        """The claim file's inode: one of ours replaced by a longer waiter's has another."""
        self.since = clock_ms()
        """When this waiter started waiting (epoch ms): its claim record is dated so."""

    def _record(self) -> LockRecordText:
        """Our claim record (made once per acquisition)."""
        if self.mine is None:
            self.mine = new_record(self.since)
        return self.mine

    def place(self, next_path: str, now: float) -> None:
        """Puts our record in ``<lock>.next`` (none when someone else's is there, or it cannot
        be created: then we just poll like the others)."""
        mine = self._record()
        try:
            self.placed = create_complete(next_path, mine)
        except OSError:
            self.placed = False
        self.at = now
        self.dated = clock_ms()
        if self.placed:
            self._note(next_path)

    def _note(self, next_path: str) -> None:
        """Notes our claim file's inode and its age as the others judge it: from its mtime (a
        coarse clock that can lag ours by a few ms), so that we watch when they start
        honouring it, not later."""
        with contextlib.suppress(OSError):
            seen = _sys.stat(next_path)
            self.ino = seen.st_ino
            self.dated = seen.st_mtime_ns // 1_000_000

    def displace(self, next_path: str, dated_ms: int) -> None:
        """Takes the claim over from a waiter that started after us (the core's ``lock.turn``
        said ``displace_ms``): our record goes to a temp file dated ``dated_ms`` (as ripe as
        the claim it replaces), renamed over ``<lock>.next``. A releaser renaming the claim
        over the lock meanwhile hands the lock to whichever claim is there: ours, which we
        watch. The claimant we replaced sees its claim gone (another inode) and waits again."""
        mine = self._record()
        tmp = f"{next_path}.{mine['record']['token']}.tmp"
        try:
            fd = _sys.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o644)
            try:
                write_all(fd, mine["text"].encode())
                _sys.futime(fd, dated_ms * 1_000_000, dated_ms * 1_000_000)
            finally:
                _sys.close(fd)
            _sys.replace(tmp, next_path)
        except OSError:
            self.placed = False
            return
        finally:
            _unlink_ignoring_errors(tmp)
        self.placed = True
        self.dated = dated_ms
        self.at = time.monotonic() - max(0, clock_ms() - dated_ms) / 1000
        self._note(next_path)

    def age_ms(self) -> int | None:
        """The age of our claim (ms), as the others see it; None when we hold none."""
        return clock_ms() - self.dated if self.placed else None

    def remove(self, next_path: str) -> None:
        """Removes our claim (only if it is still ours); never raises: a claim of ours that
        cannot be removed (EIO) is ignored after ``LOCK_TURN_MS``, and broken once we are gone."""
        self.placed = False
        if self.mine is None:
            return
        try:
            release_file(next_path, self.mine)
        except OSError:
            return


def watch_claim(
    lock_path: str, next_path: str, seconds: float, step: float, lock_too: bool, ino: int
) -> None:
    """The claimant's pause: up to ``seconds``, checking every ``step`` seconds (one ``stat``
    each) that its claim file (and, ``lock_too``, the lock file) is still there; returns as soon
    as one is gone (the claim renamed over the lock by a releaser handing the lock to us,
    removed, or replaced by a longer waiter's: ``ino`` is our claim file's inode; the lock
    released before our claim was honoured, or broken)."""
    end = time.monotonic() + seconds
    left = seconds
    while left > 0:
        time.sleep(min(left, step))
        try:
            if _sys.stat(next_path).st_ino != ino:
                return
            if lock_too:
                _sys.stat(lock_path)
        except OSError:
            return
        left = end - time.monotonic()
