//! The priority loop (docs/specify.md § The loop): starting it, moving its status on the
//! machine, ending an iteration (staleness, then the termination checks in the seed's
//! order), and where a workflow resumes.

use super::edit::{self, index_map, loop_status, now_text, object_mut, rows, text};
use super::machines::loop_move;
use super::queue::{blocking, countable, open, recount, stale};
use super::validate::{MAX_ITERATIONS, STALE_LIMIT};
use crate::error::Result;
use crate::shape::check::present;
use crate::{Map, Value};

/// A gap open this many iterations is a warning.
pub const STALE_WARNING: u64 = 2;

/// The loop state of a new workflow: `scaffolding`, iteration `1 / 10`, stale `0 / 3`.
fn new_state(now: &str) -> Map {
    let mut state = Map::new();
    state.insert("loop_status".into(), Value::from("scaffolding"));
    state.insert("current_iteration".into(), Value::from(1u64));
    state.insert("max_iterations".into(), Value::from(MAX_ITERATIONS));
    state.insert("last_activity".into(), Value::from(now));
    state.insert("stale_count".into(), Value::from(0u64));
    state.insert("max_stale".into(), Value::from(STALE_LIMIT));
    state.insert("termination_reason".into(), Value::Null);
    state.insert("deferred_minor_gaps".into(), Value::from(0u64));
    state
}

/// Starts the workflow, or says where it resumes: an index that is missing or
/// `not_started` gets the loop state (`scaffolding`) and the seed's empty tables it lacks;
/// any other is unchanged. Returns `{index, changed, resume}`.
pub fn start(index: Value, now: &Value) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    if loop_status(&map) != "not_started" {
        let resume = resume_point(&Value::Object(map.clone()))?;
        return Ok(edit::outcome(map, false, vec![("resume", resume)]));
    }
    loop_move(
        "not_started",
        "scaffolding",
        "/priority_loop_state/loop_status",
    )?;
    let mut state = new_state(&now);
    if let Some(old) = edit::loop_state(&map) {
        for (key, value) in old.iter() {
            if !state.contains_key(key) {
                state.insert(key.clone(), value.clone());
            }
        }
    }
    map.insert("priority_loop_state".into(), Value::Object(state));
    for key in [
        "gap_priority_queue",
        "gap_resolution_history",
        "traceability_matrix",
    ] {
        if !map.contains_key(key) {
            map.insert(key.into(), Value::Array(Vec::new()));
        }
    }
    let resume = resume_point(&Value::Object(map.clone()))?;
    Ok(edit::outcome(map, true, vec![("resume", resume)]))
}

/// Moves the loop to `status` on the machine (`E_TRANSITION` for a move the seed does not
/// allow); `reason` is the termination reason of a move to `completed` (default `success`)
/// or `terminated` (default `user`).
pub fn set_loop_status(
    index: Value,
    status: &str,
    now: &Value,
    reason: Option<&str>,
) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    let at = "/priority_loop_state/loop_status";
    if !loop_move(loop_status(&map), status, at)? {
        return Ok(Value::Object(map));
    }
    let state = object_mut(&mut map, "priority_loop_state")?;
    state.insert("loop_status".into(), Value::from(status));
    let default = match status {
        "completed" => Some("success"),
        "terminated" => Some("user"),
        _ => None,
    };
    if let Some(reason) = reason.or(default) {
        state.insert("termination_reason".into(), Value::from(reason));
    }
    edit::touch(&mut map, &now)?;
    Ok(Value::Object(map))
}

/// True when the iteration resolved, deferred or accepted a gap (its history says so).
fn progressed(map: &Map, iteration: u64) -> bool {
    rows(map, "gap_resolution_history").any(|row| {
        present(row, "iteration").and_then(Value::as_u64) == Some(iteration)
            && matches!(
                text(row, "action"),
                Some("resolved" | "deferred" | "known_gap")
            )
    })
}

/// The termination check, in the seed's order (a queue it cannot count, see [`countable`],
/// is `E_ARGUMENT`): no open Critical or Important gap →
/// `success`; the last iteration → `max_iterations`; stale gaps → `stale` (the user retries,
/// accepts them as `known_gap`, or edits them); an iteration without progress →
/// `no_progress` (the user decides); else `continue`. `{outcome, reason, blocking,
/// stale_gaps, warning_gaps}`.
pub fn check_termination(index: &Value) -> Result<Value> {
    let map = edit::index_map(index.clone())?;
    countable(&map)?;
    Ok(termination(&map, progressed(&map, edit::iteration(&map))))
}

fn termination(map: &Map, progress: bool) -> Value {
    let ids = |keep: &dyn Fn(&Map) -> bool| -> Vec<Value> {
        rows(map, "gap_priority_queue")
            .filter(|g| keep(g))
            .filter_map(|g| g.get("id").cloned())
            .collect()
    };
    let open_blocking = ids(&|g| blocking(g));
    let stale_gaps = ids(&|g| blocking(g) && stale(g) >= STALE_LIMIT);
    let warning_gaps = ids(&|g| blocking(g) && stale(g) == STALE_WARNING);
    let last = edit::iteration(map) >= edit::max_iterations(map);
    let (outcome, reason) = if open_blocking.is_empty() {
        ("success", Some("success"))
    } else if last {
        ("max_iterations", Some("max_iterations"))
    } else if !stale_gaps.is_empty() {
        ("stale", None)
    } else if !progress {
        ("no_progress", None)
    } else {
        ("continue", None)
    };
    let mut out = Map::new();
    out.insert("outcome".into(), Value::from(outcome));
    out.insert("reason".into(), reason.map_or(Value::Null, Value::from));
    out.insert("blocking".into(), Value::Array(open_blocking));
    out.insert("stale_gaps".into(), Value::Array(stale_gaps));
    out.insert("warning_gaps".into(), Value::Array(warning_gaps));
    Value::Object(out)
}

/// Ends an iteration after its validation (a queue the check cannot count, see
/// [`countable`], is `E_ARGUMENT` and nothing changes): every open Critical or Important gap gains a
/// stale count (up to 3), the loop's stale count grows when no gap was resolved, deferred
/// or accepted in the iteration (else it goes back to 0); then the termination check.
/// `success` completes the loop, `max_iterations` terminates it; `stale`, `no_progress` and
/// `continue` move to the next iteration. Returns `{index, changed, termination}`.
pub fn end_iteration(index: Value, now: &Value) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    countable(&map)?;
    let iteration = edit::iteration(&map);
    let progress = progressed(&map, iteration);
    if let Some(Value::Array(gaps)) = map.get_mut("gap_priority_queue") {
        for gap in gaps.iter_mut().filter_map(Value::as_object_mut) {
            if blocking(gap) {
                let count = stale(gap).saturating_add(1).min(STALE_LIMIT);
                gap.insert("stale".into(), Value::from(count));
            }
        }
    }
    let state = object_mut(&mut map, "priority_loop_state")?;
    let count = if progress {
        0
    } else {
        let before = present(state, "stale_count")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        before.saturating_add(1).min(STALE_LIMIT)
    };
    state.insert("stale_count".into(), Value::from(count));
    let result = termination(&map, progress);
    let outcome = result
        .get("outcome")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let at = "/priority_loop_state/loop_status";
    let status = loop_status(&map).to_owned();
    let state = object_mut(&mut map, "priority_loop_state")?;
    match outcome {
        "success" => {
            loop_move(&status, "completed", at)?;
            state.insert("loop_status".into(), Value::from("completed"));
            state.insert("termination_reason".into(), Value::from("success"));
        }
        "max_iterations" => {
            loop_move(&status, "terminated", at)?;
            state.insert("loop_status".into(), Value::from("terminated"));
            state.insert("termination_reason".into(), Value::from("max_iterations"));
        }
        _ => {
            state.insert(
                "current_iteration".into(),
                Value::from(iteration.saturating_add(1)),
            );
        }
    }
    recount(&mut map);
    edit::touch(&mut map, &now)?;
    Ok(edit::outcome(map, true, vec![("termination", result)]))
}

/// Where a workflow resumes, by its loop status: `{loop_status, phase, action,
/// description}` (and the clarifying gaps, when it waits for answers).
pub fn resume_point(index: &Value) -> Result<Value> {
    let map = match index {
        Value::Object(map) => map.clone(),
        other => edit::index_map(other.clone())?,
    };
    let status = loop_status(&map);
    let (phase, action, description) = match status {
        "scaffolding" => (
            "A1",
            "scaffold",
            "create the branch and directories (again)",
        ),
        "spec_writing" => ("A2", "write_spec", "generate the spec's content"),
        "validating" => ("A3/B3", "validate", "run the validation checks"),
        "clarifying" => (
            "B1",
            "collect_answers",
            "present the clarifications, apply the answers",
        ),
        "completed" => ("C4", "done", "the workflow finished successfully"),
        "terminated" => ("-", "done", "the workflow ended"),
        _ => ("Pre-A", "start", "start the workflow"),
    };
    let mut out = Map::new();
    out.insert("loop_status".into(), Value::from(status));
    out.insert("phase".into(), Value::from(phase));
    out.insert("action".into(), Value::from(action));
    out.insert("description".into(), Value::from(description));
    if status == "clarifying" {
        let waiting: Vec<Value> = rows(&map, "gap_priority_queue")
            .filter(|g| open(g) && text(g, "status") == Some("clarifying"))
            .filter_map(|g| g.get("id").cloned())
            .collect();
        out.insert("clarifying".into(), Value::Array(waiting));
    }
    if let Some(reason) = edit::loop_state(&map).and_then(|s| present(s, "termination_reason")) {
        out.insert("termination_reason".into(), reason.clone());
    }
    Ok(Value::Object(out))
}
