"""``statecore.fctry``: the fctry operations of the core's table (docs/api.md), generated in
``statecore._generated.fctry``. Functions that take a document also take a directory in its
place: then they run on its file, locked and atomic (docs/fctry.md)."""

from statecore._generated.fctry import *  # noqa: F403
from statecore._generated.fctry import __all__ as __all__
