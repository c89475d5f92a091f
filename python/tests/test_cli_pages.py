"""Logs read in pages (docs/cli.md § Logs read in pages), through both commands as processes:
a log larger than the 16 MiB a host hands the core in one text, and the progress line shown
on a terminal (a pseudo-terminal here) and never on a pipe. The npm command is run with Node
from the package in this repository (npm/bin/statecore.cjs, built by ``make``)."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NPM_BIN = Path(__file__).resolve().parents[2] / "npm" / "bin" / "statecore.cjs"
#: The two commands: Python's module and the npm package's bin.
COMMANDS = {
    "python": [sys.executable, "-m", "statecore"],
    "node": ["node", str(NPM_BIN)],
}


def _command(name: str) -> list[str]:
    if name == "node" and shutil.which("node") is None:
        pytest.fail("node is not installed: the npm command cannot be run")
    return COMMANDS[name]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "STATECORE_PAGE_BYTES")}
    env.update(extra)
    return env


def _write_log(path: Path, count: int, pad: int) -> list[bytes]:
    lines = [b'{"n": %d, "text": "%s"}' % (n, b"x" * pad) for n in range(count)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return lines


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_log_larger_than_one_text_is_read_in_pages(name: str, tmp_path: Path) -> None:
    lines = _write_log(tmp_path / "big.jsonl", 90_000, 180)
    assert (tmp_path / "big.jsonl").stat().st_size > 16 * 1024 * 1024
    command = _command(name)
    checked = subprocess.run(
        [*command, "validate", "--kind", "json", "big.jsonl"],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        check=False,
    )
    assert (checked.returncode, checked.stderr) == (0, b"")
    assert checked.stdout == b"big.jsonl: valid (json log, 90000 records)\n"
    read = subprocess.run(
        [*command, "log", "read", "big.jsonl"],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        check=False,
    )
    assert (read.returncode, read.stderr) == (0, b"")
    # Compact JSON: the same records, one line each.
    assert (
        read.stdout
        == b"\n".join(line.replace(b", ", b",").replace(b": ", b":") for line in lines) + b"\n"
    )


def _run_on_a_terminal(
    command: list[str], cwd: Path, env: dict[str, str]
) -> tuple[int, bytes, bytes]:
    """Runs ``command`` with standard error on a pseudo-terminal and standard output on a pipe:
    its exit code, its output and what reached the terminal."""
    leader, follower = pty.openpty()
    try:
        with subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=follower,
            stdin=subprocess.DEVNULL,
        ) as process:
            os.close(follower)
            follower = -1
            seen = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the terminal closed: the process ended
                    break
                if not chunk:
                    break
                seen += chunk
            out = process.stdout.read() if process.stdout else b""
            code = process.wait(timeout=60)
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    return code, out, seen


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_progress_is_shown_on_a_terminal_and_taken_off(name: str, tmp_path: Path) -> None:
    lines = _write_log(tmp_path / "notes.jsonl", 40, 20)
    env = _env(STATECORE_PAGE_BYTES="256")
    code, out, seen = _run_on_a_terminal(
        [*_command(name), "log", "read", "notes.jsonl"], tmp_path, env
    )
    assert code == 0
    assert out.count(b"\n") == len(lines)
    assert b"\r\x1b[Kchecking notes.jsonl: " in seen
    assert b"\r\x1b[Kprinting notes.jsonl: " in seen
    assert b"% (0.0 of 0.0 MB)" in seen
    # Taken off at the end: the last thing written is the erasing of the line.
    assert seen.endswith(b"\r\x1b[K")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_progress_on_a_pipe(name: str, tmp_path: Path) -> None:
    _write_log(tmp_path / "notes.jsonl", 40, 20)
    done = subprocess.run(
        [*_command(name), "validate", "--kind", "json", "notes.jsonl"],
        cwd=tmp_path,
        env=_env(STATECORE_PAGE_BYTES="256"),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr == b""
    assert done.stdout == b"notes.jsonl: valid (json log, 40 records)\n"
