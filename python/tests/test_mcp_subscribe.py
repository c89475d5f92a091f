"""``statecore mcp``'s subscriptions (docs/mcp.md § Subscriptions), driven by the ``mcp`` SDK's
own client over stdio against both servers: a rename-save, an append and a tool's write each
send ``notifications/resources/updated``; a torn write (under the writer's lock) is never sent;
unsubscribing stops them; a protocol document created or removed sends ``list_changed``; a
subscription out of DIR, through a link or to a FIFO is refused as a read is. In process:
unsubscribing and the client going away close every watcher. The Node client's twin is
npm/test/mcp_subscribe.test.mjs."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp")
pytest.importorskip("watchfiles")

import anyio  # noqa: E402
from mcp import ClientSession, StdioServerParameters, types  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from statecore._mcp import subscriptions as _mcp_watch  # noqa: E402

# `resources/subscribe` is the protocol's way before 2026-07-28 (the one both servers and the
# Node SDK speak); the Python SDK's client warns that the newest protocol replaces it.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

NODE_CLI = Path(__file__).resolve().parents[2] / "npm" / "bin" / "statecore.cjs"
NOW = "2026-11-24T10:00:00Z"
#: The longest a test waits for an outcome, in seconds.
LIMIT_S = 20.0
STATE = "statecore://.fctry/state.json"
INDEX = "statecore://spec/.workflow/index.md"

SERVERS: dict[str, Callable[[Path], StdioServerParameters]] = {
    "python": lambda d: StdioServerParameters(
        command=sys.executable, args=["-m", "statecore", "mcp", str(d)], cwd=str(d)
    ),
    "node": lambda d: StdioServerParameters(
        command="node", args=[str(NODE_CLI), "mcp", str(d)], cwd=str(d)
    ),
}


class Seen:
    """The notifications a client got."""

    def __init__(self) -> None:
        self.updated: list[str] = []
        self.list_changed = 0

    async def handle(self, message: Any) -> None:
        message = getattr(message, "root", message)
        if isinstance(message, types.ResourceUpdatedNotification):
            self.updated.append(str(message.params.uri))
        elif isinstance(message, types.ResourceListChangedNotification):
            self.list_changed += 1

    def count(self, uri: str) -> int:
        return self.updated.count(uri)


async def until(check: Callable[[], bool], what: str) -> None:
    """Waits until ``check()`` is true (polling), or fails saying ``what``."""
    deadline = time.monotonic() + LIMIT_S
    while not check():
        assert time.monotonic() < deadline, f"waited {LIMIT_S} s for {what}"
        await anyio.sleep(0.02)


@asynccontextmanager
async def connect(which: str, root: Path) -> AsyncIterator[tuple[ClientSession, Seen]]:
    seen = Seen()
    async with (
        stdio_client(SERVERS[which](root)) as (read, write),
        ClientSession(read, write, message_handler=seen.handle) as session,
    ):
        await session.initialize()
        yield session, seen


async def ok(client: ClientSession, name: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(name, args)
    assert not result.is_error, f"{name}: {result.content[0].text}"  # type: ignore[union-attr]
    return result.structured_content


async def project(client: ClientSession) -> None:
    await ok(client, "fctry_start_command", {"command": "init", "now": NOW})
    await ok(client, "specify_start", {"dir": "spec", "now": NOW})


@pytest.mark.parametrize("which", sorted(SERVERS))
def test_rename_save_append_and_tool_write_each_send_an_update_torn_write_none(
    which: str, tmp_path: Path
) -> None:
    async def run() -> None:
        async with connect(which, tmp_path) as (client, seen):
            await project(client)
            await client.subscribe_resource(STATE)
            await client.subscribe_resource(INDEX)
            file = tmp_path / ".fctry" / "state.json"
            # A person's editor saving by rename.
            edited = {**json.loads(file.read_text()), "specVersion": "3.0"}
            (tmp_path / ".fctry" / "state.json.edit~").write_text(json.dumps(edited, indent=2))
            os.replace(tmp_path / ".fctry" / "state.json.edit~", file)
            await until(lambda: seen.count(STATE) == 1, "the rename-save's update")
            # Another tool appending to the markdown index.
            with open(tmp_path / "spec" / ".workflow" / "index.md", "a") as handle:
                handle.write("\nA note appended.\n")
            await until(lambda: seen.count(INDEX) == 1, "the append's update")
            # A write left torn under the writer's lock is not sent; the whole file is, once.
            whole = json.dumps({**edited, "specVersion": "4.0"}, indent=2)
            lock = tmp_path / ".fctry" / "state.json.lock"
            lock.write_text("held by the test\n")
            file.write_text(whole[: len(whole) // 2])
            await anyio.sleep(1.5)  # the watcher has long seen the torn file (debounce 50 ms)
            assert seen.count(STATE) == 1, "a torn write was sent"
            file.write_text(whole)
            lock.unlink()
            await until(lambda: seen.count(STATE) == 2, "the completed write's update")
            read = await client.read_resource(STATE)
            text = read.contents[0].text  # type: ignore[union-attr]
            assert json.loads(text)["document"]["specVersion"] == "4.0"
            # The library's own locked write, through a tool.
            await ok(client, "update", {"path": ".fctry/state.json", "patch": {"specVersion": "5"}})
            await until(lambda: seen.count(STATE) == 3, "the tool's write's update")

    anyio.run(run)


@pytest.mark.parametrize("which", sorted(SERVERS))
def test_unsubscribe_stops_updates_and_list_changes_are_sent(which: str, tmp_path: Path) -> None:
    async def run() -> None:
        async with connect(which, tmp_path) as (client, seen):
            await project(client)
            listed = await client.list_resources()
            assert [r.name for r in listed.resources] == [
                ".fctry/state.json",
                "spec/.workflow/index.md",
            ]
            await ok(client, "agency_write_initial_runner_status", {"now": NOW})
            await until(lambda: seen.list_changed == 1, "list_changed for a created document")
            shutil.rmtree(tmp_path / ".agency")
            await until(lambda: seen.list_changed == 2, "list_changed for a removed document")

            await client.subscribe_resource(STATE)
            await client.subscribe_resource(INDEX)
            await client.unsubscribe_resource(STATE)
            index = tmp_path / "spec" / ".workflow" / "index.md"
            for n, version in enumerate(["2.0", "2.1"], 1):
                await ok(client, "update", {"path": ".fctry/state.json", "patch": {"v": version}})
                with open(index, "a") as handle:
                    handle.write(f"\nLater {n}.\n")
                await until(lambda n=n: seen.count(INDEX) == n, "the subscribed file's update")
            assert seen.count(STATE) == 0, "an unsubscribed file was sent"

    anyio.run(run)


@pytest.mark.parametrize("which", sorted(SERVERS))
def test_subscription_out_of_dir_link_or_fifo_is_refused_as_a_read(
    which: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path
    outside = tmp_path_factory.mktemp("outside")
    (outside / ".fctry").mkdir()
    (outside / ".fctry" / "state.json").write_text("{}")
    (root / "out").symlink_to(outside)
    (root / "fifo" / ".fctry").mkdir(parents=True)
    os.mkfifo(root / "fifo" / ".fctry" / "state.json")

    async def run() -> None:
        async with connect(which, root) as (client, _seen):
            for uri, code in [
                ("statecore://../x/.fctry/state.json", "E_PATH_UNSAFE"),
                ("statecore://out/.fctry/state.json", "E_PATH_UNSAFE"),
                ("statecore://fifo/.fctry/state.json", "E_FILE_TYPE"),
            ]:
                with pytest.raises(Exception, match=code):
                    await client.read_resource(uri)
                with pytest.raises(Exception, match=code):
                    await client.subscribe_resource(uri)
            assert await ok(client, "fctry_resume_plan", {}) is not None

    anyio.run(run)


def test_in_process_unsubscribe_and_the_client_going_away_close_every_watcher(
    tmp_path: Path,
) -> None:
    from mcp.server.lowlevel import NotificationOptions
    from mcp.shared.memory import create_client_server_memory_streams

    from statecore._mcp.server import create_server

    server, registry = create_server(str(tmp_path))
    options = server.create_initialization_options(
        notification_options=NotificationOptions(resources_changed=True)
    )
    before = _mcp_watch.open_watchers()

    async def run() -> None:
        async with (
            create_client_server_memory_streams() as (client_streams, server_streams),
            anyio.create_task_group() as group,
        ):

            async def serve() -> None:
                try:
                    await server.run(server_streams[0], server_streams[1], options)
                finally:
                    await anyio.to_thread.run_sync(registry.close_all)

            group.start_soon(serve)
            async with ClientSession(*client_streams) as client:
                await client.initialize()
                await project(client)
                await client.subscribe_resource(STATE)
                await client.subscribe_resource(INDEX)
                await client.subscribe_resource(INDEX)  # again: still one watcher
                await client.list_resources()
                assert _mcp_watch.open_watchers() == before + 3
                await client.unsubscribe_resource(INDEX)
                assert _mcp_watch.open_watchers() == before + 2
            # The client went away: its streams closed, the server's run ends.
            await client_streams[1].aclose()
            await client_streams[0].aclose()
        assert _mcp_watch.open_watchers() == before

    anyio.run(run)
