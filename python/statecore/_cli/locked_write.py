"""The system calls of the command line's locked update (docs/cli.md § How it runs; the core's
cli/src/cli/locked_write.rs decides it): who this process is, the lock's steps (the lock's own
driver's, ``statecore._host.lock``), the directory's names for the holder's sweep, the file
read with its stamp and bytes, copied, and written atomically if it is still the one read.

Each answer carries the clocks; a failure is answered ``{"failed": ...}`` with the system
error's name, or the statecore error the routine raised. The only state kept is each file's
stamp and bytes from its last ``load``, which its ``write`` checks and its ``copy`` falls back
on. Imported by ``statecore._cli.run`` when the job first asks for one of these steps. The npm
twin is npm/lib/cli/locked-write.cjs."""

from __future__ import annotations

import errno
import os
import time

from statecore._host import atomic as _atomic
from statecore._host import lock as _lock
from statecore._host import sys as _sys
from statecore._host.jobs import BYTES
from statecore._host.lock_claim import watch_claim
from statecore._host.lock_identity import identity
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def locked_write() -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A performer of the locked update's steps: ``perform(step)`` gives its answer."""
    kept: dict[str, tuple[bytes | None, str | None]] = {}

    def perform(step: Mapping[str, Any]) -> dict[str, Any]:
        try:
            answer = _one(step, kept)
        except StatecoreError as error:
            answer = {"failed": {"code": error.code, "path": error.path, "message": error.message}}
        except OSError as error:
            answer = {"failed": errno.errorcode.get(error.errno or 0, "EIO")}
        answer["now_ms"] = time.time_ns() // 1_000_000
        answer["mono_ms"] = time.monotonic() * 1000
        return answer

    return perform


def _one(
    step: Mapping[str, Any], kept: dict[str, tuple[bytes | None, str | None]]
) -> dict[str, Any]:
    """One step performed: its answer without the clocks."""
    what = step["do"]
    if what == "identity":
        return {"identity": identity(), "probe": _lock.PROBE, "seed": os.urandom(16).hex()}
    if what == "entries":
        containing, other = step["containing"], step["except"]
        names = _sys.listdir(step["path"])
        return {"names": [n for n in names if containing in n and n not in other]}
    if what == "pause":
        time.sleep(step["ms"] / 1000)
        return {}
    if what == "watch":
        lock = step["lock"]
        seconds, every = step["ms"] / 1000, step["step_ms"] / 1000
        watch_claim(lock, lock + ".next", seconds, every, step["lock_too"], step["ino"])
        return {}
    if what == "load":
        data, stamp, age_ms = _atomic.read_stamped(step["path"])
        kept[step["path"]] = (data, stamp)
        if data is None:
            return {"missing": True}
        return {"missing": False, "age_ms": age_ms, BYTES: data}
    if what == "copy":
        data = kept.get(step["path"], (None, None))[0]
        return {"path": _atomic.copy_file(step["path"], step["to"], data or b"")}
    if what == "write":
        stamp = kept.get(step["path"], (None, None))[1]
        edited = "edited" in step
        guard = _atomic.Guard(stamp, edited, step["backdate_ms"] if edited else 0)
        return {"written": _atomic.write_atomic(step["path"], step["text"], guard)}
    return _lock.perform(dict(step))
