"""One writer process of bench (3b) (py_locked.py): ``writers_child.py IMPL FILE WRITER COUNT``.

Imports what IMPL needs, warms up on a private copy of FILE, prints "ready", waits for a line
on stdin (the start signal), then makes COUNT locked updates of FILE, the i-th setting
``progress.writers.WRITER`` to i + 1.
IMPL is ``statecore`` (``statecore.update_document``), ``orjson`` or ``json`` (the bench's
filelock alternatives, with the fsync of the directory, as in (3)).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import Any

WARM = 10
"""Updates of a private copy before the start signal."""


def main() -> None:
    impl, path, writer, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    update: Callable[[str, dict[str, Any]], Any]
    if impl == "statecore":
        import statecore

        def update(path: str, patch: dict[str, Any]) -> Any:
            return statecore.update_document(path, "agency.runner_status", patch)

    else:
        from py_alternatives import json_locked_update, rs_locked_update

        locked_update = {"orjson": rs_locked_update, "json": json_locked_update}[impl]

        def update(path: str, patch: dict[str, Any]) -> Any:
            return locked_update(path, patch, fsync_dir=True)

    # Warm-up outside the clock, as the Node bench's writers do: WARM updates of a private
    # copy of the file, removed (with its lock files) before saying ready.
    warm = f"{path}.warm-{writer}.json"
    shutil.copyfile(path, warm)
    for i in range(WARM):
        update(warm, {"progress": {"warm": i + 1}})
    folder, prefix = os.path.split(warm)
    for name in os.listdir(folder):
        if name.startswith(prefix):
            os.remove(os.path.join(folder, name))
    print("ready", flush=True)
    if sys.stdin.readline() != "go\n":
        sys.exit("writers_child: no start signal")
    for i in range(count):
        update(path, {"progress": {"writers": {writer: i + 1}}})


if __name__ == "__main__":
    main()
