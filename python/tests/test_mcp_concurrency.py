"""``statecore mcp`` (docs/mcp.md) under contention: 4 agents (``mcp`` SDK clients, two on each
server) add inbox items through ``fctry_inbox_add`` on one project while the library's writers
in both languages (a thread's ``statecore.fctry``, a Node process's ``statecore-js/fctry``) add
theirs to the same ``.fctry/inbox.json``, and the test reads the raw file throughout. No update
may be lost, every read must parse. npm/test/mcp_concurrency.test.mjs is its twin."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from statecore import fctry

NPM = Path(__file__).resolve().parents[2] / "npm"
EACH = 8


def server(which: str, root: Path) -> StdioServerParameters:
    if which == "python":
        return StdioServerParameters(
            command=sys.executable, args=["-m", "statecore", "mcp", str(root)], cwd=str(root)
        )
    cli = str(NPM / "bin" / "statecore.cjs")
    return StdioServerParameters(command="node", args=[cli, "mcp", str(root)], cwd=str(root))


def test_four_agents_and_the_library_writers_lose_no_update(tmp_path: Path) -> None:
    inbox = tmp_path / ".fctry" / "inbox.json"
    done = threading.Event()
    reads: list[int] = [0]
    torn: list[str] = []

    def reader() -> None:
        while not done.is_set():
            try:
                text = inbox.read_text(encoding="utf-8")
            except FileNotFoundError:
                continue
            try:
                json.loads(text)
            except ValueError:
                torn.append(text)
            reads[0] += 1
            done.wait(0.005)

    def library() -> None:
        for n in range(EACH):
            fctry.inbox_add(tmp_path, "evolve", f"python-{n}")

    node_writer = (
        "const fctry = require(process.argv[1]); (async () => { for (let n = 0; n < EACH; n++) "
        'await fctry.inboxAdd(process.argv[2], "evolve", `node-${n}`); })()'
    ).replace("EACH", str(EACH))

    async def agents() -> None:
        async with AsyncExitStack() as stack:
            clients = []
            for which in ("python", "node", "python", "node"):
                read, write = await stack.enter_async_context(stdio_client(server(which, tmp_path)))
                client = await stack.enter_async_context(ClientSession(read, write))
                await client.initialize()
                clients.append(client)

            async def agent(i: int, client: ClientSession) -> None:
                for n in range(EACH):
                    args = {"type": "evolve", "content": f"agent{i}-{n}"}
                    result = await client.call_tool("fctry_inbox_add", args)
                    assert not result.is_error, result.content[0].text  # type: ignore[union-attr]

            async with anyio.create_task_group() as group:
                for i, client in enumerate(clients):
                    group.start_soon(agent, i, client)

    threads = [threading.Thread(target=reader), threading.Thread(target=library)]
    for thread in threads:
        thread.start()
    node = subprocess.Popen(
        ["node", "-e", node_writer, str(NPM / "lib" / "host" / "fctry.cjs"), str(tmp_path)]
    )
    try:
        anyio.run(agents)
        assert node.wait(timeout=120) == 0
        threads[1].join(timeout=120)
    finally:
        done.set()
        threads[0].join(timeout=30)
        if node.poll() is None:
            node.kill()
    contents = sorted(item["content"] for item in json.loads(inbox.read_text()))
    expected = sorted(
        [f"agent{i}-{n}" for i in range(4) for n in range(EACH)]
        + [f"python-{n}" for n in range(EACH)]
        + [f"node-{n}" for n in range(EACH)]
    )
    assert contents == expected
    assert reads[0] > 0
    assert torn == []
