//! A session's phases as a machine on the core engine (seed 003, "Phase Progression"):
//! initializing → planning → spawning → executing → synthesizing → complete, one at a time,
//! and `failed` from any phase, `complete` included (the seed: "Can transition to "failed"
//! from any phase"); `failed` is final. A phase change stamps its
//! `timestamps.phase_transitions` time and sets both phase fields (docs/hive.md § Phases).

use crate::error::{Code, Error, Result};
use crate::machine::{Instance, Machine};
use crate::time::parse_timestamp;
use crate::{Map, Value};
use std::sync::OnceLock;

/// The phases, in order (`failed` last).
pub const PHASES: [&str; 7] = [
    "initializing",
    "planning",
    "spawning",
    "executing",
    "synthesizing",
    "complete",
    "failed",
];

/// The `phase_transitions` field each phase's entry stamps (`initializing` has none: its
/// time is `created_at`).
pub fn stamp_field(phase: &str) -> Option<&'static str> {
    match phase {
        "planning" => Some("planning_started"),
        "spawning" => Some("spawning_started"),
        "executing" => Some("execution_started"),
        "synthesizing" => Some("synthesis_started"),
        "complete" => Some("completed_at"),
        "failed" => Some("failed_at"),
        _ => None,
    }
}

const MACHINE: &str = r#"{
  "name": "hive",
  "initial": "initializing",
  "states": [
    {"name": "initializing", "description": "the session is being created"},
    {"name": "planning", "description": "the queen assesses the task and plans workers"},
    {"name": "spawning", "description": "the queen spawns the planned workers"},
    {"name": "executing", "description": "the workers work"},
    {"name": "synthesizing", "description": "the queen synthesizes the workers' outputs"},
    {"name": "complete", "description": "the session is done"},
    {"name": "failed", "description": "the session failed", "terminal": true}
  ],
  "transitions": [
    {"from": "initializing", "event": "start_planning", "to": "planning"},
    {"from": "planning", "event": "start_spawning", "to": "spawning"},
    {"from": "spawning", "event": "start_execution", "to": "executing"},
    {"from": "executing", "event": "start_synthesis", "to": "synthesizing"},
    {"from": "synthesizing", "event": "complete", "to": "complete"},
    {"from": ["initializing", "planning", "spawning", "executing", "synthesizing", "complete"],
     "event": "fail", "to": "failed"}
  ]
}"#;

/// The phase machine's definition (for `machine.*`).
pub fn hive_machine() -> Value {
    crate::machine::definition(MACHINE)
}

/// The machine, read once.
pub(super) fn built() -> Result<&'static Machine> {
    static BUILT: OnceLock<Option<Machine>> = OnceLock::new();
    crate::machine::built_once(&BUILT, hive_machine, "hive")
}

/// The session's phase of record: `status` (docs/hive.md § Phases).
pub(super) fn current(state: &Map) -> Option<&str> {
    state.get("status").and_then(Value::as_str)
}

/// Moves the session in `state` to `target` at `now` (RFC 3339): the machine's transition
/// from the current phase, `status` and `coordination_status.phase` set, the phase's stamp
/// written. Moving to the current phase changes nothing (false). `E_TRANSITION` for a skip,
/// a move back, a move out of `complete` to anything but `failed`, or any move out of
/// `failed`, naming the legal ones.
pub(super) fn change(state: &mut Map, target: &str, now: &str) -> Result<bool> {
    let machine = built()?;
    if !PHASES.contains(&target) {
        return Err(Error::new(
            Code::Argument,
            "/status",
            format!("{target:?} is not a phase; phases: {}", PHASES.join(", ")),
        )
        .with_detail("phase", target));
    }
    let from = current(state).unwrap_or("initializing").to_owned();
    if from == target {
        return Ok(false);
    }
    let legal = machine.events(&from, &Value::Null)?;
    let Some(event) = legal.iter().find(|e| e.to == target) else {
        let next: Vec<&str> = legal.iter().map(|e| e.to.as_str()).collect();
        let allowed = if next.is_empty() {
            format!("{from} is final")
        } else {
            format!("from {from} the session can go to {}", next.join(" or "))
        };
        return Err(Error::new(
            Code::Transition,
            "/status",
            format!(
                "cannot move the session from {from} to {target}: phases progress \
                 initializing → planning → spawning → executing → synthesizing → complete \
                 one at a time (or to failed); {allowed}"
            ),
        )
        .with_detail("from", from.as_str())
        .with_detail("to", target));
    };
    let fired = machine.fire(
        &Instance {
            state: from,
            previous: None,
        },
        &event.event,
        &Value::Null,
    )?;
    let phase = fired.instance.state;
    state.insert("status".into(), Value::from(phase.as_str()));
    set(
        state,
        "coordination_status",
        "phase",
        Value::from(phase.as_str()),
    );
    if let Some(field) = stamp_field(&phase) {
        with_object(state, "timestamps", |timestamps| {
            let at = not_before(timestamps, now);
            set(timestamps, "phase_transitions", field, Value::from(at));
        });
    }
    Ok(true)
}

/// `now`, or the latest of `created_at` and the phase stamps when that is later: a phase's
/// stamp never comes before an earlier phase's, even when a log's times go back.
fn not_before(timestamps: &Map, now: &str) -> String {
    let millis = |value: &Value| value.as_str().and_then(|t| parse_timestamp(t).ok());
    let mut latest = (parse_timestamp(now).ok(), now.to_owned());
    let stamps = timestamps
        .get("phase_transitions")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|t| t.values());
    for value in timestamps.get("created_at").into_iter().chain(stamps) {
        if let (Some(ms), Some(text)) = (millis(value), value.as_str()) {
            if latest.0.is_none_or(|current| ms > current) {
                latest = (Some(ms), text.to_owned());
            }
        }
    }
    latest.1
}

/// Runs `f` on `state[key]` as an object, made (or replacing a value that is not one) first;
/// the result is `None` only if that failed (it cannot: the key holds an object then).
pub(super) fn with_object<R>(
    state: &mut Map,
    key: &str,
    f: impl FnOnce(&mut Map) -> R,
) -> Option<R> {
    if let Some(Value::Object(map)) = state.get_mut(key) {
        return Some(f(map));
    }
    state.insert(key.into(), Value::Object(Map::new()));
    match state.get_mut(key) {
        Some(Value::Object(map)) => Some(f(map)),
        _ => None,
    }
}

/// Sets `state[outer][key]`.
pub(super) fn set(state: &mut Map, outer: &str, key: &str, value: Value) {
    with_object(state, outer, |map| map.insert(key.into(), value));
}
