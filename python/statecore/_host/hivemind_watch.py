"""``hivemind.watch_workspace(project, ...)`` (docs/hivemind.md § Watcher): the Hivemind
watcher, as Node's ``watchWorkspace`` (npm/lib/host/hivemind.cjs): each trigger file written under
``<project>/workspace`` is read and given to the core's ``hivemind_on_file`` in one locked
update of ``state.json``; the follow-ups the core schedules (``scheduled``: which, and after how
long) are fired with ``hivemind_follow_up`` once their delay has passed; host events go through
:meth:`WorkspaceWatcher.fire` in turn with the rest. Every decision is the core's; this module
only reads files, keeps timers and calls back. Reactions, follow-ups and fired events run one at
a time, in order, on the watcher's own thread, over watchfiles (the ``statecore[watch]`` extra,
imported on the first call)."""

from __future__ import annotations

import os
import queue
import threading
import time

from statecore._generated import hivemind as _ops
from statecore._generated.root import check_options
from statecore._host.atomic import read_maybe
from statecore._host.file_watch import DEFAULT_DEBOUNCE_MS, Threaded, batches, skipped
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from statecore._host.documents import StrPath
    from statecore.types import (
        HivemindEvent,
        HivemindFollowUp,
        HivemindOutcome,
        HivemindState,
        Now,
    )


class _Fired:
    """A host event waiting for its turn, and then its outcome (or what it raised)."""

    __slots__ = ("details", "done", "error", "event", "now", "outcome")

    def __init__(
        self, event: HivemindEvent, details: Mapping[str, object] | None, now: Now | None
    ) -> None:
        self.event = event
        self.details = details
        self.now = now
        self.done = threading.Event()
        self.outcome: HivemindOutcome | None = None
        self.error: BaseException | None = None


class WorkspaceWatcher(Threaded):
    """A running Hivemind watcher (:func:`watch_workspace`): a thread of its own that reacts to
    trigger files, fires the scheduled follow-ups and the host events given to :meth:`fire`.
    Use it as a context manager, or call :meth:`close`."""

    _name = "statecore hivemind watch"

    def __init__(
        self,
        project: StrPath,
        handlers: Mapping[str, Callable[..., object] | None],
        debounce_ms: int,
        now: Callable[[], Now],
        timeout: float | None,
    ) -> None:
        import watchfiles  # the `statecore[watch]` extra

        self._watchfiles = watchfiles
        self._project = os.path.abspath(os.fspath(project))
        self._workspace = os.path.dirname(_ops.state_path(self._project))
        os.makedirs(self._workspace, exist_ok=True)
        self._handlers = handlers
        self._debounce_ms = max(1, debounce_ms)
        self._now = now
        self._timeout = timeout
        self._timers: list[tuple[float, HivemindFollowUp]] = []  # (due, follow-up event)
        self._fired: queue.SimpleQueue[_Fired] = queue.SimpleQueue()
        self._closed = False
        self._start(handlers.get("on_error"))

    # What the thread does, one job at a time.

    def _call(self, name: str, *args: object) -> None:
        """Calls the handler ``name`` if given; what it raises goes to ``on_error``."""
        handler = self._handlers.get(name)
        if handler is None:
            return
        try:
            handler(*args)
        except Exception as error:
            self._fail(error)

    def _dispatch(self, outcome: HivemindOutcome, where: str | None) -> HivemindOutcome:
        """Reports ``outcome`` to the handlers, in Node's order, and arms its follow-ups."""
        if outcome["changed"]:
            self._call("on_state_changed", outcome["state"], outcome)
        for problem in outcome["problems"]:
            self._call("on_problem", problem, where)
        if outcome["ignored"] is not None:
            self._call("on_ignored", where, outcome["ignored"])
        for note in outcome["notifications"]:
            self._call("on_notify", note["agent"], note["message"], outcome["state"])
        if not self._stop.is_set():
            for scheduled in outcome["scheduled"]:
                due = time.monotonic() + scheduled["after_ms"] / 1000
                self._timers.append((due, scheduled["event"]))
        return outcome

    def _on_file(self, path: str) -> None:
        """Reads the trigger file ``path`` (None when unreadable or gone) and reacts to it."""
        rel = os.path.relpath(path, self._workspace).replace(os.sep, "/")
        where = f"workspace/{rel}"
        content: str | None
        try:
            # Opened without blocking and refused unless a regular file: a FIFO never waits
            # for a writer here (as Node's watcher).
            data = read_maybe(path)
            content = None if data is None else data.decode("utf-8")
        except (OSError, UnicodeDecodeError, ValueError, StatecoreError):
            content = None  # the core decides what a null content means
        done = _ops.on_file(self._project, where, content, self._now(), timeout=self._timeout)
        self._dispatch(done["result"], where)

    def _follow_ups(self) -> None:
        """Fires each follow-up whose delay has passed, in the order they fall due."""
        now = time.monotonic()
        due = sorted((t for t in self._timers if t[0] <= now), key=lambda t: t[0])
        self._timers = [t for t in self._timers if t[0] > now]
        for _, event in due:
            if self._stop.is_set():
                return
            self._guard(self._follow_up, event)

    def _follow_up(self, event: HivemindFollowUp) -> None:
        done = _ops.follow_up(self._project, event, self._now(), timeout=self._timeout)
        self._dispatch(done["result"], None)

    def _host_events(self) -> None:
        """Runs the host events given to :meth:`fire` so far, each answered to its caller."""
        while True:
            try:
                fired = self._fired.get_nowait()
            except queue.Empty:
                return
            self._run_fired(fired)

    def _run_fired(self, fired: _Fired) -> None:
        try:
            if self._stop.is_set():
                return
            at = fired.now if fired.now is not None else self._now()
            done = _ops.fire(self._project, fired.event, at, fired.details, timeout=self._timeout)
            fired.outcome = self._dispatch(done["result"], None)
        except Exception as error:
            fired.error = error  # the caller's: not given to on_error
        finally:
            fired.done.set()

    def _watched(self, path: str) -> bool:
        """True for a file the watcher reacts to: not state.json's own files (the core's
        ``ignores_file``), nothing under ``.git`` or ``node_modules``."""
        if skipped(self._workspace, path):
            return False
        return not _ops.ignores_file(path)

    def _run(self) -> None:
        """The watching thread: watchfiles' changes (files added or changed, read in path
        order), then the follow-ups due and the host events given, one at a time."""
        watching = self._watchfiles, self._workspace, self._watched, self._debounce_ms, self._stop
        try:
            for paths in batches(*watching, removals=False):
                self._ready.set()
                for path in paths:
                    if self._stop.is_set():
                        break
                    if not os.path.isdir(path):  # a directory made is not a trigger
                        self._guard(self._on_file, path)
                self._guard(self._follow_ups)
                self._host_events()
        except Exception as error:
            self._fail(error)
        finally:
            self._ready.set()
            self._closed = True
            self._answer_pending()

    def _answer_pending(self) -> None:
        """Answers the host events still waiting with None (the watcher is closed)."""
        while True:
            try:
                fired = self._fired.get_nowait()
            except queue.Empty:
                return
            fired.done.set()

    # The caller's side.

    def fire(
        self,
        event: HivemindEvent,
        details: Mapping[str, object] | None = None,
        now: Now | None = None,
        timeout: float | None = None,
    ) -> HivemindOutcome | None:
        """Fires a host event (``pause``, ``resume``, ``select_project``, ...) in turn with the
        file reactions, reports it to the handlers like one and arms its follow-ups (resuming
        into checkpoint schedules the review again), as Node's ``watcher.fire``. Returns the
        outcome, None once the watcher is closed; raises what the core refuses
        (``TransitionError``: not given to ``on_error``). ``timeout``: how long to wait for its
        turn, in seconds (None: as long as it takes)."""
        if self._closed or self._stop.is_set():
            return None
        fired = _Fired(event, details, now)
        if threading.current_thread() is self._thread:
            self._run_fired(fired)  # from a handler: it is the watcher's turn already
        else:
            self._fired.put(fired)
            if self._closed:  # closed meanwhile: nobody will take it
                self._answer_pending()
            if not fired.done.wait(timeout):
                raise TimeoutError(f"hivemind watcher: {event!r} was not run within {timeout} s")
        if fired.error is not None:
            raise fired.error
        return fired.outcome

    def close(self, timeout: float | None = None) -> None:
        """Stops watching: follow-ups not yet fired are dropped, a reaction already running
        finishes (with its handlers); no handler is called once it returns."""
        super().close(timeout)
        self._timers.clear()


def watch_workspace(
    project: StrPath,
    *,
    on_state_changed: Callable[[HivemindState, HivemindOutcome], object] | None = None,
    on_problem: Callable[[Mapping[str, Any], str | None], object] | None = None,
    on_ignored: Callable[[str | None, str], object] | None = None,
    on_notify: Callable[[str, str, HivemindState], object] | None = None,
    on_error: Callable[[BaseException], object] | None = None,
    debounce_ms: int | None = None,
    now: Callable[[], Now] | None = None,
    timeout: float | None = None,
) -> WorkspaceWatcher:
    """Watches ``<project>/workspace`` (created if missing) and moves ``state.json`` by the
    trigger files written there, as Node's ``watchWorkspace`` (docs/hivemind.md § Watcher):
    each file created or changed is read once quiet for ``debounce_ms`` (50) and given to the
    core's ``on_file`` under the lock of ``state.json``, written only when the outcome changed;
    the follow-ups it schedules fire after their ``after_ms``; :meth:`WorkspaceWatcher.fire`
    runs host events in turn. The handlers, per outcome in this order: ``on_state_changed(state,
    outcome)`` (if changed), ``on_problem(problem, path)``, ``on_ignored(path, reason)``,
    ``on_notify(agent, message, state)``; ``path`` is ``workspace/...``, or None for follow-ups
    and fired events. What is raised while watching (the core, a lock timeout, a handler) goes
    to ``on_error`` (else logged) and the watcher goes on. ``now()``: the clock (default: the
    host's); ``timeout``: the lock timeout in seconds. Needs ``pip install
    'statecore[watch]'`` (watchfiles)."""
    check_options("watch", {"debounce_ms": debounce_ms})
    handlers = {
        "on_state_changed": on_state_changed,
        "on_problem": on_problem,
        "on_ignored": on_ignored,
        "on_notify": on_notify,
        "on_error": on_error,
    }
    for name, handler in handlers.items():
        if handler is not None and not callable(handler):
            raise TypeError(f"watch_workspace: {name} must be callable")
    if now is not None and not callable(now):
        raise TypeError("watch_workspace: now must be callable (it returns the time)")
    if timeout is not None:
        check_options("update", {"timeout": timeout})
    clock: Callable[[], Now] = now if now is not None else (lambda: int(time.time() * 1000))
    return WorkspaceWatcher(
        project,
        handlers,
        DEFAULT_DEBOUNCE_MS if debounce_ms is None else debounce_ms,
        clock,
        timeout,
    )
