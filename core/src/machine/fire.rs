//! Firing events: the legal events of a state, a transition (with `$previous`, guards and
//! immediate automatic transitions), the delayed ones a host schedules, and the one place
//! that fires an event on an object's status field.

use super::{
    machine_error, EventInfo, Fired, Instance, Machine, Scheduled, Step, Transition, PREVIOUS,
};
use crate::error::{Code, Error, Result};
use crate::{Map, Value};

impl Machine {
    fn state_exists(&self, name: &str) -> Result<()> {
        self.state_at(name, "/state")
    }

    /// `E_MACHINE` at `at` unless `name` is a state of this machine.
    fn state_at(&self, name: &str, at: &str) -> Result<()> {
        if self.states.iter().any(|s| s.name == name) {
            Ok(())
        } else {
            Err(machine_error(
                at,
                format!("{name:?} is not a state of machine {:?}", self.name),
            )
            .with_detail("state", name))
        }
    }

    pub(super) fn from_matches(transition: &Transition, state: &str) -> bool {
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
        object: &mut Map,
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
        object.insert(field.into(), Value::from(next.as_str()));
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
        let previous = instance.previous.clone().ok_or_else(|| {
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
        })?;
        // Never into a state the machine does not have (found by fuzzing).
        self.state_at(&previous, "/previous")?;
        Ok(previous)
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
