//! A session's steps. Every step is an event: the step builds its `EVENTS.jsonl` line, then
//! applies it to the state with [`apply`], the one function that also replays a log
//! (`recover_state`), so a state and the fold of its log agree by construction
//! (docs/hive.md § Events). The host writes the state and appends the line under one lock.

use super::fold::{apply, check_event, Check};
use super::phases;
use super::progress::PROGRESS_FIELDS;
use super::template::object;
use super::workers::details;
use crate::error::{Code, Error, Result};
use crate::time::normalize_now;
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

/// `E_ARGUMENT` unless `session_id` can name a session's directory: not blank, one path
/// component (no `/`, `\\`, NUL or control character; not `.` or `..`).
pub fn check_session_id(session_id: &str) -> Result<()> {
    let bad = session_id.trim().is_empty()
        || matches!(session_id, "." | "..")
        || session_id
            .chars()
            .any(|c| matches!(c, '/' | '\\') || c.is_control());
    if bad {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "{session_id:?} cannot name a session: it is its directory's name, one path \
                 component (not blank, no / or \\ or control characters, not . or ..)"
            ),
        )
        .with_detail("session_id", session_id));
    }
    Ok(())
}

/// `create_session`: the full v2 structure (the template's sections and defaults) and its
/// `session_created` event.
pub fn create_session(session_id: &str, task: &str, now: &Value) -> Result<Value> {
    check_session_id(session_id)?;
    let (now, _) = normalize_now(now)?;
    let line = event(
        &now,
        "session_created",
        QUEEN,
        object(vec![("task", task.into())]),
    );
    let state = apply(None, &line, session_id, Check::Full)?;
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
    let details = object(vec![
        ("updates", updates.clone()),
        ("strategy", strategy.unwrap_or("deep").into()),
    ]);
    run(state, now, "state_updated", agent.unwrap_or(QUEEN), details)
}

/// `change_phase`: the session moved to `phase` on the machine (its stamp written), and its
/// `phase_changed` event.
pub fn change_phase(state: Value, phase: &str, now: &Value) -> Result<Value> {
    let from = state
        .as_object()
        .and_then(phases::current)
        .unwrap_or("initializing")
        .to_owned();
    let details = object(vec![("from", from.as_str().into()), ("to", phase.into())]);
    run(state, now, "phase_changed", QUEEN, details)
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

/// A step: the event `kind` by `agent` with `details` at `now`, applied to `state`.
fn run(state: Value, now: &Value, kind: &str, agent: &str, details: Value) -> Result<Value> {
    let state = session(state)?;
    json::check_limits(&details)?;
    let (now, _) = normalize_now(now)?;
    let line = event(&now, kind, agent, details);
    let state = apply(Some(state), &line, "", Check::Full)?;
    Ok(step(state, line))
}

/// `apply_event`: any event line (a `hive.event`) applied as a replay applies it: a
/// milestone's effect, a state update or a phase change, or for another type only the
/// stamps and counters. Returns the state and the line.
pub fn apply_event(state: Value, event: Value) -> Result<Value> {
    let state = session(state)?;
    json::check_limits(&event)?;
    check_event(&event)?;
    let Value::Object(line) = event else {
        return Err(Error::new(
            Code::Argument,
            "",
            "the event must be an EVENTS.jsonl line: an object {timestamp, type, agent, details}",
        ));
    };
    let state = apply(Some(state), &line, "", Check::Full)?;
    Ok(step(state, line))
}

/// `plan_workers`: the queen plans `workers` (`[{name, task, focus_areas}]`), each added to
/// `workers_planned` with the template's worker state; `rationale` is recorded as the
/// queen's `worker_selection_rationale`. Event `workers_planned`.
pub fn plan_workers(
    state: Value,
    workers: &Value,
    rationale: Option<&str>,
    now: &Value,
) -> Result<Value> {
    let mut fields = vec![("workers", workers.clone())];
    if let Some(rationale) = rationale {
        fields.push(("rationale", rationale.into()));
    }
    run(state, now, "workers_planned", QUEEN, object(fields))
}

/// `record_spawn_attempt`: the queen tries to spawn `worker` (status `spawning`, its
/// `spawn_attempts` count up by one). Event `spawn_attempted`.
pub fn record_spawn_attempt(state: Value, worker: &str, now: &Value) -> Result<Value> {
    let attempt = state
        .pointer("/coordination_status/spawn_attempts")
        .and_then(|a| a.get(worker))
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .saturating_add(1);
    let fields = details(worker, vec![("attempt", attempt.into())]);
    run(state, now, "spawn_attempted", QUEEN, fields)
}

/// `spawn_worker`: `worker` started (status `active`, `spawned_at`, listed as spawned and
/// active, `startup_logged`); a worker no plan announced is planned first, an active one is
/// spawned again (its stamps only), a failed one respawned, a completed one refused. Event
/// `worker_spawned` by the worker.
pub fn spawn_worker(state: Value, worker: &str, now: &Value) -> Result<Value> {
    run(
        state,
        now,
        "worker_spawned",
        worker,
        details(worker, vec![]),
    )
}

/// `heartbeat`: an active `worker` is alive (its `last_heartbeat`). Event
/// `worker_heartbeat` by the worker.
pub fn heartbeat(state: Value, worker: &str, now: &Value) -> Result<Value> {
    run(
        state,
        now,
        "worker_heartbeat",
        worker,
        details(worker, vec![]),
    )
}

/// `record_progress`: an active `worker`'s `metrics` and `protocol_compliance` fields set
/// from `progress`, its `last_update` and `last_heartbeat`. Event `worker_progress`.
pub fn record_progress(state: Value, worker: &str, progress: &Value, now: &Value) -> Result<Value> {
    let Some(fields) = progress.as_object() else {
        return Err(Error::new(
            Code::Argument,
            "",
            "progress must be an object {metrics, protocol_compliance}",
        ));
    };
    if let Some(key) = fields
        .keys()
        .find(|k| !PROGRESS_FIELDS.contains(&k.as_str()))
    {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "progress has no field {key:?}: it sets {}",
                PROGRESS_FIELDS.join(" and ")
            ),
        )
        .with_detail("field", key.as_str()));
    }
    let pairs = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    run(
        state,
        now,
        "worker_progress",
        worker,
        details(worker, pairs),
    )
}

/// `complete_worker`: an active `worker` finished with `outputs` (`{notes, json,
/// artifacts}`, merged into its outputs) and optional `metrics`; status `completed`, moved
/// from active to completed, `completion_logged`, its time worked. Event `worker_completed`.
pub fn complete_worker(
    state: Value,
    worker: &str,
    outputs: &Value,
    metrics: Option<&Value>,
    now: &Value,
) -> Result<Value> {
    let mut fields = vec![("outputs", outputs.clone())];
    if let Some(metrics) = metrics {
        fields.push(("metrics", metrics.clone()));
    }
    run(
        state,
        now,
        "worker_completed",
        worker,
        details(worker, fields),
    )
}

/// `fail_worker`: `worker` failed with `error` (a message, or `{message, ...}`): status
/// `failed` with its `error`, moved from active to failed (a worker failed already keeps its
/// first error). Event `worker_failed` by `agent`
/// (the worker itself by default; the queen or a monitor passes its own name).
pub fn fail_worker(
    state: Value,
    worker: &str,
    error: &Value,
    now: &Value,
    agent: Option<&str>,
) -> Result<Value> {
    let fields = details(worker, vec![("error", error.clone())]);
    run(state, now, "worker_failed", agent.unwrap_or(worker), fields)
}
