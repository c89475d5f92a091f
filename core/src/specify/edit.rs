//! What the specify operations share: the index document as an object, its loop state and
//! tables, the host's `now`, and the history rows they append.

use super::validate::MAX_ITERATIONS;
use crate::error::{Code, Error, Result};
use crate::shape::check::present;
use crate::{Map, Value};

/// The index document as an object (`null`, a missing file, is an empty index).
pub fn index_map(index: Value) -> Result<Map> {
    match index {
        Value::Null => Ok(Map::new()),
        Value::Object(map) => Ok(map),
        other => Err(Error::new(
            Code::Argument,
            "",
            format!(
                "a specify.index document is an object, not {}",
                crate::merge::type_name(&other)
            ),
        )),
    }
}

/// The host's `now` as the text statecore stores.
pub fn now_text(now: &Value) -> Result<String> {
    Ok(crate::time::normalize_now(now)?.0)
}

/// `map[key]` as an object, made when absent (or not an object).
pub fn object_mut<'a>(map: &'a mut Map, key: &str) -> Result<&'a mut Map> {
    if !matches!(map.get(key), Some(Value::Object(_))) {
        map.insert(key.into(), Value::Object(Map::new()));
    }
    map.get_mut(key)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| lost(key))
}

/// `map[key]` as a list, made when absent (or not a list).
pub fn list_mut<'a>(map: &'a mut Map, key: &str) -> Result<&'a mut Vec<Value>> {
    if !matches!(map.get(key), Some(Value::Array(_))) {
        map.insert(key.into(), Value::Array(Vec::new()));
    }
    map.get_mut(key)
        .and_then(Value::as_array_mut)
        .ok_or_else(|| lost(key))
}

/// The error of a field that vanished after it was set (never raised).
fn lost(key: &str) -> Error {
    argument(&format!("/{key}"), "the index lost a field it had just set")
}

/// `E_ARGUMENT` at `path`: an argument the specify operations cannot use.
pub fn argument(path: &str, message: &str) -> Error {
    Error::new(Code::Argument, path, message)
}

/// The objects of a list field (the others are skipped).
pub fn rows<'a>(map: &'a Map, key: &str) -> impl Iterator<Item = &'a Map> {
    present(map, key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

/// A string field.
pub fn text<'a>(map: &'a Map, key: &str) -> Option<&'a str> {
    present(map, key).and_then(Value::as_str)
}

/// The loop state, when the index has one.
pub fn loop_state(map: &Map) -> Option<&Map> {
    present(map, "priority_loop_state").and_then(Value::as_object)
}

/// The loop's status (`not_started` when there is none).
pub fn loop_status(map: &Map) -> &str {
    loop_state(map)
        .and_then(|s| text(s, "loop_status"))
        .unwrap_or("not_started")
}

/// The current iteration (1 when there is none).
pub fn iteration(map: &Map) -> u64 {
    loop_state(map)
        .and_then(|s| present(s, "current_iteration"))
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1)
}

/// The iteration limit (`n / 10`'s 10).
pub fn max_iterations(map: &Map) -> u64 {
    loop_state(map)
        .and_then(|s| present(s, "max_iterations"))
        .and_then(Value::as_u64)
        .unwrap_or(MAX_ITERATIONS)
}

/// Appends a Gap Resolution History row (the seed's five columns).
pub fn history(map: &mut Map, gap: &str, action: &str, details: String, now: &str) -> Result<()> {
    let iteration = iteration(map);
    let mut row = Map::new();
    row.insert("gap_id".into(), Value::from(gap));
    row.insert("iteration".into(), Value::from(iteration));
    row.insert("action".into(), Value::from(action));
    row.insert("details".into(), Value::from(details));
    row.insert("timestamp".into(), Value::from(now));
    list_mut(map, "gap_resolution_history")?.push(Value::Object(row));
    Ok(())
}

/// Sets the loop state's `last_activity`.
pub fn touch(map: &mut Map, now: &str) -> Result<()> {
    object_mut(map, "priority_loop_state")?.insert("last_activity".into(), Value::from(now));
    Ok(())
}

/// The `{index, ...}` outcome of a writer whose result is more than the index.
pub fn outcome(map: Map, changed: bool, fields: Vec<(&str, Value)>) -> Value {
    let mut out = Map::new();
    out.insert("index".into(), Value::Object(map));
    out.insert("changed".into(), Value::Bool(changed));
    for (key, value) in fields {
        out.insert(key.into(), value);
    }
    Value::Object(out)
}
