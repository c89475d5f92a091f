"""An agent that changes state through `statecore mcp`'s tools alone (docs/mcp.md): the MCP
SDK's client spawns a server on a fresh project and drives a fctry session, a specify loop and a
hive session's workers through tool calls, then shows what an agent sees on a refusal.

Usage: python examples/mcp_demo.py [node|python]   (the server: npm's or this package's)
Needs the `mcp` SDK (pip install 'statecore[mcp]'); fails on any tool error it did not expect.
"""

import json
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from statecore import hive

REPO = Path(__file__).resolve().parents[1]
WHICH = sys.argv[1] if len(sys.argv) > 1 else "python"


def server(project: str) -> StdioServerParameters:
    if WHICH == "node":
        cli = str(REPO / "npm" / "bin" / "statecore.cjs")
        return StdioServerParameters(command="node", args=[cli, "mcp", project])
    return StdioServerParameters(
        command=sys.executable, args=["-m", "statecore", "mcp", project]
    )


async def main(project: str) -> None:
    async with (
        stdio_client(server(project)) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        tools = (await s.list_tools()).tools
        print(f"mcp demo ({WHICH} server): {len(tools)} tools on {project}")

        async def call(name: str, **args: object) -> dict:
            result = await s.call_tool(name, args)
            text = result.content[0].text
            if result.is_error:
                raise SystemExit(f"mcp demo: {name} refused: {text}")
            return json.loads(text)

        # A fctry session: a command, a step started and completed, an inbox item, the plan.
        await call("fctry_start_command", command="init")
        await call("fctry_start_step", step="interviewer")
        await call(
            "fctry_complete_step", step="interviewer", output={"summary": "interviewed"}
        )
        added = await call("fctry_inbox_add", type="feature", content="dark mode")
        counts = await call("fctry_inbox_counts")
        state = (await call("show", path=".fctry/state.json"))["document"]
        print(
            f"  fctry: completed {state['completedSteps']}, inbox {added['item']['id']} "
            f"({counts['total']} item)"
        )

        # A specify loop: started, written, validated; where it resumes.
        await call("specify_start", dir="spec")
        await call("specify_set_loop_status", dir="spec", status="spec_writing")
        await call("specify_set_loop_status", dir="spec", status="validating")
        resume = await call("specify_resume_point", dir="spec")
        print(f"  specify: validating; resumes with {resume.get('action')!r}")

        # A hive session (created by the library: not a tool yet), its worker through tools.
        hive.create_session_dir(Path(project) / "hive", "s1", "research")
        session = "hive/s1"
        await call(
            "hive_plan_workers",
            dir=session,
            workers=[{"name": "alpha", "task": "read"}],
        )
        await call("hive_spawn_worker", dir=session, worker="alpha")
        await call("hive_heartbeat", dir=session, worker="alpha")
        done = await call(
            "hive_complete_worker",
            dir=session,
            worker="alpha",
            outputs={"notes": "notes/alpha.md"},
        )
        status = done["document"]["coordination_status"]
        print(
            f"  hive: workers completed {status['workers_completed']}, phase {status['phase']!r}"
        )

        # What an agent sees on a refusal: an isError result carrying {code, path, message}.
        refused = await s.call_tool("fctry_start_step", {"step": "deploy"})
        print(f"  refused: isError={refused.is_error} {refused.content[0].text}")
        if not refused.is_error:
            raise SystemExit("mcp demo: an unknown step was not refused")


with tempfile.TemporaryDirectory(prefix="statecore-mcp-demo-") as project:
    anyio.run(main, project)
