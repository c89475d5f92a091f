"""The sidecar lock protocol of docs/locking.md, byte-compatible with npm/lib/host.cjs.

A lock on ``<file>`` is the file ``<file>.lock`` holding a JSON owner record. It is created
complete (record written to a temp file, then ``link()``-ed into place), broken only when its
owner is provably dead (through a ``<file>.lock.break-<id>`` marker so that only one process
may remove it), and released only by the holder of its token.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import random
import re
import secrets
import socket
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any

from statecore.errors import LockTimeoutError

LEASE_SECONDS = 60.0
"""A lock whose owner runs on another host is broken only this long after ``acquired_at``."""
GRACE_SECONDS = 2.0
"""A malformed lock record (or break marker) is broken only when its mtime is this old."""
DEFAULT_TIMEOUT = 10.0
"""Default seconds to wait for a lock before :class:`LockTimeoutError`."""
MAX_BACKOFF = 0.025
"""Polling backoff: 1 ms doubling to this, plus up to 25 % jitter."""

_LINK_UNSUPPORTED = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}
_TOKEN_RE = re.compile(r"[0-9a-f]{32}")
_TIMESTAMP_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")


def now_iso() -> str:
    """RFC 3339 UTC with milliseconds (``2026-11-22T05:43:00.123Z``), the core's format."""
    ms = time.time_ns() // 1_000_000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def parse_iso(text: str) -> float | None:
    """Epoch seconds of an RFC 3339 timestamp, or None."""
    match = _TIMESTAMP_RE.fullmatch(text)
    if match is None:
        return None
    # Python < 3.11 reads only 0, 3 or 6 fraction digits and no "Z": normalize to 6 and +00:00.
    fraction = (match.group(1) or ".")[1:]
    zone = "+00:00" if match.group(2) == "Z" else match.group(2)
    base = text[: match.start(1)] if match.group(1) else text[: match.start(2)]
    try:
        moment = datetime.fromisoformat(f"{base}.{fraction[:6].ljust(6, '0')}{zone}")
    except ValueError:
        return None
    return moment.timestamp()


def unlink_quiet(path: str) -> None:
    """Unlinks ``path``; a file already gone is fine."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


# --- process identity and liveness -------------------------------------------------------


def proc_stat(pid: int) -> tuple[str, str] | None:
    """``(state, start)`` from ``/proc/<pid>/stat`` (fields 3 and 22), or None without /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("latin-1")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: parse after the last ")".
    fields = text[text.rfind(")") + 2 :].split(" ")
    return (fields[0], fields[19]) if len(fields) > 19 else None


_identity: dict[str, Any] = {}


def identity() -> dict[str, Any]:
    """This process's ``{pid, start, boot, host}`` (recomputed after a fork)."""
    pid = os.getpid()
    if _identity.get("pid") != pid:
        boot: str | None
        try:
            with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
                boot = f.read().strip() or None
        except OSError:
            boot = None
        stat = proc_stat(pid)
        _identity.clear()
        _identity.update(
            pid=pid, start=stat[1] if stat else None, boot=boot, host=socket.gethostname()
        )
    return _identity


def new_record() -> dict[str, Any]:
    """A fresh owner record; the key order is part of the byte format shared with Node."""
    me = identity()
    return {
        "pid": me["pid"],
        "start": me["start"],
        "boot": me["boot"],
        "host": me["host"],
        "token": secrets.token_hex(16),
        "acquired_at": now_iso(),
    }


def record_text(record: dict[str, Any]) -> str:
    """The bytes of a lock file: compact JSON and a newline (as ``JSON.stringify`` writes it)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"


def parse_record(data: bytes) -> dict[str, Any] | None:
    """The owner record in ``data``, or None when it is not a well-formed record."""
    try:
        r = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        return None
    if not isinstance(r, dict):
        return None
    pid, token, acquired_at = r.get("pid"), r.get("token"), r.get("acquired_at")
    if type(pid) is float and pid.is_integer():
        pid = r["pid"] = int(pid)  # JSON.parse reads 1.0 as the integer 1: judge alike
    ok = (
        type(pid) is int
        and 0 < pid < 2**31
        and isinstance(r.get("host"), str)
        and isinstance(token, str)
        and _TOKEN_RE.fullmatch(token) is not None
        and isinstance(acquired_at, str)
        and parse_iso(acquired_at) is not None
        and all(r.get(k) is None or isinstance(r.get(k), str) for k in ("start", "boot"))
    )
    return r if ok else None


@dataclass(frozen=True)
class Owner:
    """What a lock file or break marker holds."""

    record: dict[str, Any] | None
    """The owner record, or None when malformed."""
    id: str
    """The token, or for a malformed record ``m`` + a hash of inode, mtime (ns) and bytes."""
    mtime: float
    """The file's mtime (epoch seconds)."""
    text: str
    """The raw content (for messages)."""


def read_owner(path: str) -> Owner | None:
    """Reads a lock file or break marker; None when it does not exist."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read()
    except FileNotFoundError:
        return None
    record = parse_record(data)
    if record is not None:
        owner_id = str(record["token"])
    else:
        digest = hashlib.sha256(f"{st.st_ino}:{st.st_mtime_ns}\n".encode() + data)
        owner_id = "m" + digest.hexdigest()[:32]
    text = data.decode("utf-8", "replace")
    return Owner(record, owner_id, st.st_mtime_ns / 1e9, text)


def process_dead(pid: int, start: str | None) -> bool:
    """True when ``pid`` is provably not the process that wrote ``start``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # exists, another user's
    stat = proc_stat(pid)
    if stat is None:
        return False  # no /proc (or hidden): kill() said it exists
    if stat[0] in ("Z", "X"):
        return True
    return start is not None and stat[1] != start


def owner_dead(owner: Owner) -> bool:
    """Whether a lock (or marker) may be broken: its owner is provably gone."""
    r = owner.record
    if r is None:
        return time.time() - owner.mtime > GRACE_SECONDS
    me = identity()
    if r["host"] != me["host"]:
        acquired = parse_iso(r["acquired_at"]) or 0.0
        return time.time() - acquired > LEASE_SECONDS
    if r.get("boot") and me["boot"] and r["boot"] != me["boot"]:
        return True
    if sys.platform == "win32":
        return False  # no kill(pid, 0) there: never guess
    return process_dead(int(r["pid"]), r.get("start"))


# --- the protocol ------------------------------------------------------------------------


def _create_exclusive(target: str, text: str) -> bool:
    """``open(O_CREAT|O_EXCL)`` + write: the fallback where link() is unsupported."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    return True


def create_complete(target: str, record: dict[str, Any]) -> bool:
    """Creates ``target`` holding ``record``, complete from its first instant.

    The record goes to ``<target>.<token>.tmp``, which is link()-ed to ``target``
    (EEXIST = held by someone else). Returns True when we created it.
    """
    text = record_text(record)
    tmp = f"{target}.{record['token']}.tmp"
    attempt = 0
    while True:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
        try:
            os.link(tmp, target)
            return True
        except FileExistsError:
            return False
        except FileNotFoundError:
            # Our temp file was swept as litter while we were stopped; write it again.
            attempt += 1
            if attempt > 3:
                raise
        except OSError as error:
            if error.errno in _LINK_UNSUPPORTED:
                return _create_exclusive(target, text)
            raise
        finally:
            unlink_quiet(tmp)


def release_file(path: str, token: str) -> bool:
    """Unlinks ``path`` if it still holds ``token``; never removes anyone else's."""
    current = read_owner(path)
    if current is None or current.id != token:
        return False
    unlink_quiet(path)
    return True


def break_file(lock_path: str, target: str, owner: Owner, depth: int = 0) -> bool:
    """Removes ``target`` (the lock or a marker) whose ``owner`` was judged dead.

    Only the winner of the marker ``<lock>.break-<owner.id>`` may: it re-reads ``target``,
    confirms the same owner is there and still dead, and unlinks it. A marker whose own owner
    is dead is removed the same way one level up. Returns True after progress (something
    removed, or already gone), False to wait for a live breaker.
    """
    marker = f"{lock_path}.break-{owner.id}"
    mine = new_record()
    if create_complete(marker, mine):
        try:
            current = read_owner(target)
            if current is not None and current.id == owner.id and owner_dead(current):
                unlink_quiet(target)
        finally:
            release_file(marker, mine["token"])
        return True
    breaker = read_owner(marker)
    if breaker is None:
        return True
    if depth >= 8 or not owner_dead(breaker):
        return False
    return break_file(lock_path, marker, breaker, depth + 1)


def _try_acquire(lock_path: str, record: dict[str, Any]) -> tuple[bool, Owner | None]:
    """One attempt: ``(True, None)`` when acquired, else ``(False, holder to wait for)``."""
    owner: Owner | None = None
    for _ in range(8):
        record["acquired_at"] = now_iso()
        if create_complete(lock_path, record):
            return True, None
        owner = read_owner(lock_path)
        if owner is None:
            continue  # released meanwhile
        if not owner_dead(owner) or not break_file(lock_path, lock_path, owner):
            return False, owner
    return False, owner


class Lock:
    """A held lock on ``<file>.lock``; a context manager that releases on exit."""

    def __init__(self, path: str, record: dict[str, Any]) -> None:
        self.path = path
        """The lock file."""
        self.record = record
        """Our owner record (its ``token`` identifies this holder)."""
        self._released = False

    def release(self) -> bool:
        """Releases the lock; True when our lock file was removed, False if it was not ours."""
        if self._released:
            return False
        self._released = True
        return release_file(self.path, str(self.record["token"]))

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _timeout_error(lock_path: str, owner: Owner | None, timeout: float) -> LockTimeoutError:
    r = owner.record if owner else None
    if r is not None:
        who = f"pid {r['pid']} on {r['host']} since {r['acquired_at']}"
    elif owner is not None:
        who = f"a malformed owner record ({json.dumps(owner.text[:200])})"
    else:
        who = "another process"
    message = (
        f"timed out after {timeout:g} s waiting for the lock {lock_path}, held by {who}; "
        f"if you know that process is gone, delete {lock_path}"
    )
    details = {"path": lock_path, "owner": r, "timeout_ms": round(timeout * 1000)}
    return LockTimeoutError(message, code="E_LOCK_TIMEOUT", path="", details=details)


def acquire_lock(path: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> Lock:
    """Takes the lock of ``path`` (the sidecar ``<path>.lock``), waiting up to ``timeout`` s.

    Raises :class:`LockTimeoutError` (``E_LOCK_TIMEOUT``, ``details`` = path and owner record).
    """
    lock_path = os.fspath(path) + ".lock"
    record = new_record()
    deadline = time.monotonic() + timeout
    attempt = 0
    while True:
        acquired, owner = _try_acquire(lock_path, record)
        if acquired:
            return Lock(lock_path, record)
        left = deadline - time.monotonic()
        if left <= 0:
            raise _timeout_error(lock_path, owner, timeout)
        base = min(0.001 * 2**attempt, MAX_BACKOFF)
        time.sleep(max(0.0, min(left, base * (1 + random.random() / 4))))
        attempt = min(attempt + 1, 10)


def sweep(path: str) -> None:
    """Removes what dead writers left next to ``path``; called by the lock holder.

    ``.<name>.tmp-*`` (no one else writes while we hold the lock), and lock temp files and
    break markers whose owners are dead.
    """
    directory, name = os.path.split(os.path.abspath(path))
    lock_path = path + ".lock"
    try:
        entries = os.listdir(directory)
    except OSError:
        return
    for entry in entries:
        full = os.path.join(directory, entry)
        if entry.startswith(f".{name}.tmp-") and _TOKEN_RE.fullmatch(entry[len(name) + 6 :]):
            unlink_quiet(full)
        elif entry.startswith(f"{name}.lock.") and entry.endswith(".tmp"):
            # A lock (or marker) temp file holds its creator's record: judged like a lock.
            owner = read_owner(full)
            if owner is not None and owner_dead(owner):
                unlink_quiet(full)
        elif entry.startswith(f"{name}.lock.break-"):
            owner = read_owner(full)
            if owner is not None and owner_dead(owner):
                break_file(lock_path, full, owner)
