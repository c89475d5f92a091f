"""The fctry workflow operations on ``.fctry/state.json`` and ``.fctry/inbox.json``
(docs/fctry.md), on the documents or on a project directory.

**Document or project directory.** Every operation on a state or an inbox takes, as its first
argument, either the document or a project directory (a ``str`` or ``os.PathLike``); the
choice is made only on that type (a state is a ``dict``, an inbox a ``list`` or ``None``):

- A document: the function is pure and returns the updated document (the input is not
  changed), exactly as ``fctry.startStep(state, ...)`` in JS.
- A project directory: the same operation on ``<project_dir>/.fctry/state.json`` (the
  ``inbox_*`` functions: ``.fctry/inbox.json``), one call per milestone. A writer does one
  locked read-modify-write through :func:`statecore.host.update_document`, creating
  ``.fctry/`` if missing, and returns its ``UpdateResult`` (``document``, ``etag``,
  ``changed``, ``warnings``, ``corrupt_copy``); the keyword ``timeout`` (seconds, default
  ``DEFAULT_TIMEOUT``) bounds the wait for the lock. An unparseable file reads as the default
  (``{}`` / ``[]``) and is kept as ``<file>.corrupt-<timestamp>`` before being replaced. A
  refused operation raises and leaves the file as it was. A reader (``check_prerequisites``,
  ``status_line``, ``resume_plan``, ``ready_chunks``, ``dag_layers``, ``context_health``)
  reads the file without the lock and returns what the pure function returns.
  :func:`read_state`, :func:`read_inbox`, :func:`update_state`, :func:`state_path` and
  :func:`inbox_path` work on a project directory only.

Each workflow function on a state is a shallow read-modify-write that keeps every other field
and stamps ``lastUpdated``. ``now`` is an RFC 3339 string or epoch milliseconds (``int``);
``None`` means the host clock, read here when the operation runs (on a project directory:
under the lock): the core never reads a clock. An unknown command, step or agent raises
``UsageError`` (code ``E_ARGUMENT``); a bad ``now``, ``TimestampError``.

The ``inbox_*`` functions take the inbox (a list of items, newest first; ``None`` for a
missing file) and return the updated list, the input unchanged. Item statuses move on the
machine engine (``inbox_machine()``): an illegal event raises ``TransitionError``.

The build run functions (``create_build_run`` ... ``finish_build_run``) work on the state's
``buildRun`` the same way: chunk and run statuses move on the machine engine
(``chunk_machine()``, ``run_machine()``), an illegal event raising ``TransitionError``, and
``chunkProgress`` is derived from the chunk statuses.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, TypeVar, Union, overload

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
    "inbox_path",
    "inbox_transition",
    "pause_build_run",
    "read_inbox",
    "read_state",
    "ready_chunks",
    "render_status_line",
    "resume_build_run",
    "resume_plan",
    "run_machine",
    "skip_prerequisites",
    "start_command",
    "start_step",
    "state_path",
    "status_line",
    "status_line_text",
    "update_state",
]

#: A host-supplied time: RFC 3339 text or epoch milliseconds; ``None`` is "now".
Now = Union[str, int, None]
#: A ``fctry.state`` document.
State = Mapping[str, Any]
#: A ``fctry.inbox`` document (``None``: no file).
Inbox = Optional[Sequence[Mapping[str, Any]]]

_T = TypeVar("_T")

_STATE = "fctry.state"
_INBOX = "fctry.inbox"
#: The merge options of :func:`update_state`'s patches: the seed's write semantics.
_SEED_MERGE: dict[str, Any] = {"strategy": "shallow", "stamp": {"field": "lastUpdated"}}


def _now(now: Now) -> str | int:
    """``now``, or the host clock in epoch milliseconds when it is ``None``."""
    return time.time_ns() // 1_000_000 if now is None else now


#: The digits of inbox id suffixes.
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _random(random: str | None) -> str:
    """``random``, or 6 lowercase base36 characters from ``secrets`` when it is ``None``."""
    return "".join(secrets.choice(_BASE36) for _ in range(6)) if random is None else random


# --- project directories -------------------------------------------------------------------


def state_path(project_dir: StrPath) -> str:
    """``<project_dir>/.fctry/state.json``."""
    return os.path.join(os.fspath(project_dir), ".fctry", "state.json")


def inbox_path(project_dir: StrPath) -> str:
    """``<project_dir>/.fctry/inbox.json``."""
    return os.path.join(os.fspath(project_dir), ".fctry", "inbox.json")


_PATHS: dict[str, Callable[[StrPath], str]] = {_STATE: state_path, _INBOX: inbox_path}


def _write(
    target: object, kind: str, timeout: float | None, operation: Callable[[Any], _T]
) -> _T | UpdateResult:
    """The dispatch of every writer: ``operation`` applied to the document ``target``, or a
    locked read-modify-write of the ``kind`` file of the project directory ``target``."""
    if not isinstance(target, (str, os.PathLike)):
        if timeout is not None:
            raise TypeError("timeout applies to a project directory, not to a document")
        return operation(target)
    file = _PATHS[kind](target)
    os.makedirs(os.path.dirname(file), exist_ok=True)
    return update_document(
        file, kind, operation, timeout=DEFAULT_TIMEOUT if timeout is None else timeout
    )


def _read(target: object, kind: str, operation: Callable[[Any], _T]) -> _T:
    """The dispatch of every reader: ``operation`` applied to the document ``target``, or to
    the ``kind`` file of the project directory ``target`` (read without the lock)."""
    if isinstance(target, (str, os.PathLike)):
        target = read_document(_PATHS[kind](target), kind)["document"]
    return operation(target)


def read_state(project_dir: StrPath) -> ReadResult:
    """Reads ``.fctry/state.json``: :func:`statecore.host.read_document` with ``fctry.state``.

    A missing file is ``{}`` with ``etag`` None and no warning (normal before the first
    command); an unparseable one ``{}`` with a ``W_UNPARSEABLE`` warning. Never writes.
    """
    return read_document(state_path(project_dir), _STATE)


def read_inbox(project_dir: StrPath) -> ReadResult:
    """Reads ``.fctry/inbox.json`` (``fctry.inbox``): a missing file is ``[]``."""
    return read_document(inbox_path(project_dir), _INBOX)


def update_state(
    project_dir: StrPath,
    patch_or_function: Mapping[str, Any] | Callable[[Any], Any],
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult:
    """A locked read-modify-write of ``.fctry/state.json`` (``.fctry/`` created if missing).

    A patch (a dict) is merged the seed's way: its top-level fields replace the state's
    (shallow merge, ``None`` kept as the seed's "cleared"), every other field kept, and
    ``lastUpdated`` stamped from ``now`` (``None``: the host clock, read under the lock). A
    function gets the current state and returns the new one (or changes it and returns
    ``None``); nothing is stamped, so ``now`` is refused. Returns the ``UpdateResult``.
    """
    is_function = callable(patch_or_function)
    if is_function and now is not None:
        raise TypeError("now stamps a patch; an update function writes lastUpdated itself")
    file = state_path(project_dir)
    os.makedirs(os.path.dirname(file), exist_ok=True)
    options = None if is_function else _SEED_MERGE
    return update_document(file, _STATE, patch_or_function, options, now=now, timeout=timeout)


# --- workflow ------------------------------------------------------------------------------


@overload
def start_command(
    state: StrPath, command: str, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def start_command(state: State, command: str, now: Now = None) -> dict[str, Any]: ...
def start_command(
    state: StrPath | State, command: str, now: Now = None, *, timeout: float | None = None
) -> dict[str, Any] | UpdateResult:
    """Step 0 of every command (``"init"``, ``"evolve"``, ``"ref"``, ...).

    Sets ``currentCommand`` and clears ``workflowStep``, ``completedSteps``, ``agentOutputs``
    and the skips recorded for the previous command.
    """
    return _write(
        state, _STATE, timeout, lambda s: _statecore.fctry_start_command(s, command, _now(now))
    )


@overload
def start_step(
    state: StrPath, step: str, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def start_step(state: State, step: str, now: Now = None) -> dict[str, Any]: ...
def start_step(
    state: StrPath | State, step: str, now: Now = None, *, timeout: float | None = None
) -> dict[str, Any] | UpdateResult:
    """An agent starts its step: ``workflowStep`` is set to ``step``."""
    return _write(state, _STATE, timeout, lambda s: _statecore.fctry_start_step(s, step, _now(now)))


@overload
def complete_step(
    state: StrPath,
    step: str,
    output: Any = None,
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def complete_step(
    state: State, step: str, output: Any = None, now: Now = None
) -> dict[str, Any]: ...
def complete_step(
    state: StrPath | State,
    step: str,
    output: Any = None,
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """An agent completes its step.

    ``step`` is appended to ``completedSteps`` (once); ``workflowStep`` is cleared if it still
    names this step; ``output`` (a dict with at least a summary), when given, replaces this
    agent's entry in ``agentOutputs``.
    """
    return _write(
        state,
        _STATE,
        timeout,
        lambda s: _statecore.fctry_complete_step(s, step, output, _now(now)),
    )


def check_prerequisites(
    state: StrPath | State, agent: str, command: str | None = None
) -> dict[str, Any]:
    """Checks an agent's prerequisites against ``completedSteps``.

    Returns ``{ok, agent, command, missing, message, options}``: ``missing`` lists the unmet
    requirements (each satisfied by any one of its steps), ``message`` is the numbered
    "Workflow error" text (``None`` when ``ok``) and ``options`` its three choices.
    """
    return _read(state, _STATE, lambda s: _statecore.fctry_check_prerequisites(s, agent, command))


@overload
def skip_prerequisites(
    state: StrPath,
    agent: str,
    command: str | None = None,
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def skip_prerequisites(
    state: State, agent: str, command: str | None = None, now: Now = None
) -> dict[str, Any]: ...
def skip_prerequisites(
    state: StrPath | State,
    agent: str,
    command: str | None = None,
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """The user chose "Skip": the skip is appended to ``skippedPrerequisites``.

    Each record is ``{agent, command, missing, timestamp}``; when nothing is missing the
    state is returned unchanged.
    """
    return _write(
        state,
        _STATE,
        timeout,
        lambda s: _statecore.fctry_skip_prerequisites(s, agent, command, _now(now)),
    )


@overload
def add_untracked_change(
    state: StrPath,
    change: Mapping[str, Any],
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def add_untracked_change(
    state: State, change: Mapping[str, Any], now: Now = None
) -> dict[str, Any]: ...
def add_untracked_change(
    state: StrPath | State,
    change: Mapping[str, Any],
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """Records a file write made outside fctry commands in ``untrackedChanges``.

    ``change`` is ``{file, section, sectionNumber, timestamp}`` (``file`` required; a missing
    ``timestamp`` is taken from ``now``); a second change to the same file replaces its entry.
    """
    return _write(
        state,
        _STATE,
        timeout,
        lambda s: _statecore.fctry_add_untracked_change(s, change, _now(now)),
    )


@overload
def clear_untracked_changes(
    state: StrPath,
    sections: Sequence[str] | None = None,
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def clear_untracked_changes(
    state: State, sections: Sequence[str] | None = None, now: Now = None
) -> dict[str, Any]: ...
def clear_untracked_changes(
    state: StrPath | State,
    sections: Sequence[str] | None = None,
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """Clears the untracked changes of ``sections`` (a list or tuple of section aliases, with
    or without ``#``); ``None`` clears all of them.
    """
    return _write(
        state,
        _STATE,
        timeout,
        lambda s: _statecore.fctry_clear_untracked_changes(s, sections, _now(now)),
    )


# --- inbox ---------------------------------------------------------------------------------


def inbox_machine() -> dict[str, Any]:
    """The inbox item lifecycle as a machine definition (for ``statecore.machine``).

    ``pending → processing → processed | error``, ``processed → incorporated`` and
    ``error → pending`` (retry); the events are ``start``, ``complete``, ``fail``,
    ``incorporate`` and ``retry``.
    """
    return _statecore.fctry_inbox_machine()


@overload
def inbox_add(
    inbox: StrPath,
    type: str,
    content: str,
    now: Now = None,
    random: str | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def inbox_add(
    inbox: Inbox, type: str, content: str, now: Now = None, random: str | None = None
) -> list[dict[str, Any]]: ...
def inbox_add(
    inbox: StrPath | Inbox,
    type: str,
    content: str,
    now: Now = None,
    random: str | None = None,
    *,
    timeout: float | None = None,
) -> list[dict[str, Any]] | UpdateResult:
    """Adds an item first: ``{id, type, content, timestamp, status: "pending"}``.

    ``type`` is ``"evolve"``, ``"reference"`` or ``"feature"``. The id is
    ``inbox-{ms}-{random}``: ``ms`` from ``now``, ``random`` 6 lowercase base36 characters
    (``None``: drawn from ``secrets``). An unknown type, a bad ``random`` or an id already in
    the inbox raises ``UsageError``.
    """
    return _write(
        inbox,
        _INBOX,
        timeout,
        lambda i: _statecore.fctry_inbox_add(i, type, content, _now(now), _random(random)),
    )


@overload
def inbox_transition(
    inbox: StrPath, id: str, event: str, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def inbox_transition(inbox: Inbox, id: str, event: str) -> list[dict[str, Any]]: ...
def inbox_transition(
    inbox: StrPath | Inbox, id: str, event: str, *, timeout: float | None = None
) -> list[dict[str, Any]] | UpdateResult:
    """Moves the item ``id`` through its lifecycle with ``event``.

    An unknown id raises ``UsageError``; an event not legal from the item's status,
    ``TransitionError``.
    """
    return _write(inbox, _INBOX, timeout, lambda i: _statecore.fctry_inbox_transition(i, id, event))


@overload
def inbox_dismiss(inbox: StrPath, id: str, *, timeout: float = DEFAULT_TIMEOUT) -> UpdateResult: ...
@overload
def inbox_dismiss(inbox: Inbox, id: str) -> list[dict[str, Any]]: ...
def inbox_dismiss(
    inbox: StrPath | Inbox, id: str, *, timeout: float | None = None
) -> list[dict[str, Any]] | UpdateResult:
    """Removes the item ``id``; an id that is not there leaves the inbox as it is."""
    return _write(inbox, _INBOX, timeout, lambda i: _statecore.fctry_inbox_dismiss(i, id))


@overload
def inbox_batch(
    inbox: StrPath, event: str, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def inbox_batch(inbox: Inbox, event: str) -> list[dict[str, Any]]: ...
def inbox_batch(
    inbox: StrPath | Inbox, event: str, *, timeout: float | None = None
) -> list[dict[str, Any]] | UpdateResult:
    """Applies ``event`` to every ``pending`` or ``processed`` item it is legal for (e.g.
    ``start`` all pending items, ``incorporate`` all processed ones); others are untouched.
    """
    return _write(inbox, _INBOX, timeout, lambda i: _statecore.fctry_inbox_batch(i, event))


# --- build runs ----------------------------------------------------------------------------


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


@overload
def create_build_run(
    state: StrPath,
    plan: Mapping[str, Any],
    now: Now = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> UpdateResult: ...
@overload
def create_build_run(state: State, plan: Mapping[str, Any], now: Now = None) -> dict[str, Any]: ...
def create_build_run(
    state: StrPath | State,
    plan: Mapping[str, Any],
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """Creates ``buildRun`` from an approved plan, replacing any earlier run.

    ``plan`` is ``{chunks: [{id, name, sections, scenarios, dependsOn}], priorities,
    prioritySource, specVersion, maxRetries, convergencePhase}`` (chunk ids: whole numbers
    ≥ 1, unique). ``runId`` is ``run-{ms}`` with ``ms`` from ``now``; every chunk starts
    ``planned``. A dependency on an unknown id or a cycle raises ``UsageError``.
    """
    return _write(
        state, _STATE, timeout, lambda s: _statecore.fctry_create_build_run(s, plan, _now(now))
    )


@overload
def chunk_event(
    state: StrPath, id: int, event: str, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def chunk_event(state: State, id: int, event: str, now: Now = None) -> dict[str, Any]: ...
def chunk_event(
    state: StrPath | State,
    id: int,
    event: str,
    now: Now = None,
    *,
    timeout: float | None = None,
) -> dict[str, Any] | UpdateResult:
    """Moves the chunk ``id`` with ``event`` (``"start"``, ``"complete"``, ``"fail"``).

    ``start``: ``active``, attempt 1, ``startedAt``. ``complete``: ``completedAt``,
    ``specVersionAtBuild`` (from the plan) and the run's ``lastCheckpoint``. ``fail``:
    ``retrying`` with the next attempt while fewer than ``maxRetries`` (default 3) retries
    were used, else ``failed`` with ``failedAt``, and every planned chunk depending on it
    (directly or not) ``blocked``. An id that is not an ``int`` ≥ 0 or names no chunk raises
    ``UsageError`` (path ``/id``); an illegal event, ``TransitionError``.
    """
    return _write(
        state, _STATE, timeout, lambda s: _statecore.fctry_chunk_event(s, id, event, _now(now))
    )


def ready_chunks(state: StrPath | State) -> list[int]:
    """The ids of the planned chunks whose dependencies have all completed, in plan order
    (``[]`` without a build run).
    """
    return _read(state, _STATE, _statecore.fctry_ready_chunks)


def dag_layers(state: StrPath | State) -> dict[str, Any]:
    """The chunk DAG in layers for drawing: ``{layers: [[id]], unplaced: [id]}``.

    Layer 0 has no dependencies, layer n depends on earlier layers only; chunks in a cycle
    or depending on an unknown id are listed in ``unplaced``.
    """
    return _read(state, _STATE, _statecore.fctry_dag_layers)


@overload
def pause_build_run(
    state: StrPath, question: Any, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def pause_build_run(state: State, question: Any, now: Now = None) -> dict[str, Any]: ...
def pause_build_run(
    state: StrPath | State, question: Any, now: Now = None, *, timeout: float | None = None
) -> dict[str, Any] | UpdateResult:
    """Pauses a running build with the question it waits on (``pendingQuestion``).

    A build that is not running raises ``TransitionError``.
    """
    return _write(
        state,
        _STATE,
        timeout,
        lambda s: _statecore.fctry_pause_build_run(s, question, _now(now)),
    )


@overload
def resume_build_run(
    state: StrPath, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def resume_build_run(state: State, now: Now = None) -> dict[str, Any]: ...
def resume_build_run(
    state: StrPath | State, now: Now = None, *, timeout: float | None = None
) -> dict[str, Any] | UpdateResult:
    """Resumes a paused build; ``pendingQuestion`` becomes ``None``.

    A build that is not paused raises ``TransitionError``.
    """
    return _write(state, _STATE, timeout, lambda s: _statecore.fctry_resume_build_run(s, _now(now)))


@overload
def finish_build_run(
    state: StrPath, now: Now = None, *, timeout: float = DEFAULT_TIMEOUT
) -> UpdateResult: ...
@overload
def finish_build_run(state: State, now: Now = None) -> dict[str, Any]: ...
def finish_build_run(
    state: StrPath | State, now: Now = None, *, timeout: float | None = None
) -> dict[str, Any] | UpdateResult:
    """Ends a build whose chunks are all done.

    Every chunk completed: ``buildRun`` and ``chunkProgress`` become ``None``. Some failed or
    blocked: the run is kept with ``status: "partial"`` and ``completedAt`` (to evolve the
    affected sections), ``chunkProgress`` ``None``. Chunks still planned, active or retrying
    raise ``UsageError``.
    """
    return _write(state, _STATE, timeout, lambda s: _statecore.fctry_finish_build_run(s, _now(now)))


def resume_plan(state: StrPath | State, current_spec_version: str | None = None) -> dict[str, Any]:
    """What to offer after an interruption: ``{offer, completed, remaining, next, changed,
    options}``.

    A resume is offered when the run is ``running`` and some chunk completed; ``next`` are the
    ready chunks; ``changed`` lists the completed chunks built against another spec version
    than ``current_spec_version`` (``None``: none are checked).
    """
    return _read(state, _STATE, lambda s: _statecore.fctry_resume_plan(s, current_spec_version))


# --- status line, activity feed, context health --------------------------------------------


def status_line(state: StrPath | State) -> dict[str, Any]:
    """What a status line shows: ``{specVersion, section, sectionNumber, command, step, chunks,
    scenarios, readiness, build, untracked, nextStep}`` (absent parts ``None``). Any state is
    accepted; fields of the wrong type are ignored."""
    return _read(state, _STATE, _statecore.fctry_status_line)


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


def context_health(state: StrPath | State, events: Any = None) -> dict[str, Any]:
    """The context health indicator ``{isolation, lastCheckpoint}`` from the latest
    ``context-boundary`` and ``context-checkpointed`` events and ``buildRun.lastCheckpoint``."""
    return _read(state, _STATE, lambda s: _statecore.fctry_context_health(s, events))
