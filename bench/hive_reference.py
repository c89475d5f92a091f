"""A hive session's EVENTS.jsonl folded into its STATE.json the way a user would write it in
Python: the file read line by line in binary mode, ``orjson.loads`` per line, each event applied
to a dict (docs/hive.md § Events). The alternative of bench Python (7); it must give the state
statecore's replay gives (checked outside the timed runs).

It does not validate lines, drop duplicates or handle torn tails. Times are compared as strings,
which orders them when they share one form (as every line of the bench's log does: RFC 3339 in
UTC with milliseconds); the duration of a completed worker parses them.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import orjson

PHASE_STAMPS = {
    "planning": "planning_started",
    "spawning": "spawning_started",
    "executing": "execution_started",
    "synthesizing": "synthesis_started",
    "complete": "completed_at",
    "failed": "failed_at",
}

WORKER_EVENTS = frozenset(
    [
        "spawn_attempted",
        "worker_spawned",
        "worker_heartbeat",
        "worker_progress",
        "worker_completed",
        "worker_failed",
    ]
)


def created(session_id: str, details: Any, now: str) -> dict[str, Any]:
    """The v2 template (``state-v2-template.json``) of a new session."""
    return {
        "version": "2.0",
        "session_id": session_id,
        "task": details.get("task", ""),
        "status": "initializing",
        "timestamps": {
            "created_at": now,
            "updated_at": now,
            "last_heartbeat": now,
            "phase_transitions": {
                "planning_started": None,
                "spawning_started": None,
                "execution_started": None,
                "synthesis_started": None,
                "completed_at": None,
            },
        },
        "coordination_status": {
            "phase": "planning",
            "workers_planned": [],
            "workers_spawned": [],
            "workers_active": [],
            "workers_completed": [],
            "workers_failed": [],
            "spawn_attempts": {},
            "synthesis_ready": False,
            "blocking_issues": [],
        },
        "worker_states": {},
        "queen_decisions": {
            "complexity_assessment": {"level": 1, "factors": [], "rationale": ""},
            "worker_selection_rationale": "",
            "coordination_strategy": "parallel",
            "execution_plan": {"phases": []},
            "escalation_triggers": [],
        },
        "research_progress": {
            "domains_identified": [],
            "domains_completed": [],
            "synthesis_status": "pending",
            "key_findings": [],
            "synthesis_file": None,
        },
        "implementation_progress": {
            "tasks_created": 0,
            "tasks_assigned": 0,
            "tasks_in_progress": 0,
            "tasks_completed": 0,
            "tasks_blocked": 0,
            "blocking_issues": [],
        },
        "quality_gates": {
            "worker_selection_validated": False,
            "all_workers_spawned": False,
            "protocol_compliance_verified": False,
            "outputs_validated": False,
            "synthesis_complete": False,
        },
        "metrics": {
            "session_duration_seconds": 0,
            "total_events_logged": 0,
            "total_debug_entries": 0,
            "worker_efficiency": {},
            "token_usage_estimated": 0,
            "coordination_overhead_seconds": 0,
        },
        "session_metadata": {
            "hive_mind_version": "2.0",
            "protocol_version": "2.0",
            "environment": "production",
            "resumption_capability": "full",
            "auto_recovery_enabled": True,
        },
    }


def planned_worker(task: Any, focus_areas: Any) -> dict[str, Any]:
    """The template's worker (``worker-state-template.json``)."""
    return {
        "status": "planned",
        "spawned_at": None,
        "last_update": None,
        "last_heartbeat": None,
        "task": task,
        "focus_areas": focus_areas if isinstance(focus_areas, list) else [],
        "outputs": {"notes": None, "json": None, "artifacts": []},
        "metrics": {
            "events_logged": 0,
            "debug_entries": 0,
            "files_created": 0,
            "tokens_estimated": 0,
            "duration_seconds": 0,
        },
        "protocol_compliance": {
            "startup_logged": False,
            "configuration_logged": False,
            "completion_logged": False,
            "debug_logging_active": False,
        },
    }


def advance(d: dict[str, Any], key: str, now: str) -> None:
    """``d[key] = now`` unless it holds a later time (no stamp moves back)."""
    current = d.get(key)
    if current is None or current <= now:
        d[key] = now


def deep_merge(base: dict[str, Any], updates: dict[str, Any]) -> None:
    """Objects merged recursively, everything else (lists, null) replaced, in place."""
    for key, value in updates.items():
        current = base.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            deep_merge(current, value)
        else:
            base[key] = value


def change_phase(state: dict[str, Any], to: str, now: str) -> None:
    if state["status"] == to:
        return
    state["status"] = to
    state["coordination_status"]["phase"] = to
    times = state["timestamps"]
    transitions = times["phase_transitions"]
    # Never before an earlier phase's stamp (or created_at).
    at = max([now, times["created_at"], *(t for t in transitions.values() if t)])
    transitions[PHASE_STAMPS[to]] = at


def millis(stamp: str) -> int:
    """Milliseconds since the epoch of an RFC 3339 time in UTC (``...Z``)."""
    return round(datetime.fromisoformat(stamp[:-1]).replace(tzinfo=timezone.utc).timestamp() * 1000)


def apply(state: dict[str, Any] | None, event: dict[str, Any], session_id: str) -> dict[str, Any]:
    """One event applied to ``state`` (``None`` before ``session_created``)."""
    kind = event["type"]
    now = event["timestamp"]
    agent = event.get("agent", "")
    details = event.get("details")
    if state is None:
        state = created(session_id, details, now)
    elif kind == "state_updated":
        before = state["status"]
        updates = details["updates"]
        target = updates.get("status") or updates.get("coordination_status", {}).get("phase")
        if details.get("strategy") == "shallow":
            state.update(updates)
        else:
            deep_merge(state, updates)
        if target and target != before:
            state["status"] = before
            change_phase(state, target, now)
    elif kind == "phase_changed":
        change_phase(state, details["to"], now)
    elif kind == "workers_planned":
        planned = state["coordination_status"]["workers_planned"]
        for w in details["workers"]:
            state["worker_states"][w["name"]] = planned_worker(w["task"], w.get("focus_areas"))
            if w["name"] not in planned:
                planned.append(w["name"])
        if details.get("rationale") is not None:
            state["queen_decisions"]["worker_selection_rationale"] = details["rationale"]
    elif kind in WORKER_EVENTS:
        name = details.get("worker", agent) if isinstance(details, dict) else agent
        worker = state["worker_states"][name]
        coordination = state["coordination_status"]
        if kind == "worker_heartbeat":
            advance(worker, "last_heartbeat", now)
        elif kind == "worker_progress":
            for field in ("metrics", "protocol_compliance"):
                if details.get(field):
                    worker[field].update(details[field])
            advance(worker, "last_update", now)
            advance(worker, "last_heartbeat", now)
        elif kind == "spawn_attempted":
            attempts = coordination["spawn_attempts"]
            attempts[name] = details.get("attempt", attempts.get(name, 0) + 1)
            worker["status"] = "spawning"
        elif kind == "worker_spawned":
            # A failed worker spawned again drops its error (the log keeps it).
            if worker["status"] != "active":
                worker.pop("error", None)
            worker["status"] = "active"
            worker["spawned_at"] = now
            advance(worker, "last_update", now)
            advance(worker, "last_heartbeat", now)
            worker["protocol_compliance"]["startup_logged"] = True
            for key in ("workers_spawned", "workers_active"):
                if name not in coordination[key]:
                    coordination[key].append(name)
        elif kind == "worker_completed":
            metrics = details.get("metrics") or {}
            worker["outputs"].update(details["outputs"])
            worker["metrics"].update(metrics)
            if "duration_seconds" not in metrics and worker["spawned_at"]:
                ms = max(0, millis(now) - millis(worker["spawned_at"]))
                worker["metrics"]["duration_seconds"] = ms // 1000 if ms % 1000 == 0 else ms / 1000
            worker["protocol_compliance"]["completion_logged"] = True
            worker["status"] = "completed"
            advance(worker, "last_update", now)
            advance(worker, "last_heartbeat", now)
            if name in coordination["workers_active"]:
                coordination["workers_active"].remove(name)
            if name not in coordination["workers_completed"]:
                coordination["workers_completed"].append(name)
        elif kind == "worker_failed":
            error = details["error"]
            error = {"message": error} if isinstance(error, str) else dict(error)
            error["message"] = error["message"].replace("\r", " ").replace("\n", " ")
            error.setdefault("at", now)
            worker["status"] = "failed"
            worker["error"] = error
            advance(worker, "last_update", now)
            if name in coordination["workers_active"]:
                coordination["workers_active"].remove(name)
                if name not in coordination["workers_failed"]:
                    coordination["workers_failed"].append(name)
    # Every event: the counters and the session's stamps.
    state["metrics"]["total_events_logged"] += 1
    worker = state["worker_states"].get(agent)
    if worker is not None:
        worker["metrics"]["events_logged"] += 1
    times = state["timestamps"]
    advance(times, "updated_at", now)
    advance(times, "last_heartbeat", now)
    return state


def fold(path: str, session_id: str) -> tuple[dict[str, Any], int]:
    """The state of the log at ``path`` and how many events it folded."""
    state = None
    offset = count = 0
    loads = orjson.loads
    with open(path, "rb") as f:
        for line in f:
            offset += len(line)
            if line.isspace():
                continue
            state = apply(state, loads(line), session_id)
            count += 1
    if state is None:
        raise ValueError(f"{path}: no session_created")
    state["session_metadata"]["log_offset"] = offset
    return state, count
