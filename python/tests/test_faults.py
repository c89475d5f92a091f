"""Fault injection through the host layer's seam (``statecore._host.sys.set_fault_injector``): every
system call of an update and an append fails in turn, with ENOSPC and with EIO. Each run must
leave the old or the new file (or, for a torn tail, the repaired one), no stray file, the lock
released (unless the fault hit the release itself), and raise the injected error or nothing.
``FAULT_MATRIX=<file>`` writes the matrix as JSON, in the shape of Node's
(npm/test/faults.test.mjs).
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from statecore import LockTimeoutError, append_line, update_document
from statecore._host import sys as _sys
from statecore._host.lock import acquire


@dataclass(frozen=True)
class Operation:
    """The files an operation starts from, what it does, and the file it changes."""

    files: dict[str, str]
    target: str
    run: Callable[[Path], object]
    copy: str | None = None
    """What a ``.corrupt-`` copy must hold (None: the operation makes none)."""
    repaired: str | None = None
    """A torn tail cut but the line not yet appended: the same log for every reader."""


def _update(directory: Path) -> object:
    return update_document(directory / "s.json", "json", {"b": 2})


def _append(directory: Path) -> object:
    return append_line(directory / "e.jsonl", {"c": 1})


OPERATIONS = {
    "update a document": Operation({"s.json": '{"a":1}'}, "s.json", _update),
    "update a corrupt document (copy, then write)": Operation(
        {"s.json": "{"}, "s.json", _update, copy="{"
    ),
    "append a log line": Operation({"e.jsonl": '{"a":1}\n'}, "e.jsonl", _append),
    "append repairing a torn tail (copy, cut, append)": Operation(
        {"e.jsonl": '{"a":1}\n{"b":'}, "e.jsonl", _append, copy='{"b":', repaired='{"a":1}\n'
    ),
}

FAULTS = {"ENOSPC": errno.ENOSPC, "EIO": errno.EIO}

RELEASE = ["stat", "open", "stat", "read", "read", "close", "unlink"]
"""The release of the lock, the last steps of every operation: read the lock file (it must
still hold our record: whether it exists, then open, fstat, read), unlink it."""

LOCK_TEMP = re.compile(r"\.lock\.[0-9a-f]{32}\.tmp$")

MATRIX: list[dict[str, Any]] = []


@pytest.fixture(scope="module", autouse=True)
def _write_matrix() -> Iterator[None]:
    """Writes the matrix to ``$FAULT_MATRIX`` once the module's tests have run."""
    yield
    target = os.environ.get("FAULT_MATRIX")
    if target:
        Path(target).write_text(json.dumps(MATRIX, indent=1))


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A fresh directory, removed after the test."""
    path = Path(tempfile.mkdtemp(prefix="statecore-faults-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _prepare(directory: Path, files: dict[str, str]) -> None:
    for entry in directory.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for name, text in files.items():
        (directory / name).write_text(text)


def _attempt(op: Operation, directory: Path, fn: _sys.Injector) -> BaseException | None:
    """Runs ``op`` with the injector ``fn``; its error or None."""
    _sys.set_fault_injector(fn)
    try:
        op.run(directory)
    except Exception as error:
        return error
    finally:
        _sys.set_fault_injector(None)
    return None


@dataclass
class _FailAt:
    """An injector failing exactly the ``k``-th system call with ``code``."""

    k: int
    code: int
    seen: int = 0
    raised: list[OSError] = field(default_factory=list)

    def __call__(self, step: str) -> None:
        self.seen += 1
        if self.seen - 1 == self.k:
            error = OSError(self.code, f"{os.strerror(self.code)}: injected at {step}")
            self.raised.append(error)
            raise error


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_every_failing_step_leaves_the_old_or_the_new_file(name: str, workdir: Path) -> None:
    op = OPERATIONS[name]
    _prepare(workdir, op.files)
    steps: list[str] = []
    assert _attempt(op, workdir, steps.append) is None
    assert steps[-len(RELEASE) :] == RELEASE, steps
    left = [(workdir / e).read_text() for e in os.listdir(workdir) if e != op.target]
    assert left == ([] if op.copy is None else [op.copy])  # the .corrupt- copy, if any
    after = (workdir / op.target).read_text()
    before = op.files[op.target]
    release_from = len(steps) - len(RELEASE)
    lock_temp_unlink = steps.index("link") + 1  # the lock temp's, right after its link()
    assert steps[lock_temp_unlink] == "unlink"
    for k, call in enumerate(steps):
        for fault, code in FAULTS.items():
            _prepare(workdir, op.files)
            injector = _FailAt(k, code)
            error = _attempt(op, workdir, injector)
            where = f"{name}, step {k} ({call}), {fault}"
            text = (workdir / op.target).read_text()
            state = {before: "old", after: "new"}.get(text)
            if state is None and text == op.repaired:
                state = "repaired"
            assert state is not None, f"{where}: the old or the new file, not {text!r}"
            extra = sorted(entry for entry in os.listdir(workdir) if entry != op.target)
            in_release = k >= release_from
            lock_temp = k == lock_temp_unlink
            for entry in extra:
                copy = entry.startswith(f"{op.target}.corrupt-")
                lock_left = entry == f"{op.target}.lock" and in_release
                temp_left = lock_temp and LOCK_TEMP.search(entry) is not None
                assert copy or lock_left or temp_left, f"{where}: stray {entry}"
                if copy:
                    whole = (workdir / entry).read_text()
                    assert whole == op.copy, f"{where}: a whole copy, not {whole!r}"
            if error is not None:
                assert injector.raised, f"{where}: {error!r} raised, nothing injected"
                assert error is injector.raised[0], f"{where}: the injected error, not {error!r}"
                assert isinstance(error, OSError)
                assert error.errno == code
                assert not in_release, f"{where}: a failed release raised"
            else:
                assert text == after, f"{where}: success means the new file"
            if in_release:
                assert f"{op.target}.lock" in extra, f"{where}: the lock is left, ours"
            MATRIX.append(
                {
                    "operation": name,
                    "sync": True,
                    "step": k,
                    "call": call,
                    "fault": fault,
                    "outcome": "ok" if error is None else "error",
                    "file": state,
                    "left": extra,
                }
            )


def test_a_failing_release_of_the_turn_claim_does_not_mask_the_timeout(workdir: Path) -> None:
    """A waiter that claimed the next turn (``<lock>.next``) and times out raises the timeout,
    even when every unlink fails (its claim, and the lock temps of its attempts, stay)."""
    lock_path = str(workdir / "s.json.lock")
    held = acquire(lock_path, 1.0)

    def no_unlink(step: str) -> None:
        if step == "unlink":
            raise OSError(errno.EIO, "injected at unlink")

    _sys.set_fault_injector(no_unlink)
    try:
        with pytest.raises(LockTimeoutError):
            acquire(lock_path, 0.1)
    finally:
        _sys.set_fault_injector(None)
    assert os.path.exists(lock_path + ".next")  # claimed: the release was tried
    assert held.release() is True
