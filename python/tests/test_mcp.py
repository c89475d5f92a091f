"""``statecore mcp`` (docs/mcp.md) driven by the ``mcp`` SDK's own client over stdio, against
both servers (Python: ``python -m statecore mcp``; Node: npm/bin/statecore.cjs mcp): both list
the same tools (the generated ``_generated/mcp_tools.json``); for every protocol a read, a
write and a refused write, with the files checked; bad input (unknown tool, wrong types, paths
out of DIR, a link, a FIFO, 40 MiB) each a tool error, the server still answering. The Node
client's twin is npm/test/mcp.test.mjs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from statecore import hive  # noqa: E402
from statecore._mcp import server as _mcp  # noqa: E402

NODE_CLI = Path(__file__).resolve().parents[2] / "npm" / "bin" / "statecore.cjs"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcp_demo.py"
NOW = "2026-11-24T10:00:00Z"


def at(minute: int) -> str:
    return f"2026-11-24T10:{minute:02d}:00Z"


SERVERS: dict[str, Callable[[Path], StdioServerParameters]] = {
    "python": lambda d: StdioServerParameters(
        command=sys.executable, args=["-m", "statecore", "mcp", str(d)], cwd=str(d)
    ),
    "node": lambda d: StdioServerParameters(
        command="node", args=[str(NODE_CLI), "mcp", str(d)], cwd=str(d)
    ),
}


@asynccontextmanager
async def connect(which: str, root: Path) -> AsyncIterator[ClientSession]:
    async with (
        stdio_client(SERVERS[which](root)) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def ok(client: ClientSession, name: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(name, args)
    assert not result.is_error, f"{name}: {result.content[0].text}"  # type: ignore[union-attr]
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


async def refused(
    client: ClientSession, name: str, args: dict[str, Any], code: str | None = None
) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.is_error, f"{name} was not refused: {text}"
    record = json.loads(text)
    assert sorted(record) == ["code", "message", "path"]
    assert result.structured_content == record
    if code is not None:
        assert record["code"] == code, record["message"]
    return record  # type: ignore[no-any-return]


def read_json(file: Path) -> Any:
    return json.loads(file.read_text())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A project with a hive session (alpha spawned), made by the library, and ``logs/``."""
    hive.create_session_dir(tmp_path / "hive", "s1", "research", at(0))
    session = tmp_path / "hive" / "s1"
    hive.plan_workers(session, [{"name": "alpha", "task": "read"}], "one", at(1))
    hive.spawn_worker(session, "alpha", at(2))
    (tmp_path / "logs").mkdir()
    return tmp_path


def test_both_servers_list_the_generated_tools_the_same(root: Path) -> None:
    async def listed(which: str) -> list[dict[str, Any]]:
        async with connect(which, root) as client:
            tools = (await client.list_tools()).tools
            return [t.model_dump(by_alias=True, exclude_none=True) for t in tools]

    async def resources(which: str) -> list[dict[str, Any]]:
        async with connect(which, root) as client:
            listed = (await client.list_resources()).resources
            return [r.model_dump(by_alias=True, exclude_none=True) for r in listed]

    found = {which: anyio.run(resources, which) for which in SERVERS}
    assert found["node"] == found["python"]
    assert [r["name"] for r in found["python"]] == ["hive/s1/STATE.json"]
    lists = {which: anyio.run(listed, which) for which in SERVERS}
    assert lists["python"] == _mcp.LISTED
    # Compared as JSON (the Node SDK reorders a schema's keys on the way out).
    assert lists["node"] == lists["python"]
    assert [t["name"] for t in lists["node"]] == [t["name"] for t in _mcp.LISTED]


def test_both_servers_answer_the_same_text_byte_for_byte(root: Path) -> None:
    """A tool's answer is the same text from either server, non-ASCII included (a refusal's
    message with an arrow, an unknown tool's name, a document's text), not only the same JSON."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("show", {"path": "hive/s1/STATE.json"}),
        ("hive_change_phase", {"dir": "hive/s1", "to": "complete", "now": at(3)}),
        ("hive_heartbeat", {"dir": "hive/s1", "worker": "wörker-λ", "now": at(3)}),
        ("nö_such_tool", {}),
        ("show", {"path": "../outside → here.json"}),
    ]

    async def answers(which: str) -> list[tuple[bool, str]]:
        async with connect(which, root) as client:
            out = []
            for name, args in calls:
                result = await client.call_tool(name, args)
                out.append((bool(result.is_error), result.content[0].text))  # type: ignore[union-attr]
            return out

    found = {which: anyio.run(answers, which) for which in SERVERS}
    assert [error for error, _ in found["python"]] == [False, True, True, True, True]
    assert any(not text.isascii() for _, text in found["python"])
    assert found["node"] == found["python"]


@pytest.mark.parametrize("which", list(SERVERS))
def test_a_read_a_write_and_a_refused_write_of_every_protocol(which: str, root: Path) -> None:
    async def run() -> None:
        async with connect(which, root) as c:
            state = root / ".fctry" / "state.json"
            started = await ok(c, "fctry_start_command", {"command": "init", "now": NOW})
            assert started["changed"] is True
            assert read_json(state)["currentCommand"] == "init"
            item = {"type": "feature", "content": "dark mode", "now": NOW, "random": "abc123"}
            await ok(c, "fctry_inbox_add", item)
            assert (await ok(c, "fctry_inbox_counts", {}))["total"] == 1
            before = state.read_bytes()
            await refused(c, "fctry_start_command", {"command": "deploy"}, "E_ARGUMENT")
            assert state.read_bytes() == before

            fire = {"event": "select_project", "now": NOW, "details": {"project": "p"}}
            fired = await ok(c, "hivemind_fire", fire)
            assert fired["changed"] is True
            shown = await ok(c, "show", {"path": "workspace/state.json"})
            assert shown["document"] == fired["document"]
            await refused(c, "hivemind_fire", {"event": "no_such_event", "now": NOW})

            await ok(c, "agency_write_initial_runner_status", {"now": NOW})
            assert (await ok(c, "agency_load_runner_status", {}))["status"] is not None
            assert (root / ".agency" / "state" / "runner_status.json").is_file()
            await refused(c, "agency_write_runner_status", {"update": {"status": 7}})

            log = root / "hive" / "s1" / "EVENTS.jsonl"
            beat = {"dir": "hive/s1", "worker": "alpha", "now": at(3)}
            assert (await ok(c, "hive_heartbeat", beat))["changed"] is True
            assert "alpha" in log.read_text()
            await ok(c, "hive_check_worker_health", {"dir": "hive/s1"})
            # A read whose answer depends on the time takes `now`, as the library's readers do.
            health = {"dir": "hive/s1", "now": at(4)}
            assert (await ok(c, "hive_check_worker_health", health))["unhealthy"] == []
            late = await ok(c, "hive_check_worker_health", {"dir": "hive/s1", "now": at(30)})
            assert [u["worker"] for u in late["unhealthy"]] == ["alpha"]
            await refused(c, "hive_check_worker_health", {"dir": "hive/s1", "now": "soon"})
            lines = log.read_bytes()
            bad = {"dir": "hive/s1", "worker": "nobody", "now": at(5)}
            await refused(c, "hive_heartbeat", bad)
            assert log.read_bytes() == lines

            index = root / "spec" / ".workflow" / "index.md"
            assert (await ok(c, "specify_start", {"dir": "spec", "now": NOW}))["changed"] is True
            assert index.is_file()
            await ok(c, "specify_resume_point", {"dir": "spec"})
            text = index.read_bytes()
            await refused(c, "specify_set_loop_status", {"dir": "spec", "status": "bogus"})
            assert index.read_bytes() == text

            patch = {"path": ".fctry/state.json", "patch": {"specVersion": "2.0"}}
            updated = await ok(c, "update", patch)
            assert read_json(state)["specVersion"] == "2.0"
            stale = {**patch, "if_match": "0" * 32}
            await refused(c, "update", stale, "E_CONFLICT")
            assert (await ok(c, "show", {"path": ".fctry/state.json"}))["etag"] == updated["etag"]
            assert (await ok(c, "validate", {"path": ".fctry/state.json"}))["valid"] is True
            await ok(c, "log_append", {"path": "logs/app.jsonl", "record": {"type": "note"}})
            assert (root / "logs" / "app.jsonl").read_text() == '{"type":"note"}\n'

            names = [r.name for r in (await c.list_resources()).resources]
            for name in (
                ".agency/state/runner_status.json",
                ".fctry/inbox.json",
                ".fctry/state.json",
                "hive/s1/STATE.json",
                "spec/.workflow/index.md",
                "workspace/state.json",
            ):
                assert name in names
            assert "logs/app.jsonl" not in names
            read = await c.read_resource("statecore://.fctry/state.json")
            loaded = json.loads(read.contents[0].text)  # type: ignore[union-attr]
            assert loaded["document"] == read_json(state)
            with pytest.raises(Exception, match="E_PATH_UNSAFE"):
                await c.read_resource("statecore://../x.json")
            assert "fctry/state.json" in str((await c.list_resources()).resources)

    anyio.run(run)


@pytest.mark.parametrize("which", list(SERVERS))
def test_bad_input_is_a_tool_error_and_the_server_goes_on(
    which: str, root: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "state.json").write_text("{}")
    (root / "out").symlink_to(outside)
    (root / "fifo").mkdir()
    os.mkfifo(root / "fifo" / "state.json")

    async def run() -> None:
        async with connect(which, root) as c:

            async def alive() -> None:
                assert await ok(c, "fctry_resume_plan", {}) is not None

            await refused(c, "no_such_tool", {}, "E_ARGUMENT")
            await alive()
            await refused(c, "fctry_start_command", {"command": 42})
            await refused(c, "fctry_start_command", {"command": "init", "extra": 1}, "E_ARGUMENT")
            await refused(c, "fctry_start_command", {"command": "init", "dir": 7}, "E_ARGUMENT")
            # The core checks each value against the tool's input schema, at its pointer.
            plan = {"dir": "hive/s1", "workers": [{"name": 3, "task": "t"}]}
            assert (await refused(c, "hive_plan_workers", plan, "E_ARGUMENT"))["path"] == (
                "/workers/0/name"
            )
            assert (await refused(c, "fctry_start_command", {}, "E_ARGUMENT"))["path"] == "/command"
            await alive()
            for where in ("..", str(outside)):
                args = {"command": "init", "dir": where}
                await refused(c, "fctry_start_command", args, "E_PATH_UNSAFE")
            for path, code in (
                ("../x.json", "E_PATH_UNSAFE"),
                ("out/state.json", "E_PATH_UNSAFE"),
                ("fifo/state.json", "E_FILE_TYPE"),
            ):
                args = {"path": path, "kind": "json", "patch": {"a": 1}}
                await refused(c, "update", args, code)
            assert (outside / "state.json").read_text() == "{}"
            await refused(c, "show", {"path": "fifo/state.json", "kind": "json"}, "E_FILE_TYPE")
            await alive()
            big = {"type": "feature", "content": "x" * (40 * 1024 * 1024)}
            await refused(c, "fctry_inbox_add", big, "E_LIMIT")
            assert not (root / ".fctry" / "inbox.json").exists()
            await alive()

    anyio.run(run)


@pytest.mark.parametrize("which", list(SERVERS))
def test_the_host_routines_as_tools(which: str, tmp_path: Path) -> None:
    """A hive session from its creation, agency's init and a run's snapshot, specify's
    artifacts, a log's read and repair: through the routine tools alone."""
    root = tmp_path
    (root / "logs").mkdir()
    (root / "spec").mkdir()

    async def run() -> None:
        async with connect(which, root) as c:
            new = {"sessions_dir": "hive", "session_id": "s2", "task": "research", "now": at(0)}
            created = await ok(c, "hive_create_session_dir", new)
            assert created["changed"] is True
            assert created["result"]["event"]["type"] == "session_created"
            assert read_json(root / "hive" / "s2" / "STATE.json") == created["document"]
            await refused(c, "hive_create_session_dir", {**new, "task": "again"}, "E_ARGUMENT")
            out = {**new, "sessions_dir": "../hive", "session_id": "s3"}
            await refused(c, "hive_create_session_dir", out, "E_PATH_UNSAFE")
            s = {"dir": "hive/s2"}
            workers = [{"name": "alpha", "task": "read"}]
            await ok(c, "hive_plan_workers", {**s, "workers": workers, "now": at(1)})
            await ok(c, "hive_spawn_worker", {**s, "worker": "alpha", "now": at(2)})
            health = await ok(c, "hive_check_sessions", {"sessions_dir": "hive", "now": at(30)})
            flagged = [
                (h["session"], [u["worker"] for u in h["health"]["unhealthy"]])
                for h in health["value"]
            ]
            assert flagged == [("s2", ["alpha"])]
            events = await ok(c, "read_log", {"path": "hive/s2/EVENTS.jsonl"})
            assert [r["type"] for r in events["records"]] == [
                "session_created",
                "workers_planned",
                "worker_spawned",
            ]

            init = {"repo_root": "."}
            assert await ok(c, "agency_write_protocol_document", init) == {"value": "created"}
            assert await ok(c, "agency_write_protocol_document", init) == {"value": "exists"}
            assert len((root / "CLAUDE.md").read_text()) > 100
            await ok(c, "agency_write_initial_runner_status", {"dir": "run", "now": NOW})
            snapshot = await ok(c, "agency_snapshot", {"worktree": "run", "now": NOW})
            assert snapshot["worktree_present"] is True
            assert snapshot["runner_status"]["status"] == "working"

            spec = {"operation": "create", "path": "spec.md", "content": "# Spec\n"}
            applied = await ok(
                c, "specify_apply_artifacts", {"feature_dir": "spec", "artifacts": [spec]}
            )
            assert [a["result"] for a in applied["value"]] == ["written"]
            assert (root / "spec" / "spec.md").read_text() == "# Spec\n"
            bad = {**spec, "path": "../out.md"}
            await refused(c, "specify_apply_artifacts", {"feature_dir": "spec", "artifacts": [bad]})
            assert not (root / "out.md").exists()

            (root / "logs" / "app.jsonl").write_text('{"a":1}\n{"b"')
            repaired = await ok(c, "repair_log", {"path": "logs/app.jsonl"})
            assert repaired["tornLine"] == 2
            assert (root / "logs" / "app.jsonl").read_text() == '{"a":1}\n'

    anyio.run(run)


@pytest.mark.parametrize("which", list(SERVERS))
def test_the_example_runs_each_protocol_end_to_end_through_tools_alone(which: str) -> None:
    """examples/mcp_demo.py (``make demo``) on each server: it exits non-zero on any refusal it
    did not expect and on any state its calls must not have left."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), which], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hive: created, planned, 2 workers completed, phase 'complete'" in done.stdout
    assert "the loop ends with 'success'" in done.stdout
    assert "refused: isError=True" in done.stdout
