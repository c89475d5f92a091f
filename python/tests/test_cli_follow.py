"""Tests of the command line's host for the commands that go on (``statecore._cli.run.drive``
and ``statecore._cli.follow``, docs/cli.md § Commands that go on: ``then``).

The real command line's job, driven with real files in temp directories and a fake clock (each
sleep advances it and runs the writes scheduled by then), so what is delivered and when is
deterministic. Which event comes next and when is the core's (tests/conformance/cli/wait.json,
job.json); these check that the host's looks, sleeps and new environments give the job what it
decides on. Also: the watched files' records, a refused request, Ctrl-C on the real
``statecore watch``, the offset from UTC in other time zones, and a write fact's ``result``. The
npm package's twin is npm/test/cli_follow.test.mjs.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from statecore import cli_job
from statecore._cli import run as cli
from statecore._cli.follow import look
from statecore._cli.locked_write import locked_write
from statecore._cli.run import drive
from statecore._generated.tables import CLI_POLL_MS as POLL_MS

VALID = '{\n  "specVersion": "1.2"\n}\n'


def write(file: Path, text: str) -> None:
    """Writes ``text`` to ``file``, making its directories."""
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(text.encode("utf-8"))


class Run:
    """The command line ``argv`` run as the core's job by ``drive`` on a fake clock: ``at`` maps
    times (ms) to what to do once the clock has passed them. Keeps what was printed (with the
    time; the last step's output last), the times a new environment was asked for, and the last
    step."""

    def __init__(self, argv: list[str], at: dict[int, Callable[[], object]] | None = None) -> None:
        self.now = 0.0
        self.due = sorted((at or {}).items(), key=lambda item: item[0])
        self.printed: list[tuple[float, str]] = []
        self.envs: list[float] = []
        request: Any = {"argv": argv, "env": self.env()}
        self.envs.clear()
        self.last = drive(lambda: cli_job("statecore", request), self)
        self.print(self.last)  # the last step's output, as the command prints it

    def gather(self, need: Any, facts: Any) -> None:
        cli.gather(need, facts)

    def partial(self, step: Mapping[str, Any]) -> None:
        if step.get("stdout") or step.get("stderr"):
            self.print(step)

    def print(self, step: Mapping[str, Any]) -> None:
        self.printed.append((self.now, step["stdout"] + step["stderr"]))

    def look(self, watch: Sequence[str], names: Sequence[str] | None) -> object:
        return look(watch, names)

    def sleep(self, ms: float) -> None:
        assert 1 <= ms <= POLL_MS, f"a sleep of {ms} ms"
        assert self.now < 60_000, "the loop waited a fake minute: nothing was delivered"
        self.now += ms
        while self.due and self.due[0][0] <= self.now:
            self.due.pop(0)[1]()

    def clock(self) -> float:
        return self.now

    def env(self) -> Any:
        self.envs.append(self.now)
        return {"now": "2026-01-01T00:00:00Z", "utc_offset": 0}


def test_a_file_written_under_a_watched_directory_is_one_change_delivered_after_a_quiet_look(
    tmp_path: Path,
) -> None:
    state = tmp_path / "d" / ".fctry" / "state.json"
    write(state, VALID)
    other = tmp_path / "d" / "notes.txt"
    r = Run(
        ["watch", str(tmp_path / "d"), "--count", "1"],
        {250: lambda: (write(state, '{"specVersion": 2}'), write(other, "not watched"))},
    )
    assert r.last["code"] == 1
    (t0, first), (t1, second) = r.printed[0], r.printed[1]
    assert (t0, first) == (0, f"{state}: valid (fctry.state)\n")
    assert "E_TYPE" in second
    assert second.endswith(f"00:00:00 {state}: invalid (fctry.state): 1 error\n")
    # Seen at the first look after the write, delivered at the next (quiet for one look).
    assert 250 + POLL_MS < t1 <= 250 + 2 * POLL_MS, f"delivered at {t1}"
    assert r.envs == [t1]
    assert len(r.printed) == 2


def test_a_burst_of_writes_within_the_quiet_window_is_one_change(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    write(state, VALID)
    bad = '{"specVersion": 3}'
    r = Run(
        ["watch", str(state), "--kind", "fctry.state", "--count", "2"],
        {
            150: lambda: write(state, bad),
            250: lambda: write(state, bad + " "),
            350: lambda: write(state, VALID),
            1000: lambda: write(state, bad),
        },
    )
    times = [t for t, _ in r.printed]
    assert len(times) == 3
    assert times[1] > 350 + POLL_MS, f"delivered at {times[1]}, during the burst"
    assert r.printed[1][1].endswith("valid (fctry.state)\n")
    assert r.last["code"] == 1


def test_a_removed_file_is_a_change_printed_as_removed(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    write(state, VALID)
    r = Run(["watch", str(state), "--kind", "fctry.state", "--count", "1"], {150: state.unlink})
    assert "removed" in r.printed[1][1]
    assert r.printed[1][0] > 150


def test_a_request_the_core_refuses_ends_with_code_2_and_its_message() -> None:
    def start() -> Any:
        return cli_job("statecore", {"argv": ["validate"], "facts": {"file": {}}})

    last = drive(start, Run.__new__(Run), "statecore")
    assert last["code"] == 2
    assert last["stderr"].startswith(
        'statecore: E_OPTIONS: unknown command line request option "file"'
    )


def test_the_watched_files_records(tmp_path: Path) -> None:
    d = tmp_path / "d"
    write(d / "sub" / "a.json", "{}")
    write(d / "sub" / "b.txt", "x")
    seen = look([str(d), str(tmp_path / "missing.json")], ["a.json"])
    assert set(seen) == {f"{d}/sub/a.json", str(tmp_path / "missing.json")}
    assert seen[str(tmp_path / "missing.json")] is None
    record = seen[f"{d}/sub/a.json"]
    assert record is not None
    info = os.stat(d / "sub" / "a.json")
    assert record == f"{info.st_mtime_ns}:{info.st_size}:{info.st_ino}"
    # Every file when no names are given; a directory that appears later is listed then.
    later = tmp_path / "later"
    assert look([str(later)], None) == {str(later): None}
    write(later / "x.bin", "1")
    assert list(look([str(later)], None)) == [f"{later}/x.bin"]


@pytest.mark.parametrize("argv", [["version"], ["kinds"]])
def test_a_command_that_does_not_go_on_is_one_done(argv: list[str]) -> None:
    r = Run(argv)
    assert r.last["code"] == 0
    assert len(r.printed) == 1
    assert r.printed[0][1]
    assert r.envs == []


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


class Writing(Run):
    """The command line ``argv`` run in ``cwd`` as the core's job by ``drive``, its locked
    update's steps performed by the host's performer (``statecore._cli.locked_write``)."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.system = locked_write()
        request: Any = {"argv": argv, "env": {"now": "2026-01-19T12:00:00Z", "cwd": str(cwd)}}
        self.last = drive(lambda: cli_job("statecore", request), self)


def test_the_jobs_locked_update_gives_the_operations_result_and_leaves_no_lock(
    tmp_path: Path,
) -> None:
    (tmp_path / "workspace").mkdir()
    last = Writing(["hivemind", "fire", "select_project", "--project", "/p"], tmp_path).last
    assert last["stderr"] == ""
    assert last["code"] == 0
    notice = "  notify lead: [HIVEMIND] Project selected. Waiting for the task.\n"
    assert last["stdout"] == "idle → project_selected (select_project)\n" + notice
    state = json.loads((tmp_path / "workspace" / "state.json").read_text(encoding="utf-8"))
    assert state["state"] == "project_selected"
    assert os.listdir(tmp_path / "workspace") == ["state.json"]


def test_the_jobs_locked_update_reports_a_fifo_as_e_file_type_and_releases_the_lock(
    tmp_path: Path,
) -> None:
    os.mkfifo(tmp_path / "a.json")
    last = Writing(["update", "a.json", "--kind", "json", "--set", "/n=1"], tmp_path).last
    assert last["code"] == 2
    assert last["stderr"].startswith("a.json: error E_FILE_TYPE: ")
    assert "a.json is a fifo, not a regular file" in last["stderr"]
    assert os.listdir(tmp_path) == ["a.json"]
