"""The lock's hand-over (docs/locking.md § Fairness): a releaser renames the claim of the next
turn over the lock, so the claimant holds it without the lock ever being free; only a fresh
claim of a live process is handed the lock, and a lock handed to a process that died is broken
like any dead owner's (a hand-over never wedges anyone)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import statecore
from statecore._host.sys import set_fault_injector
from statecore.errors import LockTimeoutError
from statecore.host import Lock, acquire_lock, read_document, update_document


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A fresh directory, removed after the test."""
    path = Path(tempfile.mkdtemp(prefix="statecore-handover-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A live process that is no statecore waiter (it never looks at a lock)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"up\n"
    yield proc
    proc.kill()
    proc.wait()
    proc.stdout.close()


def identity_of(pid: int) -> dict[str, object]:
    """The ``{pid, start, boot, host}`` of process ``pid`` on this machine."""
    with open(f"/proc/{pid}/stat", encoding="latin-1") as f:
        stat = statecore.lock.proc_stat(f.read())
    with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
        boot = f.read().strip()
    start = stat["start"] if stat else None
    return {"pid": pid, "start": start, "boot": boot, "host": socket.gethostname()}


def claim_of(pid: int) -> str:
    """The bytes of a claim record of process ``pid``, as its waiter would write them."""
    return statecore.lock.record(identity_of(pid), os.urandom(16))["text"]  # type: ignore[arg-type]


def plant(nxt: Path, text: str) -> None:
    """Writes the claim ``text``, old enough to be honoured (and fresh)."""
    nxt.write_text(text)
    then = time.time() - 0.1
    os.utime(nxt, (then, then))


def ripe_claim(nxt: Path) -> str:
    """Waits until a waiter's claim exists, then makes it old enough to be honoured (as
    ``plant`` does); its bytes."""
    for _ in range(4000):
        try:
            text = nxt.read_text()
        except FileNotFoundError:
            time.sleep(0.005)
            continue
        then = time.time() - 0.1
        os.utime(nxt, (then, then))
        return text
    raise AssertionError("no claim")


def test_releasing_with_a_fresh_claim_renames_it_over_the_lock(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    file = workdir / "state.json"
    held = acquire_lock(file, 0)
    claim = claim_of(sleeper.pid)
    plant(Path(f"{file}.lock.next"), claim)
    assert held.release() is True
    assert os.listdir(workdir) == ["state.json.lock"]  # the claim became the lock
    assert Path(f"{file}.lock").read_text() == claim  # held by the claimant, never free
    assert held.release() is False
    # The claimant dies holding the lock it was handed: the next acquirer breaks it.
    sleeper.kill()
    sleeper.wait()
    update_document(file, "json", {"after": True}, timeout=30.0)
    assert read_document(file, "json")["document"] == {"after": True}
    assert os.listdir(workdir) == ["state.json"]


def test_never_handed_to_a_young_stale_dead_malformed_or_foreign_claim(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")

    def young() -> list[str]:
        nxt.write_text(claim_of(sleeper.pid))  # not honoured yet: the holder keeps going
        return ["state.json.lock.next"]

    def stale() -> list[str]:
        nxt.write_text(claim_of(sleeper.pid))
        then = time.time() - 3
        os.utime(nxt, (then, then))
        return ["state.json.lock.next"]  # ignored, left

    def dead() -> list[str]:
        proc = subprocess.Popen([sys.executable, "-c", "pass"])
        proc.wait()
        record = {**identity_of(os.getpid()), "pid": proc.pid}
        plant(nxt, statecore.lock.record(record, os.urandom(16))["text"])  # type: ignore[arg-type]
        return []  # broken

    def young_dead() -> list[str]:
        # Too young to be honoured: judged from its mtime alone, so not read and not broken
        # yet (the "dead" case below is broken once it is ripe).
        proc = subprocess.Popen([sys.executable, "-c", "pass"])
        proc.wait()
        record = {**identity_of(os.getpid()), "pid": proc.pid}
        nxt.write_text(statecore.lock.record(record, os.urandom(16))["text"])  # type: ignore[arg-type]
        return ["state.json.lock.next"]

    def malformed() -> list[str]:
        plant(nxt, '{"pid": 12')
        return ["state.json.lock.next"]  # within its grace period: waited for, never moved

    def foreign() -> list[str]:
        plant(nxt, "not ours")
        return ["state.json.lock.next"]

    for case in (young, stale, dead, young_dead, malformed, foreign):
        held = acquire_lock(file, 0)
        want = case()
        text = nxt.read_text() if nxt.exists() else None
        assert held.release() is True, case.__name__
        assert sorted(os.listdir(workdir)) == want, case.__name__
        if want:
            assert nxt.read_text() == text, case.__name__
        nxt.unlink(missing_ok=True)


def test_a_waiting_process_is_handed_the_lock(workdir: Path) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    script = (
        "import json, sys\n"
        "from statecore.host import acquire_lock\n"
        "lock = acquire_lock(sys.argv[1], 60.0)\n"
        "print(json.dumps(lock.record, separators=(',', ':')), flush=True)\n"
        "sys.stdin.readline()\n"
        "sys.exit(0 if lock.release() else 3)\n"
    )
    held = acquire_lock(file)
    waiter = subprocess.Popen(
        [sys.executable, "-c", script, str(file)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert waiter.stdin is not None
    assert waiter.stdout is not None
    try:
        claim = ripe_claim(nxt)
        assert json.loads(claim)["pid"] == waiter.pid  # the waiter claimed the next turn
        assert held.release() is True
        assert Path(f"{file}.lock").read_text() == claim  # the lock holds its claim record
        assert waiter.stdout.readline() == claim  # the waiter holds the lock it was handed
        waiter.stdin.write("go\n")
        waiter.stdin.close()
        assert waiter.wait(timeout=60) == 0  # and releases it
    finally:
        if waiter.poll() is None:
            waiter.kill()
            waiter.wait()
        waiter.stdout.close()
    assert os.listdir(workdir) == []


def test_a_thread_is_handed_the_lock_and_a_timed_out_waiter_never_keeps_one(
    workdir: Path,
) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    held = acquire_lock(file)
    got: list[statecore.host.Lock] = []
    waiter = threading.Thread(target=lambda: got.append(acquire_lock(file, 60.0)))
    waiter.start()
    claim = ripe_claim(nxt)
    assert held.release() is True
    waiter.join(timeout=60)
    assert got
    assert json.dumps(got[0].record, separators=(",", ":")) + "\n" == claim
    # A waiter that times out leaves neither its claim nor a lock behind.
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0.05)
    assert os.listdir(workdir) == ["state.json.lock"]
    assert got[0].release() is True
    assert os.listdir(workdir) == []


def test_a_first_attempt_passes_a_young_claim_and_leaves_the_lock_to_a_ripe_ones_claimant(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    # The first attempt's plan goes on past a claim file too young to be honoured (its
    # ``age_under_ms``); a ripe one stops it, and the job lets the claimant go first.
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    claim = claim_of(sleeper.pid)
    nxt.write_text(claim)  # young
    lock = acquire_lock(file, 0)
    assert sorted(os.listdir(workdir)) == ["state.json.lock", "state.json.lock.next"]
    assert lock.release() is True  # a young claim is not handed the lock
    assert sorted(os.listdir(workdir)) == ["state.json.lock.next"]
    plant(nxt, claim)  # ripe
    with pytest.raises(LockTimeoutError):
        acquire_lock(file, 0)
    assert sorted(os.listdir(workdir)) == ["state.json.lock.next"]  # left to the claimant
    assert nxt.read_text() == claim


def test_a_waiter_leaves_the_free_lock_to_a_young_claims_claimant(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    plant(nxt, claim_of(sleeper.pid))  # a live waiter's claim, ripe: everyone lets it go first
    got: list[Lock] = []
    waiter = threading.Thread(target=lambda: got.append(acquire_lock(file, 60)))
    looks = threading.Semaphore(0)

    def probe(step: str) -> None:
        # An attempt makes at most five: the claim file's (whether it exists, its stat), the
        # lock's (whether it exists), the claim's read (whether it exists, its descriptor's).
        if step == "stat" and threading.current_thread() is waiter:
            looks.release()

    set_fault_injector(probe)
    try:
        waiter.start()
        assert all(looks.acquire(timeout=30) for _ in range(6))  # it has waited
        # Keep the claim young for a while: the free lock is left to its claimant (before, a
        # waiter took it at its next poll while the claim was young).
        for _ in range(60):
            os.utime(nxt)
            time.sleep(0.005)
        assert got == []
        assert sorted(os.listdir(workdir)) == ["state.json.lock.next"]
        nxt.unlink()  # the claimant is done: the waiter's next poll takes the lock
        waiter.join(30)
    finally:
        set_fault_injector(None)
    assert len(got) == 1
    assert sorted(os.listdir(workdir)) == ["state.json.lock"]
    assert got[0].release() is True


def replace_claim(nxt: Path, text: str) -> None:
    """Puts the claim ``text`` at ``nxt`` as a waiter does (a new file renamed there), ripe."""
    tmp = Path(f"{nxt}.{os.urandom(16).hex()}.tmp")
    tmp.write_text(text)
    then = time.time() - 0.1
    os.utime(tmp, (then, then))
    os.replace(tmp, nxt)


def claim_such(nxt: Path, wanted: Callable[[str], bool]) -> str:
    """Waits (up to 20 s) until ``nxt`` holds a claim for which ``wanted(text)`` is true."""
    for _ in range(4000):
        try:
            text = nxt.read_text()
        except FileNotFoundError:
            text = None
        if text is not None and wanted(text):
            return text
        time.sleep(0.005)
    raise AssertionError("no such claim")


def test_the_longest_waiter_takes_the_claim_back_from_one_that_started_after_it(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    held = acquire_lock(file)
    got: list[Lock] = []
    waiter = threading.Thread(target=lambda: got.append(acquire_lock(file, 60.0)))
    waiter.start()
    try:
        ours = claim_such(nxt, lambda text: True)
        assert json.loads(ours)["pid"] == os.getpid(), "the waiter claimed the next turn"
        time.sleep(0.005)
        # A live process that started waiting later puts its claim there (ripe: honoured by all).
        later = claim_of(sleeper.pid)
        assert json.loads(later)["acquired_at"] > json.loads(ours)["acquired_at"]
        replace_claim(nxt, later)
        # Before, the waiter let it go first; now it takes the claim over, its own record again.
        assert claim_such(nxt, lambda text: text != later) == ours
    finally:
        assert held.release() is True
        waiter.join(60)
    assert len(got) == 1
    assert json.dumps(got[0].record, separators=(",", ":")) + "\n" == ours, "handed to it"
    assert os.listdir(workdir) == ["state.json.lock"]
    assert got[0].release() is True


def test_a_waiter_never_takes_over_the_claim_of_one_that_started_before_it(
    workdir: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    held = acquire_lock(file)
    earlier_ms = int(time.time() * 1000) - 5000
    record = statecore.lock.record(identity_of(sleeper.pid), os.urandom(16), earlier_ms)  # type: ignore[arg-type]
    earlier = record["text"]
    plant(nxt, earlier)
    got: list[Lock] = []
    waiter = threading.Thread(target=lambda: got.append(acquire_lock(file, 60.0)))
    waiter.start()
    try:
        for _ in range(40):
            then = time.time() - 0.1  # kept ripe and fresh: a live claimant's
            os.utime(nxt, (then, then))
            time.sleep(0.005)
        assert nxt.read_text() == earlier, "the earlier waiter keeps its claim"
        assert got == []
    finally:
        assert held.release() is True
    assert Path(f"{file}.lock").read_text() == earlier, "handed to the earlier waiter"
    os.unlink(f"{file}.lock")  # it is done
    waiter.join(60)
    assert len(got) == 1
    assert got[0].release() is True
    assert os.listdir(workdir) == []


def test_a_dead_oldest_waiter_never_wedges_the_lock(workdir: Path) -> None:
    file = workdir / "state.json"
    nxt = Path(f"{file}.lock.next")
    held = acquire_lock(file)
    # The oldest claim there is (it started waiting long before anyone), of a process now gone.
    dead = {**identity_of(os.getpid()), "pid": 2147483646}
    oldest_ms = int(time.time() * 1000) - 60000
    oldest = statecore.lock.record(dead, os.urandom(16), oldest_ms)["text"]  # type: ignore[arg-type]
    nxt.write_text(oldest)  # young: judged once it is ripe
    got: list[Lock] = []
    waiter = threading.Thread(target=lambda: got.append(acquire_lock(file, 60.0)))
    waiter.start()
    try:
        ours = claim_such(nxt, lambda text: text != oldest)
        assert json.loads(ours)["pid"] == os.getpid(), (
            "the dead claim was broken, the waiter claimed"
        )
    finally:
        assert held.release() is True
        waiter.join(60)
    assert len(got) == 1  # handed over, or taken once free
    assert got[0].release() is True
    assert os.listdir(workdir) == []
