"""The fault-injection seam of the Python host layer (as ``npm/lib/host/atomic.cjs`` ``sys``): every
file-system call of ``statecore._host.atomic``, ``statecore._host.lock``,
``statecore._host.documents`` and ``statecore._host.logs`` goes through a function here, which first
reports its step (``open``, ``write``, ``fsync``, ``close``, ``rename``, ``link``, ``unlink``,
``truncate``, ``chmod``, ``utime``, ``stat``, ``read``, ``readdir``; ``mkdir`` for a directory made
by a protocol helper) to the injector set by :func:`set_fault_injector`. ``fn(step)`` may raise (an
``OSError`` with ``errno.ENOSPC``, say) to fail that call: the call is then not made. Tests use it
to fail every step of an update and an append in turn (``tests/test_faults.py``); ``None``, the
default, injects nothing and costs one comparison per call.

The step names are Node's, so the two hosts' fault matrices compare. Reads of ``/proc`` (a process's
start time, the boot id) and ``kill(pid, 0)`` are not file-system steps: they stay direct."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Injector = Callable[[str], object]
    """A fault injector: called with the step name before each system call; raising fails it."""

_injector: Injector | None = None


def set_fault_injector(fn: Injector | None) -> None:
    """Sets (or with ``None`` clears) the fault injector: ``fn(step)`` runs before each system
    call of the host layer, in this process (every thread)."""
    global _injector
    _injector = fn


def open(path: str, flags: int, mode: int = 0o777) -> int:
    """``os.open`` (step ``open``)."""
    if _injector is not None:
        _injector("open")
    return os.open(path, flags, mode)


def read(fd: int, size: int) -> bytes:
    """``os.read`` (step ``read``)."""
    if _injector is not None:
        _injector("read")
    return os.read(fd, size)


def write(fd: int, data: bytes | memoryview) -> int:
    """``os.write`` (step ``write``): the number of bytes written."""
    if _injector is not None:
        _injector("write")
    return os.write(fd, data)


def fsync(fd: int) -> None:
    """``os.fsync`` (step ``fsync``)."""
    if _injector is not None:
        _injector("fsync")
    os.fsync(fd)


def close(fd: int) -> None:
    """``os.close`` (step ``close``)."""
    if _injector is not None:
        _injector("close")
    os.close(fd)


def fstat(fd: int) -> os.stat_result:
    """``os.fstat`` (step ``stat``)."""
    if _injector is not None:
        _injector("stat")
    return os.fstat(fd)


def stat(path: str) -> os.stat_result:
    """``os.stat`` (step ``stat``)."""
    if _injector is not None:
        _injector("stat")
    return os.stat(path)


def exists(path: str) -> bool:
    """Whether ``path`` exists, links followed (``access(F_OK)``, step ``stat``): no exception
    for a missing file, which a failed ``stat`` or ``open`` costs (about 2 µs each here)."""
    if _injector is not None:
        _injector("stat")
    return os.access(path, os.F_OK)


def lstat(path: str) -> os.stat_result:
    """``os.lstat`` (step ``stat``)."""
    if _injector is not None:
        _injector("stat")
    return os.lstat(path)


def fchmod(fd: int, mode: int) -> None:
    """``os.fchmod`` (step ``chmod``)."""
    if _injector is not None:
        _injector("chmod")
    os.fchmod(fd, mode)


def futime(fd: int, atime_ns: int, mtime_ns: int) -> None:
    """``os.utime`` of an open file, in ns (step ``utime``)."""
    if _injector is not None:
        _injector("utime")
    os.utime(fd, ns=(atime_ns, mtime_ns))


def ftruncate(fd: int, length: int) -> None:
    """``os.ftruncate`` (step ``truncate``)."""
    if _injector is not None:
        _injector("truncate")
    os.ftruncate(fd, length)


def replace(source: str, target: str) -> None:
    """``os.replace`` (step ``rename``)."""
    if _injector is not None:
        _injector("rename")
    os.replace(source, target)


def link(source: str, target: str) -> None:
    """``os.link`` (step ``link``)."""
    if _injector is not None:
        _injector("link")
    os.link(source, target)


def unlink(path: str) -> None:
    """``os.unlink`` (step ``unlink``)."""
    if _injector is not None:
        _injector("unlink")
    os.unlink(path)


def listdir(path: str) -> list[str]:
    """``os.listdir`` (step ``readdir``)."""
    if _injector is not None:
        _injector("readdir")
    return os.listdir(path)


def makedirs(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)`` (step ``mkdir``)."""
    if _injector is not None:
        _injector("mkdir")
    os.makedirs(path, exist_ok=True)
