"""``statecore.agency``: the agency runner status contract and watchdog (docs/agency.md).

The operations of the core's table are generated in ``statecore._generated.agency``: the pure
functions (``update_runner_status``, ``check_stall``, ``derive``, ``render_ls``, ...) and the
helpers on a worktree's ``.agency/state/runner_status.json`` (``write_runner_status``,
``write_initial_runner_status``, ``load_runner_status``, ``read_status``, ...), each one locked,
atomic, validated write in one crossing. Written here: :func:`snapshot` (the facts a host
gathers for ``build_snapshot``) and :func:`write_protocol_document` (create-only).
"""

from __future__ import annotations

import os

from statecore._generated.agency import *  # noqa: F403
from statecore._generated.agency import __all__ as _generated
from statecore._generated.agency import build_snapshot, protocol_document, status_path
from statecore._generated.tables import STALL_THRESHOLD_MS
from statecore._host.atomic import DOCUMENT_READ_LIMIT as _DOCUMENT_READ_LIMIT
from statecore._host.atomic import open_regular as _open_regular
from statecore._host.atomic import read_fd as _read_fd
from statecore._host.atomic import read_maybe as _read_maybe
from statecore._host.runtime import path_arg as _path_arg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from statecore._host.documents import StrPath
    from statecore.types import Now, RunSnapshot

#: The document kind of ``runner_status.json``.
KIND = "agency.runner_status"
#: The seed's default stall threshold (the core's): 15 minutes, in milliseconds.
DEFAULT_STALL_THRESHOLD_MS = STALL_THRESHOLD_MS

__all__ = [
    *_generated,
    "DEFAULT_STALL_THRESHOLD_MS",
    "KIND",
    "snapshot",
    "write_protocol_document",
]


def snapshot(
    worktree: StrPath,
    meta_path: StrPath | None,
    *,
    tmux_active: bool = False,
    now: Now | None = None,
    threshold_ms: int | None = None,
) -> RunSnapshot:
    """The snapshot of a run for :func:`derive` / :func:`render_ls` / :func:`render_show`:
    the worktree's status file and its modification time, ``meta_path`` (meta.json, kept
    outside the worktree; ``None`` or unreadable: ``broken``), whether the worktree exists
    (absent: the ``archived`` marker) and ``tmux_active`` (the host checks its session)."""
    path = status_path(worktree)
    data: bytes | None = None
    mod_time: int | None = None
    opened = _open_regular(path)  # a FIFO or a directory there: E_FILE_TYPE
    if opened is not None:
        fd, st = opened
        try:
            mod_time = st.st_mtime_ns // 1_000_000
            data = _read_fd(fd, st.st_size, _DOCUMENT_READ_LIMIT)
        finally:
            os.close(fd)
    meta: bytes | None = None
    if meta_path is not None:
        try:
            meta = _read_maybe(_path_arg(meta_path))
        except OSError:
            meta = None
    facts = {
        "status_file_mod_time": mod_time,
        "tmux_active": tmux_active,
        "worktree_present": os.path.isdir(_path_arg(worktree)),
    }
    return build_snapshot(data, meta, facts, now, threshold_ms)


def write_protocol_document(repo_root: StrPath) -> Literal["created", "exists"]:
    """``agency init``: writes ``<repo_root>/CLAUDE.md`` (the runner protocol) only when no
    file of that name exists; never overwrites, even when another process creates it at the
    same moment (the complete file is linked into place, which fails if the name is taken)."""
    root = _path_arg(repo_root)
    target = os.path.join(root, "CLAUDE.md")
    if os.path.lexists(target):
        return "exists"
    # A 128-bit random name, created exclusively (as the atomic writer names its temp files).
    temp = os.path.join(root, f".CLAUDE.md.{os.urandom(16).hex()}")
    fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(protocol_document().encode())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temp, target)
        except FileExistsError:
            return "exists"
        except OSError:
            return _create_exclusive(target)
        return "created"
    finally:
        os.unlink(temp)


def _create_exclusive(target: str) -> Literal["created", "exists"]:
    """Where hard links are not supported: an exclusive create (``O_EXCL``), then the text."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return "exists"
    with os.fdopen(fd, "wb") as file:
        file.write(protocol_document().encode())
        file.flush()
        os.fsync(file.fileno())
    return "created"
