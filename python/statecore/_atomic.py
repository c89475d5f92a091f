"""File primitives of the Python host layer (ARCHITECTURE §5): reads that treat a missing file as
``None``, atomic replaces (temp file, fsync, rename, fsync of the directory), ``.corrupt-``
copies that never overwrite, whole writes. System calls only: every decision is the core's.
Behaviour and file formats match ``npm/lib/atomic.cjs``."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets

_DIR_FSYNC_UNSUPPORTED = {errno.EINVAL, errno.EISDIR, errno.EPERM, errno.ENOTSUP, errno.EBADF}


def unlink_quiet(path: str) -> None:
    """Unlinks ``path``; a file already gone is fine."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def read_maybe(path: str) -> bytes | None:
    """The file's bytes, or ``None`` when it does not exist."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def fsync_dir(directory: str) -> None:
    """fsyncs a directory; a platform that cannot is ignored."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError as error:
        if error.errno in _DIR_FSYNC_UNSUPPORTED:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in _DIR_FSYNC_UNSUPPORTED:
            raise
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Writes all of ``data`` (a short write is finished, or fails honestly)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_atomic(path: str, text: str) -> None:
    """Atomic replace: ``.<name>.tmp-<token>``, fsync, rename over ``path``, fsync the dir."""
    try:
        mode: int | None = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    directory, name = os.path.split(os.path.abspath(path))
    tmp = os.path.join(directory, f".{name}.tmp-{secrets.token_hex(16)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        unlink_quiet(tmp)
        raise
    fsync_dir(directory)


def write_copy(name: str, data: bytes) -> str:
    """Writes ``data`` to a new file ``name`` or ``name-1``, ``name-2``, ... and returns it."""
    n = 0
    while True:
        copy = name if n == 0 else f"{name}-{n}"
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n += 1
            continue
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_dir(os.path.dirname(os.path.abspath(copy)))
        return copy


def append_once(path: str, text: str, created: bool) -> None:
    """One O_APPEND ``write()`` of ``text``, fsync; fsyncs the directory when the file is new."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        write_all(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(os.path.dirname(os.path.abspath(path)))
