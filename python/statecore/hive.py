"""``statecore.hive``: the hive session protocol, STATE.json v2 and its EVENTS.jsonl log
(docs/hive.md).

The operations of the core's table are generated in ``statecore._generated.hive``: the pure
functions (``create_session``, ``plan_workers``, ``spawn_worker``, ``heartbeat``,
``complete_worker``, ``recover_state``, ...; every step returns the new state and the event
line that records it), and, given a session directory instead of a state, the same steps on
its ``STATE.json``: one locked step that appends its event line to ``EVENTS.jsonl`` and writes
the state, rebuilding a state that is missing, unreadable or behind its log first
(``read_state`` too). Written here: :func:`create_session_dir` (the session's directory) and
:func:`check_sessions` (the health of every session of a directory).
"""

from __future__ import annotations

import os

from statecore._generated.hive import *  # noqa: F403
from statecore._generated.hive import __all__ as _generated
from statecore._generated.hive import check_session_id, check_worker_health
from statecore._generated.root import store_file_key
from statecore._generated.tables import LOGS
from statecore._host import documents as _documents
from statecore._host import runtime as _runtime
from statecore._host import sessions as _sessions
from statecore._host import sys as _sys
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, Union

    from typing_extensions import TypedDict, Unpack

    from statecore._generated.host_types import LoggedResult, SessionOptions
    from statecore._host.documents import Store, StrPath
    from statecore.types import HiveHealth, HiveState, HiveStep, Now

    class SessionError(TypedDict):
        """Why a session could not be read."""

        code: str
        message: str

    class SessionHealthy(TypedDict):
        """A session's health."""

        session: str
        health: HiveHealth

    class SessionUnreadable(TypedDict):
        """A session that could not be read."""

        session: str
        error: SessionError

    SessionHealth = Union[SessionHealthy, SessionUnreadable]

#: The document kind of ``STATE.json``.
KIND: Literal["hive.state"] = "hive.state"
_STATE = "STATE.json"
_LOG = LOGS[KIND]

__all__ = [*_generated, "KIND", "check_sessions", "create_session_dir"]


def create_session_dir(
    sessions_dir: StrPath,
    session_id: str,
    task: str,
    now: Now | None = None,
    **options: Unpack[SessionOptions],
) -> LoggedResult[HiveState, HiveStep]:
    """Makes ``<sessions_dir>/<session_id>/`` with the session's first event line
    (``session_created``) and its STATE.json; ``E_ARGUMENT`` when the session exists or the id
    is not one path component. ``store``: the session in a store instead, ``sessions_dir`` a
    key prefix (docs/store.md § Hive sessions)."""
    store = options.get("store")
    if store is not None:
        check_session_id(session_id)
        stored: LoggedResult[HiveState, HiveStep] = _documents.write_at(
            KIND, sessions_dir, (session_id, _STATE), "hive_create_session", (task, now), options
        )
        return stored
    _runtime.check_options("logged", options)
    timeout = _runtime.timeout_seconds(options.get("timeout"))
    check_session_id(session_id)
    directory = os.path.join(_runtime.path_arg(sessions_dir), session_id)
    _sys.makedirs(directory)
    file = os.path.join(directory, _STATE)
    result: LoggedResult[HiveState, HiveStep] = _sessions.step(
        KIND, file, _LOG, "hive_create_session", (task, now), None, timeout
    )
    return result


def check_sessions(
    sessions_dir: StrPath,
    now: Now | None = None,
    timeout_ms: int | None = None,
    *,
    store: Store | None = None,
) -> list[SessionHealth]:
    """``check_worker_health`` of every session of ``sessions_dir`` (a directory holding a
    STATE.json or an EVENTS.jsonl), by name: ``{session, health}``, or ``{session, error}``
    for a session that cannot be read (its ``code`` and ``message``). A session whose state
    must be rebuilt from its log is rebuilt (under its lock). ``store``: the sessions under
    the key prefix ``sessions_dir`` of a store instead."""
    if store is not None:
        return _check_stored(store, os.fspath(sessions_dir), now, timeout_ms)
    root = _runtime.path_arg(sessions_dir)
    out: list[SessionHealth] = []
    for name in sorted(_sys.listdir(root)):
        directory = os.path.join(root, name)
        if not os.path.isdir(directory) or os.path.islink(directory):
            continue
        state = os.path.join(directory, _STATE)
        if not os.path.lexists(state) and not os.path.lexists(os.path.join(directory, _LOG)):
            continue
        try:
            result, _text = _sessions.read(KIND, state, _LOG, _runtime.timeout_seconds(None))
            health = check_worker_health(result["document"], now, timeout_ms)
            out.append({"session": name, "health": health})
        except StatecoreError as error:
            out.append({"session": name, "error": {"code": error.code, "message": error.message}})
    return out


def _check_stored(
    store: Store, prefix: str, now: Now | None, timeout_ms: int | None
) -> list[SessionHealth]:
    """:func:`check_sessions` of the sessions under ``prefix`` in ``store``."""
    from statecore.store import FileStore

    base = store_file_key(prefix, [_STATE])[: -len(_STATE)]  # "" or ending in "/"
    if isinstance(store, FileStore):
        return check_sessions(os.path.join(store.root, *base.split("/")), now, timeout_ms)
    names = sorted(
        {
            name
            for key in store._keys(base)
            for name, file in [key[len(base) :].partition("/")[::2]]
            if file in (_STATE, _LOG)
        }
    )
    out: list[SessionHealth] = []
    for name in names:
        try:
            result = store.read(base + name + "/" + _STATE, KIND)
            health = check_worker_health(result["document"], now, timeout_ms)
            out.append({"session": name, "health": health})
        except StatecoreError as error:
            out.append({"session": name, "error": {"code": error.code, "message": error.message}})
    return out
