"""The fctry workflow operations on ``.fctry/state.json`` (docs/fctry.md).

Each function takes the current state document (a dict) and returns the updated one (the
input is not changed): a shallow read-modify-write that keeps every other field and stamps
``lastUpdated``. ``now`` is an RFC 3339 string or epoch milliseconds (``int``); ``None``
means the host clock, read here: the core never reads a clock. An unknown command, step or
agent raises ``UsageError`` (code ``E_ARGUMENT``); a bad ``now``, ``TimestampError``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Union

from statecore import _statecore

__all__ = [
    "add_untracked_change",
    "check_prerequisites",
    "clear_untracked_changes",
    "complete_step",
    "skip_prerequisites",
    "start_command",
    "start_step",
]

#: A host-supplied time: RFC 3339 text or epoch milliseconds; ``None`` is "now".
Now = Union[str, int, None]


def _now(now: Now) -> str | int:
    """``now``, or the host clock in epoch milliseconds when it is ``None``."""
    return int(time.time() * 1000) if now is None else now


def start_command(state: Any, command: str, now: Now = None) -> dict[str, Any]:
    """Step 0 of every command (``"init"``, ``"evolve"``, ``"ref"``, ...).

    Sets ``currentCommand`` and clears ``workflowStep``, ``completedSteps``, ``agentOutputs``
    and the skips recorded for the previous command.
    """
    return _statecore.fctry_start_command(state, command, _now(now))


def start_step(state: Any, step: str, now: Now = None) -> dict[str, Any]:
    """An agent starts its step: ``workflowStep`` is set to ``step``."""
    return _statecore.fctry_start_step(state, step, _now(now))


def complete_step(state: Any, step: str, output: Any = None, now: Now = None) -> dict[str, Any]:
    """An agent completes its step.

    ``step`` is appended to ``completedSteps`` (once); ``workflowStep`` is cleared if it still
    names this step; ``output`` (a dict with at least a summary), when given, replaces this
    agent's entry in ``agentOutputs``.
    """
    return _statecore.fctry_complete_step(state, step, output, _now(now))


def check_prerequisites(state: Any, agent: str, command: str | None = None) -> dict[str, Any]:
    """Checks an agent's prerequisites against ``completedSteps``.

    Returns ``{ok, agent, command, missing, message, options}``: ``missing`` lists the unmet
    requirements (each satisfied by any one of its steps), ``message`` is the numbered
    "Workflow error" text (``None`` when ``ok``) and ``options`` its three choices.
    """
    return _statecore.fctry_check_prerequisites(state, agent, command)


def skip_prerequisites(
    state: Any, agent: str, command: str | None = None, now: Now = None
) -> dict[str, Any]:
    """The user chose "Skip": the skip is appended to ``skippedPrerequisites``.

    Each record is ``{agent, command, missing, timestamp}``; when nothing is missing the
    state is returned unchanged.
    """
    return _statecore.fctry_skip_prerequisites(state, agent, command, _now(now))


def add_untracked_change(state: Any, change: dict[str, Any], now: Now = None) -> dict[str, Any]:
    """Records a file write made outside fctry commands in ``untrackedChanges``.

    ``change`` is ``{file, section, sectionNumber, timestamp}`` (``file`` required; a missing
    ``timestamp`` is taken from ``now``); a second change to the same file replaces its entry.
    """
    return _statecore.fctry_add_untracked_change(state, change, _now(now))


def clear_untracked_changes(
    state: Any, sections: Sequence[str] | None = None, now: Now = None
) -> dict[str, Any]:
    """Clears the untracked changes of ``sections`` (a list or tuple of section aliases, with
    or without ``#``); ``None`` clears all of them.
    """
    return _statecore.fctry_clear_untracked_changes(state, sections, _now(now))
