"""``statecore mcp [DIR] --http [PORT]`` (docs/mcp.md § Over HTTP): the ``mcp`` SDK's
streamable HTTP app on 127.0.0.1 only, served by uvicorn (a dependency of the SDK). Each
request first passes the viewer's Host and Origin checks (the core's ``view_request``, the rule
``statecore view`` follows: a page of another name that resolves here, DNS rebinding, or of
another site is refused); the SDK bounds the body and the sessions. A session's watchers close
when it ends. The Python twin of ``npm/lib/mcp/http.cjs``."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Sequence
from typing import Any

import statecore

#: The port when ``--http`` names none.
DEFAULT_PORT = 8767
#: The most bytes of a request's body read: two documents at the library's limit and a MiB.
BODY_LIMIT: int = 2 * statecore.CONSTANTS["max_document_bytes"] + 1024 * 1024
#: The path the transport answers on.
ENDPOINT = "/mcp"
#: The most sessions open at once (a client that never closes its session holds one).
MAX_SESSIONS = 64


def parse_args(argv: Sequence[str]) -> tuple[str, int | None] | None:
    """``[DIR] [--http [PORT]]`` read: ``(dir, port)`` (``port`` None: stdio; 0: any free
    port), or None when the arguments are not that."""
    given: str | None = None
    port: int | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--http":
            if port is not None:
                return None
            port = DEFAULT_PORT
            if i + 1 < len(argv) and argv[i + 1].isdigit() and argv[i + 1].isascii():
                port = int(argv[i + 1])
                i += 1
                if port > 65535:
                    return None
        elif arg.startswith("-") or given is not None:
            return None
        else:
            given = arg
        i += 1
    return ("." if given is None else given), port


class _Checked:
    """ASGI middleware: the viewer's Host and Origin checks on every HTTP request."""

    def __init__(self, app: Any, port: int) -> None:
        self._app = app
        self._port = port

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        asked: dict[str, object] = {"method": "GET", "path": "/"}
        for name, value in scope.get("headers", []):
            if name == b"host":
                asked["host"] = value.decode("latin-1")
            elif name == b"origin":
                asked["origin"] = value.decode("latin-1")
        route: Any = statecore.view_request(
            asked, {"port": self._port, "token": "", "write": False, "name": "the MCP server"}
        )
        if route["route"] == "refused":
            body = json.dumps(
                {"code": route["code"], "message": route["message"]}, ensure_ascii=False
            ).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            await send(
                {"type": "http.response.start", "status": route["status"], "headers": headers}
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app(scope, receive, send)


def serve_http(root: str, port: int, server: Any, registry: Any) -> int:
    """Serves ``server`` (``server.create_server``'s) over HTTP on 127.0.0.1:``port``; prints the
    address on stderr; returns the exit status once stopped (SIGINT, SIGTERM)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)  # listening before the address is printed: a client may connect at once
    except OSError as error:
        print(f"statecore mcp: 127.0.0.1:{port}: {error}: choose another port", file=sys.stderr)
        sock.close()
        return 2
    bound = sock.getsockname()[1]
    app = server.streamable_http_app(
        streamable_http_path=ENDPOINT,
        max_request_body_size=BODY_LIMIT,
        max_sessions=MAX_SESSIONS,
    )
    manager = server._session_manager
    discard = manager._discard_session

    async def discarded(session_id: str, transport: Any) -> None:
        # A session ended (the client's DELETE, its idle timeout, the server stopping): its
        # subscriptions' watchers are closed with it.
        import anyio

        try:
            await discard(session_id, transport)
        finally:
            await anyio.to_thread.run_sync(registry.end, session_id)

    manager._discard_session = discarded
    config = uvicorn.Config(
        _Checked(app, bound),
        log_level="warning",
        timeout_keep_alive=5,
        timeout_graceful_shutdown=5,
        h11_max_incomplete_event_size=64 * 1024,
    )
    print(f"statecore mcp: serving {root} on http://127.0.0.1:{bound}{ENDPOINT}", file=sys.stderr)
    sys.stderr.flush()
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        registry.close_all()
    return 0
