"""Test helper: writes argv[1] as a tool without statecore does, each write in two halves with
argv[4] ms between them, so a watcher can read the half-written file. argv[2]: ``doc`` (the
file rewritten in place: truncated, first half, pause, second half) or ``log`` (each record
appended in two writes). argv[3] writes; argv[5] ``1``: hold ``<file>.lock`` during each write.
Prints "done MS" at the end, MS the longest a write left the file torn (from its open to the
end of its second half): on a busy machine the pause can be far longer than asked, and the
tests judge a torn report by it. The twin of npm/test/helpers/torn_writer.cjs."""

from __future__ import annotations

import json
import math
import os
import sys
import time


def text(mode: str, i: int) -> bytes:
    """The i-th text: a valid fctry state, or one hive event line."""
    if mode == "doc":
        return f'{{\n  "activeSection": "#s{i}",\n  "activeSectionNumber": "{i}"\n}}\n'.encode()
    event = {
        "timestamp": "2026-11-25T01:00:00Z",
        "type": "progress",
        "agent": f"w{i}",
        "details": {"note": f"é{i}"},
    }
    return (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def main() -> None:
    path, mode, count, gap, locked = sys.argv[1:6]
    torn_ms = 0.0
    for i in range(int(count)):
        data = text(mode, i)
        half = len(data) // 2 + 1
        if locked == "1":
            with open(f"{path}.lock", "w") as lock:
                lock.write("{}")
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if mode == "doc" else os.O_APPEND)
        opened = time.monotonic()
        fd = os.open(path, flags, 0o644)
        try:
            os.write(fd, data[:half])
            time.sleep(int(gap) / 1000)
            os.write(fd, data[half:])
        finally:
            os.close(fd)
        torn_ms = max(torn_ms, (time.monotonic() - opened) * 1000)
        if locked == "1":
            os.unlink(f"{path}.lock")
        time.sleep(int(gap) / 1000)
    print(f"done {math.ceil(torn_ms)}", flush=True)


if __name__ == "__main__":
    main()
