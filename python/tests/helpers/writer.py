"""Test helper: ``writer.py FILE COUNT [PAD] [go]`` increments ``counter`` in FILE.

Each update goes through ``update_document`` (kind ``json``) and also sets ``copy`` (always
equal to ``counter``); COUNT = 0 means until killed. Prints "ready" first; with "go" it then
waits for a line on stdin before starting. Prints "done" at the end.
"""

from __future__ import annotations

import sys
from typing import Any

from statecore.host import update_document


def main() -> None:
    """Runs the increments."""
    file, count = sys.argv[1], int(sys.argv[2])
    pad = "x" * int(sys.argv[3]) if len(sys.argv) > 3 else ""
    print("ready", flush=True)
    if len(sys.argv) > 4 and sys.argv[4] == "go":
        sys.stdin.readline()

    def increment(doc: dict[str, Any]) -> None:
        n = (doc.get("counter") or 0) + 1
        doc["counter"] = n
        doc["copy"] = n
        doc["pad"] = pad
        doc["writer"] = "python"

    i = 0
    while count == 0 or i < count:
        update_document(file, "json", increment, timeout=60.0)
        i += 1
    print("done", flush=True)


if __name__ == "__main__":
    main()
