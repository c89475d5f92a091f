"""Type-checked with ``mypy --strict`` (make test), never run: the public API's types. Each line
with a ``type: ignore[...]`` is a mistake the types must catch: with ``warn_unused_ignores``
(part of ``--strict``), mypy fails if one of them stops being an error (a misspelt kind,
strategy, command, event or option that type-checks)."""

from __future__ import annotations

from pathlib import Path

import statecore
from statecore import agency, fctry, hivemind, machine
from statecore.types import (
    FctryInbox,
    FctryState,
    HivemindOutcome,
    HivemindState,
    InboxItem,
    Json,
    LoadResult,
    PrerequisiteCheck,
    Report,
    RunnerStatus,
    StatusLineSummary,
    WatchChange,
)


def pure() -> None:
    report: Report = statecore.validate("fctry.state", {"specVersion": "1"})
    statecore.validate("fctry.stat", {})  # type: ignore[arg-type]
    merged: Json = statecore.merge({"a": 1}, {"b": 2}, strategy="shallow")
    statecore.merge({}, {}, strategy="deeep")  # type: ignore[arg-type]
    statecore.merge({}, {}, {"strateg": "deep"})  # type: ignore[arg-type]
    loaded: LoadResult[FctryState] = statecore.load_document("fctry.state", b"{}")
    step = loaded["document"].get("workflowStep")
    inbox: FctryInbox = statecore.load_document("fctry.inbox", None)["document"]
    status: RunnerStatus | None = statecore.default_document("agency.runner_status")
    state: FctryState = fctry.start_command(None, "evolve", 0)
    fctry.start_command(None, "evolv", 0)  # type: ignore[call-overload]
    state = fctry.start_step(state, "interviewer")
    check: PrerequisiteCheck = fctry.check_prerequisites(state, "spec-writer", "evolve")
    items: list[InboxItem] = fctry.inbox_add(None, "feature", "dark mode", 0, "abc123")
    summary: StatusLineSummary = fctry.status_line(state)
    line: str = fctry.render_status_line(summary, color=True)
    outcome: HivemindOutcome = hivemind.fire(None, "select_project", 0, {"project": "p"})
    hivemind.fire(None, "pauze")  # type: ignore[call-overload]
    hstate: HivemindState = outcome["state"]
    fired = machine.fire(hivemind.machine(), "idle", "select_project")
    age: int = agency.age(agency.initial_runner_status(0), 1000)
    print(report, merged, step, inbox, status, check, items, line, hstate, fired, age)


def resident() -> None:
    opened = statecore.open_document("hivemind.state", None)
    hdoc: statecore.HivemindStateDocument = opened["document"]
    changed: bool = hdoc.on_file("workspace/plan.md", None, 0)["changed"]
    notes = hdoc.fire("give_task")["result"]["notifications"]
    hdoc.start_step("interviewer")  # type: ignore[attr-defined]
    fdoc = statecore.resident_document("fctry.state", {})
    fdoc.start_command("init", 0)
    summary: StatusLineSummary = fdoc.status_line()
    idoc = statecore.resident_document("fctry.inbox", [])
    item: InboxItem = idoc.inbox_add("feature", "x", 0)["item"]
    print(changed, notes, summary, item, fdoc.get("/currentCommand"), fdoc.text())


def files(project: Path) -> None:
    written = fctry.start_step(project, "interviewer", timeout=5.0, if_match=None)
    doc: FctryState = written["document"]
    fctry.start_step(project, "interviewer", timout=5.0)  # type: ignore[call-overload]
    added = fctry.inbox_add(project, "evolve", "x")
    item: Json = added["item"]
    read: FctryState = fctry.read_state(project)["document"]
    pre: PrerequisiteCheck = fctry.check_prerequisites(project, "interviewer")
    fired = hivemind.fire(project, "give_task", if_match=None)
    outcome: HivemindOutcome = fired["result"]
    runner = agency.write_runner_status(project, {"status": "working", "summary": "x"})
    runner_doc: RunnerStatus | None = runner["document"]
    updated = statecore.update_document(project / "s.json", "fctry.state", {"a": 1}, timeout=1.0)
    state: FctryState = updated["document"]
    statecore.update_document(project / "s.json", "json", {}, timout=1.0)  # type: ignore[call-overload]
    got = statecore.read_document(project / "h.json", "hivemind.state")
    hstate: HivemindState = got["document"]
    print(doc, item, read, pre, outcome, runner_doc, state, hstate)


def workspace_watcher(project: Path) -> None:
    def changed(state: HivemindState, outcome: HivemindOutcome) -> None:
        print(state["state"], outcome["scheduled"])

    with hivemind.watch_workspace(project, on_state_changed=changed, timeout=5.0) as watcher:
        watcher.wait_ready(10)
        fired: HivemindOutcome | None = watcher.fire("pause")
        watcher.fire("pauze")  # type: ignore[arg-type]
        print(fired)
    hivemind.watch_workspace(project, on_notfy=print)  # type: ignore[call-arg]


async def asyncio_use(project: Path) -> None:
    """statecore.aio.run keeps each helper's own types (ParamSpec)."""
    from statecore import aio

    added = await aio.run(fctry.inbox_add, project, "evolve", "x")
    item: Json = added["item"]
    updated = await aio.run(statecore.update_document, project / "s.json", "fctry.state", {"a": 1})
    state: FctryState = updated["document"]
    await aio.run(fctry.inbox_add, project, 3, "x")  # type: ignore[arg-type]
    async with aio.acquire_lock(project / "s.json", timeout=1.0) as held:
        held.release()
    print(item, state)


def watching(project: Path) -> None:
    """statecore.watch: the change's type, the options by keyword."""

    def on_change(change: WatchChange) -> None:
        records: list[Json] | None = change["records"]
        print(records, change["document"], change["errors"][0]["line"])

    with statecore.watch(project, "fctry.state", on_change, debounce_ms=10) as watcher:
        ready: bool = watcher.wait_ready(1.0)
        print(ready)
    statecore.watch(project, None, on_change, debounce=10)  # type: ignore[call-arg]
    statecore.watch(project, "fctry.stat", on_change)  # type: ignore[arg-type]


def stores(root: Path) -> None:
    """statecore.store: both stores, one interface."""
    from statecore.store import FileStore, PostgresStore

    files = FileStore(root)
    files.update("p/.fctry/state.json", "fctry.state", {"specVersion": "2"})
    with PostgresStore("postgresql:///db") as pg:
        pg.update("p/.fctry/state.json", "fctry.state", {"specVersion": "2"}, if_match=None)
        appended = pg.append("s/EVENTS.jsonl", "hive.event", {}, id="a")
        seq: int = appended["seq"]
        pg.read("p/.fctry/state.json", "fctry.stat")  # type: ignore[arg-type]
        print(seq, pg.read_log("s/EVENTS.jsonl", after=seq))


def host_routines(root: Path) -> None:
    """The host routines' results, typed from the core's host-routine table
    (``statecore._generated.host_types``)."""
    from statecore import hive, specify
    from statecore.host import AppendResult, LogResult, RepairResult
    from statecore.types import HiveState, HiveStep

    appended: AppendResult = statecore.append_line(root / "l.jsonl", {"type": "x"}, timeout=1.0)
    copy: str | None = appended["corrupt_copy"]
    appended["corruptCopy"]  # type: ignore[typeddict-item]
    statecore.append_line(root / "l.jsonl", {}, timout=1.0)  # type: ignore[call-arg]
    repaired: RepairResult = statecore.repair_log(root / "l.jsonl")
    torn: int | None = repaired["torn_line"]
    log: LogResult = statecore.read_log(root / "l.jsonl")
    records: list[Json] = log["records"]
    updated = statecore.update_document(root / "s.json", "fctry.state", {"a": 1})
    spec: str | None = updated["document"].get("specVersion")
    updated["document"] = 3  # type: ignore[typeddict-item]
    created = hive.create_session_dir(root, "id", "task")
    hive.create_session_dir(root, "id", "task", timout=1.0)  # type: ignore[call-arg]
    statecore.update_document(root / "s.json", "json", {}, strategy="deeep")  # type: ignore[call-overload]
    step: HiveStep = created["result"]
    session: HiveState = created["document"]
    applied = specify.apply_artifacts(root, [{"operation": "create", "path": "a.md"}])
    result: str = applied[0]["result"]
    print(copy, torn, records, spec, step, session, result)
