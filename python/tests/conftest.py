"""Test set-up: the tests must exercise the INSTALLED wheel, never the source tree.

``python -m pytest`` run from ``python/`` puts that directory first on ``sys.path``, where the
``statecore`` sources live; drop it before any test imports ``statecore``.
"""

from __future__ import annotations

import sys
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parents[1]
REPO = Path(__file__).resolve().parents[2]


def _is_source_dir(entry: str) -> bool:
    try:
        return Path(entry or ".").resolve() == SOURCE_DIR
    except OSError:
        return False


sys.path[:] = [entry for entry in sys.path if not _is_source_dir(entry)]
if "statecore" in sys.modules:  # pragma: no cover - a plugin imported it too early
    raise RuntimeError("statecore was imported before tests/conftest.py could isolate it")

# Hypothesis: modest example counts, no deadline (shared CI machines are noisy), and no
# example database (it would write python/.hypothesis/).
from hypothesis import settings  # noqa: E402

settings.register_profile("statecore", max_examples=50, deadline=None, database=None)
settings.load_profile("statecore")

# The store tests' PostgreSQL fixtures (a server per session, a database per test).
pytest_plugins = ["pg_server"]
