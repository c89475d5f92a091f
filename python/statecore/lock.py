"""``statecore.lock``: the rules of the sidecar lock protocol (docs/locking.md) as pure functions
of what a host saw (the owner record, the verdict on a lock file's owner, the timeout error),
generated in ``statecore._generated.lock``; ``statecore._host.lock`` makes the system calls."""

from statecore._generated.lock import *  # noqa: F403
from statecore._generated.lock import __all__ as __all__
