//! Field checks shared by the protocol validators: one place for each type rule and its
//! report code (`E_TYPE`, `E_ENUM`, `E_REQUIRED`, `E_TIMESTAMP_FORMAT`, `W_UNKNOWN_FIELD`).
//! `null` counts as absent everywhere (ARCHITECTURE §3).

use crate::error::child_path;
use crate::merge::type_name;
use crate::report::Report;
use crate::time::is_timestamp;
use serde_json::{Map, Value};

/// A JSON object.
pub type Object = Map<String, Value>;

/// The field's value unless it is absent or `null`.
pub fn present<'a>(map: &'a Object, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// `E_REQUIRED` when the field is absent or `null`; the value otherwise.
pub fn required<'a>(
    report: &mut Report,
    map: &'a Object,
    key: &str,
    at: &str,
) -> Option<&'a Value> {
    let value = present(map, key);
    if value.is_none() {
        report.error(
            "E_REQUIRED",
            child_path(at, key),
            format!("{key} is required"),
        );
    }
    value
}

fn type_error(report: &mut Report, path: String, key: &str, expected: &str, value: &Value) {
    let found = match value {
        Value::Number(_) | Value::Bool(_) => value.to_string(),
        other => type_name(other).to_owned(),
    };
    report.error(
        "E_TYPE",
        path,
        format!("{key} must be {expected}, not {found}"),
    );
}

/// A string field (if present); `E_TYPE` otherwise.
pub fn string<'a>(report: &mut Report, map: &'a Object, key: &str, at: &str) -> Option<&'a str> {
    let value = present(map, key)?;
    let text = value.as_str();
    if text.is_none() {
        type_error(report, child_path(at, key), key, "a string", value);
    }
    text
}

/// A boolean field (if present); `E_TYPE` otherwise.
pub fn boolean(report: &mut Report, map: &Object, key: &str, at: &str) -> Option<bool> {
    let value = present(map, key)?;
    let flag = value.as_bool();
    if flag.is_none() {
        type_error(report, child_path(at, key), key, "true or false", value);
    }
    flag
}

/// A whole number ≥ `min` (if present); `E_TYPE` otherwise.
pub fn whole(report: &mut Report, map: &Object, key: &str, at: &str, min: u64) -> Option<u64> {
    let value = present(map, key)?;
    match value.as_u64().filter(|n| *n >= min) {
        Some(n) => Some(n),
        None => {
            type_error(
                report,
                child_path(at, key),
                key,
                &format!("a whole number ≥ {min}"),
                value,
            );
            None
        }
    }
}

/// An object field (if present); `E_TYPE` otherwise.
pub fn object<'a>(report: &mut Report, map: &'a Object, key: &str, at: &str) -> Option<&'a Object> {
    let value = present(map, key)?;
    let inner = value.as_object();
    if inner.is_none() {
        type_error(report, child_path(at, key), key, "an object", value);
    }
    inner
}

/// An array field (if present); `E_TYPE` otherwise.
pub fn array<'a>(
    report: &mut Report,
    map: &'a Object,
    key: &str,
    at: &str,
) -> Option<&'a Vec<Value>> {
    let value = present(map, key)?;
    let items = value.as_array();
    if items.is_none() {
        type_error(report, child_path(at, key), key, "a list", value);
    }
    items
}

/// An array of strings (if present); `E_TYPE` for the array or for each bad item.
pub fn strings<'a>(report: &mut Report, map: &'a Object, key: &str, at: &str) -> Vec<&'a str> {
    let Some(items) = array(report, map, key, at) else {
        return Vec::new();
    };
    let path = child_path(at, key);
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some(text) => out.push(text),
            None => type_error(
                report,
                child_path(&path, &i.to_string()),
                &format!("{key} items"),
                "strings",
                item,
            ),
        }
    }
    out
}

/// A string that must be one of `allowed` (if present); `E_ENUM` otherwise.
pub fn one_of<'a>(
    report: &mut Report,
    map: &'a Object,
    key: &str,
    at: &str,
    allowed: &[&str],
) -> Option<&'a str> {
    let text = string(report, map, key, at)?;
    if allowed.contains(&text) {
        Some(text)
    } else {
        report.error(
            "E_ENUM",
            child_path(at, key),
            format!("{key} {text:?} is not one of {}", allowed.join(", ")),
        );
        None
    }
}

/// An RFC 3339 timestamp string (if present); `E_TIMESTAMP_FORMAT` otherwise.
pub fn timestamp<'a>(report: &mut Report, map: &'a Object, key: &str, at: &str) -> Option<&'a str> {
    let text = string(report, map, key, at)?;
    if is_timestamp(text) {
        Some(text)
    } else {
        report.error(
            "E_TIMESTAMP_FORMAT",
            child_path(at, key),
            format!(
                "{key} {text:?} is not an ISO 8601 / RFC 3339 timestamp like 2026-02-17T04:00:00Z"
            ),
        );
        None
    }
}

/// `W_UNKNOWN_FIELD` for every key of `map` not in `known` (the field is kept as is).
pub fn unknown_fields(report: &mut Report, map: &Object, known: &[&str], at: &str, what: &str) {
    for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
        report.warn(
            "W_UNKNOWN_FIELD",
            child_path(at, key),
            format!("field {key:?} is not part of the {what} schema; it is kept as is"),
        );
    }
}

/// The value as an object, or `E_TYPE` at `at`.
pub fn root<'a>(report: &mut Report, value: &'a Value, at: &str, what: &str) -> Option<&'a Object> {
    let map = value.as_object();
    if map.is_none() {
        report.error(
            "E_TYPE",
            at,
            format!("{what} must be a JSON object, not {}", type_name(value)),
        );
    }
    map
}
