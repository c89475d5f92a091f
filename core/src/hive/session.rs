//! A session's steps. Every step is an event: the step builds its `EVENTS.jsonl` line, then
//! applies it to the state with [`apply`], the one function that also replays a log
//! (`recover_state`), so a state and the fold of its log agree by construction
//! (docs/hive.md § Events). The host writes the state and appends the line under one lock.

use super::phases::{self, with_object};
use super::shapes::STRATEGIES;
use super::validate::validate_state;
use crate::error::{Code, Error, Result};
use crate::merge::{merge_owned, MergeOptions, Strategy};
use crate::time::{normalize_now, parse_timestamp};
use crate::{json, Map, Value};

/// The agent of the queen's events.
pub const QUEEN: &str = "queen";

/// A step's result: `{state, event}`.
pub(super) fn step(state: Map, event: Map) -> Value {
    let mut out = Map::new();
    out.insert("state".into(), Value::Object(state));
    out.insert("event".into(), Value::Object(event));
    Value::Object(out)
}

/// An event line: `{timestamp, type, agent, details}`.
pub(super) fn event(now: &str, kind: &str, agent: &str, details: Value) -> Map {
    let mut map = Map::new();
    map.insert("timestamp".into(), Value::from(now));
    map.insert("type".into(), Value::from(kind));
    map.insert("agent".into(), Value::from(agent));
    map.insert("details".into(), details);
    map
}

fn object(pairs: Vec<(&str, Value)>) -> Value {
    let mut map = Map::new();
    for (key, value) in pairs {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

/// `create_session`: the full v2 structure (the template's sections and defaults) and its
/// `session_created` event.
pub fn create_session(session_id: &str, task: &str, now: &Value) -> Result<Value> {
    if session_id.trim().is_empty() {
        return Err(Error::new(
            Code::Argument,
            "",
            "session_id must not be empty",
        ));
    }
    let (now, _) = normalize_now(now)?;
    let line = event(
        &now,
        "session_created",
        QUEEN,
        object(vec![("task", task.into())]),
    );
    let state = apply(None, &line, session_id)?;
    Ok(step(state, line))
}

/// `update_state`: `updates` merged (`deep`: objects recursively, lists replaced, `null`
/// kept; `shallow`: top level), a phase change among them checked on the machine, the
/// stamps set, the result validated; and its `state_updated` event. The strategy and
/// `updates` are checked where the event is applied, so a log line is held to the same.
pub fn update_state(
    state: Value,
    updates: &Value,
    strategy: Option<&str>,
    now: &Value,
    agent: Option<&str>,
) -> Result<Value> {
    let strategy = strategy.unwrap_or("deep");
    json::check_limits(updates)?;
    let (now, _) = normalize_now(now)?;
    let details = object(vec![
        ("updates", updates.clone()),
        ("strategy", strategy.into()),
    ]);
    let line = event(&now, "state_updated", agent.unwrap_or(QUEEN), details);
    let state = apply(Some(session(state)?), &line, "")?;
    Ok(step(state, line))
}

/// `change_phase`: the session moved to `phase` on the machine (its stamp written), and its
/// `phase_changed` event.
pub fn change_phase(state: Value, phase: &str, now: &Value) -> Result<Value> {
    let state = session(state)?;
    let (now, _) = normalize_now(now)?;
    let from = phases::current(&state).unwrap_or("initializing").to_owned();
    let details = object(vec![("from", from.as_str().into()), ("to", phase.into())]);
    let line = event(&now, "phase_changed", QUEEN, details);
    let state = apply(Some(state), &line, "")?;
    Ok(step(state, line))
}

/// A state argument as an object (`E_ARGUMENT` otherwise).
pub(super) fn session(state: Value) -> Result<Map> {
    match state {
        Value::Object(map) => Ok(map),
        other => Err(Error::new(
            Code::Argument,
            "",
            format!(
                "the state must be a STATE.json object, not {}",
                crate::merge::type_name(&other)
            ),
        )),
    }
}

/// Applies one event line to a session's state (`None`: no session yet; `session_id` names
/// it for `session_created`) and validates the result (`E_INVALID` with the report). The
/// stamps: `updated_at` and `last_heartbeat` take the event's time unless they are later
/// already (they never go back), and `metrics.total_events_logged` counts the event.
pub(super) fn apply(state: Option<Map>, line: &Map, session_id: &str) -> Result<Map> {
    let kind = line.get("type").and_then(Value::as_str).unwrap_or("");
    let now = line.get("timestamp").and_then(Value::as_str).unwrap_or("");
    let details = line.get("details").unwrap_or(&Value::Null);
    let mut state = match (state, kind) {
        (None, "session_created") => created(session_id, details, now),
        (None, _) => {
            return Err(Error::new(
                Code::Argument,
                "",
                format!("a {kind} event needs a session: session_created comes first"),
            ))
        }
        (Some(state), _) => state,
    };
    match kind {
        "state_updated" => state = updated(state, details, now)?,
        "phase_changed" => {
            let to = details.get("to").and_then(Value::as_str).unwrap_or("");
            phases::change(&mut state, to, now)?;
        }
        _ => {}
    }
    stamp(&mut state, now);
    let state = Value::Object(state);
    let report = validate_state(&state);
    if !report.valid() {
        return Err(crate::document::invalid_error("hive.state", &report));
    }
    session(state)
}

/// The stamps of every event (see [`apply`]).
fn stamp(state: &mut Map, now: &str) {
    with_object(state, "timestamps", |times| {
        for key in ["updated_at", "last_heartbeat"] {
            let later = times
                .get(key)
                .and_then(Value::as_str)
                .and_then(|t| parse_timestamp(t).ok())
                .zip(parse_timestamp(now).ok())
                .is_some_and(|(current, new)| current > new);
            if !later {
                times.insert(key.into(), Value::from(now));
            }
        }
    });
    with_object(state, "metrics", |metrics| {
        let logged = metrics
            .get("total_events_logged")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        metrics.insert(
            "total_events_logged".into(),
            logged.saturating_add(1).into(),
        );
    });
}

/// `state_updated`: the merge, with a phase change among the updates fired on the machine
/// from the phase before them.
fn updated(state: Map, details: &Value, now: &str) -> Result<Map> {
    let updates = details.get("updates").unwrap_or(&Value::Null);
    let strategy = match details.get("strategy").and_then(Value::as_str) {
        None | Some("deep") => Strategy::Deep,
        Some("shallow") => Strategy::Shallow,
        Some(other) => {
            return Err(Error::new(
                Code::Options,
                "",
                format!(
                    "unknown merge strategy {other:?}: use {}",
                    STRATEGIES.join(" or ")
                ),
            ))
        }
    };
    if !updates.is_object() {
        return Err(Error::new(
            Code::Argument,
            "",
            "updates must be a JSON object",
        ));
    }
    let before = phases::current(&state).map(str::to_owned);
    let target = updates
        .get("status")
        .and_then(Value::as_str)
        .or_else(|| {
            updates
                .get("coordination_status")
                .and_then(|c| c.get("phase"))
                .and_then(Value::as_str)
        })
        .map(str::to_owned);
    let merged = merge_owned(
        Value::Object(state),
        updates,
        &MergeOptions::with_strategy(strategy),
    )?;
    let mut merged = session(merged)?;
    if let (Some(before), Some(target)) = (before, target) {
        if before != target {
            merged.insert("status".into(), Value::from(before.as_str()));
            phases::change(&mut merged, &target, now)?;
        }
    }
    Ok(merged)
}

/// The v2 structure of a new session (the template's `state-v2-template.json`).
fn created(session_id: &str, details: &Value, now: &str) -> Map {
    let task = details.get("task").cloned().unwrap_or_else(|| "".into());
    let null = || Value::Null;
    let list = || Value::Array(Vec::new());
    let empty = || Value::Object(Map::new());
    let transitions = object(vec![
        ("planning_started", null()),
        ("spawning_started", null()),
        ("execution_started", null()),
        ("synthesis_started", null()),
        ("completed_at", null()),
    ]);
    let mut state = Map::new();
    for (key, value) in [
        ("version", "2.0".into()),
        ("session_id", session_id.into()),
        ("task", task),
        ("status", "initializing".into()),
    ] {
        state.insert(key.into(), value);
    }
    let sections = [
        (
            "timestamps",
            object(vec![
                ("created_at", now.into()),
                ("updated_at", now.into()),
                ("last_heartbeat", now.into()),
                ("phase_transitions", transitions),
            ]),
        ),
        (
            "coordination_status",
            object(vec![
                ("phase", "planning".into()),
                ("workers_planned", list()),
                ("workers_spawned", list()),
                ("workers_active", list()),
                ("workers_completed", list()),
                ("workers_failed", list()),
                ("spawn_attempts", empty()),
                ("synthesis_ready", false.into()),
                ("blocking_issues", list()),
            ]),
        ),
        ("worker_states", empty()),
        (
            "queen_decisions",
            object(vec![
                (
                    "complexity_assessment",
                    object(vec![
                        ("level", 1.into()),
                        ("factors", list()),
                        ("rationale", "".into()),
                    ]),
                ),
                ("worker_selection_rationale", "".into()),
                ("coordination_strategy", "parallel".into()),
                ("execution_plan", object(vec![("phases", list())])),
                ("escalation_triggers", list()),
            ]),
        ),
        (
            "research_progress",
            object(vec![
                ("domains_identified", list()),
                ("domains_completed", list()),
                ("synthesis_status", "pending".into()),
                ("key_findings", list()),
                ("synthesis_file", null()),
            ]),
        ),
        (
            "implementation_progress",
            object(vec![
                ("tasks_created", 0.into()),
                ("tasks_assigned", 0.into()),
                ("tasks_in_progress", 0.into()),
                ("tasks_completed", 0.into()),
                ("tasks_blocked", 0.into()),
                ("blocking_issues", list()),
            ]),
        ),
        (
            "quality_gates",
            object(vec![
                ("worker_selection_validated", false.into()),
                ("all_workers_spawned", false.into()),
                ("protocol_compliance_verified", false.into()),
                ("outputs_validated", false.into()),
                ("synthesis_complete", false.into()),
            ]),
        ),
        (
            "metrics",
            object(vec![
                ("session_duration_seconds", 0.into()),
                ("total_events_logged", 0.into()),
                ("total_debug_entries", 0.into()),
                ("worker_efficiency", empty()),
                ("token_usage_estimated", 0.into()),
                ("coordination_overhead_seconds", 0.into()),
            ]),
        ),
        (
            "session_metadata",
            object(vec![
                ("hive_mind_version", "2.0".into()),
                ("protocol_version", "2.0".into()),
                ("environment", "production".into()),
                ("resumption_capability", "full".into()),
                ("auto_recovery_enabled", true.into()),
            ]),
        ),
    ];
    for (key, value) in sections {
        state.insert(key.into(), value);
    }
    state
}
