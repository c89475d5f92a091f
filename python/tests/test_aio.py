"""statecore.aio: helpers under asyncio (python/statecore/aio.py). A lock wait does not stall
the event loop; a cancelled call never leaves a lock behind and never writes once its caller
has been told it was cancelled; many tasks and processes updating one file lose nothing."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import statecore
from statecore import aio, fctry
from statecore.host import acquire_lock


def _count(path: Path) -> int:
    return int(json.loads(path.read_text(encoding="utf-8")).get("n", 0))


def _increment(doc: dict[str, object]) -> dict[str, object]:
    n = doc.get("n", 0)
    assert isinstance(n, int)
    return {**doc, "n": n + 1}


def test_a_lock_wait_leaves_the_event_loop_running(tmp_path: Path) -> None:
    """The update waits for a lock that only another coroutine of the same loop releases: it
    can succeed only if the loop went on while it waited."""
    path = tmp_path / "doc.json"

    async def main() -> None:
        held = acquire_lock(path)
        update = asyncio.ensure_future(
            aio.run(statecore.update_document, path, "json", {"a": 1}, timeout=30)
        )
        await asyncio.sleep(0.2)
        assert not update.done(), "the update did not wait for the lock"
        held.release()  # by this coroutine, on the loop the update would have stalled
        result = await update
        assert result["changed"] is True

    asyncio.run(main())
    assert json.loads(path.read_text(encoding="utf-8")) == {"a": 1}


def test_cancelled_while_waiting_nothing_is_written_and_no_lock_is_left(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{"n": 0}\n', encoding="utf-8")

    async def main() -> None:
        held = acquire_lock(path)
        update = asyncio.ensure_future(
            aio.run(statecore.update_document, path, "json", _increment, timeout=30)
        )
        await asyncio.sleep(0.2)
        update.cancel()
        for _ in range(5):  # let the cancelled task tell its worker
            await asyncio.sleep(0)
        # The lock is free before the worker's next poll: only the cancellation keeps it from
        # taking the lock and writing.
        held.release()
        with pytest.raises(asyncio.CancelledError):
            await update

    asyncio.run(main())
    assert _count(path) == 0
    assert not (tmp_path / "doc.json.lock").exists()
    acquire_lock(path, timeout=0).release()  # free at once


def test_cancelled_once_the_lock_is_held_the_update_finishes_then_cancels(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{"n": 0}\n', encoding="utf-8")
    inside, go_on = threading.Event(), threading.Event()

    def slow(doc: dict[str, object]) -> dict[str, object]:
        inside.set()
        assert go_on.wait(30)
        return _increment(doc)

    async def main() -> None:
        update = asyncio.ensure_future(aio.run(statecore.update_document, path, "json", slow))
        while not inside.is_set():
            await asyncio.sleep(0.01)
        update.cancel()
        await asyncio.sleep(0.05)
        go_on.set()
        with pytest.raises(asyncio.CancelledError):
            await update

    asyncio.run(main())
    assert _count(path) == 1, "the update that held the lock was applied whole"
    assert not (tmp_path / "doc.json.lock").exists()


def test_an_error_is_raised_as_it_is() -> None:
    async def main() -> None:
        with pytest.raises(statecore.ParseError):
            await aio.run(statecore.parse, b"{")

    asyncio.run(main())


def test_a_protocol_helper(tmp_path: Path) -> None:
    async def main() -> None:
        added = await aio.run(fctry.inbox_add, tmp_path, "feature", "export to CSV")
        assert added["item"]["content"] == "export to CSV"
        items = await aio.run(fctry.read_inbox, tmp_path)
        assert [i["content"] for i in items["document"]] == ["export to CSV"]

    asyncio.run(main())


def test_acquire_lock_is_released_when_its_block_is_cancelled(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"

    async def main() -> None:
        entered = asyncio.Event()

        async def hold() -> None:
            async with aio.acquire_lock(path):
                entered.set()
                await asyncio.sleep(30)

        task = asyncio.ensure_future(hold())
        await entered.wait()
        assert (tmp_path / "doc.json.lock").exists()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert not (tmp_path / "doc.json.lock").exists()


WORKER = """
import asyncio, sys
import statecore
from statecore import aio

def increment(doc):
    return {**doc, "n": doc.get("n", 0) + 1}

async def main(path, tasks):
    await asyncio.gather(*(aio.run(statecore.update_document, path, "json", increment, timeout=60)
                           for _ in range(tasks)))

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def test_many_tasks_in_many_processes_lose_no_update(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    tasks = 25
    processes = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(tasks)]) for _ in range(3)
    ]

    async def main() -> None:
        await asyncio.gather(
            *(
                aio.run(statecore.update_document, path, "json", _increment, timeout=60)
                for _ in range(tasks)
            )
        )

    asyncio.run(main())
    assert [p.wait(timeout=120) for p in processes] == [0, 0, 0]
    assert _count(path) == tasks * 4
