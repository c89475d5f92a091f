//! One event line applied to a session's state: the one function behind every step and
//! behind recovery (`recover_state` folds a log with it), so a state and the fold of its
//! log agree by construction (docs/hive.md § Events).

use super::clock::Now;
use super::event::Event;
use super::phases;
use super::shapes::STRATEGIES;
use super::state::{Counter, Stamp, State};
use super::template::created;
use super::validate::{still_valid, validate_event, validate_state, validate_worker_at};
use super::workers;
use crate::error::{Code, Error, Result};
use crate::merge::{merge_owned, MergeOptions, Strategy};
use crate::{Map, Value};

/// How much of the state is validated after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// The whole state (a step: its result is refused if it breaks a rule).
    Full,
    /// A replay: the whole state after `state_updated` (a merge can change anything), the
    /// worker an event touched otherwise (a milestone keeps the lists and stamps consistent
    /// by construction); the whole state once at the end.
    Replay,
    /// A replay whose state passed a whole check before (it was valid): after a
    /// `state_updated` that changes no phase, the fields its updates name and every
    /// cross-field rule ([`still_valid`]); the whole state only when that finds a problem (its
    /// report is the error). The same verdict as [`Check::Replay`], which
    /// core/tests/hive_session_properties.rs checks.
    ReplayFromValid,
}

/// Applies one event `line` to a session's state (`None`: no session yet; `session_id`
/// names it for `session_created`). Every event sets `updated_at` and `last_heartbeat` to
/// its time unless they are later already (no stamp ever moves back), adds one to
/// `metrics.total_events_logged` and, when its agent is a worker, to that worker's
/// `metrics.events_logged`. A result that breaks a rule is `E_INVALID` with the report.
/// The line is a valid `hive.event` ([`check_event`]).
/// `line` is either form of an event line ([`Event`]), `state` either form of a state
/// ([`State`]): the fold is written once for all four.
pub(super) fn apply<S: State, E: Event + ?Sized>(
    state: Option<S>,
    line: &E,
    session_id: &str,
    check: Check,
) -> Result<S> {
    let kind = line.kind();
    let now = line.timestamp();
    let agent = line.agent();
    let mut state = match (state, kind) {
        (None, "session_created") => S::from_tree(created(session_id, line.details(), now)),
        (None, _) => {
            return Err(Error::new(
                Code::NoSession,
                "",
                format!("a {kind} event needs a session: session_created comes first"),
            ))
        }
        (Some(_), "session_created") => {
            return Err(Error::new(
                Code::Argument,
                "",
                "the session exists already: session_created is its first event only",
            ))
        }
        (Some(state), _) => state,
    };
    let mut touched = None;
    // The event's time, in the form the stamps are advanced with (once per event).
    let at = Now::of(now);
    match kind {
        "state_updated" => {
            let tree = std::mem::take(state.tree());
            *state.tree() = updated(tree, line.details(), now)?;
        }
        "phase_changed" => {
            let details = line.details();
            let to = details.get("to").and_then(Value::as_str).unwrap_or("");
            phases::change(state.tree(), to, now)?;
        }
        kind => touched = workers::apply(&mut state, kind, line, &at)?,
    }
    count(&mut state, agent);
    stamp(&mut state, &at);
    let whole = check == Check::Full || matches!(kind, "state_updated" | "session_created");
    if !whole && touched.is_none() {
        return Ok(state);
    }
    let tree = Value::Object(std::mem::take(state.tree()));
    let report = match &touched {
        Some(name) if !whole => worker_report(&tree, name),
        // Only where the typed session is (the browser's modules check whole: no code added).
        _ if cfg!(feature = "full")
            && check == Check::ReplayFromValid
            && merged_fields(kind, line.details()).is_some_and(|u| still_valid(&tree, u)) =>
        {
            crate::report::Report::default()
        }
        _ => validate_state(&tree),
    };
    if !report.valid() {
        return Err(crate::report::invalid_error("hive.state", &report));
    }
    if let Value::Object(map) = tree {
        *state.tree() = map;
    }
    Ok(state)
}

/// The updates of a `state_updated` (`kind`, with `details`) that changes no phase: the
/// top-level fields it changed are their keys (a merge changes no other); `None` otherwise.
fn merged_fields<'d>(kind: &str, details: &'d Value) -> Option<&'d Map> {
    let updates = details.get("updates").and_then(Value::as_object);
    let phase = |u: &&Map| u.contains_key("status") || u.contains_key("coordination_status");
    updates.filter(|u| kind == "state_updated" && !phase(u))
}

/// `E_INVALID` unless `line` is a valid `hive.event`.
pub(super) fn check_event(line: &Value) -> Result<()> {
    let report = validate_event(line);
    if !report.valid() {
        return Err(crate::report::invalid_error("hive.event", &report));
    }
    Ok(())
}

/// The rules of the worker `name` of `state`, with paths from the state.
fn worker_report(state: &Value, name: &str) -> crate::report::Report {
    let worker = state
        .get("worker_states")
        .and_then(|w| w.get(name))
        .unwrap_or(&Value::Null);
    validate_worker_at(worker, &crate::error::child_path("/worker_states", name))
}

/// The event counters: the session's, and the worker's when the agent is one.
fn count<S: State>(state: &mut S, agent: &str) {
    state.add(Counter::Events, 1);
    state.add(Counter::WorkerEvents(agent), 1);
}

/// The session's stamps of every event (see [`apply`]).
fn stamp<S: State>(state: &mut S, now: &Now<'_>) {
    state.advance(Stamp::Updated, now);
    state.advance(Stamp::Heartbeat, now);
}

/// `state_updated`: the merge, with a phase change among the updates fired on the machine
/// from the phase before them. The strategy and the object check live here, so a log line
/// is held to the same as a step.
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
    let mut merged = match merged {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if let (Some(before), Some(target)) = (before, target) {
        if before != target {
            merged.insert("status".into(), Value::from(before.as_str()));
            phases::change(&mut merged, &target, now)?;
        }
    }
    Ok(merged)
}
