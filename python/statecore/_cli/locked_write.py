"""The system calls of the command line's locked update (docs/cli.md § How it runs; the core's
cli/src/cli/locked_write.rs decides it), performed by the host's one performer of a locked
update (``statecore._host.locked_update``). A failure is answered ``{"failed": ...}`` with the
system error's name, or the statecore error the routine raised, which the command line
reports. Imported by ``statecore._cli.run`` when the job first asks for one of these steps.
The npm twin is npm/lib/cli/locked-write.cjs."""

from __future__ import annotations

import errno

from statecore._host.locked_update import locked_steps
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def locked_write() -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A performer of the locked update's steps: ``perform(step)`` gives its answer."""
    take = locked_steps()

    def perform(step: Mapping[str, Any]) -> dict[str, Any]:
        return take(step, _failure)

    return perform


def _failure(error: Exception) -> object:
    """A failure as the core reads it: a statecore error's fields, or the system error's name;
    anything else is not a system call's failure, and is raised."""
    if isinstance(error, StatecoreError):
        return {"code": error.code, "path": error.path, "message": error.message}
    if isinstance(error, OSError):
        return errno.errorcode.get(error.errno or 0, "EIO")
    raise error
