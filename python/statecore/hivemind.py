"""The Hivemind workflow (docs/hivemind.md): ``workspace/state.json`` moved through its states
by host events and trigger files.

Every function that moves the workflow takes the ``state.json`` document (a dict; ``None`` for a
missing file, read as the idle default) and returns ``{state, changed, transitions,
notifications, scheduled, ignored, problems}``: the new document (the input is not changed),
the transitions taken, the context messages to send to agents (``[{agent, message}]``), the
automatic follow-ups to fire after their delay (``[{event, to, after_ms}]``), why nothing
happened (``ignored``) and problems with a trigger file's content. ``now`` is an RFC 3339
string or epoch milliseconds; ``None`` is the host clock, read here (the core has none).

:func:`read_state` and :func:`write_state` are the state-file helpers (locked, atomic).
"""

from __future__ import annotations

import os
import time
from typing import Any, Union

from statecore import _statecore
from statecore.host import (
    DEFAULT_TIMEOUT,
    ReadResult,
    StrPath,
    UpdateResult,
    read_document,
    update_document,
)

__all__ = [
    "agents",
    "context_message",
    "diagram",
    "fire",
    "follow_up",
    "machine",
    "on_file",
    "read_state",
    "state_path",
    "write_state",
]

#: A host-supplied time: RFC 3339 text or epoch milliseconds; ``None`` is "now".
Now = Union[str, int, None]


def _now(now: Now) -> str | int:
    """``now``, or the host clock in epoch milliseconds when it is ``None``."""
    return time.time_ns() // 1_000_000 if now is None else now


def machine() -> dict[str, Any]:
    """The workflow as a machine definition (for ``statecore.machine``)."""
    return _statecore.hivemind_machine()


def diagram() -> str:
    """The Mermaid ``stateDiagram-v2`` text of the workflow."""
    return _statecore.hivemind_diagram()


def agents(state: str) -> dict[str, str]:
    """Each agent's mode in ``state``: ``{"lead": "active" | "reading" | "idle", ...}``."""
    return _statecore.hivemind_agents(state)


def context_message(state: str) -> str | None:
    """The message agents get when ``state`` is entered (``None``: none)."""
    return _statecore.hivemind_context_message(state)


def fire(
    state: dict[str, Any] | None, event: str, now: Now = None, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Fires a host event (``select_project`` with ``details={"project": ...}``, ``give_task``,
    ``worker_crashed`` with ``details={"error": ...}``, ``pause``, ``resume``, ``block``,
    ``user_input``, ``retry``, ``abandon``, ``new_task``, ...). An illegal event raises
    ``TransitionError``; an event leading to the current state changes nothing."""
    return _statecore.hivemind_fire(state, event, _now(now), details)


def follow_up(state: dict[str, Any] | None, event: str, now: Now = None) -> dict[str, Any]:
    """Fires a scheduled automatic follow-up if it still applies (else ``ignored`` says why)."""
    return _statecore.hivemind_follow_up(state, event, _now(now))


def on_file(
    state: dict[str, Any] | None, path: str, content: str | None, now: Now = None
) -> dict[str, Any]:
    """What the file ``path`` (relative to the project: ``workspace/...``), created or changed
    with ``content`` (``None``: unreadable), does in the current state."""
    return _statecore.hivemind_on_file(state, path, content, _now(now))


def state_path(project_dir: StrPath) -> str:
    """``<project_dir>/workspace/state.json``."""
    return os.path.join(os.fspath(project_dir), "workspace", "state.json")


def read_state(project_dir: StrPath) -> ReadResult:
    """Reads ``workspace/state.json`` (a missing file reads as the idle default)."""
    return read_document(state_path(project_dir), "hivemind.state")


def write_state(
    project_dir: StrPath, state: dict[str, Any], *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult:
    """Writes ``state`` (validated) to ``workspace/state.json``: locked, atomic, creating
    ``workspace/`` if missing."""
    path = state_path(project_dir)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return update_document(path, "hivemind.state", lambda _current: state, timeout=timeout)
