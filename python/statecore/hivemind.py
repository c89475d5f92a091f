"""``statecore.hivemind``: the hivemind operations of the core's table (docs/api.md), generated in
``statecore._generated.hivemind``. Functions that take a document also take a directory in its
place: then they run on its file, locked and atomic (docs/hivemind.md). ``watch_workspace``
drives a project's ``state.json`` from the trigger files written under its ``workspace/``, the
scheduled follow-ups included (docs/hivemind.md § Watcher)."""

from statecore._generated.hivemind import *  # noqa: F403
from statecore._generated.hivemind import __all__ as _generated
from statecore._host.hivemind_watch import WorkspaceWatcher, watch_workspace

__all__ = [*_generated, "WorkspaceWatcher", "watch_workspace"]
