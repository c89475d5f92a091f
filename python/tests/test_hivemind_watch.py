"""``hivemind.watch_workspace`` (docs/hivemind.md § Watcher): the Hivemind watcher, as Node's
``watchWorkspace`` (npm/test/hivemind_watch.test.mjs), on real files in temp directories with
real watchfiles and real timers. The follow-ups the core schedules are fired by the watcher,
and host events given to ``watcher.fire`` arm theirs. Every wait is for a handler call
(bounded, failing with the state on disk); the only fixed waits prove that something does NOT
happen (after ``close()``)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import hivemind

pytest.importorskip("watchfiles")

T0 = 1769164200000  # 2026-01-23T10:30:00Z
WAIT_S = 20.0


class Calls:
    """The handler calls of a watcher, as ``(type, args)``, collected from its thread."""

    def __init__(self, hook: Callable[[str, tuple[Any, ...]], object] | None = None) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self._cond = threading.Condition()
        self._hook = hook

    def push(self, kind: str, *args: Any) -> None:
        with self._cond:
            self.calls.append((kind, args))
            self._cond.notify_all()
        if self._hook is not None:
            self._hook(kind, args)

    def handlers(self) -> dict[str, Any]:
        return {
            "on_state_changed": lambda state, outcome: self.push("state", state, outcome),
            "on_notify": lambda agent, message, state: self.push("notify", agent, message, state),
            "on_ignored": lambda where, reason: self.push("ignored", where, reason),
            "on_problem": lambda problem, where: self.push("problem", problem, where),
            "on_error": lambda error: self.push("error", error),
        }

    def wait_for(
        self, start: int, test: Callable[[str, tuple[Any, ...]], bool], what: str, project: Path
    ) -> int:
        """The index of the first call at or after ``start`` that passes ``test``; fails on an
        ``on_error`` call first, or after WAIT_S with the state on disk."""

        def found() -> int | None:
            for i in range(start, len(self.calls)):
                kind, args = self.calls[i]
                if kind == "error":
                    raise AssertionError(f"on_error while waiting for {what}: {args[0]!r}")
                if test(kind, args):
                    return i
            return None

        with self._cond:
            if not self._cond.wait_for(lambda: found() is not None, WAIT_S):
                disk = state_text(project)
                pytest.fail(
                    f"timed out waiting for {what}; state.json: {disk}; calls: {self.summary()}"
                )
            index = found()
            assert index is not None
            return index

    def wait_state(self, start: int, state: str, project: Path) -> int:
        return self.wait_for(
            start, lambda k, a: k == "state" and a[0]["state"] == state, f"state {state}", project
        )

    def summary(self) -> list[str]:
        return [f"{k}:{a[0]['state'] if k == 'state' else a[:2]!r}" for k, a in self.calls]


def state_text(project: Path) -> str:
    path = Path(hivemind.state_path(project))
    return path.read_text() if path.exists() else "<missing>"


def on_disk(project: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(Path(hivemind.state_path(project)).read_text())
    return result


def write(project: Path, rel: str, content: str) -> None:
    """Writes ``workspace/<rel>`` as an agent would."""
    path = project / "workspace" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)


def clock() -> Callable[[], int]:
    """A clock for ``now``: each reading one second later."""
    tick = [0]

    def now() -> int:
        tick[0] += 1
        return T0 + 1000 * tick[0]

    return now


@pytest.fixture
def watchers() -> Iterator[list[hivemind.WorkspaceWatcher]]:
    started: list[hivemind.WorkspaceWatcher] = []
    yield started
    for watcher in started:
        watcher.close()


def start(
    project: Path, calls: Calls, started: list[hivemind.WorkspaceWatcher], **options: Any
) -> hivemind.WorkspaceWatcher:
    watcher = hivemind.watch_workspace(project, now=clock(), **calls.handlers(), **options)
    started.append(watcher)
    assert watcher.wait_ready(WAIT_S)
    return watcher


def test_a_project_driven_by_file_writes_with_the_follow_ups_fired(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]
) -> None:
    hivemind.fire(tmp_path, "select_project")
    hivemind.fire(tmp_path, "give_task")
    calls = Calls()
    start(tmp_path, calls, watchers)
    write(tmp_path, "plan.md", "# Plan\n\nCheckpoints: 2\n")
    at = calls.wait_state(0, "plan_review", tmp_path)
    assert on_disk(tmp_path)["total_checkpoints"] == 2
    notes = [a[:2] for k, a in calls.calls[at + 1 :] if k == "notify"]
    assert notes == [("reviewer", hivemind.context_message("plan_review"))]
    write(tmp_path, "plan-approved.md", "ok")
    at = calls.wait_state(at, "executing", tmp_path)
    write(tmp_path, "checkpoint.md", "Auth done.")
    at = calls.wait_state(at, "checkpoint", tmp_path)
    outcome = calls.calls[at][1][1]
    assert outcome["scheduled"] == [
        {"event": "review_checkpoint", "to": "checkpoint_review", "after_ms": 500}
    ]
    # The follow-up the core scheduled is fired by the watcher: no caller does it.
    review = calls.wait_state(at, "checkpoint_review", tmp_path)
    state, outcome = calls.calls[review][1]
    assert [t["event"] for t in outcome["transitions"]] == ["review_checkpoint"]
    assert on_disk(tmp_path) == state
    assert state["current_checkpoint"] == 1


def test_a_burst_of_writes_to_one_file_gives_one_reaction_with_the_final_content(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]
) -> None:
    hivemind.fire(tmp_path, "select_project")
    hivemind.fire(tmp_path, "give_task")
    calls = Calls()
    start(tmp_path, calls, watchers, debounce_ms=200)
    for n in range(1, 7):
        write(tmp_path, "plan.md", f"# Plan draft {n}\n\nCheckpoints: {n}\n")
    at = calls.wait_state(0, "plan_review", tmp_path)
    assert calls.calls[at][1][0]["total_checkpoints"] == 6
    write(tmp_path, "sentinel.md", "x")
    calls.wait_for(
        0, lambda k, a: k == "ignored" and a[0] == "workspace/sentinel.md", "sentinel", tmp_path
    )
    plan = [
        c
        for c in calls.calls
        if c[0] == "state" or (c[0] != "notify" and "workspace/plan.md" in c[1])
    ]
    assert len(plan) == 1, calls.summary()


def test_writes_to_state_json_and_its_lock_temp_and_corrupt_files_cause_no_reaction(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]
) -> None:
    calls = Calls()
    start(tmp_path, calls, watchers)
    write(tmp_path, "notes.md", "n")
    calls.wait_for(
        0, lambda k, a: k == "ignored" and a[0] == "workspace/notes.md", "notes.md", tmp_path
    )
    assert not Path(hivemind.state_path(tmp_path)).exists(), "an unchanged outcome writes nothing"
    start_at = len(calls.calls)
    hivemind.fire(tmp_path, "select_project")
    hivemind.fire(tmp_path, "give_task")
    hivemind.write_state(tmp_path, {**on_disk(tmp_path), "project": "p"})
    Path(hivemind.state_path(tmp_path)).write_text("{ not json")  # by hand
    hivemind.fire(tmp_path, "select_project")
    names = [p.name for p in (tmp_path / "workspace").iterdir()]
    assert any(n.startswith("state.json.corrupt-") for n in names), names
    write(tmp_path, "sentinel.md", "x")
    calls.wait_for(
        start_at,
        lambda k, a: k == "ignored" and a[0] == "workspace/sentinel.md",
        "sentinel",
        tmp_path,
    )
    assert [c[1][:2] for c in calls.calls[start_at:]] == [
        (
            "workspace/sentinel.md",
            'workspace/sentinel.md triggers nothing in state "project_selected"',
        )
    ]


def test_pausing_in_checkpoint_makes_the_review_a_no_op_and_a_fired_resume_arms_it_again(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]
) -> None:
    hivemind.write_state(
        tmp_path,
        {
            "state": "executing",
            "previous_state": "plan_review",
            "active_agents": ["worker1", "worker2"],
            "timestamp": "2026-01-23T10:30:00Z",
            "project": str(tmp_path),
            "current_checkpoint": 0,
            "total_checkpoints": 2,
            "friction_count": 0,
            "error": None,
        },
    )

    def hook(kind: str, args: tuple[Any, ...]) -> None:
        # The user pauses as soon as the checkpoint is recorded (before any timer).
        if (
            kind == "state"
            and args[0]["state"] == "checkpoint"
            and args[1]["transitions"][0]["event"] == "checkpoint_reached"
        ):
            hivemind.fire(tmp_path, "pause")

    calls = Calls(hook)
    watcher = start(tmp_path, calls, watchers)
    write(tmp_path, "checkpoint.md", "Auth done.")
    cp = calls.wait_state(0, "checkpoint", tmp_path)
    at = calls.wait_for(cp, lambda k, a: k == "ignored", "the stale follow-up", tmp_path)
    assert calls.calls[at][1] == (
        None,
        'the follow-up "review_checkpoint" no longer applies in state "paused"',
    )
    assert (on_disk(tmp_path)["state"], on_disk(tmp_path)["previous_state"]) == (
        "paused",
        "checkpoint",
    )

    start_at = len(calls.calls)
    resumed = watcher.fire("resume")
    assert resumed is not None
    assert resumed["transitions"] == [{"from": "paused", "event": "resume", "to": "checkpoint"}]
    assert resumed["scheduled"] == [
        {"event": "review_checkpoint", "to": "checkpoint_review", "after_ms": 500}
    ]
    assert calls.calls[start_at][0] == "state"
    review = calls.wait_state(start_at, "checkpoint_review", tmp_path)
    assert calls.calls[review][1][0]["current_checkpoint"] == 1
    assert [a[0] for k, a in calls.calls[review + 1 :] if k == "notify"] == ["reviewer"]
    # An illegal event through the watcher raises (and is not an on_error call).
    with pytest.raises(statecore.TransitionError):
        watcher.fire("give_task")
    assert [c for c in calls.calls if c[0] == "error"] == []


def test_errors_go_to_on_error_and_the_watcher_keeps_running(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]
) -> None:
    hivemind.fire(tmp_path, "select_project")
    hivemind.fire(tmp_path, "give_task")
    seen: list[tuple[str, Any]] = []
    cond = threading.Condition()

    def push(entry: tuple[str, Any]) -> None:
        with cond:
            seen.append(entry)
            cond.notify_all()

    def until(n: int) -> None:
        with cond:
            assert cond.wait_for(lambda: len(seen) >= n, WAIT_S), seen

    def changed(state: dict[str, Any], _outcome: object) -> None:
        push(("state", state["state"]))
        if state["state"] == "executing":
            raise RuntimeError("boom")

    watcher = hivemind.watch_workspace(
        tmp_path, on_state_changed=changed, on_error=lambda e: push(("error", e))
    )
    watchers.append(watcher)
    assert watcher.wait_ready(WAIT_S)
    state_file = Path(hivemind.state_path(tmp_path))
    state_file.write_text(json.dumps({"state": "reviewing"}))
    write(tmp_path, "plan.md", "x")
    until(1)
    assert seen[0][0] == "error"
    assert seen[0][1].code == "E_ARGUMENT", seen[0][1]
    assert state_file.read_text() == json.dumps({"state": "reviewing"})
    hivemind.write_state(tmp_path, {"state": "planning"})
    write(tmp_path, "plan.md", "y")
    until(2)
    write(tmp_path, "plan-approved.md", "ok")  # its handler raises
    until(4)
    assert [s for s in seen[1:3]] == [("state", "plan_review"), ("state", "executing")]
    assert seen[3][0] == "error"
    assert str(seen[3][1]) == "boom"
    assert on_disk(tmp_path)["state"] == "executing"


def test_close_stops_everything(tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher]) -> None:
    hivemind.write_state(tmp_path, {"state": "executing", "active_agents": ["worker1", "worker2"]})
    calls = Calls()
    watcher = start(tmp_path, calls, watchers)
    write(tmp_path, "checkpoint.md", "Auth done.")
    calls.wait_state(0, "checkpoint", tmp_path)  # its review is now scheduled, 500 ms later
    watcher.close()
    count = len(calls.calls)
    before = Path(hivemind.state_path(tmp_path)).read_bytes()
    write(tmp_path, "checkpoint-issues.md", "late")
    write(tmp_path, "friction/late.md", "late")
    # A negative check needs a fixed wait: longer than the follow-up's 500 ms and the debounce.
    time.sleep(1.0)
    assert len(calls.calls) == count, calls.summary()[count:]
    assert Path(hivemind.state_path(tmp_path)).read_bytes() == before, "the follow-up did not fire"
    assert watcher.fire("pause") is None, "fire after close does nothing"
    watcher.close()  # twice is fine


def test_options_are_checked() -> None:
    with pytest.raises(statecore.UsageError) as raised:
        hivemind.watch_workspace(".", debounce_ms="fast")  # type: ignore[arg-type]
    assert raised.value.code == "E_OPTIONS"
    with pytest.raises(TypeError):
        hivemind.watch_workspace(".", on_notify="print")  # type: ignore[arg-type]


def test_statecore_never_imports_watchfiles_until_a_watcher_starts(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; import statecore; from statecore import hivemind, fctry\n"
        "assert 'watchfiles' not in sys.modules, 'imported with statecore'\n"
        f"w = hivemind.watch_workspace({str(tmp_path)!r}); w.close()\n"
        "assert 'watchfiles' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("how", ["made in place", "moved in over a trigger"])
def test_a_trigger_that_is_a_fifo_is_read_as_unreadable_without_blocking_the_watcher(
    tmp_path: Path, watchers: list[hivemind.WorkspaceWatcher], how: str
) -> None:
    hivemind.fire(tmp_path, "select_project")
    hivemind.fire(tmp_path, "give_task")
    calls = Calls()
    start(tmp_path, calls, watchers, debounce_ms=0)
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    fifo = workspace / "plan-feedback.md"
    if how == "made in place":
        os.mkfifo(fifo)
    else:
        write(tmp_path, "plan-feedback.md", "x")
        calls.wait_for(
            0,
            lambda k, a: k == "ignored" and a[0] == "workspace/plan-feedback.md",
            "the file's reaction",
            tmp_path,
        )
        made = tmp_path / "pipe"
        os.mkfifo(made)
        os.replace(made, fifo)
    try:
        # Whether or not the watcher reports the FIFO itself, the next trigger is reacted to.
        start_at = len(calls.calls)
        write(tmp_path, "plan.md", "Checkpoints: 2")
        calls.wait_state(start_at, "plan_review", tmp_path)
        seen = [
            a for k, a in calls.calls if k == "ignored" and a[0] == "workspace/plan-feedback.md"
        ]
        assert all(a[1] is not None for a in seen), seen
    finally:
        # A reader blocked on the FIFO (the failure this test catches) is let go by a writer,
        # so that the watcher can close.
        with contextlib.suppress(OSError):  # no reader: nothing to let go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
