"""An agent that changes state through `statecore mcp`'s tools alone (docs/mcp.md): the MCP
SDK's client spawns a server on a fresh, empty project and drives a fctry session, a hive
session from its creation (the queen plans, workers spawn, beat, progress and complete, the
phases change, the health is checked), a specify loop from its start to its end (the spec
written, gaps found, asked, answered, the iteration ended), and an agency run (init, its
status, its snapshot), then shows what an agent sees on a refusal. No library call, no file
written by hand: every change is a tool call.

Usage: python examples/mcp_demo.py [node|python]   (the server: npm's or this package's)
Needs the `mcp` SDK (pip install 'statecore[mcp]'); fails on any tool error it did not expect,
and on any state that is not the one the calls must have left (so a test can run it).
"""

import json
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

REPO = Path(__file__).resolve().parents[1]
WHICH = sys.argv[1] if len(sys.argv) > 1 else "python"


def at(minute: int) -> str:
    """A fixed time, so the run reads the same every time."""
    return f"2026-11-24T10:{minute:02d}:00Z"


def server(project: str) -> StdioServerParameters:
    if WHICH == "node":
        cli = str(REPO / "npm" / "bin" / "statecore.cjs")
        return StdioServerParameters(command="node", args=[cli, "mcp", project])
    return StdioServerParameters(
        command=sys.executable, args=["-m", "statecore", "mcp", project]
    )


def expect(what: str, got: object, want: object) -> None:
    if got != want:
        raise SystemExit(f"mcp demo: {what}: {got!r}, expected {want!r}")


async def main(project: str) -> None:
    async with (
        stdio_client(server(project)) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        tools = (await s.list_tools()).tools
        print(f"mcp demo ({WHICH} server): {len(tools)} tools on an empty project")

        async def call(name: str, **args: object) -> dict:
            result = await s.call_tool(name, args)
            text = result.content[0].text
            if result.is_error:
                raise SystemExit(f"mcp demo: {name} refused: {text}")
            return json.loads(text)

        # A fctry session: a command, a step started and completed, an inbox item, the plan.
        await call("fctry_start_command", command="init", now=at(0))
        await call("fctry_start_step", step="interviewer", now=at(1))
        await call(
            "fctry_complete_step",
            step="interviewer",
            output={"summary": "interviewed"},
            now=at(2),
        )
        added = await call("fctry_inbox_add", type="feature", content="dark mode")
        counts = await call("fctry_inbox_counts")
        state = (await call("show", path=".fctry/state.json"))["document"]
        expect("fctry's completed steps", state["completedSteps"], ["interviewer"])
        print(
            f"  fctry: completed {state['completedSteps']}, inbox {added['item']['id']} "
            f"({counts['total']} item)"
        )

        # A hive session from its creation: the queen plans, the workers run, the phases move.
        await call(
            "hive_create_session_dir",
            sessions_dir="hive",
            session_id="s1",
            task="research the options",
            now=at(0),
        )
        hive = {"dir": "hive/s1"}
        await call("hive_change_phase", **hive, phase="planning", now=at(1))
        await call(
            "hive_plan_workers",
            **hive,
            workers=[
                {"name": "alpha", "task": "read the papers"},
                {"name": "beta", "task": "survey the tools"},
            ],
            rationale="two sources",
            now=at(2),
        )
        await call("hive_change_phase", **hive, phase="spawning", now=at(3))
        for worker in ("alpha", "beta"):
            await call("hive_record_spawn_attempt", **hive, worker=worker, now=at(3))
            await call("hive_spawn_worker", **hive, worker=worker, now=at(4))
        await call("hive_change_phase", **hive, phase="executing", now=at(5))
        await call("hive_heartbeat", **hive, worker="alpha", now=at(6))
        await call(
            "hive_record_progress",
            **hive,
            worker="alpha",
            progress={"metrics": {"papers_read": 3}},
            now=at(7),
        )
        # beta has not beaten since it spawned at :04: at :11 it is flagged (5 minutes), alpha not.
        health = await call("hive_check_worker_health", **hive, now=at(11))
        flagged = [u["worker"] for u in health["unhealthy"]]
        expect("the workers flagged at :11", flagged, ["beta"])
        await call("hive_heartbeat", **hive, worker="beta", now=at(13))
        for worker, note in (("alpha", "notes/alpha.md"), ("beta", "notes/beta.md")):
            await call(
                "hive_complete_worker",
                **hive,
                worker=worker,
                outputs={"notes": note},
                now=at(14),
            )
        await call("hive_change_phase", **hive, phase="synthesizing", now=at(15))
        done = await call("hive_change_phase", **hive, phase="complete", now=at(16))
        status = done["document"]["coordination_status"]
        expect(
            "hive's completed workers",
            sorted(status["workers_completed"]),
            ["alpha", "beta"],
        )
        expect("hive's phase", done["document"]["status"], "complete")
        sessions = await call("hive_check_sessions", sessions_dir="hive", now=at(16))
        events = await call("read_log", path="hive/s1/EVENTS.jsonl")
        print(
            f"  hive: created, planned, {len(status['workers_completed'])} workers completed, "
            f"phase {done['document']['status']!r}; flagged at :11 {flagged}; "
            f"{len(events['records'])} events; sessions checked {len(sessions['value'])}"
        )

        # A specify loop from its start to its end: the spec written, a gap asked and answered.
        spec = {"dir": "spec"}
        await call("specify_start", **spec, now=at(0))
        await call("specify_set_loop_status", **spec, status="spec_writing", now=at(1))
        await call(
            "specify_apply_artifacts",
            feature_dir="spec",
            artifacts=[
                {"operation": "create", "path": "spec.md", "content": "# Export\n"}
            ],
        )
        await call("specify_set_loop_status", **spec, status="validating", now=at(2))
        await call(
            "specify_add_gaps",
            **spec,
            gaps=[
                {
                    "priority": "Critical",
                    "fr_reference": "FR-001",
                    "question": "Which formats does export write?",
                }
            ],
            now=at(3),
        )
        asked = await call("specify_start_clarifying", **spec, now=at(4))
        questions = [c["id"] for c in asked["result"]["clarifications"]]
        # The user's answer: the gap resolved, the loop back to validating, the iteration ended.
        await call(
            "specify_set_gap_status",
            **spec,
            gap_id="G-001",
            status="resolved",
            details="CSV and JSON",
            now=at(5),
        )
        await call("specify_set_loop_status", **spec, status="validating", now=at(6))
        ended = await call("specify_end_iteration", **spec, now=at(7))
        resume = await call("specify_resume_point", **spec)
        expect(
            "specify's termination",
            ended["result"]["termination"]["outcome"],
            "success",
        )
        print(
            f"  specify: asked {questions}, answered; the loop ends with "
            f"{ended['result']['termination']['outcome']!r}, resumes with {resume.get('action')!r}"
        )

        # An agency run: init's CLAUDE.md, the runner's status, the run's snapshot.
        init = await call("agency_write_protocol_document", repo_root=".")
        await call("agency_write_initial_runner_status", dir="run", now=at(0))
        await call(
            "agency_write_runner_status",
            dir="run",
            update={
                "status": "ready_for_review",
                "summary": "shipped",
                "how_to_test": "run make test",
            },
            now=at(5),
        )
        snapshot = await call("agency_snapshot", worktree="run", now=at(6))
        expect(
            "agency's status", snapshot["runner_status"]["status"], "ready_for_review"
        )
        print(
            f"  agency: CLAUDE.md {init['value']}, run status {snapshot['runner_status']['status']!r}"
        )

        # What an agent sees on a refusal: an isError result carrying {code, path, message}.
        refused = await s.call_tool(
            "hive_change_phase", {"dir": "hive/s1", "phase": "planning"}
        )
        print(f"  refused: isError={refused.is_error} {refused.content[0].text}")
        if not refused.is_error:
            raise SystemExit("mcp demo: a move back to planning was not refused")


with tempfile.TemporaryDirectory(prefix="statecore-mcp-demo-") as project:
    anyio.run(main, project)
