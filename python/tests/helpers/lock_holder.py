"""Test helper: takes the lock of argv[1] and holds it until "release" arrives on stdin.

Prints ``{"locked": true, "pid": ..., "record": {...}}`` once it holds the lock, and
``{"released": <bool>}`` after releasing (also when stdin closes). Used by both languages' tests.
"""

from __future__ import annotations

import json
import os
import sys

from statecore.host import acquire_lock


def main() -> None:
    """Holds the lock of ``sys.argv[1]`` until told to release it."""
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    lock = acquire_lock(sys.argv[1], timeout)
    print(json.dumps({"locked": True, "pid": os.getpid(), "record": lock.record}), flush=True)
    for line in sys.stdin:
        if "release" in line:
            break
    print(json.dumps({"released": lock.release()}), flush=True)


if __name__ == "__main__":
    main()
