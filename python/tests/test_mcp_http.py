"""``statecore mcp DIR --http 0`` (docs/mcp.md § Over HTTP) against both servers, driven by the
``mcp`` SDK's own streamable HTTP client: tools listed and called, a subscription's update; a
foreign Host (DNS rebinding) and a foreign Origin refused with the viewer's codes; a client that
drops its connection mid-request, or sends half a request and stalls, does not stop the server
from answering the next call. The Node client's twin is npm/test/mcp_http.test.mjs."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp import ClientSession, types  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

# `resources/subscribe` is the protocol's way before 2026-07-28 (the one both servers and the
# Node SDK speak); the Python SDK's client warns that the newest protocol replaces it.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

NODE_CLI = Path(__file__).resolve().parents[2] / "npm" / "bin" / "statecore.cjs"
NOW = "2026-11-24T10:00:00Z"
LIMIT_S = 20.0
ACCEPT = "application/json, text/event-stream"
INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "page", "version": "1"},
        },
    }
)

SERVERS: dict[str, list[str]] = {
    "python": [sys.executable, "-m", "statecore"],
    "node": ["node", str(NODE_CLI)],
}


#: The language and process id of the server the fixture started.
SERVED: dict[str, Any] = {}


@pytest.fixture(params=sorted(SERVERS))
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, str, int]]:
    """The server (each language's) serving a fresh DIR over HTTP: ``(dir, url, port)``; its
    language and process id in ``SERVED``."""
    child = subprocess.Popen(
        [*SERVERS[request.param], "mcp", str(tmp_path), "--http", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    found = threading.Event()

    def drain() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            lines.append(line)
            if " on http://127.0.0.1:" in line:
                found.set()

    drainer = threading.Thread(target=drain, daemon=True)
    drainer.start()
    try:
        assert found.wait(LIMIT_S), f"the server did not start: {''.join(lines)}"
        match = next(re.search(r"on (http://127\.0\.0\.1:(\d+)/mcp)", line) for line in lines)
        assert match is not None
        SERVED.update(which=request.param, pid=child.pid)
        yield tmp_path, match.group(1), int(match.group(2))
    finally:
        child.terminate()
        try:
            child.wait(LIMIT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        drainer.join(LIMIT_S)
        assert child.stderr is not None
        child.stderr.close()


def raw(port: int, head: list[str], body: str) -> tuple[int, Any]:
    """A raw HTTP POST to /mcp: its status and its body (JSON when it is)."""
    with socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as sock:
        lines = ["POST /mcp HTTP/1.1", *head, f"Content-Length: {len(body)}", "Connection: close"]
        sock.sendall(("\r\n".join([*lines, "", body])).encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    text = data.decode("utf-8", "replace")
    status = int(text.split(" ")[1])
    rest = text[text.index("\r\n\r\n") + 4 :]
    try:
        return status, json.loads(rest)
    except ValueError:
        return status, rest


async def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + LIMIT_S
    while not check():
        assert time.monotonic() < deadline, f"waited {LIMIT_S} s for {what}"
        await anyio.sleep(0.02)


def test_tools_listed_and_called_and_an_update_over_http(served: tuple[Path, str, int]) -> None:
    root, url, _port = served
    updated: list[str] = []

    async def handle(message: Any) -> None:
        message = getattr(message, "root", message)
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    async def run() -> None:
        async with (
            streamable_http_client(url) as (read, write, *_),
            ClientSession(read, write, message_handler=handle) as client,
        ):
            await client.initialize()
            listed = await client.list_tools()
            assert len(listed.tools) > 50
            result = await client.call_tool("fctry_start_command", {"command": "init", "now": NOW})
            assert not result.is_error, result.content
            state = root / ".fctry" / "state.json"
            assert json.loads(state.read_text())["currentCommand"] == "init"
            await client.subscribe_resource("statecore://.fctry/state.json")
            patch = {"path": ".fctry/state.json", "patch": {"specVersion": "2.0"}}
            assert not (await client.call_tool("update", patch)).is_error
            await until(lambda: len(updated) == 1, "the update over HTTP")

    anyio.run(run)


def test_a_foreign_host_or_origin_is_refused(served: tuple[Path, str, int]) -> None:
    _root, _url, port = served
    base = ["Content-Type: application/json", f"Accept: {ACCEPT}"]
    status, body = raw(port, [f"Host: attacker.example:{port}", *base], INITIALIZE)
    assert (status, body["code"]) == (403, "E_VIEW_HOST")
    assert body["message"].startswith("the MCP server answers only to its own address")
    status, body = raw(
        port, [f"Host: 127.0.0.1:{port}", "Origin: http://attacker.example", *base], INITIALIZE
    )
    assert (status, body["code"]) == (403, "E_VIEW_ORIGIN")
    assert "only the MCP server's own page" in body["message"]
    own = [f"Host: 127.0.0.1:{port}", f"Origin: http://127.0.0.1:{port}", *base]
    status, _body = raw(port, own, INITIALIZE)
    assert status == 200


def test_a_dropped_or_stalled_client_does_not_stop_the_next_call(
    served: tuple[Path, str, int],
) -> None:
    _root, url, port = served

    def half_request() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as sock:
            sock.sendall(
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
                f"\r\nAccept: {ACCEPT}\r\nContent-Length: 100000\r\n\r\n"
                '{"jsonrpc":"2.0",'.encode()
            )

    async def run() -> None:
        async with (
            streamable_http_client(url) as (read, write, *_),
            ClientSession(read, write) as client,
        ):
            await client.initialize()

            async def add(n: int) -> None:
                args = {"type": "feature", "content": f"item {n}", "now": NOW}
                result = await client.call_tool("fctry_inbox_add", args)
                assert not result.is_error, result.content

            await add(0)
            for _ in range(10):
                half_request()
            # A body announced over the bound: refused before it is read.
            with socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as sock:
                sock.sendall(
                    f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                    f"application/json\r\nAccept: {ACCEPT}\r\nContent-Length: "
                    f"{200 * 1024 * 1024}\r\n\r\n{{".encode()
                )
                assert sock.recv(65536).split(b" ")[1] == b"413"
            slow = socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S)
            try:
                slow.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                await add(1)
                counts = await client.call_tool("fctry_inbox_counts", {})
                assert counts.structured_content is not None
                assert counts.structured_content["total"] == 2
            finally:
                slow.close()

    anyio.run(run)


def _watching_threads(pid: int) -> int:
    """How many of the process's threads are file watchers' (watchfiles' notify thread, one a
    watcher: ``notify-rs inotify``, cut to 15 bytes)."""
    count = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            name = Path(f"/proc/{pid}/task/{task}/comm").read_text().strip()
        except OSError:
            continue
        count += name.startswith("notify-rs")
    return count


def test_a_sessions_watchers_close_when_it_ends(served: tuple[Path, str, int]) -> None:
    if SERVED["which"] != "python" or not os.path.isdir("/proc/self/task"):
        pytest.skip(
            "counts the Python server's watcher threads in /proc (the Node server's are "
            "counted in process, npm/test/mcp_subscribe.test.mjs)"
        )
    _root, url, _port = served
    pid = SERVED["pid"]

    async def run() -> None:
        async with (
            streamable_http_client(url) as (read, write, *_),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            args = {"command": "init", "now": NOW}
            assert not (await client.call_tool("fctry_start_command", args)).is_error
            await client.subscribe_resource("statecore://.fctry/state.json")
            await client.list_resources()
            await until(lambda: _watching_threads(pid) == 2, "a watcher each")
        # The client closed its session (DELETE): its watchers are gone.
        await until(lambda: _watching_threads(pid) == 0, "the session's watchers to close")

    anyio.run(run)
