"""The command-line corpus (tests/cli/*.json) run against ``python -m statecore`` as a process.

The same output, byte for byte, as the npm package's command (npm/test/cli.test.mjs) and the
core (cli/tests/cli.rs). Every case runs with TZ=UTC (``env.utc_offset`` 0). A case with
``changes`` (a command that goes on, tests/README.md) runs asynchronously: its steps' files are
written as the command prints, each wait at most 10 s.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from statecore.host import acquire_lock

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "cli"
#: How long the runner waits for a command that goes on to print or to exit, in seconds.
STEP_S = 10.0
# How long the output must stay the same before a step (the hosts look every 100 ms).
QUIET_S = 0.3


def _cases() -> list[Any]:
    out = []
    for file in sorted(CORPUS.glob("*.json")):
        for case in json.loads(file.read_text(encoding="utf-8"))["cases"]:
            out.append(pytest.param(case, id=f"{file.name}: {case['name']}"))
    return out


def check(expect: dict[str, Any], root: Path, stdout: str, stderr: str, code: int) -> None:
    """Checks one case's expectation against what the process gave (``stdout``, ``stderr``
    exact; ``stdout_has``, ``stderr_has`` contained; ``files``: the files' texts afterwards,
    None for none)."""
    assert code == expect["code"], stdout + stderr
    if isinstance(expect.get("stdout"), str):
        assert stdout == expect["stdout"]
    if isinstance(expect.get("stderr"), str):
        assert stderr == expect["stderr"]
    for part in expect.get("stdout_has", []):
        assert part in stdout, stdout
    for part in expect.get("stderr_has", []):
        assert part in stderr, stderr
    for name, text in expect.get("files", {}).items():
        file = root / name
        got = file.read_bytes().decode("utf-8") if file.exists() else None
        assert got == text, f"the file {name} afterwards"


def fake_tmux(bin_dir: Path, sessions: list[str]) -> Path:
    """A directory holding a ``tmux`` that lists ``sessions`` (none: it fails as tmux without a
    server does), for the commands that ask tmux."""
    bin_dir.mkdir(exist_ok=True)
    quoted = " ".join(shlex.quote(s) for s in sessions)
    body = f"printf '%s\\n' {quoted}" if sessions else 'echo "no server running" >&2; exit 1'
    script = bin_dir / "tmux"
    script.write_text(f'#!/bin/sh\n[ "$1" = list-sessions ] || exit 1\n{body}\n', encoding="utf-8")
    script.chmod(0o755)
    return bin_dir


def write_step(root: Path, files: dict[str, str | None]) -> None:
    """Writes a step's files (relative to ``root``; None removes one), making directories, as
    the tools that write them do: a text that extends the file's is appended in place (a log),
    any other is written to a temp file renamed over it, so the command never sees the file
    half written (tests/README.md)."""
    for name, text in files.items():
        target = root / name
        if text is None:
            target.unlink(missing_ok=True)
            continue
        data = text.encode("utf-8")
        target.parent.mkdir(parents=True, exist_ok=True)
        old = target.read_bytes() if target.is_file() else None
        if old and data.startswith(old):
            with target.open("ab") as log:
                log.write(data[len(old) :])
        else:
            tmp = target.with_name(f".{target.name}.step-tmp")
            tmp.write_bytes(data)
            tmp.replace(target)


def run_changes(
    argv: list[str], root: Path, env: dict[str, str], stdin: bytes, changes: list[Any]
) -> tuple[bytes, bytes, int]:
    """Runs a command that goes on: waits for its first output, then for each of ``changes``
    writes the step's files and waits for more output, then waits for its exit; each wait at
    most STEP_S, after which the process is killed and the case fails with what it printed."""
    out = {"stdout": bytearray(), "stderr": bytearray()}
    command = [sys.executable, "-m", "statecore", *argv]
    pipe = subprocess.PIPE
    with subprocess.Popen(command, cwd=root, env=env, stdin=pipe, stdout=pipe, stderr=pipe) as proc:

        def drain(name: str) -> None:
            stream = getattr(proc, name)
            while chunk := stream.read1(65536):
                out[name] += chunk

        readers = [threading.Thread(target=drain, args=(name,), daemon=True) for name in out]
        for reader in readers:
            reader.start()
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(stdin)
            proc.stdin.close()

        def until(what: str, before: int | None) -> None:
            """Waits for more than ``before`` bytes of output or the exit (None: the exit)."""
            deadline = time.monotonic() + STEP_S
            while proc.poll() is None and (
                before is None or len(out["stdout"]) + len(out["stderr"]) <= before
            ):
                if time.monotonic() > deadline:
                    proc.kill()
                    so_far = (out["stdout"] + out["stderr"]).decode("utf-8", "replace")
                    pytest.fail(f"no {what} within {STEP_S} s; so far:\n{so_far}")
                time.sleep(0.02)

        def settled() -> None:
            """Waits for QUIET_S without more output: an answer's standard output and error
            arrive as two writes, and a step must never follow half of an answer."""
            seen = -1
            while proc.poll() is None and seen != len(out["stdout"]) + len(out["stderr"]):
                seen = len(out["stdout"]) + len(out["stderr"])
                time.sleep(QUIET_S)

        try:
            until("first output", 0)
            settled()
            for index, step in enumerate(changes, 1):
                before = len(out["stdout"]) + len(out["stderr"])
                write_step(root, step.get("files", {}))
                until(f"output after step {index}", before)
                settled()
            until("exit", None)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for reader in readers:
                reader.join(STEP_S)
    return bytes(out["stdout"]), bytes(out["stderr"]), proc.returncode


@pytest.mark.parametrize("case", _cases())
def test_cli_case(case: dict[str, Any], tmp_path: Path) -> None:
    for name, text in case.get("files", {}).items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    for name, when in case.get("mtimes", {}).items():
        stamp = datetime.datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()
        os.utime(tmp_path / name, (stamp, stamp))
    unset = ("NO_COLOR", "STATECORE_NOW", "AGENCY_DATA_DIR", "XDG_DATA_HOME")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env["TZ"] = "UTC"
    env.update(case.get("env", {}))
    bin_dir = tmp_path.parent / f"{tmp_path.name}-bin"
    env["PATH"] = f"{fake_tmux(bin_dir, case.get('tmux', []))}{os.pathsep}{env['PATH']}"
    with contextlib.ExitStack() as held:
        # The locks of ``locked`` are held by this process while the command runs.
        for name in case.get("locked", []):
            held.enter_context(acquire_lock(tmp_path / name))
        stdin = case.get("stdin", "").encode("utf-8")
        if "changes" in case:
            out, err, code = run_changes(case["argv"], tmp_path, env, stdin, case["changes"])
        else:
            run = subprocess.run(
                [sys.executable, "-m", "statecore", *case["argv"]],
                cwd=tmp_path,
                env=env,
                input=stdin,
                capture_output=True,
                check=False,
            )
            out, err, code = run.stdout, run.stderr, run.returncode
    check(case["expect"], tmp_path, out.decode("utf-8"), err.decode("utf-8"), code)


def test_the_console_script_is_the_same_program(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "statecore"
    run = subprocess.run([str(script), "--version"], capture_output=True, check=False)
    module = subprocess.run(
        [sys.executable, "-m", "statecore", "--version"], capture_output=True, check=False
    )
    assert run.returncode == 0
    assert run.stdout == module.stdout
    assert run.stdout.startswith(b"statecore ")


def test_twelve_updates_run_at_once_lose_none_and_leave_nothing_beside_the_file(
    tmp_path: Path,
) -> None:
    """Each update runs under the lock its job takes (docs/cli.md § The locked update)."""
    command = [sys.executable, "-m", "statecore", "update", "c.json", "--kind", "json"]
    runs = [
        subprocess.Popen(
            [*command, "--merge", json.dumps({f"k{i}": i})],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for i in range(12)
    ]
    for run in runs:
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == 0, stderr
    written = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert sorted(written) == sorted(f"k{i}" for i in range(12))
    assert os.listdir(tmp_path) == ["c.json"]


def test_a_large_integer_is_written_exactly(tmp_path: Path) -> None:
    # Both commands write it exactly: the change is applied inside the core (Node's too,
    # npm/test/cli.test.mjs).
    argv = ["update", "a.json", "--kind", "json", "--set", "/n=12345678901234567890"]
    run = subprocess.run(
        [sys.executable, "-m", "statecore", *argv], cwd=tmp_path, capture_output=True, check=False
    )
    assert run.returncode == 0, run.stderr
    written = (tmp_path / "a.json").read_text(encoding="utf-8")
    assert written == '{\n  "n": 12345678901234567890\n}\n'


def test_view_points_to_the_npm_package(tmp_path: Path) -> None:
    """The viewer's server is the npm package's: the same arguments are checked, then the
    Python command says how to run it (exit 2, nothing served)."""
    done = subprocess.run(
        [sys.executable, "-m", "statecore", "view", ".", "--port", "0"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (
        "statecore: the viewer's server comes with the npm package (Node): "
        "run `npx -p statecore-js statecore view .` (same options)\n"
    )


def _with_open_stdin(argv: list[str], cwd: Path, data: bytes) -> tuple[int | str, str]:
    """Runs ``statecore *argv`` in ``cwd`` with a standard input that stays open, as ``sleep
    60 |`` gives (``data`` written first, the pipe kept open): its exit code and output, or
    "still running after 20 s"."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "statecore", *argv],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    try:
        if data:
            proc.stdin.write(data)
            proc.stdin.flush()
        try:  # not communicate(): it would close standard input
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return "still running after 20 s", ""
        assert proc.stdout is not None
        return proc.returncode, proc.stdout.read().decode()
    finally:
        proc.stdin.close()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_fctry_status_with_a_standard_input_that_never_closes_returns(tmp_path: Path) -> None:
    """``sleep 60 | statecore fctry status`` returns (docs/cli.md § Standard input), and a
    session JSON written to a pipe that stays open is still read."""
    project = tmp_path / "proj"
    (project / ".fctry").mkdir(parents=True)
    (project / ".fctry" / "state.json").write_text('{"workflowStep": "interviewer"}\n')
    code, out = _with_open_stdin(["fctry", "status"], project, b"")
    assert code == 0
    assert "proj" in out
    session = json.dumps({"workspace": {"current_dir": str(project)}}).encode()
    code, out = _with_open_stdin(["fctry", "status"], tmp_path, session)
    assert code == 0
    assert "proj" in out, "the session written to the open pipe was read"


def test_documents_up_to_the_librarys_32_mib_are_taken_and_the_limit_named(
    tmp_path: Path,
) -> None:
    """The command line's limits are the library's (docs/cli.md § How it runs)."""
    mib = 1024 * 1024
    (tmp_path / "big.json").write_text(json.dumps({"a": "x" * (10 * mib), "b": "y" * (10 * mib)}))
    (tmp_path / "long.json").write_text(json.dumps({"a": "x" * (17 * mib)}))
    huge = {"a": "x" * (15 * mib), "b": "y" * (15 * mib), "c": "z" * (3 * mib)}
    (tmp_path / "huge.json").write_text(json.dumps(huge))

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "statecore", *argv]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)

    assert run("validate", "--kind", "json", "big.json").returncode == 0
    shown = run("show", "--kind", "json", "big.json")
    assert shown.returncode == 0, shown.stderr
    assert len(json.loads(shown.stdout)["b"]) == 10 * mib
    updated = run("update", "--kind", "json", "big.json", "--merge", '{"c": 1}')
    assert updated.returncode == 0, updated.stderr
    assert json.loads((tmp_path / "big.json").read_text())["c"] == 1
    long = run("validate", "--kind", "json", "long.json")
    assert long.returncode != 0
    assert "16777216" in long.stdout + long.stderr  # a document's string limit
    refused = run("validate", "--kind", "json", "huge.json")
    assert refused.returncode != 0
    assert "33554432" in refused.stdout + refused.stderr  # the document limit
    assert "huge.json" in refused.stdout + refused.stderr
    assert "16777216" not in refused.stdout + refused.stderr
