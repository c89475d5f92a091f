"""``statecore.hivemind``: the hivemind operations of the core's table (docs/api.md), generated in
``statecore._generated.hivemind``. Functions that take a document also take a directory in its
place: then they run on its file, locked and atomic (docs/hivemind.md)."""

from statecore._generated.hivemind import *  # noqa: F403
from statecore._generated.hivemind import __all__ as __all__
