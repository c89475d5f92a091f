//! Reading a machine definition, its guards and an instance from JSON (`E_MACHINE` with a
//! path when one is malformed), and evaluating guards.

use super::{
    as_object, check_keys, is_identifier, machine_error, req_str, Guard, Instance, Machine, Op,
    State, Transition, PREVIOUS,
};
use crate::error::Result;
use crate::{Map, Value};

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
                        Some(vec![s.to_string()])
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
            Some(Value::String(s)) => Some(s.to_string()),
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
            self.previous.clone().map_or(Value::Null, Value::from),
        );
        Value::Object(map)
    }
}
