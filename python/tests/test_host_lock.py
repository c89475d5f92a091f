"""The lock protocol of docs/locking.md from Python: records, liveness, breaking, processes.

The cross-language tests start the Node lock holder (npm/test/helpers/lock_holder.cjs), which
needs the built npm package (scripts/build-wasm.sh).
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import LockTimeoutError, StatecoreError, update_document
from statecore._generated import lock as rules
from statecore._host.lock import GRACE_SECONDS, LEASE_SECONDS
from statecore.host import acquire_lock

REPO = Path(__file__).resolve().parents[2]
NODE_HOLDER = REPO / "npm" / "test" / "helpers" / "lock_holder.cjs"
PY_HOLDER = Path(__file__).resolve().parent / "helpers" / "lock_holder.py"
NODE = shutil.which("node") or "node"
FIELDS = ["pid", "start", "boot", "host", "token", "acquired_at"]


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A fresh directory, removed after the test."""
    path = Path(tempfile.mkdtemp(prefix="statecore-lock-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Child:
    """A child process whose stdout lines are read with a deadline."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.pid = self.proc.pid
        self._buffer = b""

    def read_json(self, key: str, timeout: float = 30.0) -> dict[str, Any]:
        """The first stdout line that is a JSON object with ``key`` (bounded wait)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            while time.monotonic() < deadline:
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    if line.startswith(b"{") and key in json.loads(line):
                        return dict(json.loads(line))
                if selector.select(timeout=0.05):
                    chunk = os.read(self.proc.stdout.fileno(), 65536)
                    if not chunk:
                        break
                    self._buffer += chunk
        stderr = (
            self.proc.stderr.read() if self.proc.poll() is not None and self.proc.stderr else b""
        )
        raise AssertionError(f"child {self.pid} printed no {key!r} line; stderr: {stderr!r}")

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)


@pytest.fixture
def spawn() -> Iterator[Any]:
    """Starts children; kills and reaps every one of them after the test."""
    children: list[Child] = []

    def start(args: list[str]) -> Child:
        child = Child(args)
        children.append(child)
        return child

    yield start
    for child in children:
        child.kill(signal.SIGCONT)
        child.kill(signal.SIGKILL)
        child.proc.communicate(timeout=30)


def start_holder(spawn: Any, lang: str, file: Path) -> tuple[Child, dict[str, Any]]:
    """A lock holder in ``lang`` for ``file``; returns it once it holds the lock."""
    script = [NODE, str(NODE_HOLDER)] if lang == "node" else [sys.executable, str(PY_HOLDER)]
    child: Child = spawn([*script, str(file)])
    return child, child.read_json("locked")


def start_of(pid: int) -> str:
    """Field 22 of /proc/<pid>/stat."""
    text = Path(f"/proc/{pid}/stat").read_text(encoding="latin-1")
    return text[text.rfind(")") + 2 :].split(" ")[19]


def state_of(pid: int) -> str:
    text = Path(f"/proc/{pid}/stat").read_text(encoding="latin-1")
    return text[text.rfind(")") + 2 :].split(" ")[0]


def boot_id() -> str:
    return Path("/proc/sys/kernel/random/boot_id").read_text().strip()


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def plant_lock(file: Path, **fields: Any) -> dict[str, Any]:
    """Writes ``<file>.lock`` holding a plausible record of this process, with ``fields``."""
    record = {
        "pid": os.getpid(),
        "start": start_of(os.getpid()),
        "boot": boot_id(),
        "host": socket.gethostname(),
        "token": "0123456789abcdef0123456789abcdef",
        "acquired_at": statecore.format_timestamp(int(time.time() * 1000)),
        **fields,
    }
    Path(f"{file}.lock").write_text(json.dumps(record))
    return record


def set_age(path: Path | str, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def lock_record(file: Path) -> dict[str, Any]:
    return dict(json.loads(Path(f"{file}.lock").read_text()))


def test_owner_record_is_complete_and_removed_on_release(workdir: Path) -> None:
    file = workdir / "state.json"
    lock = acquire_lock(file)
    text = Path(f"{file}.lock").read_text()
    record = json.loads(text)
    # The bytes Node writes: JSON.stringify(record) + "\n" (compact, same key order).
    assert text == json.dumps(lock.record, separators=(",", ":")) + "\n"
    assert list(record) == FIELDS
    assert record["pid"] == os.getpid()
    assert record["start"] == start_of(os.getpid())
    assert record["boot"] == boot_id()
    assert record["host"] == socket.gethostname()
    assert len(record["token"]) == 32
    assert os.listdir(workdir) == ["state.json.lock"]
    assert lock.release() is True
    assert lock.release() is False
    assert os.listdir(workdir) == []
    with acquire_lock(file, 0.1):
        assert os.path.exists(f"{file}.lock")
    assert not os.path.exists(f"{file}.lock")


def test_live_holder_is_waited_for_then_timeout_names_it(workdir: Path) -> None:
    file = workdir / "state.json"
    with acquire_lock(file) as lock:
        before = Path(f"{file}.lock").read_bytes()
        with pytest.raises(LockTimeoutError) as info:
            acquire_lock(file, 0.05)
        error = info.value
        assert isinstance(error, StatecoreError)
        assert isinstance(error, TimeoutError)
        assert error.code == "E_LOCK_TIMEOUT"
        assert error.details["owner"] == lock.record
        assert error.details["path"] == f"{file}.lock"
        assert f"pid {os.getpid()}" in error.message
        assert f"delete {file}.lock" in error.message
        with pytest.raises(LockTimeoutError):
            update_document(file, "json", {"a": 1}, timeout=0.03)
        assert Path(f"{file}.lock").read_bytes() == before
        assert not file.exists()


def test_release_never_removes_someone_elses_lock(workdir: Path) -> None:
    file = workdir / "state.json"
    first = acquire_lock(file)
    os.unlink(f"{file}.lock")  # an operator deleted it, and another process took it
    second = acquire_lock(file, 0.1)
    assert first.release() is False
    assert lock_record(file)["token"] == second.record["token"]
    assert second.release() is True
    assert not os.path.exists(f"{file}.lock")


def test_lock_of_dead_pid_is_taken_over(workdir: Path) -> None:
    file = workdir / "state.json"
    plant_lock(file, pid=dead_pid(), start="1")
    with acquire_lock(file, 2.0) as lock:
        assert lock_record(file)["token"] == lock.record["token"]


def test_pid_reuse_and_other_boot_are_dead_own_start_is_alive(workdir: Path) -> None:
    file = workdir / "state.json"
    plant_lock(file)
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0.03)  # our pid and start: alive
    plant_lock(file, start="1")
    acquire_lock(file, 1.0).release()
    plant_lock(file, boot="00000000-0000-0000-0000-000000000000")
    acquire_lock(file, 1.0).release()


def test_other_hosts_lock_is_broken_only_after_the_lease(workdir: Path) -> None:
    file = workdir / "state.json"
    plant_lock(file, host="elsewhere.example", pid=1)
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0.03)
    ms = int((time.time() - LEASE_SECONDS - 1) * 1000)
    stale = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + ".000Z"
    plant_lock(file, host="elsewhere.example", pid=1, acquired_at=stale)
    acquire_lock(file, 1.0).release()


# Malformed statecore records (a damaged record, empty, zeros): another tool's file at the lock
# path is E_LOCK_FOREIGN instead (test_hardening.py).
@pytest.mark.parametrize(
    "content", ["", "\0\0\0", '{"pid":garb', '{"pid": 1}', '{"pid":1,"token":"../../x"}']
)
def test_malformed_record_is_broken_only_after_grace(workdir: Path, content: str) -> None:
    file = workdir / "state.json"
    lock_path = Path(f"{file}.lock")
    lock_path.write_text(content)
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0.03)
    assert lock_path.read_text() == content
    set_age(lock_path, GRACE_SECONDS + 1)
    with acquire_lock(file, 1.0) as lock:
        assert lock_record(file)["token"] == lock.record["token"]


def test_live_breaker_respected_dead_breaker_broken_one_level_up(workdir: Path) -> None:
    file = workdir / "state.json"
    dead = dead_pid()
    record = plant_lock(file, pid=dead)
    marker = Path(f"{file}.lock.break-{record['token']}")
    marker_record = {**record, "pid": os.getpid(), "token": "fedcba9876543210fedcba9876543210"}
    marker.write_text(json.dumps(marker_record))
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0.03)  # the breaker (us, per the marker) is alive
    assert lock_record(file)["token"] == record["token"]
    marker.write_text(json.dumps({**marker_record, "pid": dead}))
    with acquire_lock(file, 1.0):
        assert os.listdir(workdir) == ["state.json.lock"]


def test_update_clears_dead_markers_and_lock_temp_files(workdir: Path) -> None:
    file = workdir / "state.json"
    record = {**plant_lock(file, pid=dead_pid()), "token": "1" * 32}
    os.unlink(f"{file}.lock")
    Path(f"{file}.lock.break-{'2' * 32}").write_text(json.dumps(record))
    old_tmp = Path(f"{file}.lock.{'3' * 32}.tmp")  # malformed, past the grace period
    old_tmp.write_text('{"pid":')
    set_age(old_tmp, GRACE_SECONDS + 1)
    Path(f"{file}.lock.{'4' * 32}.tmp").write_text(json.dumps({**record, "token": "4" * 32}))
    live_tmp = Path(f"{file}.lock.{'5' * 32}.tmp")  # a live owner's: kept
    live_tmp.write_text(json.dumps({**record, "pid": os.getpid(), "token": "5" * 32}))
    update_document(file, "json", {"a": 1})
    assert sorted(os.listdir(workdir)) == ["state.json", live_tmp.name]


def test_zombie_holder_is_dead(workdir: Path, spawn: Any) -> None:
    file = workdir / "state.json"
    holder, hello = start_holder(spawn, "python", file)
    holder.kill()
    for _ in range(2000):  # bounded: until the kernel has made it a zombie
        if state_of(holder.pid) == "Z":
            break
        time.sleep(0.001)
    assert state_of(holder.pid) == "Z"  # not reaped: kill(pid, 0) still succeeds
    with acquire_lock(file, 5.0) as lock:
        assert lock.record["token"] != hello["record"]["token"]


@pytest.mark.parametrize("lang", ["node", "python"])
def test_killed_holder_lock_is_taken_over(workdir: Path, spawn: Any, lang: str) -> None:
    file = workdir / "state.json"
    holder, hello = start_holder(spawn, lang, file)
    assert lock_record(file) == hello["record"]
    holder.kill()
    holder.proc.wait(timeout=30)
    result = update_document(file, "json", {"after": lang}, timeout=5.0)
    assert result["document"] == {"after": lang}
    assert sorted(os.listdir(workdir)) == ["state.json"]


def test_cross_language_node_record_is_byte_compatible(workdir: Path, spawn: Any) -> None:
    file = workdir / "state.json"
    holder, hello = start_holder(spawn, "node", file)
    record = hello["record"]
    # Node wrote exactly the bytes Python writes for the same record.
    expected = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
    assert Path(f"{file}.lock").read_text() == expected
    assert list(record) == FIELDS
    assert record["pid"] == holder.pid
    assert record["start"] == start_of(holder.pid)
    assert record["boot"] == boot_id()
    assert record["host"] == socket.gethostname()
    with pytest.raises(LockTimeoutError) as info:
        acquire_lock(file, 0.05)  # judged alive
    assert info.value.details["owner"] == record
    holder.send("release\n")
    assert holder.read_json("released") == {"released": True}
    acquire_lock(file, 1.0).release()


def test_cross_language_malformed_lock_has_one_break_marker(workdir: Path) -> None:
    """Node derives the same marker name for a malformed lock, so it respects ours."""
    file = workdir / "state.json"
    lock_path = Path(f"{file}.lock")
    lock_path.write_text('{"pid":garbage')  # a damaged record (not another tool's file)
    set_age(lock_path, GRACE_SECONDS + 1)
    st = lock_path.stat()
    owner_id = rules.owner(lock_path.read_bytes(), f"{st.st_ino}:{st.st_mtime_ns}")["id"]
    assert owner_id.startswith("m")
    marker = Path(f"{file}.lock.break-{owner_id}")  # a live breaker: this process
    marker.write_text(json.dumps({**plant_lock(workdir / "unused"), "token": "6" * 32}))
    script = (
        "const h = require(process.argv[1]);"
        "try { h.acquireLockSync(process.argv[2], 100).release(); console.log('acquired'); }"
        "catch (e) { console.log(e.code); }"
    )
    args = [NODE, "-e", script, str(REPO / "npm" / "lib" / "host" / "host.cjs"), str(file)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "E_LOCK_TIMEOUT", out.stderr
    assert lock_path.read_text() == '{"pid":garbage'
    marker.unlink()
    acquire_lock(file, 1.0).release()


def test_sigstop_holder_is_never_robbed(workdir: Path, spawn: Any) -> None:
    file = workdir / "state.json"
    update_document(file, "json", {"n": 1})
    holder, _ = start_holder(spawn, "node", file)
    lock_bytes = Path(f"{file}.lock").read_bytes()
    file_bytes = file.read_bytes()
    holder.kill(signal.SIGSTOP)
    try:
        with pytest.raises(LockTimeoutError):
            update_document(file, "json", {"n": 2}, timeout=1.0)
        assert Path(f"{file}.lock").read_bytes() == lock_bytes
        assert file.read_bytes() == file_bytes
    finally:
        holder.kill(signal.SIGCONT)
    holder.send("release\n")
    assert holder.read_json("released") == {"released": True}
    assert update_document(file, "json", {"n": 2}, timeout=5.0)["document"] == {"n": 2}


def test_stale_lock_with_many_contenders_gives_one_holder_at_a_time(workdir: Path) -> None:
    """Six processes find one dead owner's lock at once; all 60 increments survive."""
    file = workdir / "state.json"
    plant_lock(file, pid=dead_pid())
    writer = Path(__file__).resolve().parent / "helpers" / "writer.py"
    procs = [
        subprocess.Popen(
            [sys.executable, str(writer), str(file), "10"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(6)
    ]
    try:
        for proc in procs:
            _, stderr = proc.communicate(timeout=60)
            assert proc.returncode == 0, stderr
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert json.loads(file.read_text())["counter"] == 60
    assert os.listdir(workdir) == ["state.json"]
