//! What a worker event's `details` mean when another writer wrote the line: the original
//! template's `log_event` writes `details` as a string (`str(details)[:500]`), later clients
//! write objects and lists, and the worker is the line's `agent` (docs/hive.md § Logs of
//! other writers). Every shape is read; statecore's own steps write objects.

use crate::{json, Map, Value};

/// The worker an event names: `details.worker` when it is a string, else the line's `agent`.
pub(super) fn worker_name<'a>(details: &'a Value, agent: &'a str) -> &'a str {
    details
        .get("worker")
        .and_then(Value::as_str)
        .unwrap_or(agent)
}

/// The task a `worker_spawned` line of a worker no line planned gives it: `details.task`
/// when it is a string, else `""` (the original's lines carry no task).
pub(super) fn spawned_task(details: &Value) -> Value {
    match details.get("task") {
        Some(Value::String(task)) => Value::String(task.clone()),
        _ => Value::from(""),
    }
}

/// A completion's outputs, from its `details`: an object's `outputs` (an object merged into
/// the worker's, a list its `artifacts`, a string its `notes`); an object without `outputs`
/// (other than `worker` and `metrics`, the later client's `{"status": "completed"}`) is its
/// `json` output; a list is its `artifacts` (output paths); a string is its `notes`. `None`:
/// `outputs` holds a value that is none of these (a number, `true`).
pub(super) fn completion_outputs(details: &Value) -> Option<Map> {
    let mut outputs = Map::new();
    match details {
        Value::Object(map) => match map.get("outputs") {
            Some(Value::Object(given)) => outputs = given.clone(),
            Some(value @ (Value::Array(_) | Value::String(_))) => return completion_outputs(value),
            Some(Value::Null) | None => {
                let mut rest = map.clone();
                for key in ["worker", "metrics", "outputs"] {
                    rest.shift_remove(key);
                }
                if !rest.is_empty() {
                    outputs.insert("json".into(), Value::Object(rest));
                }
            }
            Some(_) => return None,
        },
        Value::Array(items) => {
            outputs.insert("artifacts".into(), Value::Array(items.clone()));
        }
        Value::String(text) => {
            outputs.insert("notes".into(), Value::String(text.clone()));
        }
        _ => return None,
    }
    Some(outputs)
}

/// A failure's error, from its `details`: an object's `error` (a message or an object with
/// a message, as a step writes it; an object without one is no error); a string is the message; a list, its strings joined with `; `; an object
/// without `error` (other than `worker`), its JSON text. `None` when nothing is left.
pub(super) fn failure_error(details: &Value) -> Option<Value> {
    match details {
        Value::Object(map) => match map.get("error") {
            Some(Value::String(_)) => map.get("error").cloned(),
            Some(Value::Object(error)) => error
                .get("message")
                .is_some_and(Value::is_string)
                .then(|| Value::Object(error.clone())),
            Some(Value::Null) | None => {
                let mut rest = map.clone();
                rest.shift_remove("worker");
                (!rest.is_empty()).then(|| Value::from(text(&Value::Object(rest))))
            }
            Some(other) => Some(Value::from(text(other))),
        },
        Value::Null => None,
        other => Some(Value::from(text(other))),
    }
}

/// A value as one text: a string as it is, a list of strings joined with `; `, anything
/// else as compact JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        Value::Array(items) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("; "),
        other => json::serialize_compact(other),
    }
}
