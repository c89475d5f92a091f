"""Tests of the command line's loop for the commands that go on (``statecore._cli.follow``,
docs/cli.md § Commands that go on: ``then``) with a stand-in core.

Real files in temp directories, a fake clock (each sleep advances it and runs the writes
scheduled by then), so what is delivered and when is deterministic. Also: a timer through
the real clock and sleep, Ctrl-C on the real ``statecore watch``, the offset from UTC in
other time zones, and a write fact's ``result``. The npm package's twin is
npm/test/cli_follow.test.mjs.
"""

from __future__ import annotations

import copy
import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from statecore._cli.follow import follow
from statecore._cli.run import write_fact
from statecore._generated.tables import CLI_POLL_MS as POLL_MS
from statecore.errors import StatecoreError


def write(file: Path, text: str) -> None:
    """Writes ``text`` to ``file``, making its directories."""
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(text.encode("utf-8"))


class Run:
    """``follow`` run with the stand-in core ``answers`` (called with each request and its
    index) on a fake clock: ``at`` maps times (ms) to what to do once the clock has passed
    them. Keeps the requests, what was printed, the exit code and the time of each call."""

    def __init__(
        self, answers: Callable[[Any, int], Any], at: dict[int, Callable[[], object]] | None = None
    ) -> None:
        self.now = 0.0
        self.due = sorted((at or {}).items(), key=lambda item: item[0])
        self.requests: list[Any] = []
        self.times: list[float] = []
        self.printed: list[str] = []
        self.answers = answers
        facts: Any = {"files": {}, "dirs": {}, "writes": {}, "env": {}}
        first: Any = {"argv": ["w"], "env": {"now": "first"}, "facts": facts}
        self.code = follow(
            self.call,
            first,
            self.gather,
            clock=lambda: self.now,
            sleep=self.sleep,
            output=lambda answer: self.printed.append(answer["stdout"] + answer["stderr"]),
            env=lambda: {"now": f"fake {self.now:g}"},
        )
        self.events = [r["facts"].get("event") for r in self.requests]

    def call(self, request: Any) -> Any:
        self.requests.append(copy.deepcopy(request))
        self.times.append(self.now)
        return self.answers(request, len(self.requests) - 1)

    def gather(self, need: Any, facts: Any) -> None:
        facts["files"][need["path"]] = {"text": f"read at {self.now:g}"}

    def sleep(self, ms: float) -> None:
        assert 1 <= ms <= POLL_MS, f"a sleep of {ms} ms"
        assert self.now < 60_000, "the loop waited a fake minute: nothing was delivered"
        self.now += ms
        while self.due and self.due[0][0] <= self.now:
            self.due.pop(0)[1]()


def go_on(text: str, then: dict[str, Any]) -> dict[str, Any]:
    """An answer that prints ``text`` and goes on with ``then``."""
    return {"stdout": text, "stderr": "", "code": 0, "then": then}


def done(code: int = 0, text: str = "") -> dict[str, Any]:
    return {"stdout": text, "stderr": "", "code": code}


def test_a_file_written_under_a_watched_directory_is_one_event_and_the_state_comes_back(
    tmp_path: Path,
) -> None:
    d = tmp_path / "d"
    d.mkdir()

    def answers(request: Any, i: int) -> Any:
        then = {"watch": [str(d)], "names": ["a.json"], "state": {"n": 1}}
        return go_on("first\n", then) if i == 0 else done(3, "second\n")

    def files() -> None:
        write(d / "sub" / "a.json", "{}")
        write(d / "sub" / "other.txt", "not a name watched")

    r = Run(answers, {250: files})
    assert r.code == 3
    assert r.printed == ["first\n", "second\n"]
    assert len(r.requests) == 2
    assert r.requests[0]["facts"] == {"files": {}, "dirs": {}, "writes": {}, "env": {}}
    second = r.requests[1]
    assert second["argv"] == ["w"]
    assert second["facts"] == {
        "files": {},
        "dirs": {},
        "writes": {},
        "env": {},
        "event": {"path": f"{d}/sub/a.json"},
        "state": {"n": 1},
    }
    # Seen at the first look after the write, delivered at the next one (quiet for one look).
    assert 250 + POLL_MS < r.times[1] <= 250 + 2 * POLL_MS
    assert second["env"]["now"] == f"fake {r.times[1]:g}"


def test_a_burst_of_writes_within_the_quiet_window_is_one_event(tmp_path: Path) -> None:
    file = tmp_path / "f.json"
    write(file, "0")
    answers = [
        go_on("", {"watch": [str(file)]}),
        go_on("", {"watch": [str(file)], "timers": [{"name": "end", "after_ms": 1000}]}),
        done(),
    ]
    r = Run(
        lambda request, i: answers[i],
        {
            150: lambda: write(file, "11"),
            250: lambda: write(file, "222"),
            350: lambda: write(file, "3333"),
        },
    )
    assert r.events == [None, {"path": str(file)}, {"timer": "end"}]
    assert "state" not in r.requests[1]["facts"]
    assert r.times[1] > 350 + POLL_MS


def test_a_removed_file_is_an_event_one_per_call_in_byte_order(tmp_path: Path) -> None:
    file = tmp_path / "f.json"
    in_dir = tmp_path / "d" / "x.json"
    write(file, "{}")
    write(in_dir, "{}")
    watch = [str(file), str(tmp_path / "d")]

    def remove() -> None:
        file.unlink()
        in_dir.unlink()

    r = Run(
        lambda request, i: go_on(f"{i}\n", {"watch": watch, "state": i}) if i < 2 else done(1),
        {150: remove},
    )
    assert r.code == 1
    assert r.events == [None, {"path": str(in_dir)}, {"path": str(file)}]
    assert [q["facts"].get("state") for q in r.requests] == [None, 0, 1]


def test_a_due_timer_comes_first_then_the_changed_files_in_byte_order(tmp_path: Path) -> None:
    # UTF-16 puts U+1F600 (D83D DE00) before U+FF21; UTF-8 bytes put U+FF21 (EF BC A1) first.
    names = ["b", "a", "\U0001f600", "\uff21"]
    then = {"watch": [f"{tmp_path}/"]}
    timers = [{"name": "x", "after_ms": 300}, {"name": "y", "after_ms": 300}]

    def answers(request: Any, i: int) -> Any:
        if i == 0:
            return go_on("", {**then, "timers": timers})
        return go_on("", then) if i < 6 else done()

    def files() -> None:
        for name in names:
            write(tmp_path / name, name)

    r = Run(answers, {150: files})
    assert r.events == [
        None,
        {"timer": "x"},
        {"timer": "y"},
        {"path": f"{tmp_path}/a"},
        {"path": f"{tmp_path}/b"},
        {"path": f"{tmp_path}/\uff21"},
        {"path": f"{tmp_path}/\U0001f600"},
    ]
    assert r.times[1] == 300


def test_own_writes_come_back_and_a_file_that_appeared_meanwhile_is_still_seen(
    tmp_path: Path,
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    then = {"watch": [str(tmp_path)], "names": ["a.json", "b.json"]}

    def answers(request: Any, i: int) -> Any:
        if i == 1:
            write(a, "written by the command itself")
        return go_on("", then) if i < 3 else done()

    r = Run(answers, {150: lambda: write(a, "1"), 250: lambda: write(b, "1")})
    # a: quiet at 300 (delivered); b: first seen at 300, not yet quiet, so still a change after
    # the answer that watches the same directory; the command's own write to a comes first.
    assert r.events == [None, {"path": str(a)}, {"path": str(a)}, {"path": str(b)}]


def test_the_next_answers_watch_replaces_the_watched_paths(tmp_path: Path) -> None:
    f, g = tmp_path / "f.json", tmp_path / "g.json"
    write(f, "f")
    write(g, "g")
    answers = [go_on("", {"watch": [str(f)]}), go_on("", {"watch": [str(g)]}), done()]
    r = Run(
        lambda request, i: answers[i],
        {
            90: lambda: write(g, "g changed before it is watched"),
            150: lambda: write(f, "f2"),
            450: lambda: write(f, "f3"),
            650: lambda: write(g, "g2"),
        },
    )
    assert r.events == [None, {"path": str(f)}, {"path": str(g)}]
    assert r.times[2] > 650


def test_a_watched_directory_that_does_not_exist_yet_is_listed_once_it_does(
    tmp_path: Path,
) -> None:
    later = tmp_path / "later"
    answers = [go_on("", {"watch": [str(later)]}), done()]
    r = Run(lambda request, i: answers[i], {150: lambda: write(later / "sub" / "x.json", "{}")})
    assert r.events == [None, {"path": f"{later}/sub/x.json"}]


@pytest.mark.parametrize("then", [None, {}, {"watch": []}, {"state": 1, "timers": []}])
def test_nothing_to_wait_for_the_answers_code_at_once(then: Any) -> None:
    answer: dict[str, Any] = {"stdout": "out", "stderr": "err", "code": 4}
    if then is not None:
        answer["then"] = then
    r = Run(lambda request, i: answer)
    assert r.code == 4
    assert r.printed == ["outerr"]
    assert len(r.requests) == 1


def test_an_events_call_gathers_its_needs_anew_and_a_refused_request_ends_it(
    tmp_path: Path,
) -> None:
    file = tmp_path / "f.json"

    def answers(request: Any, i: int) -> Any:
        if i in (0, 2):
            return go_on("", {"watch": [str(file)]})
        if i == 1:
            return {"needs": [{"op": "read", "path": "x"}]}
        raise StatecoreError("no", code="E_TEST")

    r = Run(answers, {150: lambda: write(file, "1"), 450: lambda: write(file, "2")})
    assert r.requests[1]["facts"]["files"] == {}
    assert list(r.requests[2]["facts"]["files"]) == ["x"]
    assert r.requests[2]["facts"]["event"] == {"path": str(file)}
    assert r.code == 2
    assert r.printed[-1] == "statecore: E_TEST: no\n"


def test_a_timer_is_delivered_at_its_due_time_and_through_the_real_clock_and_sleep(
    tmp_path: Path,
) -> None:
    # When: on the fake clock (a file watched, so the loop looks every POLL_MS), exactly at the
    # delay, what the wall clock would only show loosely.
    then = {"watch": [str(tmp_path / "quiet.json")], "timers": [{"name": "t", "after_ms": 200}]}
    first = go_on("", {**then, "state": "s"})
    r = Run(lambda request, i: [first, done(5)][i])
    assert r.code == 5
    assert r.events == [None, {"timer": "t"}]
    assert r.requests[1]["facts"]["state"] == "s"
    assert r.times[1] == 200
    # The same timer through the host's own clock and sleep, nothing watched.
    answers = [go_on("", {"timers": [{"name": "t", "after_ms": 200}], "state": "s"}), done(5)]
    requests: list[Any] = []

    def call(request: Any) -> Any:
        requests.append(request)
        return answers[len(requests) - 1]

    request: Any = {"argv": [], "env": {}, "facts": {}}
    code = follow(call, request, lambda n, f: None, output=lambda answer: None)
    assert code == 5
    assert requests[1]["facts"]["event"] == {"timer": "t"}
    assert requests[1]["facts"]["state"] == "s"


def test_ctrl_c_while_statecore_watch_waits_exits_130_printing_nothing_more(
    tmp_path: Path,
) -> None:
    write(tmp_path / ".fctry" / "state.json", '{\n  "specVersion": "1.2"\n}\n')
    command = [sys.executable, "-m", "statecore", "watch", ".fctry/state.json"]
    env = {**os.environ, "TZ": "UTC"}
    pipe = subprocess.PIPE

    def default_sigint() -> None:
        # A runner started in the background of a shell ignores SIGINT, and so would the child.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=pipe, stderr=pipe, preexec_fn=default_sigint
    ) as proc:
        try:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], 10)
            assert ready, "nothing printed within 10 s"
            first = proc.stdout.readline()  # the first check, printed before it waits
            assert first == b".fctry/state.json: valid (fctry.state)\n"
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 130
    assert out == b""
    assert err == b""


def _offsets(tz: str, *nows: str) -> list[int]:
    script = "import json, sys; from statecore._cli.follow import utc_offset; "
    script += "print(json.dumps([utc_offset(n) for n in sys.argv[1:]]))"
    command = [sys.executable, "-c", script, *nows]
    done = subprocess.run(command, env={**os.environ, "TZ": tz}, capture_output=True, check=True)
    offsets: list[int] = json.loads(done.stdout)
    return offsets


def test_utc_offset_is_minutes_east_of_utc_at_now_in_the_processs_time_zone() -> None:
    nows = ["2026-01-19T12:00:00Z", "2026-07-19T12:00:00.123Z"]
    nows += ["2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z"]
    assert _offsets("America/New_York", *nows) == [-300, -240, -300, -240]
    # An offset in the time given; epoch milliseconds.
    nows = ["2026-03-08T02:30:00-05:00", "1784462400000"]
    assert _offsets("America/New_York", *nows) == [-240, -240]
    assert _offsets("Asia/Kolkata", "2026-01-19T12:00:00Z") == [330]
    # Not a time (or one that does not exist): the offset now.
    assert _offsets("UTC", "yesterday", "2026-13-01T00:00:00Z") == [0, 0]
    assert _offsets("Asia/Kolkata", "yesterday") == [330]


def test_a_write_fact_gives_the_updates_operation_result_back(tmp_path: Path) -> None:
    file = tmp_path / "workspace" / "state.json"
    file.parent.mkdir()
    fact = write_fact(
        {
            "op": "update",
            "path": str(file),
            "kind": "hivemind.state",
            "change": "hivemind_fire",
            "args": ["select_project", "2026-01-19T12:00:00Z", {"project": "/p"}],
            "timeout_ms": 5000,
        }
    )
    assert "error" not in fact
    assert fact["changed"] is True
    result: Any = fact.get("result")
    assert result["state"]["state"] == "project_selected"
    message = "[HIVEMIND] Project selected. Waiting for the task."
    assert result["notifications"] == [{"agent": "lead", "message": message}]
    assert "item" not in fact
