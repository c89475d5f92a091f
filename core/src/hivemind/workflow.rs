//! Transitions of a `state.json` document: the seed's `transition()` (state, previous_state,
//! active_agents, timestamp) on the machine engine, the effects of events on the other fields
//! (project, error, checkpoint numbering, friction count), and the notifications and automatic
//! follow-ups the host must act on.

use super::machine::STATES;
use super::machine::{active_agents, built, context_message, modes, Mode, AGENTS};
use crate::error::{Code, Error, Result};
use crate::machine::{Instance, Scheduled, Step};
use crate::report::{issues_value, Issue};
use crate::time::normalize_now;
use crate::{Map, Value};

/// What a transition (or a trigger file) did: the new document and what the host must do.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The document after the transition(s) (unchanged when nothing applied).
    pub state: Map,
    /// Every transition taken, in order.
    pub transitions: Vec<Step>,
    /// `(agent, message)` to send to each agent's terminal.
    pub notifications: Vec<(String, String)>,
    /// Automatic follow-ups to fire after their delay (`follow_up`).
    pub scheduled: Vec<Scheduled>,
    /// Why nothing happened, for people (`None` when something did).
    pub ignored: Option<String>,
    /// Problems with a trigger file's content (warnings; the file is not refused).
    pub problems: Vec<Issue>,
}

impl Outcome {
    /// Nothing happens, for `reason`.
    pub(super) fn ignored(state: Map, reason: String) -> Outcome {
        Outcome {
            state,
            ignored: Some(reason),
            ..Outcome::default()
        }
    }

    /// `{state, changed, transitions, notifications, scheduled, ignored, problems}`.
    pub fn into_value(self) -> Value {
        let mut map = Map::with_capacity(7);
        map.insert("state".into(), Value::Object(self.state));
        map.insert("changed".into(), (!self.transitions.is_empty()).into());
        let steps = self.transitions.into_iter().map(|s| {
            let mut m = Map::with_capacity(3);
            m.insert("from".into(), s.from.into());
            m.insert("event".into(), s.event.into());
            m.insert("to".into(), s.to.into());
            Value::Object(m)
        });
        map.insert("transitions".into(), Value::Array(steps.collect()));
        let notes = self.notifications.into_iter().map(|(agent, message)| {
            let mut m = Map::with_capacity(2);
            m.insert("agent".into(), agent.into());
            m.insert("message".into(), message.into());
            Value::Object(m)
        });
        map.insert("notifications".into(), Value::Array(notes.collect()));
        let scheduled = self.scheduled.into_iter().map(|s| {
            let mut m = Map::with_capacity(3);
            m.insert("event".into(), s.event.into());
            m.insert("to".into(), s.to.into());
            m.insert("after_ms".into(), s.after_ms.into());
            Value::Object(m)
        });
        map.insert("scheduled".into(), Value::Array(scheduled.collect()));
        map.insert(
            "ignored".into(),
            self.ignored.map_or(Value::Null, Value::from),
        );
        map.insert("problems".into(), issues_value(&self.problems));
        Value::Object(map)
    }
}

/// The document as an object (`null`: a missing file, the default document).
pub(super) fn document(state: Value) -> Result<Map> {
    match state {
        Value::Null => match super::validate::default_state() {
            Value::Object(map) => Ok(map),
            _ => Ok(Map::new()),
        },
        Value::Object(map) => Ok(map),
        other => Err(Error::new(
            Code::Argument,
            "",
            format!(
                "the hivemind state must be a JSON object, not {}",
                crate::merge::type_name(&other)
            ),
        )),
    }
}

/// A state-name field of the document: absent or `null` is `default`; anything else must be
/// one of the states (`E_ARGUMENT` at the field).
fn state_field(map: &Map, key: &str) -> Result<Option<String>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if STATES.contains(&s.as_str()) => Ok(Some(s.to_string())),
        Some(other) => Err(Error::new(
            Code::Argument,
            format!("/{key}"),
            format!(
                "{key} {other} is not a hivemind state; states: {}",
                STATES.join(", ")
            ),
        )),
    }
}

/// The machine instance the document is in (`state` absent: `idle`).
pub(super) fn instance(map: &Map) -> Result<Instance> {
    Ok(Instance {
        state: state_field(map, "state")?.unwrap_or_else(|| "idle".to_owned()),
        previous: state_field(map, "previous_state")?,
    })
}

/// The state name of the document (`idle` when absent).
pub(super) fn current(map: &Map) -> Result<String> {
    Ok(instance(map)?.state)
}

/// The events legal in the document's state now (automatic ones included).
pub(super) fn legal(map: &Map) -> Result<Vec<String>> {
    let state = current(map)?;
    Ok(built()?
        .events(&state, &Value::Null)?
        .into_iter()
        .map(|e| e.event)
        .collect())
}

/// Inputs some events take: `project` (`select_project`), `error` (`worker_crashed`),
/// `total_checkpoints` (`plan_written`, `plan_updated`).
pub type Details = Map;

fn count(map: &Map, key: &str) -> u64 {
    map.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// The effect of one event on the fields besides the state (one place for each rule).
fn effects(map: &mut Map, event: &str, details: &Details) {
    match event {
        "select_project" => {
            if let Some(project) = details.get("project").filter(|p| p.is_string()) {
                map.insert("project".into(), project.clone());
            }
        }
        "give_task" | "retry" => {
            map.insert("current_checkpoint".into(), 0.into());
            map.insert("total_checkpoints".into(), Value::Null);
            map.insert("friction_count".into(), 0.into());
            map.insert("error".into(), Value::Null);
        }
        "worker_crashed" => {
            let error = details
                .get("error")
                .filter(|e| e.is_string())
                .cloned()
                .unwrap_or_else(|| "a worker crashed".into());
            map.insert("error".into(), error);
        }
        "abandon" => {
            map.insert("error".into(), Value::Null);
        }
        "plan_written" | "plan_updated" => {
            if let Some(total) = details.get("total_checkpoints").filter(|t| t.is_u64()) {
                map.insert("total_checkpoints".into(), total.clone());
            }
        }
        "checkpoint_reached" => {
            let next = count(map, "current_checkpoint").saturating_add(1);
            map.insert("current_checkpoint".into(), next.into());
        }
        "friction_found" => {
            let next = count(map, "friction_count").saturating_add(1);
            map.insert("friction_count".into(), next.into());
        }
        _ => {}
    }
    // More checkpoints than planned: the total follows (it never reads "6 of 5").
    let current = count(map, "current_checkpoint");
    if let Some(total) = map.get("total_checkpoints").and_then(Value::as_u64) {
        if current > total {
            map.insert("total_checkpoints".into(), current.into());
        }
    }
}

/// Fires `events` in order on the document (each must be legal in the state the previous one
/// reached), applying each event's effects and the seed's `transition()` bookkeeping.
pub(super) fn fire_all(
    mut map: Map,
    events: &[&str],
    now: &Value,
    details: &Details,
) -> Result<Outcome> {
    let machine = built()?;
    let (timestamp, _) = normalize_now(now)?;
    let mut outcome = Outcome::default();
    for event in events {
        let fired = machine.fire(&instance(&map)?, event, &Value::Null)?;
        if !fired.changed {
            continue;
        }
        for step in &fired.steps {
            effects(&mut map, &step.event, details);
        }
        let state = fired.instance.state;
        map.insert("state".into(), state.clone().into());
        map.insert(
            "previous_state".into(),
            fired.instance.previous.map_or(Value::Null, Value::from),
        );
        let agents = active_agents(&state).into_iter().map(Value::from).collect();
        map.insert("active_agents".into(), Value::Array(agents));
        map.insert("timestamp".into(), timestamp.clone().into());
        outcome.transitions.extend(fired.steps);
        outcome.scheduled = fired.scheduled;
    }
    if !outcome.transitions.is_empty() {
        outcome.notifications = notifications(&current(&map)?);
    }
    outcome.state = map;
    Ok(outcome)
}

/// The context message of `state` for every agent active or reading in it.
pub(super) fn notifications(state: &str) -> Vec<(String, String)> {
    let Some(message) = context_message(state) else {
        return Vec::new();
    };
    AGENTS
        .iter()
        .zip(modes(state))
        .filter(|(_, mode)| *mode != Mode::Idle)
        .map(|(agent, _)| ((*agent).to_owned(), message.to_owned()))
        .collect()
}

/// Fires `event` (a host event such as `select_project`, `give_task`, `worker_crashed`,
/// `pause`, `resume`, `block`, `user_input`, `retry`, `abandon`, `new_task`) on `state`.
/// An illegal event is `E_TRANSITION`; an event leading to the current state changes nothing.
/// `details` holds only the fields of [`super::shapes::DETAILS`] (`E_OPTIONS` otherwise).
pub fn fire(state: Value, event: &str, now: &Value, details: &Value) -> Result<Outcome> {
    let details = match details {
        Value::Null => Map::new(),
        Value::Object(map) => {
            // A misspelt detail would be ignored: refuse it with the nearest valid name.
            crate::options::check("details", details, &super::shapes::DETAILS).map_err(|e| {
                Error {
                    path: format!("/details{}", e.path),
                    ..e
                }
            })?;
            map.clone()
        }
        _ => {
            return Err(Error::new(
                Code::Argument,
                "/details",
                "details must be an object ({project}, {error}) or null",
            ))
        }
    };
    fire_all(document(state)?, &[event], now, &details)
}

/// Fires a scheduled automatic follow-up (`review_checkpoint`, `sync_friction`) if it still
/// applies: when the state moved on meanwhile (paused, say), nothing happens and `ignored`
/// says why. A paused state re-schedules its follow-up when it is resumed.
pub fn follow_up(state: Value, event: &str, now: &Value) -> Result<Outcome> {
    let map = document(state)?;
    if !legal(&map)?.iter().any(|e| e == event) {
        let current = current(&map)?;
        return Ok(Outcome::ignored(
            map,
            format!("the follow-up {event:?} no longer applies in state {current:?}"),
        ));
    }
    fire_all(map, &[event], now, &Map::new())
}
