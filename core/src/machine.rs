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

use crate::error::{Code, Error, Result};
use crate::report::Report;
use serde_json::{Map, Value};

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

fn machine_error(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(Code::Machine, path, message)
}

fn req_str<'a>(map: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a str> {
    map.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| machine_error(format!("{at}/{key}"), format!("{key} must be a string")))
}

fn as_object<'a>(value: &'a Value, at: &str, what: &str) -> Result<&'a Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| machine_error(at, format!("{what} must be an object")))
}

fn check_keys(map: &Map<String, Value>, allowed: &[&str], at: &str) -> Result<()> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(key) => Err(machine_error(
            format!("{at}/{key}"),
            format!("unknown field {key:?}; allowed: {}", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Guard {
    /// Reads a guard from JSON.
    pub fn from_value(value: &Value, at: &str) -> Result<Guard> {
        let map = as_object(value, at, "a guard")?;
        if let Some(items) = map.get("all").or_else(|| map.get("any")) {
            check_keys(map, &["all", "any"], at)?;
            let key = if map.contains_key("all") {
                "all"
            } else {
                "any"
            };
            let list = items
                .as_array()
                .ok_or_else(|| machine_error(format!("{at}/{key}"), "must be an array of guards"))?
                .iter()
                .enumerate()
                .map(|(i, g)| Guard::from_value(g, &format!("{at}/{key}/{i}")))
                .collect::<Result<Vec<_>>>()?;
            return Ok(if key == "all" {
                Guard::All(list)
            } else {
                Guard::Any(list)
            });
        }
        if let Some(inner) = map.get("not") {
            check_keys(map, &["not"], at)?;
            return Ok(Guard::Not(Box::new(Guard::from_value(
                inner,
                &format!("{at}/not"),
            )?)));
        }
        check_keys(map, &["path", "op", "value"], at)?;
        let path = req_str(map, "path", at)?;
        if !path.is_empty() && !path.starts_with('/') {
            return Err(machine_error(
                format!("{at}/path"),
                "path must be a JSON pointer",
            ));
        }
        let op = match req_str(map, "op", at)? {
            "eq" => Op::Eq,
            "ne" => Op::Ne,
            "lt" => Op::Lt,
            "le" => Op::Le,
            "gt" => Op::Gt,
            "ge" => Op::Ge,
            "exists" => Op::Exists,
            "absent" => Op::Absent,
            "in" => Op::In,
            other => {
                return Err(machine_error(
                    format!("{at}/op"),
                    format!(
                        "unknown op {other:?}: use eq, ne, lt, le, gt, ge, exists, absent or in"
                    ),
                ))
            }
        };
        let value = map.get("value").cloned().unwrap_or(Value::Null);
        if op == Op::In && !value.is_array() {
            return Err(machine_error(
                format!("{at}/value"),
                "op in needs an array value",
            ));
        }
        Ok(Guard::Test {
            path: path.to_owned(),
            op,
            value,
        })
    }

    /// Evaluates the guard against a context document.
    pub fn holds(&self, context: &Value) -> bool {
        match self {
            Guard::All(list) => list.iter().all(|g| g.holds(context)),
            Guard::Any(list) => list.iter().any(|g| g.holds(context)),
            Guard::Not(inner) => !inner.holds(context),
            Guard::Test { path, op, value } => {
                let actual = context.pointer(path).filter(|v| !v.is_null());
                let numbers =
                    || Some((actual?.as_number()?.as_f64()?, value.as_number()?.as_f64()?));
                match op {
                    Op::Exists => actual.is_some(),
                    Op::Absent => actual.is_none(),
                    Op::Eq => actual.unwrap_or(&Value::Null) == value,
                    Op::Ne => actual.unwrap_or(&Value::Null) != value,
                    Op::In => value
                        .as_array()
                        .is_some_and(|items| items.contains(actual.unwrap_or(&Value::Null))),
                    Op::Lt => numbers().is_some_and(|(a, b)| a < b),
                    Op::Le => numbers().is_some_and(|(a, b)| a <= b),
                    Op::Gt => numbers().is_some_and(|(a, b)| a > b),
                    Op::Ge => numbers().is_some_and(|(a, b)| a >= b),
                }
            }
        }
    }
}

impl Machine {
    /// Reads and checks a machine definition; `E_MACHINE` with a path when it is malformed.
    pub fn from_value(value: &Value) -> Result<Machine> {
        let map = as_object(value, "", "a machine definition")?;
        check_keys(map, &["name", "initial", "states", "transitions"], "")?;
        let name = req_str(map, "name", "")?.to_owned();
        let initial = req_str(map, "initial", "")?.to_owned();
        let states = map
            .get("states")
            .and_then(Value::as_array)
            .ok_or_else(|| machine_error("/states", "states must be an array"))?
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let at = format!("/states/{i}");
                let m = as_object(s, &at, "a state")?;
                check_keys(m, &["name", "description", "terminal"], &at)?;
                let name = req_str(m, "name", &at)?;
                if !is_identifier(name) {
                    return Err(machine_error(
                        format!("{at}/name"),
                        format!(
                            "state name {name:?} must be an identifier ([A-Za-z_][A-Za-z0-9_]*)"
                        ),
                    ));
                }
                Ok(State {
                    name: name.to_owned(),
                    description: m
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    terminal: m.get("terminal").and_then(Value::as_bool).unwrap_or(false),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let machine_states: Vec<&str> = states.iter().map(|s| s.name.as_str()).collect();
        for (i, state) in states.iter().enumerate() {
            if machine_states.iter().take(i).any(|s| *s == state.name) {
                return Err(machine_error(
                    format!("/states/{i}/name"),
                    format!("state {:?} is defined twice", state.name),
                ));
            }
        }
        let known = |name: &str, at: String| -> Result<()> {
            if machine_states.contains(&name) {
                Ok(())
            } else {
                Err(machine_error(at, format!("unknown state {name:?}")))
            }
        };
        known(&initial, "/initial".into())?;
        let transitions = map
            .get("transitions")
            .and_then(Value::as_array)
            .ok_or_else(|| machine_error("/transitions", "transitions must be an array"))?
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let at = format!("/transitions/{i}");
                let m = as_object(t, &at, "a transition")?;
                check_keys(
                    m,
                    &["from", "event", "to", "guard", "auto", "after_ms"],
                    &at,
                )?;
                let from = match m.get("from") {
                    Some(Value::String(s)) if s == "*" => None,
                    Some(Value::String(s)) => {
                        known(s, format!("{at}/from"))?;
                        Some(vec![s.clone()])
                    }
                    Some(Value::Array(items)) => Some(
                        items
                            .iter()
                            .enumerate()
                            .map(|(j, s)| {
                                let s = s.as_str().ok_or_else(|| {
                                    machine_error(format!("{at}/from/{j}"), "must be a state name")
                                })?;
                                known(s, format!("{at}/from/{j}"))?;
                                Ok(s.to_owned())
                            })
                            .collect::<Result<Vec<_>>>()?,
                    ),
                    _ => {
                        return Err(machine_error(
                            format!("{at}/from"),
                            "from must be \"*\", a state name or an array of state names",
                        ))
                    }
                };
                let to = req_str(m, "to", &at)?;
                if to != PREVIOUS {
                    known(to, format!("{at}/to"))?;
                }
                let auto = match m.get("auto") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => {
                        return Err(machine_error(
                            format!("{at}/auto"),
                            "auto must be a boolean",
                        ))
                    }
                };
                let after_ms = match m.get("after_ms") {
                    None | Some(Value::Null) => 0,
                    Some(v) => v.as_u64().ok_or_else(|| {
                        machine_error(
                            format!("{at}/after_ms"),
                            "after_ms must be a whole number of ms",
                        )
                    })?,
                };
                Ok(Transition {
                    from,
                    event: req_str(m, "event", &at)?.to_owned(),
                    to: to.to_owned(),
                    guard: match m.get("guard") {
                        None | Some(Value::Null) => None,
                        Some(g) => Some(Guard::from_value(g, &format!("{at}/guard"))?),
                    },
                    auto,
                    after_ms,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Machine {
            name,
            initial,
            states,
            transitions,
        })
    }

    fn state_exists(&self, name: &str) -> Result<()> {
        if self.states.iter().any(|s| s.name == name) {
            Ok(())
        } else {
            Err(machine_error(
                "/state",
                format!("{name:?} is not a state of machine {:?}", self.name),
            )
            .with_detail("state", name))
        }
    }

    fn from_matches(transition: &Transition, state: &str) -> bool {
        transition
            .from
            .as_ref()
            .is_none_or(|list| list.iter().any(|s| s == state))
    }

    /// The events that are legal from `state` with this context (guards evaluated), first
    /// matching transition per event.
    pub fn events(&self, state: &str, context: &Value) -> Result<Vec<EventInfo>> {
        self.state_exists(state)?;
        let mut out: Vec<EventInfo> = Vec::new();
        for t in &self.transitions {
            if Self::from_matches(t, state)
                && t.guard.as_ref().is_none_or(|g| g.holds(context))
                && !out.iter().any(|e| e.event == t.event)
            {
                out.push(EventInfo {
                    event: t.event.clone(),
                    to: t.to.clone(),
                    auto: t.auto,
                });
            }
        }
        Ok(out)
    }

    /// Fires `event` on `instance`. An illegal event is `E_TRANSITION` naming the state and
    /// the event. An event that leads to the current state changes nothing.
    pub fn fire(&self, instance: &Instance, event: &str, context: &Value) -> Result<Fired> {
        self.state_exists(&instance.state)?;
        let transition = self.pick(&instance.state, event, context)?;
        let target = self.resolve(transition, instance, event)?;
        if target == instance.state {
            return Ok(Fired {
                instance: instance.clone(),
                changed: false,
                steps: Vec::new(),
                scheduled: Vec::new(),
            });
        }
        let mut current = Instance {
            state: target.clone(),
            previous: Some(instance.state.clone()),
        };
        let mut steps = vec![Step {
            from: instance.state.clone(),
            event: event.to_owned(),
            to: target,
        }];
        // Immediate automatic transitions, bounded so a cycle is an error, never a hang.
        for _ in 0..=self.states.len() {
            let next = self.transitions.iter().find(|t| {
                t.auto
                    && t.after_ms == 0
                    && Self::from_matches(t, &current.state)
                    && t.guard.as_ref().is_none_or(|g| g.holds(context))
            });
            let Some(auto) = next else {
                let scheduled = self.scheduled(&current.state, context);
                return Ok(Fired {
                    instance: current,
                    changed: true,
                    steps,
                    scheduled,
                });
            };
            let to = self.resolve(auto, &current, &auto.event)?;
            if to == current.state {
                break;
            }
            steps.push(Step {
                from: current.state.clone(),
                event: auto.event.clone(),
                to: to.clone(),
            });
            current = Instance {
                previous: Some(std::mem::replace(&mut current.state, to)),
                state: current.state,
            };
        }
        let scheduled = self.scheduled(&current.state, context);
        if steps.len() > self.states.len() {
            return Err(machine_error(
                "/transitions",
                format!(
                    "automatic transitions of machine {:?} loop without end",
                    self.name
                ),
            ));
        }
        Ok(Fired {
            instance: current,
            changed: true,
            steps,
            scheduled,
        })
    }

    /// Fires `event` on the state stored in `object[field]` (`default` when absent) and
    /// stores the new state there; returns it. Errors carry `path` (the field's pointer).
    /// Protocols keep an item's lifecycle state in a field (a chunk's or inbox item's
    /// `status`), so this is the one place that reads, fires and writes it.
    pub fn fire_field(
        &self,
        object: &mut Map<String, Value>,
        field: &str,
        default: &str,
        event: &str,
        context: &Value,
        path: &str,
    ) -> Result<String> {
        let state = object
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_owned();
        let fired = self
            .fire(
                &Instance {
                    state,
                    previous: None,
                },
                event,
                context,
            )
            .map_err(|e| Error {
                path: path.to_owned(),
                ..e
            })?;
        let next = fired.instance.state;
        object.insert(field.to_owned(), Value::String(next.clone()));
        Ok(next)
    }

    fn scheduled(&self, state: &str, context: &Value) -> Vec<Scheduled> {
        self.transitions
            .iter()
            .filter(|t| {
                t.auto
                    && t.after_ms > 0
                    && Self::from_matches(t, state)
                    && t.guard.as_ref().is_none_or(|g| g.holds(context))
            })
            .map(|t| Scheduled {
                event: t.event.clone(),
                to: t.to.clone(),
                after_ms: t.after_ms,
            })
            .collect()
    }

    fn pick(&self, state: &str, event: &str, context: &Value) -> Result<&Transition> {
        let mut candidates = self
            .transitions
            .iter()
            .filter(|t| t.event == event && Self::from_matches(t, state))
            .peekable();
        if candidates.peek().is_none() {
            let legal: Vec<String> = self
                .events(state, &Value::Null)?
                .into_iter()
                .map(|e| e.event)
                .collect();
            return Err(Error::new(
                Code::Transition,
                "",
                format!(
                    "event {event:?} is not allowed in state {state:?} of {:?}; allowed: {}",
                    self.name,
                    if legal.is_empty() {
                        "none".to_owned()
                    } else {
                        legal.join(", ")
                    }
                ),
            )
            .with_detail("state", state)
            .with_detail("event", event)
            .with_detail("allowed", legal));
        }
        candidates
            .find(|t| t.guard.as_ref().is_none_or(|g| g.holds(context)))
            .ok_or_else(|| {
                Error::new(
                    Code::Transition,
                    "",
                    format!(
                        "event {event:?} in state {state:?} of {:?}: no transition's guard holds",
                        self.name
                    ),
                )
                .with_detail("state", state)
                .with_detail("event", event)
            })
    }

    fn resolve(&self, transition: &Transition, instance: &Instance, event: &str) -> Result<String> {
        if transition.to != PREVIOUS {
            return Ok(transition.to.clone());
        }
        instance.previous.clone().ok_or_else(|| {
            Error::new(
                Code::Transition,
                "",
                format!(
                    "event {event:?} returns to the previous state, but state {:?} has none",
                    instance.state
                ),
            )
            .with_detail("state", instance.state.as_str())
            .with_detail("event", event)
        })
    }

    /// States reachable from `initial` (through `$previous` too).
    fn reachable(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = vec![self.initial.as_str()];
        let mut i = 0;
        while let Some(state) = seen.get(i).copied() {
            for t in &self.transitions {
                if Self::from_matches(t, state)
                    && t.to != PREVIOUS
                    && !seen.contains(&t.to.as_str())
                {
                    seen.push(&t.to);
                }
            }
            i = i.saturating_add(1);
        }
        seen
    }

    /// Checks the definition's shape beyond parsing: unreachable states and states with no
    /// way out that are not marked terminal are warnings.
    pub fn check(&self) -> Report {
        let mut report = Report::default();
        let reachable = self.reachable();
        for (i, state) in self.states.iter().enumerate() {
            if !reachable.contains(&state.name.as_str()) {
                report.warn(
                    "W_UNREACHABLE_STATE",
                    format!("/states/{i}"),
                    format!(
                        "state {:?} cannot be reached from {:?}",
                        state.name, self.initial
                    ),
                );
            }
            let has_exit = self
                .transitions
                .iter()
                .any(|t| Self::from_matches(t, &state.name));
            if !has_exit && !state.terminal {
                report.warn(
                    "W_DEAD_END_STATE",
                    format!("/states/{i}"),
                    format!(
                        "state {:?} has no way out; mark it terminal if that is meant",
                        state.name
                    ),
                );
            }
        }
        report
    }

    /// The machine as a Mermaid `stateDiagram-v2`. `"*"` sources are drawn from every state;
    /// `$previous` targets are drawn to every state that can lead into the source.
    pub fn mermaid(&self) -> String {
        let mut lines = vec![
            "stateDiagram-v2".to_owned(),
            format!("    [*] --> {}", self.initial),
        ];
        for state in &self.states {
            if let Some(description) = &state.description {
                lines.push(format!(
                    "    {}: {}",
                    state.name,
                    description.replace('\n', " ")
                ));
            }
        }
        for t in &self.transitions {
            let sources: Vec<&str> = match &t.from {
                Some(list) => list.iter().map(String::as_str).collect(),
                None => self.states.iter().map(|s| s.name.as_str()).collect(),
            };
            for source in sources {
                let targets: Vec<&str> = if t.to == PREVIOUS {
                    self.predecessors(source)
                } else {
                    vec![t.to.as_str()]
                };
                let mut label = t.event.clone();
                if t.auto {
                    label.push_str(&if t.after_ms > 0 {
                        format!(" (auto after {} ms)", t.after_ms)
                    } else {
                        " (auto)".to_owned()
                    });
                }
                if t.to == PREVIOUS {
                    label.push_str(" (back)");
                }
                for target in targets {
                    if target != source {
                        lines.push(format!("    {source} --> {target}: {label}"));
                    }
                }
            }
        }
        for state in self.states.iter().filter(|s| s.terminal) {
            lines.push(format!("    {} --> [*]", state.name));
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    fn predecessors(&self, state: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.states {
            let leads_in = self
                .transitions
                .iter()
                .any(|t| t.to == state && t.to != s.name && Self::from_matches(t, &s.name));
            if leads_in && !out.contains(&s.name.as_str()) {
                out.push(&s.name);
            }
        }
        out
    }
}

impl Instance {
    /// Reads `{"state": ..., "previous": ...}` (previous optional).
    pub fn from_value(value: &Value) -> Result<Instance> {
        let map = as_object(value, "", "an instance")?;
        let state = map
            .get("state")
            .and_then(Value::as_str)
            .ok_or_else(|| machine_error("/state", "the instance needs a string state"))?;
        let previous = match map.get("previous") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                return Err(machine_error(
                    "/previous",
                    "previous must be a string or null",
                ))
            }
        };
        Ok(Instance {
            state: state.to_owned(),
            previous,
        })
    }

    /// `{"state", "previous"}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("state".into(), self.state.clone().into());
        map.insert(
            "previous".into(),
            self.previous.clone().map_or(Value::Null, Value::String),
        );
        Value::Object(map)
    }
}

impl Fired {
    /// `{"state", "previous", "changed", "steps": [{from, event, to}], "scheduled":
    /// [{event, to, after_ms}]}`.
    pub fn to_value(&self) -> Value {
        let mut map = match self.instance.to_value() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        map.insert("changed".into(), self.changed.into());
        let steps = self
            .steps
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("from".into(), s.from.clone().into());
                m.insert("event".into(), s.event.clone().into());
                m.insert("to".into(), s.to.clone().into());
                Value::Object(m)
            })
            .collect();
        map.insert("steps".into(), Value::Array(steps));
        let scheduled = self
            .scheduled
            .iter()
            .map(|s| {
                let mut m = Map::new();
                m.insert("event".into(), s.event.clone().into());
                m.insert("to".into(), s.to.clone().into());
                m.insert("after_ms".into(), s.after_ms.into());
                Value::Object(m)
            })
            .collect();
        map.insert("scheduled".into(), Value::Array(scheduled));
        Value::Object(map)
    }
}

/// A built-in machine definition from its JSON text (a protocol's constant). Text parses
/// smaller in wasm than a `json!` literal builds; a malformed constant gives `null`, which
/// every machine function refuses with `E_MACHINE`, and the corpus pins each definition.
pub fn definition(text: &str) -> Value {
    crate::json::parse_str(text).unwrap_or(Value::Null)
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
