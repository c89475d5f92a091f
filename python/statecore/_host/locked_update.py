"""The system calls of the core's locked update (docs/locking.md § The locked update inside a
job, § The update as one job): who this process is, the lock's steps (the lock's own driver's,
``statecore._host.lock``), the directory's names that may be litter, the file read with its
stamp and bytes, copied, and written atomically if it is still the one read. The core decides
everything; the only state kept is each file's stamp and bytes from its last ``load``, which
its ``write`` checks and its ``copy`` falls back on. Used by the library's update
(``statecore._host.documents``) and by the command line's (``statecore._cli.locked_write``).
The npm twin is npm/lib/host/locked-update.cjs."""

from __future__ import annotations

import os
import time

from statecore._host import atomic as _atomic
from statecore._host import lock as _lock
from statecore._host import sys as _sys
from statecore._host.jobs import BYTES
from statecore._host.lock_claim import watch_claim
from statecore._host.lock_identity import identity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def locked_steps() -> Callable[[Mapping[str, Any], Callable[[Exception], Any]], dict[str, Any]]:
    """A ``take`` for the one job driver (``statecore._host.jobs.drive``) performing the locked
    update's steps: each answer carries the clocks, a failure is answered ``{"failed":
    fail(error)}``."""
    kept: dict[str, tuple[bytes | None, str | None]] = {}

    def take(step: Mapping[str, Any], fail: Callable[[Exception], Any]) -> dict[str, Any]:
        try:
            answer = _one(step, kept)
        except Exception as error:
            answer = {"failed": fail(error)}
        answer["now_ms"] = time.time_ns() // 1_000_000
        answer["mono_ms"] = time.monotonic() * 1000
        return answer

    return take


def _one(
    step: Mapping[str, Any], kept: dict[str, tuple[bytes | None, str | None]]
) -> dict[str, Any]:
    """One step performed: its answer without the clocks."""
    what = step["do"]
    if what == "load":
        data, stamp, age_ms = _atomic.read_stamped(step["path"])
        kept[step["path"]] = (data, stamp)
        if data is None:
            return {"missing": True}
        return {"missing": False, "age_ms": age_ms, BYTES: data}
    if what == "write":
        stamp = kept.get(step["path"], (None, None))[1]
        edited = "edited" in step
        guard = _atomic.Guard(stamp, edited, step["backdate_ms"] if edited else 0)
        return {"written": _atomic.write_atomic(step["path"], step["text"], guard)}
    if what == "entries":
        containing, other = step["containing"], step["except"]
        names = _sys.listdir(step["path"])
        return {"names": [n for n in names if containing in n and n not in other]}
    if what == "identity":
        return {"identity": identity(), "probe": _lock.PROBE, "seed": os.urandom(16).hex()}
    if what == "pause":
        time.sleep(step["ms"] / 1000)
        return {}
    if what == "watch":
        lock = step["lock"]
        seconds, every = step["ms"] / 1000, step["step_ms"] / 1000
        watch_claim(lock, lock + ".next", seconds, every, step["lock_too"], step["ino"])
        return {}
    if what == "copy":
        data = kept.get(step["path"], (None, None))[0]
        return {"path": _atomic.copy_file(step["path"], step["to"], data or b"")}
    return _lock.perform(dict(step))
