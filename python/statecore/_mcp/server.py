"""``statecore mcp [DIR]`` (docs/mcp.md): a Model Context Protocol server over stdio whose
tools are the generated list ``_generated/mcp_tools.json`` (written by xtask from the core's
operation and host-routine tables; npm/lib/mcp/server.cjs serves the same file). A generic driver: a
call looks its tool up, has the core check its arguments against the tool's input schema
(``mcp_arguments``) and its paths (``mcp_path``), refuses a link or special file on the way,
and calls the library's helper or routine (a write: its one locked update), in a worker thread.
A refusal is a tool result with ``isError`` carrying ``{code, path, message}``; the server goes
on. The SDK (``mcp``, the extra ``statecore[mcp]``) is imported only here.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import statecore
from statecore._generated.tables import SKIPPED_DIRECTORIES, WALK_MAX_DEPTH
from statecore._mcp import confine as _confine
from statecore.errors import StatecoreError, error_class

_TOOLS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "_generated" / "mcp_tools.json").read_text(encoding="utf-8")
)["tools"]
#: Every tool by its name.
BY_NAME: dict[str, dict[str, Any]] = {tool["name"]: tool for tool in _TOOLS}
#: What ``tools/list`` answers: each tool without the driver's ``call``.
LISTED: list[dict[str, Any]] = [
    {key: value for key, value in tool.items() if key != "call"} for tool in _TOOLS
]


def _refusal(code: str, at: str, message: str, **details: object) -> StatecoreError:
    return error_class(code)(message, code, at, dict(details))


def _entry_type(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "regular file" if stat.S_ISREG(mode) else "special file"


def confine(root: str, names: Sequence[str], want: str, argument: str) -> str:
    """The absolute path of ``names`` below ``root``, each existing step ``lstat``-ed: a link on
    the way is ``E_PATH_UNSAFE`` (the server follows none: one could lead out of DIR), a
    non-directory before the last name or a last entry that is not a ``want`` (``file`` |
    ``dir`` | ``any``: either) ``E_FILE_TYPE``. Missing steps are left to the helper (a write
    creates them)."""
    at = root
    for i, name in enumerate(names):
        at = os.path.join(at, name)
        try:
            mode = os.lstat(at).st_mode
        except FileNotFoundError:
            return os.path.join(root, *names)
        shown = "/".join(names[: i + 1])
        if stat.S_ISLNK(mode):
            raise _refusal(
                "E_PATH_UNSAFE",
                f"/{argument}",
                f"{shown} is a symbolic link: the server follows no links (one could lead out of "
                "its directory); name the file itself",
                path=shown,
                reason="link",
            )
        last = i == len(names) - 1
        directory = not last or want == "dir"
        if last and want == "any":
            fits = stat.S_ISDIR(mode) or stat.S_ISREG(mode)
        else:
            fits = stat.S_ISDIR(mode) if directory else stat.S_ISREG(mode)
        if not fits:
            what = _entry_type(mode)
            expected = "directory" if directory else "regular file"
            raise _refusal(
                "E_FILE_TYPE",
                f"/{argument}",
                f"{shown} is a {what}, not a {expected}: the server reads and writes only "
                "regular files in directories",
                path=shown,
                type=what,
            )
    return at


#: The most bytes a read takes: a document's limit and one (which shows a file over it).
_READ_CAP: int = statecore.CONSTANTS["max_document_bytes"] + 1


def _recheck(root: str, names: Sequence[str], argument: str) -> Callable[[int], None]:
    """A step of ``names`` found not to be a directory as it was pinned (a link swapped in since
    :func:`confine` looked): refused as :func:`confine` refuses it."""

    def refuse(i: int) -> None:
        confine(root, names[: i + 1], "dir", argument)

    return refuse


def _camel_keys(result: Any) -> Any:
    """A host result's own keys as in JSON documents (``corrupt_copy`` → ``corruptCopy``)."""
    if not isinstance(result, dict):
        return result
    out = {}
    for key, value in result.items():
        head, *rest = key.split("_")
        out[head + "".join(part.capitalize() for part in rest)] = value
    return out


def _call_helper(
    root: str, dir_names: list[str], tool: dict[str, Any], args: dict[str, Any]
) -> Any:
    call = tool["call"]
    confine(root, dir_names, "dir", "dir")
    confine(root, [*dir_names, *call["file"]], "file", "dir")
    if call["log"] is not None:
        confine(root, [*dir_names, *call["file"][:-1], call["log"]], "file", "dir")
    module = importlib.import_module(f"statecore.{call['module']}")
    values = [args.get(name) for name, _, _ in call["params"]]
    sub = call["file"][:-1]
    names = [*dir_names, *sub]
    write = call["mode"] == "write"
    pinned = _confine.pin_helper(root, dir_names, sub, write, _recheck(root, names, "dir"))
    helper = getattr(module, call["helper"])
    result = _confine.use_pinned(pinned, dir_names, lambda: helper(pinned.path(), *values))
    if call["mode"] == "write":
        result = _camel_keys(result)
    return {"value": result} if call["wrap"] else result


def _call_routine(
    root: str, dir_names: list[str], tool: dict[str, Any], args: dict[str, Any]
) -> Any:
    """A host routine's call (``hive_create_session_dir``, ``agency_snapshot``, ...): its path
    arguments below ``dir``, each checked by the core and on the disk, then every argument
    given (and every path) as the routine's keyword of that name."""
    call = tool["call"]
    confine(root, dir_names, "dir", "dir")
    keywords: dict[str, Any] = {
        name: args[name] for name in call["args"] if args.get(name) is not None
    }
    pins: list[_confine.Pinned] = []
    names_list: list[list[str]] = []
    try:
        for name, what in call["paths"]:
            value = args.get(name)
            if value is None:
                keywords[name] = None
                continue
            names = [*dir_names, *statecore.mcp_path(value, name)]
            file = what == "file"
            confine(root, names, "file" if file else "any", name)
            # The routine is given its path through the pinned directories (docs/mcp.md §
            # Confined to DIR): a link swapped in after the check does not lead it out.
            dirs = names[:-1] if file else names
            pinned = _confine.pin_dirs(root, dirs, _recheck(root, dirs, name))
            pins.append(pinned)
            names_list.append(names)
            keywords[name] = pinned.path(*names[-1:]) if file else pinned.path()
    except BaseException:
        for pinned in pins:
            pinned.close()
        raise
    module = importlib.import_module(f"statecore.{call['module']}")
    routine = getattr(module, call["routine"])
    result = _confine.use_pinned_all(pins, names_list, lambda: routine(**keywords))
    if call["camel"]:
        result = _camel_keys(result)
    return {"value": result} if call["wrap"] else result


def _call_generic(
    root: str, dir_names: list[str], tool: dict[str, Any], args: dict[str, Any]
) -> Any:
    names = [*dir_names, *statecore.mcp_path(args["path"], "path")]
    if len(names) == len(dir_names):
        raise _refusal(
            "E_ARGUMENT", "/path", "path names the directory itself; name a file below it"
        )
    confine(root, dir_names, "dir", "dir")
    confine(root, names, "file", "path")
    which = tool["call"]["generic"]
    kind: Any = args.get("kind")
    if kind is None and which != "log_append":
        target = statecore.watch_target("/".join(names), None, True)
        kind = None if target is None else target["kind"]
    pinned = _confine.pin_dirs(root, names[:-1], _recheck(root, names, "path"))
    file = pinned.path(names[-1])

    def run() -> Any:
        if which == "log_append":
            return statecore.append_line(file, args["record"])
        if which == "update":
            patch = args["patch"]
            return statecore.update_document(file, kind, patch, if_match=args.get("if_match"))
        data = _confine.read_pinned(file, lambda: confine(root, names, "file", "path"), _READ_CAP)
        if which == "show":
            return statecore.load_document(kind, data)
        if data is None:
            raise _refusal("E_ARGUMENT", "/path", f"{'/'.join(names)} does not exist")
        return statecore.validate_text(kind, data)

    return _camel_keys(_confine.use_pinned(pinned, names, run))


def call_tool(root: str, name: object, args: object) -> Any:
    """Runs the tool ``name`` with ``args`` below ``root``: its structured result, or raises
    the refusal."""
    tool = BY_NAME.get(name) if isinstance(name, str) else None
    if tool is None:
        raise _refusal(
            "E_ARGUMENT",
            "/name",
            f"there is no tool {json.dumps(name, ensure_ascii=False)}: tools/list lists the tools",
        )
    text = json.dumps({} if args is None else args, ensure_ascii=False, separators=(",", ":"))
    data = text.encode("utf-8", "surrogatepass")
    checked: dict[str, Any] = cast(
        "dict[str, Any]", statecore.mcp_arguments(tool["name"], tool["inputSchema"], data)
    )
    dir_names = statecore.mcp_path(checked.get("dir") or ".", "dir")
    if "generic" in tool["call"]:
        return _call_generic(root, dir_names, tool, checked)
    if "routine" in tool["call"]:
        return _call_routine(root, dir_names, tool, checked)
    return _call_helper(root, dir_names, tool, checked)


#: How many resources a listing lists at most (it never enters the core's
#: ``SKIPPED_DIRECTORIES`` nor goes deeper than ``WALK_MAX_DEPTH``).
_MAX_RESOURCES = 1000
_MIME = "application/json"
_SCHEME = "statecore://"


def _uri_of(rel: str) -> str:
    from urllib.parse import quote

    return _SCHEME + "/".join(quote(name, safe="!'()*-._~") for name in rel.split("/"))


def resource_kind(rel: str) -> str | None:
    """The kind of the protocol document at ``rel`` below DIR (the core's ``watch_target``; a
    log: None)."""
    try:
        target = statecore.watch_target(rel, None, False)
    except StatecoreError:
        return None
    return None if target is None or target["log"] else target["kind"]


def list_resources(root: str) -> list[dict[str, str]]:
    """Each protocol document under ``root`` as a resource (the core's ``watch_target`` says
    which files are, and as what kind; logs are left out), links and special files skipped,
    sorted by path: ``{uri, name, description, mimeType}``."""
    found: list[tuple[str, str]] = []

    def walk(directory: str, names: list[str]) -> None:
        if len(names) > WALK_MAX_DEPTH:
            return
        try:
            entries = list(os.scandir(directory))
        except OSError:
            return
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and entry.name not in SKIPPED_DIRECTORIES:
                walk(entry.path, [*names, entry.name])
            if not entry.is_file(follow_symlinks=False):
                continue
            rel = "/".join([*names, entry.name])
            kind = resource_kind(rel)
            if kind is not None:
                found.append((rel, kind))

    walk(root, [])
    found.sort()
    return [
        {"uri": _uri_of(rel), "name": rel, "description": f"a {kind} document", "mimeType": _MIME}
        for rel, kind in found[:_MAX_RESOURCES]
    ]


def resolve_resource(root: str, uri: object) -> tuple[str, Any, list[str]]:
    """A resource's file, kind and names below DIR, or the refusal of its URI (out of DIR, a
    link, ...)."""
    from urllib.parse import unquote

    if not isinstance(uri, str) or not uri.startswith(_SCHEME):
        raise _refusal(
            "E_ARGUMENT",
            "/uri",
            f"{json.dumps(uri, ensure_ascii=False)} is not a statecore:// resource",
        )
    rel = "/".join(unquote(name) for name in uri[len(_SCHEME) :].split("/"))
    names = statecore.mcp_path(rel, "uri")
    file = confine(root, names, "file", "uri")
    target = statecore.watch_target("/".join(names), None, True)
    return file, None if target is None else target["kind"], names


def read_resource(root: str, uri: object) -> str:
    """A resource's read: the document as statecore reads it, its etag and its validation, as
    JSON text."""
    _file, kind, names = resolve_resource(root, uri)
    pinned = _confine.pin_dirs(root, names[:-1], _recheck(root, names, "uri"))
    file = pinned.path(names[-1])
    refuse = lambda: confine(root, names, "file", "uri")  # noqa: E731
    loaded = _confine.use_pinned(
        pinned,
        names,
        lambda: statecore.load_document(kind, _confine.read_pinned(file, refuse, _READ_CAP)),
    )
    return json.dumps(loaded, ensure_ascii=False, separators=(",", ":"))


def error_record(error: BaseException) -> dict[str, str]:
    """The ``{code, path, message}`` of an error (a statecore error's own; another's errno name
    or ``E_HOST``)."""
    if isinstance(error, StatecoreError):
        return {"code": error.code, "path": error.path, "message": error.message}
    code = "E_HOST"
    if isinstance(error, OSError) and error.errno is not None:
        import errno

        code = errno.errorcode.get(error.errno, code)
    return {"code": code, "path": "", "message": str(error)}


def create_server(root: str) -> tuple[Any, Any]:
    """One server on ``root`` (the SDK's low-level ``Server``, imported here): its tools,
    resources and subscriptions; and the registry of its connections' subscriptions
    (``subscriptions.Registry``), to close when a connection ends."""
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    from statecore._mcp.subscriptions import Registry

    tools = [types.Tool.model_validate(tool) for tool in LISTED]
    registry = Registry(
        root,
        lambda uri: resolve_resource(root, uri)[:2],
        lambda: [r["uri"] for r in list_resources(root)],
        lambda rel: resource_kind(rel) is not None,
    )

    def refusal(error: BaseException) -> MCPError:
        record = error_record(error)
        return MCPError(
            -32602, json.dumps(record, ensure_ascii=False, separators=(",", ":")), record
        )

    async def on_list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        try:
            result = await anyio.to_thread.run_sync(call_tool, root, params.name, params.arguments)
            text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=text)], structured_content=result
            )
        except Exception as error:
            record = error_record(error)
            return types.CallToolResult(
                content=[
                    types.TextContent(
                        type="text",
                        text=json.dumps(record, ensure_ascii=False, separators=(",", ":")),
                    )
                ],
                structured_content=record,
                is_error=True,
            )

    async def on_list_resources(ctx: Any, params: Any) -> Any:
        listed = await anyio.to_thread.run_sync(list_resources, root)
        loop = asyncio.get_running_loop()
        uris = [r["uri"] for r in listed]
        await anyio.to_thread.run_sync(registry.of(ctx).listed, uris, ctx.session, loop)
        return types.ListResourcesResult(
            resources=[types.Resource.model_validate(r) for r in listed]
        )

    async def on_read_resource(ctx: Any, params: Any) -> Any:
        uri = str(params.uri)
        try:
            text = await anyio.to_thread.run_sync(read_resource, root, uri)
        except Exception as error:
            raise refusal(error) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=_MIME, text=text)]
        )

    async def on_subscribe_resource(ctx: Any, params: Any) -> Any:
        loop = asyncio.get_running_loop()
        subscriptions = registry.of(ctx)
        try:
            await anyio.to_thread.run_sync(
                subscriptions.subscribe, str(params.uri), ctx.session, loop
            )
        except Exception as error:
            raise refusal(error) from None
        return types.EmptyResult()

    async def on_unsubscribe_resource(ctx: Any, params: Any) -> Any:
        await anyio.to_thread.run_sync(registry.of(ctx).unsubscribe, str(params.uri))
        return types.EmptyResult()

    server: Any = Server(
        "statecore",
        version=statecore.__version__,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        on_list_resources=on_list_resources,
        on_read_resource=on_read_resource,
        on_subscribe_resource=on_subscribe_resource,
        on_unsubscribe_resource=on_unsubscribe_resource,
    )
    return server, registry


def main(argv: Sequence[str]) -> int:
    """``statecore mcp [DIR] [--http [PORT]]``: serves DIR's tools over stdio until the client
    closes (or over HTTP, ``_mcp/http.py``); the exit status."""
    from statecore._mcp.http import parse_args

    parsed = parse_args(argv)
    if parsed is None:
        print("usage: statecore mcp [DIR] [--http [PORT]]", file=sys.stderr)
        return 2
    given, port = parsed
    root = os.path.realpath(given)
    if not os.path.isdir(root):
        print(f"statecore mcp: {given}: not a directory: give a directory", file=sys.stderr)
        return 2
    try:
        import anyio
        from mcp.server.lowlevel import NotificationOptions
        from mcp.server.stdio import stdio_server
    except ImportError:
        print(
            "statecore mcp: needs the MCP SDK, not installed: pip install 'statecore[mcp]'",
            file=sys.stderr,
        )
        return 2
    server, registry = create_server(root)
    if port is not None:
        from statecore._mcp.http import serve_http

        return serve_http(root, port, server, registry)
    options = server.create_initialization_options(
        notification_options=NotificationOptions(resources_changed=True)
    )

    async def serve() -> None:
        try:
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, options)
        finally:
            await anyio.to_thread.run_sync(registry.close_all)

    anyio.run(serve)
    return 0
