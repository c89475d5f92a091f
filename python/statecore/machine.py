"""``statecore.machine``: generic, data-driven state machines (docs/machine.md), the core's
engine; generated in ``statecore._generated.machine``."""

from statecore._generated.machine import *  # noqa: F403
from statecore._generated.machine import __all__ as __all__
