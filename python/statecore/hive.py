"""``statecore.hive``: the hive session protocol, STATE.json v2 and its EVENTS.jsonl log
(docs/hive.md): sessions, phases, the worker checks and the health check, generated in
``statecore._generated.hive``. Every step returns the new state and the event line that
records it."""

from statecore._generated.hive import *  # noqa: F403
from statecore._generated.hive import __all__ as __all__
