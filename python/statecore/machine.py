"""Generic, data-driven state machines (the core's ``machine`` engine).

A definition is a dict (see docs/machine.md); an ``instance`` is ``{"state": ...,
"previous": ...}`` or just the state name; ``context`` feeds the guards.
"""

from __future__ import annotations

from typing import Any

from statecore import _statecore

__all__ = ["check", "diagram", "events", "fire"]


def check(definition: Any) -> dict[str, Any]:
    """Checks a definition: ``{valid, errors, warnings}`` (a malformed one raises UsageError)."""
    return _statecore.machine_check(definition)


def events(definition: Any, state: str, context: Any = None) -> list[dict[str, Any]]:
    """The legal events from ``state``: ``[{event, to, auto}]``."""
    return _statecore.machine_events(definition, state, context)


def fire(definition: Any, instance: Any, event: str, context: Any = None) -> dict[str, Any]:
    """Fires ``event``: ``{state, previous, changed, steps, scheduled}``.

    An event that is not legal from the current state raises TransitionError.
    """
    return _statecore.machine_fire(definition, instance, event, context)


def diagram(definition: Any) -> str:
    """The Mermaid ``stateDiagram-v2`` text of the machine."""
    return _statecore.machine_diagram(definition)
