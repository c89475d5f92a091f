"""File primitives of the Python host layer (docs/locking.md): reads of regular files only (a
FIFO, device, directory or socket is the core's ``E_FILE_TYPE``; a missing file is ``None``),
atomic replaces (temp file, fsync, rename, fsync of the directory), ``.corrupt-`` copies that
never overwrite and never stay half-written, whole writes. System calls only, each through the
fault-injection seam (``statecore._host.sys``): every decision is the core's. Behaviour and file
formats match ``npm/lib/host/atomic.cjs``."""

from __future__ import annotations

import errno
import os
import stat
import time

from statecore._generated.root import file_type_error
from statecore._generated.tables import MAX_DOCUMENT_BYTES
from statecore._host import sys as _sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_DIR_FSYNC_UNSUPPORTED = {errno.EINVAL, errno.EISDIR, errno.EPERM, errno.ENOTSUP, errno.EBADF}
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
"""``O_NOFOLLOW`` where the platform has it (0 elsewhere)."""
NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
"""``O_NONBLOCK``: opening a FIFO never waits for its other end."""
READ_FLAGS: int = os.O_RDONLY | NONBLOCK | _CLOEXEC | getattr(os, "O_NOCTTY", 0)
"""How every read opens a file: it never blocks, never becomes a controlling terminal."""
DOCUMENT_READ_LIMIT = MAX_DOCUMENT_BYTES + 1
"""A document read stops here: the core then reports the file as more than the limit."""
_CHUNK = 1 << 20


def unlink_quiet(path: str) -> None:
    """Unlinks ``path``; a file already gone is fine."""
    try:
        _sys.unlink(path)
    except FileNotFoundError:
        return


def file_type(mode: int) -> str | None:
    """What a file of ``st_mode`` is, as the core's ``E_FILE_TYPE`` names it; None if regular."""
    if stat.S_ISREG(mode):
        return None
    for test, what in (
        (stat.S_ISFIFO, "fifo"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISLNK, "symbolic link"),
    ):
        if test(mode):
            return what
    return "special file"


def _refuse_special(path: str, error: OSError, follow: bool) -> None:
    """After ``open`` failed with ``error``: the core's ``E_FILE_TYPE`` when ``path`` is not a
    regular file (a socket, or a FIFO opened for writing: ``ENXIO``; a directory opened for
    writing: ``EISDIR``; a symbolic link opened with ``O_NOFOLLOW``: ``ELOOP``)."""
    if error.errno not in (errno.ENXIO, errno.ELOOP, errno.EISDIR, errno.EOPNOTSUPP, errno.ENODEV):
        return
    try:
        mode = (_sys.stat(path) if follow else _sys.lstat(path)).st_mode
    except OSError:
        return
    what = file_type(mode)
    if what is not None:
        file_type_error(path, what)


def open_regular(path: str, flags: int = READ_FLAGS) -> tuple[int, os.stat_result] | None:
    """``path`` opened with ``flags`` (by default for reading, without blocking) and its
    ``fstat``, or None when it does not exist. Anything but a regular file is closed again and
    raises the core's ``E_FILE_TYPE`` (``FileTypeError``) naming what it is."""
    try:
        fd = _sys.open(path, flags, 0o666)
    except FileNotFoundError:
        return None
    except OSError as error:
        _refuse_special(path, error, follow=not flags & NOFOLLOW)
        raise
    try:
        st = _sys.fstat(fd)
        what = file_type(st.st_mode)
        if what is not None:
            file_type_error(path, what)
    except BaseException:
        _sys.close(fd)
        raise
    return fd, st


def read_fd(fd: int, size: int, limit: int | None) -> bytes:
    """The bytes of an open file (``size``: its ``st_size``, a hint), at most ``limit``."""
    cap = -1 if limit is None else limit
    parts: list[bytes] = []
    total = 0
    while cap < 0 or total < cap:
        # The expected size and one more byte (which shows the end: no 1 MiB buffer for a
        # small file), then chunks while the file grows.
        want = size + 1 - total if total <= size else _CHUNK
        chunk = _sys.read(fd, want if cap < 0 else min(want, cap - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


def read_maybe(path: str, limit: int | None = None, flags: int = READ_FLAGS) -> bytes | None:
    """The bytes of the regular file ``path`` (at most ``limit``), or ``None`` when it does not
    exist; ``E_FILE_TYPE`` when it is not a regular file."""
    opened = open_regular(path, flags)
    if opened is None:
        return None
    fd, st = opened
    try:
        return read_fd(fd, st.st_size, limit)
    finally:
        _sys.close(fd)


def read_document(path: str) -> bytes | None:
    """A document's bytes (None: missing), at most one byte more than the core accepts."""
    return read_maybe(path, DOCUMENT_READ_LIMIT)


def stamp_of(st: os.stat_result | None) -> str | None:
    """A file's identity as a writer compares it (docs/locking.md § Files people edit):
    device, inode, size and modification time to the nanosecond; None for no file. Two stamps
    are equal exactly when nothing wrote the file between (the change time is left out: the
    writer's own hard link changes it). Node's ``stampOf`` makes the same text."""
    if st is None:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def read_stamped(path: str) -> tuple[bytes | None, str | None, float | None]:
    """A document's bytes (None: missing) as :func:`read_document` reads them, with the
    file's stamp (:func:`stamp_of`) and how long ago it last changed, in ms (None: missing)."""
    opened = open_regular(path)
    if opened is None:
        return None, None, None
    fd, st = opened
    try:
        data = read_fd(fd, st.st_size, DOCUMENT_READ_LIMIT)
    finally:
        _sys.close(fd)
    age_ms = (time.time_ns() - st.st_mtime_ns) / 1e6
    return data, stamp_of(st), age_ms


def stamp_now(path: str) -> str | None:
    """The stamp of ``path`` as it is now, as a read opens it (None: no file)."""
    try:
        return stamp_of(_sys.stat(path))
    except FileNotFoundError:
        return None


def fsync_dir(directory: str) -> None:
    """fsyncs a directory; a platform that cannot is ignored."""
    try:
        fd = _sys.open(directory, os.O_RDONLY | _CLOEXEC)
    except OSError as error:
        if error.errno in _DIR_FSYNC_UNSUPPORTED:
            return
        raise
    try:
        _sys.fsync(fd)
    except OSError as error:
        if error.errno not in _DIR_FSYNC_UNSUPPORTED:
            raise
    finally:
        _sys.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Writes all of ``data`` (a short write is finished, or fails honestly)."""
    view = memoryview(data)
    while view:
        view = view[_sys.write(fd, view) :]


_LINK_UNSUPPORTED = {
    errno.EPERM,
    errno.ENOTSUP,
    errno.EOPNOTSUPP,
    errno.EXDEV,
    errno.EMLINK,
    errno.ENOSYS,
}


class Guard:
    """What a guarded write checks (docs/locking.md § Files people edit): the file's ``stamp``
    when it was read (None: no file), whether people edit it (``edited``), and how far in the
    past a write of such a file is stamped (``backdate_ms``)."""

    __slots__ = ("backdate_ms", "edited", "stamp")

    def __init__(self, stamp: str | None, edited: bool, backdate_ms: int) -> None:
        self.stamp = stamp
        self.edited = edited
        self.backdate_ms = backdate_ms


def _replace_guarded(path: str, tmp: str, guard: Guard) -> bool:
    """The replace of a guarded write: ``path`` must still be the one read, else False
    (nothing replaced). For a file people edit the old file is held by a hard link, checked
    again once held (a save during the link: nothing replaced, False), and again after the
    rename: when it changed in between (a person's editor wrote it in place), it is put back
    and False returned. As ``replaceGuarded`` in ``npm/lib/host/replace.cjs``."""
    if stamp_now(path) != guard.stamp:
        return False
    if not guard.edited or guard.stamp is None:
        _sys.replace(tmp, path)
        return True
    directory, name = os.path.split(path)
    held = os.path.join(directory, f".{name}.tmp-{os.urandom(16).hex()}")  # swept after a crash
    try:
        _sys.link(path, held)
    except FileNotFoundError:
        return False
    except OSError as error:
        if error.errno not in _LINK_UNSUPPORTED:
            raise
        _sys.replace(tmp, path)
        return True
    try:
        if stamp_now(held) != guard.stamp:
            return False
        _sys.replace(tmp, path)
        if stamp_now(held) == guard.stamp:
            return True
        _sys.replace(held, path)  # the person's file, back in place
        return False
    finally:
        unlink_quiet(held)


def write_atomic(path: str, text: str, guard: Guard | None = None) -> bool:
    """Atomic replace: ``.<name>.tmp-<token>``, fsync, rename over ``path``, fsync the dir.

    The temp file is removed again when any step fails. A symbolic link at ``path`` is
    replaced by a regular file (the link's target is left alone); the mode of the file
    replaced is kept (a read-only file stays read-only). With ``guard`` (an update's write),
    the file is checked around the rename (:func:`_replace_guarded`) and False returned,
    nothing replaced, when it is no longer the one read; a file people edit is stamped
    ``guard.backdate_ms`` in the past. Else (and without ``guard``) True."""
    try:
        mode: int | None = _sys.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    directory, name = os.path.split(os.path.abspath(path))
    tmp = os.path.join(directory, f".{name}.tmp-{os.urandom(16).hex()}")
    fd = _sys.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
    try:
        try:
            if mode is not None:
                _sys.fchmod(fd, mode)
            write_all(fd, text.encode("utf-8"))
            if guard is not None and guard.edited:
                now = time.time_ns()
                _sys.futime(fd, now, now - guard.backdate_ms * 1_000_000)
            _sys.fsync(fd)
        finally:
            _sys.close(fd)
        if guard is None:
            _sys.replace(tmp, path)
        elif not _replace_guarded(os.path.join(directory, name), tmp, guard):
            unlink_quiet(tmp)
            return False
    except BaseException:
        unlink_quiet(tmp)
        raise
    fsync_dir(directory)
    return True


def copy_mode(original: str | None) -> int:
    """The permission bits a copy of ``original`` is made with (docs/locking.md § Corrupt
    copies): the original's, read with ``lstat`` (a link is not followed), or 0600 when it is
    gone or not a regular file."""
    if original is None:
        return 0o600
    try:
        st = _sys.lstat(original)
    except OSError:
        return 0o600
    return stat.S_IMODE(st.st_mode) & 0o777 if stat.S_ISREG(st.st_mode) else 0o600


#: Flags of a new copy: created, never an existing file, never through a link.
_COPY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | _CLOEXEC


def _write_exclusive(name: str, fill: Callable[[int], None], mode: int) -> str:
    """Creates ``name`` (or ``name-1``, ``name-2``, ... when taken) exclusively and never
    through a link (``O_CREAT|O_EXCL|O_NOFOLLOW``) with the permission bits ``mode`` (set
    exactly, whatever the umask), ``fill``s it and fsyncs it; a failure removes the partial
    file and re-raises. Returns the name used."""
    n = 0
    while True:
        copy = name if n == 0 else f"{name}-{n}"
        try:
            fd = _sys.open(copy, _COPY_FLAGS, mode)
        except FileExistsError:
            n += 1
            continue
        except OSError as error:
            if error.errno != errno.ELOOP:
                raise
            n += 1
            continue
        try:
            try:
                _sys.fchmod(fd, mode)
                fill(fd)
                _sys.fsync(fd)
            finally:
                _sys.close(fd)
        except BaseException:
            unlink_quiet(copy)
            raise
        fsync_dir(os.path.dirname(os.path.abspath(copy)))
        return copy


def write_copy(name: str, data: bytes, original: str | None = None) -> str:
    """Writes ``data`` to a new file ``name`` or ``name-1``, ``name-2``, ... with the mode of
    the file ``original`` it copies (0600 when there is none) and returns it."""
    return _write_exclusive(name, lambda fd: write_all(fd, data), copy_mode(original))


def copy_file(source: str, name: str, data: bytes) -> str:
    """Copies the whole regular file ``source`` to a new file ``name`` (or ``name-1``, ...),
    with its mode, and returns it: a copy of the file, not of the bytes read (a read may stop
    at the limit). ``data`` is written instead when ``source`` has gone."""
    opened = open_regular(source)
    if opened is None:
        return write_copy(name, data)
    src, _ = opened

    def fill(fd: int) -> None:
        while chunk := _sys.read(src, _CHUNK):
            write_all(fd, chunk)

    try:
        return _write_exclusive(name, fill, copy_mode(source))
    finally:
        _sys.close(src)


def append_once(path: str, text: str, created: bool) -> None:
    """One O_APPEND ``write()`` of ``text``, fsync; fsyncs the directory when the file is new.

    Opened with ``O_NOFOLLOW`` and without blocking: a symbolic link (or a FIFO, a device)
    put at ``path`` meanwhile is the core's ``E_FILE_TYPE``, never written through."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW | NONBLOCK | _CLOEXEC
    opened = open_regular(path, flags)
    if opened is None:  # a directory component vanished
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    fd, _ = opened
    try:
        write_all(fd, text.encode("utf-8"))
        _sys.fsync(fd)
    finally:
        _sys.close(fd)
    if created:
        fsync_dir(os.path.dirname(os.path.abspath(path)))


def truncate(path: str, size: int) -> None:
    """Cuts the regular file ``path`` at ``size`` through a descriptor opened ``O_NOFOLLOW``
    (a symbolic link is ``E_FILE_TYPE``), fsynced."""
    opened = open_regular(path, os.O_WRONLY | NOFOLLOW | NONBLOCK | _CLOEXEC)
    if opened is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    fd, _ = opened
    try:
        _sys.ftruncate(fd, size)
        _sys.fsync(fd)
    finally:
        _sys.close(fd)
