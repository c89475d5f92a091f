"""One process of the contention bench (bench/contention.mjs): ``contention_child.py IMPL FILE
COUNT [WARM]``.

Imports what IMPL needs, warms up on a private copy of FILE (WARM increments, default 20), prints "ready", waits for a line on
stdin, then increments the counter of FILE (``{"counter": n}``) COUNT times in a tight loop, each
a locked read-modify-write, as fast as it can. Prints one JSON line at the end:
``{"longest_ms": the longest single increment (its wait for the lock included)}``. IMPL:
``statecore`` (``statecore.update_document`` with a function) or ``filelock``
(``filelock.FileLock``, its default 50 ms poll, + json + an atomic write with the fsyncs of the
file and of the directory: the same two fsyncs as statecore's).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any


def bump(doc: dict[str, Any]) -> dict[str, Any]:
    return {**doc, "counter": doc["counter"] + 1}


def text(doc: dict[str, Any]) -> bytes:
    return (json.dumps(doc, indent=2) + "\n").encode()


def write_atomic(path: str, data: bytes) -> None:
    """mkstemp + write + fsync + replace + fsync of the directory."""
    folder = os.path.dirname(path)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def main() -> None:
    impl, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    warmups = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    increment: Callable[[str], Any]
    if impl == "statecore":
        import statecore

        def increment(target: str) -> Any:
            return statecore.update_document(target, "json", bump)

    elif impl == "filelock":
        import filelock

        def increment(target: str) -> Any:
            with filelock.FileLock(target + ".lock"):
                with open(target, "rb") as f:
                    doc = json.loads(f.read())
                write_atomic(target, text(bump(doc)))

    else:
        sys.exit(f"contention_child: unknown IMPL {impl}")
    warm = f"{path}.warm-{os.getpid()}.json"
    with open(warm, "wb") as f:
        f.write(text({"counter": 0}))
    for _ in range(warmups):
        increment(warm)
    folder, prefix = os.path.split(warm)
    for name in os.listdir(folder):
        if name.startswith(prefix):
            os.remove(os.path.join(folder, name))
    print("ready", flush=True)
    if sys.stdin.readline() != "go\n":
        sys.exit("contention_child: no start signal")
    longest = 0.0
    for _ in range(count):
        t0 = time.perf_counter()
        increment(path)
        longest = max(longest, time.perf_counter() - t0)
    print(json.dumps({"longest_ms": longest * 1000}), flush=True)


if __name__ == "__main__":
    main()
