"""The one file-watching primitive (``statecore._host.file_watch.batches``): a file made in a
directory that has just appeared is reported. The watcher starts watching a new directory only
after it appeared, so a file made in it at once was never reported: a project made with
``mkdir -p`` under a watched directory was missed now and then. Each of these projects gets its
first file a moment after its directory, which hit that window a few times in 200. The twin of
npm/test/file_watch.test.mjs."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from statecore._host.file_watch import batches

watchfiles = pytest.importorskip("watchfiles")


def test_every_file_made_in_a_new_directory_is_reported(tmp_path: Path) -> None:
    seen: set[str] = set()
    stop = threading.Event()
    ready = threading.Event()

    def run() -> None:
        for batch in batches(watchfiles, str(tmp_path), lambda p: p.endswith(".json"), 50, stop):
            ready.set()
            seen.update(batch)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert ready.wait(30)
        made = []
        for i in range(200):
            project = tmp_path / f"p{i}" / ".fctry"
            os.makedirs(project)
            for _ in range(i % 9):
                time.sleep(0)
            file = project / "state.json"
            file.write_text("{}\n")
            made.append(str(file))
        # Waits until every file is reported (a generous bound for a loaded machine).
        end = time.monotonic() + 30
        while time.monotonic() < end and any(f not in seen for f in made):
            time.sleep(0.05)
        assert [f for f in made if f not in seen] == []
    finally:
        stop.set()
        thread.join()
