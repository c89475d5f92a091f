//! Reading the host-built argument objects (signals, snapshots, rows): unknown keys and wrong
//! types are `E_ARGUMENT` errors with a path, so a typo never silently reads as "absent".

use crate::error::{child_path, Code, Error, Result};
use crate::merge::type_name;
use crate::shape::check::Object;
use crate::Value;

/// The object `value` (at `at`), with every key one of `known`.
pub fn object<'a>(value: &'a Value, at: &str, what: &str, known: &[&str]) -> Result<&'a Object> {
    let map = value.as_object().ok_or_else(|| {
        Error::new(
            Code::Argument,
            at,
            format!("{what} must be an object, not {}", type_name(value)),
        )
    })?;
    if let Some(key) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(Error::new(
            Code::Argument,
            child_path(at, key),
            format!(
                "{what} has no field {key:?}; its fields are {}",
                known.join(", ")
            ),
        ));
    }
    Ok(map)
}

/// An optional boolean field (`null` or absent: `default`).
pub fn flag(map: &Object, key: &str, at: &str, default: bool) -> Result<bool> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(wrong(at, key, "true or false", other)),
    }
}

/// An optional string field.
pub fn text<'a>(map: &'a Object, key: &str, at: &str) -> Result<Option<&'a str>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(at, key, "a string", other)),
    }
}

/// An optional whole number of milliseconds (not negative).
pub fn millis(map: &Object, key: &str, at: &str) -> Result<Option<i64>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_i64() {
            Some(n) if n >= 0 => Ok(Some(n)),
            _ => Err(wrong(
                at,
                key,
                "a whole number of milliseconds, 0 or more",
                v,
            )),
        },
    }
}

/// An optional time: RFC 3339 text or epoch milliseconds, as epoch milliseconds.
pub fn time(map: &Object, key: &str, at: &str) -> Result<Option<i64>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ (Value::String(_) | Value::Number(_))) => crate::time::normalize_now(v)
            .map(|(_, ms)| Some(ms))
            .map_err(|e| Error::new(e.code, child_path(at, key), e.message)),
        Some(other) => Err(wrong(
            at,
            key,
            "an RFC 3339 timestamp or epoch milliseconds",
            other,
        )),
    }
}

fn wrong(at: &str, key: &str, expected: &str, found: &Value) -> Error {
    let found = match found {
        Value::Number(_) | Value::Bool(_) => found.to_string(),
        other => type_name(other).to_owned(),
    };
    Error::new(
        Code::Argument,
        child_path(at, key),
        format!("{key} must be {expected}, not {found}"),
    )
}
