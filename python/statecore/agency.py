"""The agency runner status contract and watchdog (docs/agency.md): the runner status document
(``.agency/state/runner_status.json``), the stall watchdog, the 12-level run status, the
``ls``/``show`` rendering and the runner protocol document (``CLAUDE.md``).

The pure functions take and return plain values, exactly as ``agency.*`` in JS. ``now`` is an
RFC 3339 string or epoch milliseconds (``int``); ``None`` is the host clock, read here (the
core has none). Durations and thresholds are whole milliseconds.

The host helpers work on a worktree (a ``str`` or ``os.PathLike``):
:func:`write_runner_status` (one locked, atomic, validated write per milestone),
:func:`write_initial_runner_status`, :func:`load_runner_status`, :func:`snapshot` (what
``derive``, ``render_ls`` and ``render_show`` take) and :func:`write_protocol_document`
(``CLAUDE.md`` written only when absent: ``"created"`` or ``"exists"``).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict, Union

from statecore import _statecore
from statecore.host import DEFAULT_TIMEOUT, StrPath, UpdateResult, _read_maybe, update_document

__all__ = [
    "DEFAULT_STALL_THRESHOLD_MS",
    "KIND",
    "RunnerStatusParse",
    "age",
    "build_snapshot",
    "check_stall",
    "derive",
    "initial_runner_status",
    "load_runner_status",
    "parse_runner_status",
    "protocol_document",
    "render_ls",
    "render_show",
    "snapshot",
    "status_path",
    "update_runner_status",
    "write_initial_runner_status",
    "write_protocol_document",
    "write_runner_status",
]

#: The document kind of ``runner_status.json``.
KIND = "agency.runner_status"
#: The seed's default stall threshold: 15 minutes, in milliseconds.
DEFAULT_STALL_THRESHOLD_MS = 15 * 60 * 1000

#: A host-supplied time: RFC 3339 text or epoch milliseconds; ``None`` is "now".
Now = Union[str, int, None]
#: File bytes as ``bytes`` or ``str`` (UTF-8); ``None`` for a missing file.
Data = Union[bytes, str, None]


class RunnerStatusParse(TypedDict):
    """What a reader makes of the status file: ``status`` is ``None`` when the file is missing
    (``report`` None) or does not parse or validate (``report`` says why)."""

    status: dict[str, Any] | None
    report: dict[str, Any] | None


def _now(now: Now) -> str | int:
    """``now``, or the host clock in epoch milliseconds when it is ``None``."""
    return time.time_ns() // 1_000_000 if now is None else now


# --- pure functions ------------------------------------------------------------------------


def initial_runner_status(now: Now = None) -> dict[str, Any]:
    """The seed's initial ``runner_status.json`` content (status ``working``)."""
    return _statecore.agency_initial_runner_status(_now(now))


def update_runner_status(
    current: Mapping[str, Any] | None, update: Mapping[str, Any], now: Now = None
) -> dict[str, Any]:
    """A runner's milestone write on the ``current`` document (``None``: the initial content):
    ``status`` and ``summary`` keep their value when left out, ``questions``, ``blockers``,
    ``how_to_test`` and ``risks`` left out are cleared, other fields are kept, ``updated_at``
    is ``now``. Raises ``ValidationError`` when the result does not validate."""
    return _statecore.agency_update_runner_status(current, update, _now(now))


def parse_runner_status(data: Data) -> RunnerStatusParse:
    """What a reader makes of the status file's bytes (``None``: no file)."""
    result: RunnerStatusParse = _statecore.agency_parse_runner_status(data)
    return result


def age(status: Mapping[str, Any], now: Now = None) -> int:
    """Milliseconds since the status's ``updated_at`` (0 when it is in the future)."""
    return _statecore.agency_age(status, _now(now))


def check_stall(
    signals: Mapping[str, Any], now: Now = None, threshold_ms: int | None = None
) -> dict[str, Any]:
    """The watchdog: ``signals`` is ``{status_file_mod_time, tmux_session_exists}``; returns
    ``{is_stalled}`` plus ``stalled_duration`` (ms) when stalled (inclusive at the threshold,
    default 15 minutes; never without a tmux session or a status file)."""
    return _statecore.agency_check_stall(signals, _now(now), threshold_ms)


def build_snapshot(
    status_data: Data,
    meta_data: Data,
    facts: Mapping[str, Any] | None = None,
    now: Now = None,
    threshold_ms: int | None = None,
) -> dict[str, Any]:
    """A run's snapshot from its files' bytes (``None``: missing) and ``facts`` =
    ``{status_file_mod_time, tmux_active, worktree_present}``."""
    return _statecore.agency_build_snapshot(
        status_data, meta_data, facts if facts is not None else {}, _now(now), threshold_ms
    )


def derive(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The 12-level run status of a snapshot: ``{status, display, archived}`` plus
    ``stalled_duration`` when stalled."""
    return _statecore.agency_derive(snapshot)


def render_ls(rows: Sequence[Mapping[str, Any]]) -> str:
    """The ``ls`` table of runs (``{run_id, name, pr, snapshot}`` each)."""
    return _statecore.agency_render_ls(rows)


def render_show(run: Mapping[str, Any], now: Now = None) -> str:
    """The ``show`` output of one run, with its ``runner_status:`` section."""
    return _statecore.agency_render_show(run, _now(now))


def protocol_document() -> str:
    """The runner protocol document (the seed's ``CLAUDE.md``)."""
    return _statecore.agency_protocol_document()


# --- host helpers --------------------------------------------------------------------------


def status_path(worktree: StrPath) -> str:
    """``<worktree>/.agency/state/runner_status.json``."""
    return os.path.join(os.fspath(worktree), ".agency", "state", "runner_status.json")


def write_runner_status(
    worktree: StrPath,
    status: str | Mapping[str, Any] | None = None,
    summary: str | None = None,
    *,
    questions: Sequence[str] | None = None,
    blockers: Sequence[str] | None = None,
    how_to_test: str | None = None,
    risks: Sequence[str] | None = None,
    now: Now = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult:
    """One milestone: ``write_runner_status(wt, "needs_input", "Which auth library?",
    questions=["Passport or Auth.js?"])``, or ``status`` as the whole update mapping.

    A locked read → :func:`update_runner_status` → validate → atomic write of the status file,
    creating ``.agency/state/``. Raises ``ValidationError`` (the file is left as it was) when
    the result would not validate; an unparseable file is kept as ``<file>.corrupt-<time>``.
    """
    if isinstance(status, Mapping):
        if summary is not None or any(
            v is not None for v in (questions, blockers, how_to_test, risks)
        ):
            raise TypeError("pass the fields either in the update mapping or as arguments")
        update: dict[str, Any] = dict(status)
    else:
        given = {
            "status": status,
            "summary": summary,
            "questions": questions,
            "blockers": blockers,
            "how_to_test": how_to_test,
            "risks": risks,
        }
        update = {
            k: list(v) if isinstance(v, (list, tuple)) else v
            for k, v in given.items()
            if v is not None
        }
    path = status_path(worktree)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return update_document(
        path,
        KIND,
        lambda current: _statecore.agency_update_runner_status(current, update, _now(now)),
        timeout=timeout,
    )


def write_initial_runner_status(
    worktree: StrPath, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult:
    """What ``agency run`` does: creates ``.agency/state/`` and writes the initial status
    (replacing any earlier one), locked and atomic."""
    path = status_path(worktree)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return update_document(
        path,
        KIND,
        lambda _current: _statecore.agency_initial_runner_status(_now(now)),
        timeout=timeout,
    )


def load_runner_status(worktree: StrPath) -> RunnerStatusParse:
    """The worktree's runner status: ``{status, report}``; a missing file is ``status: None,
    report: None``, one that does not parse or validate ``status: None`` and its report."""
    return parse_runner_status(_read_maybe(status_path(worktree)))


def snapshot(
    worktree: StrPath,
    meta_path: StrPath | None,
    *,
    tmux_active: bool = False,
    now: Now = None,
    threshold_ms: int | None = None,
) -> dict[str, Any]:
    """The snapshot of a run for :func:`derive` / :func:`render_ls` / :func:`render_show`:
    the worktree's status file and its modification time, ``meta_path`` (meta.json, kept
    outside the worktree; ``None`` or unreadable: ``broken``), whether the worktree exists
    (absent: the ``archived`` marker) and ``tmux_active`` (the host checks its session)."""
    path = status_path(worktree)
    data: bytes | None = None
    mod_time: int | None = None
    try:
        with open(path, "rb") as file:
            mod_time = os.fstat(file.fileno()).st_mtime_ns // 1_000_000
            data = file.read()
    except FileNotFoundError:
        pass
    meta: bytes | None = None
    if meta_path is not None:
        try:
            meta = _read_maybe(os.fspath(meta_path))
        except OSError:
            meta = None
    facts = {
        "status_file_mod_time": mod_time,
        "tmux_active": tmux_active,
        "worktree_present": os.path.isdir(os.fspath(worktree)),
    }
    return build_snapshot(data, meta, facts, now, threshold_ms)


def write_protocol_document(repo_root: StrPath) -> Literal["created", "exists"]:
    """``agency init``: writes ``<repo_root>/CLAUDE.md`` (the runner protocol) only when no
    file of that name exists; never overwrites, even when another process creates it at the
    same moment (the complete file is linked into place, which fails if the name is taken)."""
    root = os.fspath(repo_root)
    target = os.path.join(root, "CLAUDE.md")
    if os.path.lexists(target):
        return "exists"
    fd, temp = tempfile.mkstemp(prefix=".CLAUDE.md.", dir=root)
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
