"""The EVENTS.jsonl of the hive replay bench (Python (7), Node (10)): a session of 8 workers,
made once and cached in <temp dir>/statecore-bench-hive/<session id>/ (outside the tree: bench/
has no .gitignore of its own).

The lines are built here in the exact form statecore's steps write them (compact JSON, keys in
the order timestamp, type, agent, details; strictly increasing millisecond times), since calling
a step a million times would pass the whole state each time. Before a log is kept, its first
2,000 events (every event of a small log) are taken again with the real steps
(``hive.create_session``, ``plan_workers``, ``record_spawn_attempt``, ``spawn_worker``,
``heartbeat``, ``record_progress``, ``update_state``, ``change_phase``, ``complete_worker``,
``fail_worker``, ``apply_event``): each step's line must equal the built one byte for byte, and
``hive.recover_state`` of those lines must give the steps' state.

    .venv/bin/python bench/hive_log.py EVENTS     (prints the session directory)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

CACHE = Path(tempfile.gettempdir()) / "statecore-bench-hive"
VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
"""This file's hash: a cached log made by another version of it is made again."""
WORKERS = [
    ("researcher-1", "survey the public API", ["endpoints", "auth"]),
    ("researcher-2", "read the rate limit docs", ["limits"]),
    ("researcher-3", "collect client libraries", ["sdks", "licensing"]),
    ("implementer-1", "write the HTTP client", ["http", "retries"]),
    ("implementer-2", "write the data models", ["models"]),
    ("implementer-3", "write the CLI", ["cli"]),
    ("tester-1", "write integration tests", ["tests", "fixtures"]),
    ("reviewer-1", "review the changes", ["review"]),
]
FAILS = "implementer-3"
"""The worker that fails while active (the others complete)."""
RETRIED = "implementer-2"
"""The worker whose first spawn attempt fails (failed before it was spawned, then tried again)."""
NOTES = [
    "fetched page {n} of the payments API reference",
    "parsed {n} schema definitions from the OpenAPI file",
    "cache hit for request {n}",
    "retrying request {n} after a 429",
    "wrote draft section {n}",
]
BASE_MS = (8 * 3600) * 1000
"""The first event's time of day: 2026-11-24T08:00:00.000Z."""


def session_id(events: int) -> str:
    return f"replay-{events}"


def stamp(ms: int) -> str:
    """Milliseconds of 2026-11-24 as RFC 3339 (the log stays within the day)."""
    assert ms < 86_400_000, "the log must stay within one day"
    s, milli = divmod(ms, 1000)
    m, sec = divmod(s, 60)
    h, minute = divmod(m, 60)
    return f"2026-11-24T{h:02d}:{minute:02d}:{sec:02d}.{milli:03d}Z"


def events(total: int) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``total`` events as (step, agent, arguments): what a queen and 8 workers log. The
    arguments are the step's (``now`` aside); ``event`` lines of other types carry their own
    ``type`` and ``details``."""
    rng = random.Random(12)
    names = [w[0] for w in WORKERS]
    yield "create_session", "queen", {"task": "build a client for the payments API"}
    yield "change_phase", "queen", {"phase": "planning"}
    yield (
        "update_state",
        "queen",
        {"updates": {"queen_decisions": {"complexity_assessment": {"level": 3}}}},
    )
    yield (
        "plan_workers",
        "queen",
        {
            "workers": [{"name": n, "task": t, "focus_areas": f} for n, t, f in WORKERS],
            "rationale": "three research domains, three parts to build, tests and a review",
        },
    )
    yield "change_phase", "queen", {"phase": "spawning"}
    for name in names:
        yield "record_spawn_attempt", "queen", {"worker": name}
        if name == RETRIED:
            yield "fail_worker", "queen", {"worker": name, "error": "spawn timed out after 30s"}
            yield "record_spawn_attempt", "queen", {"worker": name}
        yield "spawn_worker", name, {"worker": name}
    yield "change_phase", "queen", {"phase": "executing"}
    # The bulk: each worker finishes at its point of it (the last one at its end), then come
    # synthesis, two updates and completion. 24 events before the bulk, 8 completions or
    # failures in it, 4 after it; its last round only finishes the last worker.
    bulk = total - 35
    finish = {name: bulk * (i + 5) // (len(names) + 4) for i, name in enumerate(names)}
    finish[names[-1]] = bulk - 1
    active = list(names)
    files = dict.fromkeys(names, 0)
    tokens = dict.fromkeys(names, 0)
    debug = dict.fromkeys(names, 0)
    for i in range(bulk):
        for name in [n for n in active if finish[n] == i]:
            active.remove(name)
            if name == FAILS:
                error = {"message": "the CLI build failed: missing dependency", "exit": 2}
                yield "fail_worker", name, {"worker": name, "error": error}
            else:
                outputs = {"notes": f"notes/{name}.md", "artifacts": [f"out/{name}.json"]}
                yield (
                    "complete_worker",
                    name,
                    {"worker": name, "outputs": outputs, "metrics": {"debug_entries": i % 7}},
                )
        if not active:
            break
        name = active[i % len(active)]
        r = rng.random()
        if i % 997 == 500:
            updates = {
                "implementation_progress": {
                    "tasks_completed": i // 997,
                    "tasks_created": 1 + i // 900,
                }
            }
            yield "update_state", name, {"updates": updates}
        elif i % 4999 == 100:
            yield (
                "update_state",
                "queen",
                {"updates": {"metrics": {"token_usage_estimated": i * 3}}},
            )
        elif r < 0.44:
            yield "heartbeat", name, {"worker": name}
        elif r < 0.86:
            files[name] += rng.random() < 0.2
            tokens[name] += rng.randrange(50, 900)
            metrics = {
                "files_created": files[name],
                "tokens_estimated": tokens[name],
                "debug_entries": debug[name],
            }
            progress: dict[str, Any] = {"metrics": metrics}
            if r > 0.83:
                progress["protocol_compliance"] = {"debug_logging_active": True}
            yield "record_progress", name, {"worker": name, "progress": progress}
        else:
            kind = "debug" if r < 0.96 else "notification"
            debug[name] += kind == "debug"
            note = NOTES[int(r * 1000) % len(NOTES)].format(n=i)
            yield "event", name, {"type": kind, "details": note}
    yield "change_phase", "queen", {"phase": "synthesizing"}
    yield (
        "update_state",
        "queen",
        {"updates": {"research_progress": {"synthesis_status": "in_progress"}}},
    )
    yield (
        "update_state",
        "queen",
        {
            "updates": {
                "research_progress": {"synthesis_status": "complete", "key_findings": ["done"]},
                "quality_gates": {"synthesis_complete": True},
            },
            "strategy": "deep",
        },
    )
    yield "change_phase", "queen", {"phase": "complete"}


def line_of(step: str, agent: str, args: dict[str, Any], now: str) -> dict[str, Any]:
    """The event line a step writes (as a dict, keys in the line's order)."""
    if step == "create_session":
        return {"timestamp": now, "type": "session_created", "agent": agent, "details": args}
    if step == "event":
        return {"timestamp": now, "type": args["type"], "agent": agent, "details": args["details"]}
    worker = args.get("worker")
    kind, details = {
        "change_phase": ("phase_changed", None),
        "update_state": ("state_updated", None),
        "plan_workers": ("workers_planned", args),
        "record_spawn_attempt": ("spawn_attempted", None),
        "spawn_worker": ("worker_spawned", {"worker": worker}),
        "heartbeat": ("worker_heartbeat", {"worker": worker}),
        "record_progress": ("worker_progress", None),
        "complete_worker": ("worker_completed", args),
        "fail_worker": ("worker_failed", args),
    }[step]
    if step == "record_progress":
        details = {"worker": worker, **args["progress"]}
    elif step == "update_state":
        details = {"updates": args["updates"], "strategy": args.get("strategy", "deep")}
    assert details is not None or step in ("change_phase", "record_spawn_attempt")
    return {"timestamp": now, "type": kind, "agent": agent, "details": details}


def lines(total: int) -> Iterator[bytes]:
    """The log's lines (each with its ``\\n``). Phase changes and spawn attempts depend on the
    state (``from``, ``attempt``), tracked here."""
    rng = random.Random(34)
    ms = BASE_MS
    phase = "initializing"
    attempts: dict[str, int] = {}
    for step, agent, args in events(total):
        ms += rng.randint(1, 40)
        event = line_of(step, agent, args, stamp(ms))
        if step == "change_phase":
            event["details"] = {"from": phase, "to": args["phase"]}
            phase = args["phase"]
        elif step == "record_spawn_attempt":
            attempts[args["worker"]] = attempts.get(args["worker"], 0) + 1
            event["details"] = {"worker": args["worker"], "attempt": attempts[args["worker"]]}
        yield orjson.dumps(event) + b"\n"


def take_steps(total: int, limit: int) -> tuple[list[bytes], Any]:
    """The first ``limit`` events taken with statecore's steps: (their lines, the state)."""
    from statecore import hive

    state: Any = None
    out: list[bytes] = []
    sid = session_id(total)
    for (step, agent, args), built in zip(events(total), lines(total)):
        if len(out) == limit:
            break
        now = orjson.loads(built)["timestamp"]
        if step == "create_session":
            result = hive.create_session(sid, args["task"], now)
        elif step == "event":
            result = hive.apply_event(state, orjson.loads(built))
        elif step == "change_phase":
            result = hive.change_phase(state, args["phase"], now)
        elif step == "update_state":
            agent_arg = None if agent == "queen" else agent
            strategy = args.get("strategy")
            result = hive.update_state(state, args["updates"], strategy, now, agent_arg)
        elif step == "plan_workers":
            result = hive.plan_workers(state, args["workers"], args["rationale"], now)
        elif step == "record_progress":
            result = hive.record_progress(state, args["worker"], args["progress"], now)
        elif step == "complete_worker":
            w, o, m = args["worker"], args["outputs"], args["metrics"]
            result = hive.complete_worker(state, w, o, m, now)
        elif step == "fail_worker":
            result = hive.fail_worker(state, args["worker"], args["error"], now, agent)
        else:
            result = getattr(hive, step)(state, args["worker"], now)
        state = result["state"]
        mine = orjson.dumps(result["event"]) + b"\n"
        if mine != built:
            raise SystemExit(
                f"hive_log: line {len(out) + 1} differs from {step}'s:\n{built!r}\n{mine!r}"
            )
        out.append(built)
    return out, state


def check(total: int) -> None:
    """The first 2,000 events (all of a small log) against the steps and ``recover_state``."""
    from statecore import hive

    taken, state = take_steps(total, 2000 if total > 20_000 else total)
    recovered = hive.recover_state(b"".join(taken), session_id(total))
    state["session_metadata"]["log_offset"] = sum(map(len, taken))
    if recovered["state"] != state or recovered["events"] != len(taken):
        raise SystemExit("hive_log: recover_state of the steps' lines differs from their state")


def ensure(total: int) -> Path:
    """The session directory of a ``total``-event log, made (and checked) unless cached."""
    sid = session_id(total)
    directory = CACHE / sid
    meta = directory / "log.json"
    want = {"version": VERSION, "events": total}
    try:
        if {k: v for k, v in json.loads(meta.read_text()).items() if k in want} == want:
            return directory
    except (OSError, ValueError):
        pass
    check(total)
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f".EVENTS.jsonl.{os.getpid()}"
    count = size = 0
    with open(tmp, "wb") as f:
        batch: list[bytes] = []
        for line in lines(total):
            batch.append(line)
            count += 1
            size += len(line)
            if len(batch) == 10_000:
                f.write(b"".join(batch))
                batch.clear()
        f.write(b"".join(batch))
    if count != total:
        raise SystemExit(f"hive_log: made {count} events, not {total}")
    os.replace(tmp, directory / "EVENTS.jsonl")
    (directory / "STATE.json").unlink(missing_ok=True)
    meta.write_text(json.dumps({**want, "bytes": size, "session_id": sid}) + "\n")
    return directory


if __name__ == "__main__":
    print(ensure(int(sys.argv[1])))
