//! A generic, data-driven state-machine engine (`docs/machine.md`).
//!
//! A machine is a JSON document:
//! ```json
//! { "name": "chunk", "initial": "planned",
//!   "states": [{"name": "planned"}, {"name": "active"}, {"name": "paused"}],
//!   "transitions": [
//!     {"from": ["planned"], "event": "start", "to": "active"},
//!     {"from": "*", "event": "pause", "to": "paused"},
//!     {"from": ["paused"], "event": "resume", "to": "$previous"},
//!     {"from": ["active"], "event": "fail", "to": "planned",
//!      "guard": {"path": "/attempt", "op": "lt", "value": 3}},
//!     {"from": ["review"], "event": "advance", "to": "next", "auto": true, "after_ms": 500}
//!   ] }
//! ```
//! Guards are data (`{"path", "op", "value"}`, `{"all": [...]}`, `{"any": [...]}`,
//! `{"not": ...}`) evaluated against a context document the caller passes. The first
//! transition whose `from`, `event` and guard match wins. `"$previous"` returns to the state
//! the machine was in before the current one (pause/resume). Automatic transitions (`auto`)
//! fire on entering their state: at once when `after_ms` is 0, otherwise they are returned
//! as `scheduled` for the host to fire after the delay.

mod check;
mod definition;
mod diagram;
mod fire;
pub mod shapes;

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// The target that means "the state before the current one".
pub const PREVIOUS: &str = "$previous";

/// A state of a machine.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Identifier (`[A-Za-z_][A-Za-z0-9_]*`, so it can be drawn).
    pub name: String,
    /// What the state means, for people.
    pub description: Option<String>,
    /// True when the machine ends here.
    pub terminal: bool,
}

/// A transition rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// Source states; `None` means every state (`"*"`).
    pub from: Option<Vec<String>>,
    /// Event name.
    pub event: String,
    /// Target state, or [`PREVIOUS`].
    pub to: String,
    /// Condition on the context document.
    pub guard: Option<Guard>,
    /// Fires by itself on entering a `from` state.
    pub auto: bool,
    /// Delay for an automatic transition (0 = immediately).
    pub after_ms: u64,
}

/// A condition over the context document, as data.
#[derive(Debug, Clone, PartialEq)]
pub enum Guard {
    /// Every guard holds.
    All(Vec<Guard>),
    /// At least one guard holds.
    Any(Vec<Guard>),
    /// The guard does not hold.
    Not(Box<Guard>),
    /// Compare the value at a JSON pointer.
    Test {
        /// JSON pointer into the context.
        path: String,
        /// Comparison.
        op: Op,
        /// Operand.
        value: Value,
    },
}

/// A guard comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Equal (JSON equality).
    Eq,
    /// Not equal.
    Ne,
    /// Numerically less than.
    Lt,
    /// Numerically at most.
    Le,
    /// Numerically greater than.
    Gt,
    /// Numerically at least.
    Ge,
    /// Present and not null.
    Exists,
    /// Absent or null.
    Absent,
    /// Equal to one of the items of the operand array.
    In,
}

/// A machine: states and transitions.
#[derive(Debug, Clone, PartialEq)]
pub struct Machine {
    /// Name, for diagrams and messages.
    pub name: String,
    /// The state a new instance starts in.
    pub initial: String,
    /// All states.
    pub states: Vec<State>,
    /// All transitions, in priority order.
    pub transitions: Vec<Transition>,
}

/// Where an instance is: its state and the state before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Current state.
    pub state: String,
    /// The state before the current one, if any.
    pub previous: Option<String>,
}

/// One transition taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// State left.
    pub from: String,
    /// Event that fired.
    pub event: String,
    /// State entered.
    pub to: String,
}

/// An automatic transition the host must fire after a delay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduled {
    /// Event to fire.
    pub event: String,
    /// Where it leads.
    pub to: String,
    /// Delay in milliseconds.
    pub after_ms: u64,
}

/// The outcome of firing an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fired {
    /// The instance after the event and any immediate automatic transitions.
    pub instance: Instance,
    /// False when the event led to the current state (nothing changes).
    pub changed: bool,
    /// Every transition taken, in order (the event, then automatic ones).
    pub steps: Vec<Step>,
    /// Delayed automatic transitions from the final state.
    pub scheduled: Vec<Scheduled>,
}

/// A legal event from a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventInfo {
    /// Event name.
    pub event: String,
    /// Target (may be [`PREVIOUS`]).
    pub to: String,
    /// True for automatic transitions.
    pub auto: bool,
}

pub(crate) fn machine_error(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(Code::Machine, path, message)
}

pub(crate) fn req_str<'a>(map: &'a Map, key: &str, at: &str) -> Result<&'a str> {
    map.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| machine_error(format!("{at}/{key}"), format!("{key} must be a string")))
}

pub(crate) fn as_object<'a>(value: &'a Value, at: &str, what: &str) -> Result<&'a Map> {
    value
        .as_object()
        .ok_or_else(|| machine_error(at, format!("{what} must be an object")))
}

pub(crate) fn check_keys(map: &Map, allowed: &[&str], at: &str) -> Result<()> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(key) => Err(machine_error(
            format!("{at}/{key}"),
            format!("unknown field {key:?}; allowed: {}", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A built-in machine definition from its JSON text (a protocol's constant). Text parses
/// smaller in wasm than a `json!` literal builds; a malformed constant gives `null`, which
/// every machine function refuses with `E_MACHINE`, and the corpus pins each definition.
pub fn definition(text: &str) -> Value {
    crate::json::parse_str(text).unwrap_or(Value::Null)
}

/// A built-in machine read once into `cell` (a protocol's `static`): its definition is a
/// constant, and building it per call would dominate the cost of a step. `E_MACHINE` names
/// the machine if its constant is malformed (the corpus pins every definition).
pub fn built_once(
    cell: &'static std::sync::OnceLock<Option<Machine>>,
    definition: fn() -> Value,
    name: &str,
) -> crate::error::Result<&'static Machine> {
    cell.get_or_init(|| Machine::from_value(&definition()).ok())
        .as_ref()
        .ok_or_else(|| machine_error("", format!("the built-in {name} machine is malformed")))
}

/// Events as `[{event, to, auto}]`.
pub fn events_value(events: &[EventInfo]) -> Value {
    Value::Array(
        events
            .iter()
            .map(|e| {
                let mut m = Map::new();
                m.insert("event".into(), e.event.clone().into());
                m.insert("to".into(), e.to.clone().into());
                m.insert("auto".into(), e.auto.into());
                Value::Object(m)
            })
            .collect(),
    )
}
