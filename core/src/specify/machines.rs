//! The specify workflow's machines on the core engine (docs/specify.md § The loop): the loop
//! status (seed 004, "Status Transitions") and a gap's status.

use crate::error::{Code, Error, Result};
use crate::machine::{Instance, Machine};
use crate::Value;
use std::sync::OnceLock;

const LOOP: &str = r#"{
  "name": "specify_loop",
  "initial": "not_started",
  "states": [
    {"name": "not_started", "description": "Pre-A: the workflow has not begun"},
    {"name": "scaffolding", "description": "A1: creating the branch and directories"},
    {"name": "spec_writing", "description": "A2: generating the spec's content"},
    {"name": "validating", "description": "A3/B3: running the validation checks"},
    {"name": "clarifying", "description": "B1: waiting for the user's answers"},
    {"name": "completed", "description": "C4: the workflow finished successfully", "terminal": true},
    {"name": "terminated", "description": "the workflow ended (max iterations, stale gaps, the user)", "terminal": true}
  ],
  "transitions": [
    {"from": "not_started", "event": "scaffold", "to": "scaffolding"},
    {"from": "scaffolding", "event": "write_spec", "to": "spec_writing"},
    {"from": "spec_writing", "event": "validate", "to": "validating"},
    {"from": "validating", "event": "clarify", "to": "clarifying"},
    {"from": "clarifying", "event": "validate", "to": "validating"},
    {"from": ["validating", "clarifying"], "event": "complete", "to": "completed"},
    {"from": ["not_started", "scaffolding", "spec_writing", "validating", "clarifying"],
     "event": "terminate", "to": "terminated"}
  ]
}"#;

const GAP: &str = r#"{
  "name": "specify_gap",
  "initial": "pending",
  "states": [
    {"name": "pending", "description": "identified, not yet addressed"},
    {"name": "clarifying", "description": "its question is presented, awaiting the answer"},
    {"name": "resolved", "description": "the user's answer is applied to the spec"},
    {"name": "deferred", "description": "a Minor gap, deferred to later"},
    {"name": "known_gap", "description": "a stale gap the user accepted, documented as known"}
  ],
  "transitions": [
    {"from": ["pending", "deferred"], "event": "clarify", "to": "clarifying"},
    {"from": ["pending", "clarifying", "deferred"], "event": "resolve", "to": "resolved"},
    {"from": ["pending", "clarifying"], "event": "defer", "to": "deferred"},
    {"from": ["pending", "clarifying", "deferred"], "event": "accept", "to": "known_gap"},
    {"from": ["clarifying", "resolved", "deferred", "known_gap"], "event": "reopen", "to": "pending"}
  ]
}"#;

/// The loop statuses' machine definition (for `machine.*`).
pub fn loop_machine() -> Value {
    crate::machine::definition(LOOP)
}

/// The gap statuses' machine definition.
pub fn gap_machine() -> Value {
    crate::machine::definition(GAP)
}

fn built_loop() -> Result<&'static Machine> {
    static BUILT: OnceLock<Option<Machine>> = OnceLock::new();
    crate::machine::built_once(&BUILT, loop_machine, "specify_loop")
}

fn built_gap() -> Result<&'static Machine> {
    static BUILT: OnceLock<Option<Machine>> = OnceLock::new();
    crate::machine::built_once(&BUILT, gap_machine, "specify_gap")
}

/// Checks a loop status change on the machine: `Ok(false)` for no change, `E_TRANSITION` at
/// `at` for a move the seed does not allow (naming the legal ones), `E_ARGUMENT` at `at` for
/// an unknown status (the one asked for, or the one the document has).
pub fn loop_move(from: &str, to: &str, at: &str) -> Result<bool> {
    check_move(built_loop()?, "the loop", from, to, at)
}

/// Checks a gap status change on the machine (as [`loop_move`]).
pub fn gap_move(gap: &str, from: &str, to: &str, at: &str) -> Result<bool> {
    check_move(built_gap()?, &format!("gap {gap}"), from, to, at)
}

/// Checks a gap's status change on the machine and against its priority: `deferred` is a
/// Minor gap's status only (seed: "Minor gap, deferred to later"), so deferring a Critical or
/// Important gap (or one without a priority) is `E_TRANSITION` at `at`, even when it is
/// deferred already.
pub fn gap_change(
    gap: &str,
    priority: Option<&str>,
    from: &str,
    to: &str,
    at: &str,
) -> Result<bool> {
    let moved = gap_move(gap, from, to, at)?;
    if to == "deferred" && priority != Some("Minor") {
        return Err(not_deferrable(gap, priority, from, at));
    }
    Ok(moved)
}

/// `E_TRANSITION` at `at`: a gap of `priority` (not Minor) cannot be `deferred`.
pub fn not_deferrable(gap: &str, priority: Option<&str>, from: &str, at: &str) -> Error {
    let mut allowed: Vec<Value> = Vec::new();
    if let Ok(events) = built_gap().and_then(|m| m.events(from, &Value::Null)) {
        for event in events.iter().filter(|e| e.to != "deferred") {
            let to = Value::from(event.to.as_str());
            if !allowed.contains(&to) {
                allowed.push(to);
            }
        }
    }
    let what = priority.map_or_else(|| "without a priority".to_owned(), str::to_owned);
    Error::new(
        Code::Transition,
        at,
        format!(
            "gap {gap} is {what} and cannot be deferred: only a Minor gap is deferred; \
             resolve it, ask it again (pending) or accept it as known_gap"
        ),
    )
    .with_detail("gap", gap)
    .with_detail("priority", priority.map_or(Value::Null, Value::from))
    .with_detail("state", from)
    .with_detail("to", "deferred")
    .with_detail("allowed", Value::Array(allowed))
}

fn check_move(machine: &Machine, what: &str, from: &str, to: &str, at: &str) -> Result<bool> {
    let states: Vec<&str> = machine.states.iter().map(|s| s.name.as_str()).collect();
    if !states.contains(&to) {
        return Err(Error::new(
            Code::Argument,
            at,
            format!(
                "{to:?} is not a status of {what}; statuses: {}",
                states.join(", ")
            ),
        )
        .with_detail("status", to));
    }
    if !states.contains(&from) {
        return Err(Error::new(
            Code::Argument,
            at,
            format!(
                "{what} has the status {from:?}, which statecore does not know, so no move \
                 from it can be checked; statuses: {}; correct the cell by hand or with a raw \
                 edit (update_index)",
                states.join(", ")
            ),
        )
        .with_detail("status", from)
        .with_detail("to", to));
    }
    if from == to {
        return Ok(false);
    }
    let legal = machine.events(from, &Value::Null)?;
    if let Some(event) = legal.iter().find(|e| e.to == to) {
        let instance = Instance {
            state: from.to_owned(),
            previous: None,
        };
        machine.fire(&instance, &event.event, &Value::Null)?;
        return Ok(true);
    }
    let next: Vec<&str> = legal.iter().map(|e| e.to.as_str()).collect();
    let allowed = if next.is_empty() {
        format!("{from} is final")
    } else {
        format!("from {from} it can go to {}", next.join(", "))
    };
    Err(Error::new(
        Code::Transition,
        at,
        format!("{what} cannot move from {from} to {to}: {allowed}"),
    )
    .with_detail("state", from)
    .with_detail("to", to)
    .with_detail("allowed", next))
}
