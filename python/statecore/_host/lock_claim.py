"""The system calls of the sidecar lock's steps (docs/locking.md § The lock as a job): a lock,
marker or claim read without blocking, created complete (``link()`` of a temp file, ``O_EXCL``
where links are unsupported), a claim renamed over the claim file with its date, a claimant's
watch. Every decision is the core's lock jobs'; each call goes through the fault-injection seam
(``statecore._host.sys``).
"""

from __future__ import annotations

import errno
import os
import time

from statecore._host import sys as _sys
from statecore._host.atomic import open_regular, read_fd, unlink_quiet, write_all

_LINK_UNSUPPORTED = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
RECORD_READ_LIMIT = 64 * 1024
"""A lock file, marker or claim is read up to this many bytes (a record is ~200)."""


def read_record(path: str) -> tuple[bytes, os.stat_result] | None:
    """The bytes (at most ``RECORD_READ_LIMIT``) and stat of the regular file ``path`` read
    through one descriptor; None when it does not exist, ``E_FILE_TYPE`` when it is not a
    regular file. A missing file is found by ``access`` first (no exception: a lock and a
    claim are missing on the uncontended path)."""
    if not _sys.exists(path):
        return None
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


def create_complete(target: str, tmp: str, data: bytes) -> bool:
    """Creates ``target`` holding ``data`` (a new record), complete from its first instant.

    Its bytes go to ``tmp``, which is link()-ed to ``target`` (EEXIST = held by someone else).
    Returns True when we created it. The temp file is removed whatever happens (a failed write,
    a full disk included). When that unlink itself fails (EIO) the temp file is left and
    nothing is raised: it holds our record and is swept once this process is gone, while after
    a successful link() the lock is ours and must be returned, or no one would ever release it.
    """
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


def displace(target: str, tmp: str, data: bytes, dated_ms: int) -> None:
    """Our claim record in a temp file dated ``dated_ms``, renamed over the claim file
    ``target`` (taking the claim over from a waiter that started after us)."""
    try:
        fd = _sys.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o644)
        try:
            write_all(fd, data)
            _sys.futime(fd, dated_ms * 1_000_000, dated_ms * 1_000_000)
        finally:
            _sys.close(fd)
        _sys.replace(tmp, target)
    finally:
        _unlink_ignoring_errors(tmp)


def watch_claim(
    lock_path: str, next_path: str, seconds: float, step: float, lock_too: bool, ino: str | None
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
            if str(_sys.stat(next_path).st_ino) != ino:
                return
            if lock_too:
                _sys.stat(lock_path)
        except OSError:
            return
        left = end - time.monotonic()
