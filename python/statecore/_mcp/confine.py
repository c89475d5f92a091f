"""Confinement to DIR without a window between the check and the use (docs/mcp.md § Confined to
DIR): each directory on a path is opened with ``O_DIRECTORY | O_NOFOLLOW`` relative to the one
before it (``dir_fd``), from DIR's own descriptor, so the check is the open; the library is then
given the path through the last directory's descriptor (``/proc/self/fd/N/...``), which names
the directory that was opened even if a link is put in place of one of its names afterwards. A
file read is opened ``O_NOFOLLOW`` in the pinned directory and read from that descriptor. Where
the system has no ``/proc/self/fd`` (not Linux), the names are checked with ``lstat`` and used
as they are. The Python twin of ``npm/lib/mcp/confine.cjs``."""

from __future__ import annotations

import atexit
import errno
import os
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from typing import Any

from statecore._generated.root import mcp_farms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from statecore.types import McpFarms

#: The directory of this process's descriptors, when the system has one to open through.
FD_DIR: str | None = (
    "/proc/self/fd" if sys.platform.startswith("linux") and os.path.isdir("/proc/self/fd") else None
)


class _Seams:
    """Test seam: ``after_check(names)`` is called after a path is pinned and before it is
    used (a test swaps a link in)."""

    after_check: Callable[[Sequence[str]], None] | None = None


seams = _Seams()


class Pinned:
    """Directories pinned by :func:`pin_dirs`: ``at`` the path through the deepest existing
    one's descriptor, ``real`` that directory's own path, ``rest`` the names below it that do
    not exist yet (a write creates them). Close it (a context manager)."""

    def __init__(self, at: str, real: str, rest: list[str], fds: list[int]) -> None:
        self.at = at
        self.real = real
        self.rest = rest
        self._fds = fds
        self._maps = [(at, real)]
        self._farm: tuple[str, Callable[[], None]] | None = None

    def path(self, *names: str) -> str:
        """The path of ``names`` below the pinned directory's missing ``rest``."""
        return os.path.join(self.at, *self.rest, *names)

    def unpin(self, text: str) -> str:
        """``text`` with the pinned path named as the real one (a message, a copy's path)."""
        for at, real in self._maps:
            if at != real:
                text = text.replace(at, real)
        return text

    def close(self) -> None:
        if self._farm is not None:
            self._farm[1]()
            self._farm = None
        for fd in self._fds:
            os.close(fd)
        self._fds = []

    def __enter__(self) -> Pinned:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pin_dirs(root: str, names: Sequence[str], check: Callable[[int], None]) -> Pinned:
    """The directories ``names`` below ``root`` pinned (:class:`Pinned`). ``check(i)`` is the
    caller's refusal of the entry at ``names[i]`` when it cannot be opened as a directory (a
    link swapped in, a special file): it raises."""
    if FD_DIR is None:
        return Pinned(root, root, list(names), [])
    fds = [os.open(root, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        for i, name in enumerate(names):
            try:
                fds.append(
                    os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fds[-1])
                )
            except FileNotFoundError:
                real = os.path.join(root, *names[:i])
                return Pinned(f"{FD_DIR}/{fds[-1]}", real, list(names[i:]), fds)
            except (NotADirectoryError, OSError) as error:
                if isinstance(error, NotADirectoryError) or error.errno == errno.ELOOP:
                    check(i)
                raise
        return Pinned(f"{FD_DIR}/{fds[-1]}", os.path.join(root, *names), [], fds)
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise


def pin_helper(
    root: str,
    dir_names: Sequence[str],
    sub: Sequence[str],
    write: bool,
    check: Callable[[int], None],
) -> Pinned:
    """A protocol helper's directory pinned, for a helper that names its own folders ``sub``
    below it (``.fctry``, ``.agency/state``; none: :func:`pin_dirs` of ``dir_names``): ``at`` is
    a private directory of this call in which ``sub`` leads, through a link of the server's own,
    to the pinned folder (``/proc/self/fd/N``), so the helper's every open, lock and rename below
    ``at`` happens in the folder that was checked. A ``write`` creates the folders first, as the
    helper would; a read of a folder that does not exist finds an empty one (no file, as it was
    checked)."""
    if FD_DIR is None or not sub:
        return pin_dirs(root, dir_names, check)
    names = [*dir_names, *sub]
    pinned = pin_dirs(root, names, check)
    while write and pinned.rest:
        try:
            os.mkdir(f"{pinned.at}/{pinned.rest[0]}")
        except FileExistsError:
            pass
        except BaseException:
            pinned.close()
            raise
        pinned.close()
        pinned = pin_dirs(root, names, check)
    try:
        farm = _FARMS.empty(sub) if pinned.rest else _FARMS.take(sub, pinned.at)
    except BaseException:
        pinned.close()
        raise
    pinned._farm = farm
    real = os.path.join(root, *dir_names)
    pinned._maps = [(farm[0], real), (pinned.at, pinned.real)]
    pinned.at, pinned.real, pinned.rest = farm[0], real, []
    return pinned


class _Farms:
    """The private directories of helper calls (:func:`pin_helper`): a directory of this
    process's own (``statecore-mcp-call-*``, mode 0700) in which ``sub`` is a link to the call's
    pinned folder. A call's directory is kept for the next call with the same ``sub``, its link
    pointed anew (a new link renamed over the old), so a call makes two system calls, not a
    directory tree; they are removed when the process exits, and those of a process killed by
    the next server's first call (:func:`_sweep_farms`). A read of a folder that does not
    exist gets a directory of its own with an empty ``sub``, removed after the call. The npm
    twin is ``farms`` in ``npm/lib/mcp/confine.cjs``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: dict[tuple[str, ...], list[str]] = {}
        self._all: set[str] = set()

    def _make(self, sub: Sequence[str]) -> str:
        with self._lock:
            first = not self._all
        if first:
            _sweep_farms()
        directory = tempfile.mkdtemp(prefix=_farm_names([])["prefix"])
        with self._lock:
            if not self._all:
                atexit.register(self._remove_all)
            self._all.add(directory)
        try:
            os.makedirs(os.path.dirname(os.path.join(directory, *sub)), exist_ok=True)
        except BaseException:
            self._drop(directory)
            raise
        return directory

    def _drop(self, directory: str) -> None:
        with self._lock:
            self._all.discard(directory)
        shutil.rmtree(directory, ignore_errors=True)

    def _remove_all(self) -> None:
        with self._lock:
            directories, self._all = list(self._all), set()
        for directory in directories:
            shutil.rmtree(directory, ignore_errors=True)

    def take(self, sub: Sequence[str], target: str) -> tuple[str, Callable[[], None]]:
        """A directory whose ``sub`` links to ``target``, and its release (kept for the next
        call)."""
        key = tuple(sub)
        with self._lock:
            free = self._free.get(key)
            kept = free.pop() if free else None
        directory = self._make(sub) if kept is None else kept
        link = os.path.join(directory, *sub)
        try:
            os.symlink(target, f"{link}.next")
            os.replace(f"{link}.next", link)
        except BaseException as error:
            self._drop(directory)
            if isinstance(error, FileNotFoundError) and kept is not None:
                return self.take(sub, target)  # removed by someone else: a new one
            raise

        def release() -> None:
            with self._lock:
                self._free.setdefault(key, []).append(directory)

        return directory, release

    def empty(self, sub: Sequence[str]) -> tuple[str, Callable[[], None]]:
        """A directory with an empty ``sub``, and its release (the directory removed)."""
        directory = self._make(sub)
        try:
            os.mkdir(os.path.join(directory, *sub))
        except BaseException:
            self._drop(directory)
            raise
        return directory, lambda: self._drop(directory)


def _ns_link() -> str | None:
    """The text of the pid namespace's link (``/proc/self/ns/pid``), or None."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return None


_NS_LINK = _ns_link()


def _farm_names(names: list[str]) -> McpFarms:
    """The core's reading of the temp directory's ``names`` (the private directories' names:
    this process's prefix, and the others' of its pid namespace that may be stale)."""
    return mcp_farms(names, _NS_LINK, os.getpid())


def _sweep_farms() -> None:
    """Removes the private directories that processes gone without cleaning up left (killed):
    ours (this user's, real directories, not links) whose process no longer exists."""
    base = tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except OSError:
        return
    for farm in _farm_names(names)["stale"]:
        full = os.path.join(base, farm["name"])
        try:
            info = os.lstat(full)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
                continue
            os.kill(farm["pid"], 0)
        except ProcessLookupError:
            shutil.rmtree(full, ignore_errors=True)
        except (OSError, OverflowError):
            continue


_FARMS = _Farms()


def use_pinned(pinned: Pinned, names: Sequence[str], run: Callable[[], Any]) -> Any:
    """Runs ``run()`` with ``pinned`` (the directories of ``names``), then closes them; a
    message or a ``corrupt_copy`` naming the pinned path names the real one."""
    try:
        if seams.after_check is not None:
            seams.after_check(names)
        result = run()
        if isinstance(result, dict) and isinstance(result.get("corrupt_copy"), str):
            result["corrupt_copy"] = pinned.unpin(result["corrupt_copy"])
        return result
    except Exception as error:
        message = getattr(error, "message", None)
        if isinstance(message, str):
            error.message = pinned.unpin(message)  # type: ignore[attr-defined]
        raise
    finally:
        pinned.close()


def use_pinned_all(
    pins: Sequence[Pinned], names_list: Sequence[Sequence[str]], run: Callable[[], Any]
) -> Any:
    """Runs ``run()`` with every directory of ``pins`` pinned (a host routine's paths, each of
    ``names_list``), then closes them all; every string of the result, and a message, naming a
    pinned path names the real one (a routine may answer with the paths it made)."""
    maps = sorted(
        {(at, real) for pinned in pins for at, real in pinned._maps if at != real},
        key=lambda pair: -len(pair[0]),
    )

    def unpin(text: str) -> str:
        for at, real in maps:
            text = text.replace(at, real)
        return text

    def deep(value: Any) -> Any:
        if isinstance(value, str):
            return unpin(value)
        if isinstance(value, os.PathLike):
            return type(value)(unpin(os.fspath(value)))  # type: ignore[call-arg]
        if isinstance(value, dict):
            return {key: deep(item) for key, item in value.items()}
        if isinstance(value, list):
            return [deep(item) for item in value]
        return value

    try:
        if seams.after_check is not None:
            for names in names_list:
                if seams.after_check is not None:
                    seams.after_check(names)
        return deep(run())
    except Exception as error:
        message = getattr(error, "message", None)
        if isinstance(message, str):
            error.message = unpin(message)  # type: ignore[attr-defined]
        raise
    finally:
        for pinned in pins:
            pinned.close()


def read_pinned(file: str, check: Callable[[], object], limit: int) -> bytes | None:
    """The bytes of the regular file ``file`` (a path through pinned directories), opened
    without following a link and without blocking: None when it does not exist. ``check()``
    refuses a link or a special file (it raises); at most ``limit`` bytes are read."""
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(file, flags)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link
            check()
        raise
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            check()
        return handle.read(limit)
