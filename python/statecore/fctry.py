"""The fctry workflow operations on ``.fctry/state.json`` and ``.fctry/inbox.json``
(docs/fctry.md).

Each workflow function takes the current state document (a dict) and returns the updated one
(the input is not changed): a shallow read-modify-write that keeps every other field and
stamps ``lastUpdated``. ``now`` is an RFC 3339 string or epoch milliseconds (``int``);
``None`` means the host clock, read here: the core never reads a clock. An unknown command,
step or agent raises ``UsageError`` (code ``E_ARGUMENT``); a bad ``now``, ``TimestampError``.

The ``inbox_*`` functions take the inbox (a list of items, newest first; ``None`` for a
missing file) and return the updated list, the input unchanged. Item statuses move on the
machine engine (``inbox_machine()``): an illegal event raises ``TransitionError``.

The build run functions (``create_build_run`` ... ``finish_build_run``) work on the state's
``buildRun`` the same way: chunk and run statuses move on the machine engine
(``chunk_machine()``, ``run_machine()``), an illegal event raising ``TransitionError``, and
``chunkProgress`` is derived from the chunk statuses.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any, Union

from statecore import _statecore

__all__ = [
    "activity_feed",
    "add_untracked_change",
    "check_prerequisites",
    "chunk_event",
    "chunk_machine",
    "clear_untracked_changes",
    "complete_step",
    "context_health",
    "create_build_run",
    "dag_layers",
    "finish_build_run",
    "inbox_add",
    "inbox_batch",
    "inbox_dismiss",
    "inbox_machine",
    "inbox_transition",
    "pause_build_run",
    "ready_chunks",
    "render_status_line",
    "resume_build_run",
    "resume_plan",
    "run_machine",
    "skip_prerequisites",
    "start_command",
    "start_step",
    "status_line",
    "status_line_text",
]

#: A host-supplied time: RFC 3339 text or epoch milliseconds; ``None`` is "now".
Now = Union[str, int, None]


def _now(now: Now) -> str | int:
    """``now``, or the host clock in epoch milliseconds when it is ``None``."""
    return time.time_ns() // 1_000_000 if now is None else now


#: The digits of inbox id suffixes.
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _random(random: str | None) -> str:
    """``random``, or 6 lowercase base36 characters from ``secrets`` when it is ``None``."""
    return "".join(secrets.choice(_BASE36) for _ in range(6)) if random is None else random


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


def inbox_machine() -> dict[str, Any]:
    """The inbox item lifecycle as a machine definition (for ``statecore.machine``).

    ``pending → processing → processed | error``, ``processed → incorporated`` and
    ``error → pending`` (retry); the events are ``start``, ``complete``, ``fail``,
    ``incorporate`` and ``retry``.
    """
    return _statecore.fctry_inbox_machine()


def inbox_add(
    inbox: Any,
    type: str,
    content: str,
    now: Now = None,
    random: str | None = None,
) -> list[dict[str, Any]]:
    """Adds an item first: ``{id, type, content, timestamp, status: "pending"}``.

    ``type`` is ``"evolve"``, ``"reference"`` or ``"feature"``. The id is
    ``inbox-{ms}-{random}``: ``ms`` from ``now``, ``random`` 6 lowercase base36 characters
    (``None``: drawn from ``secrets``). An unknown type, a bad ``random`` or an id already in
    the inbox raises ``UsageError``.
    """
    return _statecore.fctry_inbox_add(inbox, type, content, _now(now), _random(random))


def inbox_transition(inbox: Any, id: str, event: str) -> list[dict[str, Any]]:
    """Moves the item ``id`` through its lifecycle with ``event``.

    An unknown id raises ``UsageError``; an event not legal from the item's status,
    ``TransitionError``.
    """
    return _statecore.fctry_inbox_transition(inbox, id, event)


def inbox_dismiss(inbox: Any, id: str) -> list[dict[str, Any]]:
    """Removes the item ``id``; an id that is not there leaves the inbox as it is."""
    return _statecore.fctry_inbox_dismiss(inbox, id)


def inbox_batch(inbox: Any, event: str) -> list[dict[str, Any]]:
    """Applies ``event`` to every ``pending`` or ``processed`` item it is legal for (e.g.
    ``start`` all pending items, ``incorporate`` all processed ones); others are untouched.
    """
    return _statecore.fctry_inbox_batch(inbox, event)


def chunk_machine() -> dict[str, Any]:
    """The chunk lifecycle as a machine definition (for ``statecore.machine``).

    ``planned → active → completed``, ``active | retrying → retrying`` on ``fail`` while
    retries are left (context ``{"retriesLeft": n}``), else ``failed``; ``planned → blocked``
    when a chunk it depends on failed. The events are ``start``, ``complete``, ``fail`` and
    ``block``.
    """
    return _statecore.fctry_chunk_machine()


def run_machine() -> dict[str, Any]:
    """The build run lifecycle as a machine definition (for ``statecore.machine``).

    ``running ⇄ paused`` (``pause``, ``resume``), then ``completed`` (``complete``) or
    ``partial`` (``end_partial``: ended with failed chunks).
    """
    return _statecore.fctry_run_machine()


def create_build_run(state: Any, plan: dict[str, Any], now: Now = None) -> dict[str, Any]:
    """Creates ``buildRun`` from an approved plan, replacing any earlier run.

    ``plan`` is ``{chunks: [{id, name, sections, scenarios, dependsOn}], priorities,
    prioritySource, specVersion, maxRetries, convergencePhase}`` (chunk ids: whole numbers
    ≥ 1, unique). ``runId`` is ``run-{ms}`` with ``ms`` from ``now``; every chunk starts
    ``planned``. A dependency on an unknown id or a cycle raises ``UsageError``.
    """
    return _statecore.fctry_create_build_run(state, plan, _now(now))


def chunk_event(state: Any, id: int, event: str, now: Now = None) -> dict[str, Any]:
    """Moves the chunk ``id`` with ``event`` (``"start"``, ``"complete"``, ``"fail"``).

    ``start``: ``active``, attempt 1, ``startedAt``. ``complete``: ``completedAt``,
    ``specVersionAtBuild`` (from the plan) and the run's ``lastCheckpoint``. ``fail``:
    ``retrying`` with the next attempt while fewer than ``maxRetries`` (default 3) retries
    were used, else ``failed`` with ``failedAt``, and every planned chunk depending on it
    (directly or not) ``blocked``. An id that is not an ``int`` ≥ 0 or names no chunk raises
    ``UsageError`` (path ``/id``); an illegal event, ``TransitionError``.
    """
    return _statecore.fctry_chunk_event(state, id, event, _now(now))


def ready_chunks(state: Any) -> list[int]:
    """The ids of the planned chunks whose dependencies have all completed, in plan order
    (``[]`` without a build run).
    """
    return _statecore.fctry_ready_chunks(state)


def dag_layers(state: Any) -> dict[str, Any]:
    """The chunk DAG in layers for drawing: ``{layers: [[id]], unplaced: [id]}``.

    Layer 0 has no dependencies, layer n depends on earlier layers only; chunks in a cycle
    or depending on an unknown id are listed in ``unplaced``.
    """
    return _statecore.fctry_dag_layers(state)


def pause_build_run(state: Any, question: Any, now: Now = None) -> dict[str, Any]:
    """Pauses a running build with the question it waits on (``pendingQuestion``).

    A build that is not running raises ``TransitionError``.
    """
    return _statecore.fctry_pause_build_run(state, question, _now(now))


def resume_build_run(state: Any, now: Now = None) -> dict[str, Any]:
    """Resumes a paused build; ``pendingQuestion`` becomes ``None``.

    A build that is not paused raises ``TransitionError``.
    """
    return _statecore.fctry_resume_build_run(state, _now(now))


def finish_build_run(state: Any, now: Now = None) -> dict[str, Any]:
    """Ends a build whose chunks are all done.

    Every chunk completed: ``buildRun`` and ``chunkProgress`` become ``None``. Some failed or
    blocked: the run is kept with ``status: "partial"`` and ``completedAt`` (to evolve the
    affected sections), ``chunkProgress`` ``None``. Chunks still planned, active or retrying
    raise ``UsageError``.
    """
    return _statecore.fctry_finish_build_run(state, _now(now))


def resume_plan(state: Any, current_spec_version: str | None = None) -> dict[str, Any]:
    """What to offer after an interruption: ``{offer, completed, remaining, next, changed,
    options}``.

    A resume is offered when the run is ``running`` and some chunk completed; ``next`` are the
    ready chunks; ``changed`` lists the completed chunks built against another spec version
    than ``current_spec_version`` (``None``: none are checked).
    """
    return _statecore.fctry_resume_plan(state, current_spec_version)


def status_line(state: Any) -> dict[str, Any]:
    """What a status line shows: ``{specVersion, section, sectionNumber, command, step, chunks,
    scenarios, readiness, build, untracked, nextStep}`` (absent parts ``None``). Any state is
    accepted; fields of the wrong type are ignored."""
    return _statecore.fctry_status_line(state)


def render_status_line(summary: Any, color: bool = False) -> str:
    """One line of text from a :func:`status_line` summary; ``color`` adds ANSI colours."""
    return _statecore.fctry_render_status_line(summary, {"color": color})


def status_line_text(data: str | bytes | None, color: bool = False) -> str:
    """The rendered status line straight from ``.fctry/state.json``'s contents (``None``: no
    file; unparseable contents read as ``{}``)."""
    return _statecore.fctry_status_line_text(data, {"color": color})


def activity_feed(sources: Any) -> dict[str, Any]:
    """Event lists (lifecycle, verification, context) merged oldest first: ``{events,
    invalid}``; an event without a valid ``timestamp`` is listed in ``invalid`` as
    ``{source, index}``, never dropped silently."""
    return _statecore.fctry_activity_feed(sources)


def context_health(state: Any, events: Any = None) -> dict[str, Any]:
    """The context health indicator ``{isolation, lastCheckpoint}`` from the latest
    ``context-boundary`` and ``context-checkpointed`` events and ``buildRun.lastCheckpoint``."""
    return _statecore.fctry_context_health(state, events)
