//! The field rules every validator shares, read from a [`Shape`]: one place for each type
//! rule and its report code (`E_TYPE`, `E_ENUM`, `E_REQUIRED`, `E_TIMESTAMP_FORMAT`,
//! `W_UNKNOWN_FIELD`). `null` counts as absent in documents (ARCHITECTURE §3).
//!
//! [`walk`] checks every field of a shape in order (fields marked `by_rule` are left to the
//! protocol's own rules) and returns the object so the protocol can add its cross-field rules.

use super::{Check, Field, Role, Shape, Ty};
use crate::error::child_path;
use crate::merge::type_name;
use crate::report::Report;
use crate::time::is_timestamp;
use crate::{Map, Value};

/// A JSON object.
pub type Object = Map;

/// Where a checked value is: a JSON pointer made only when a rule reports something (most
/// fields are valid, and a path per field was most of the cost of validating).
#[derive(Clone, Copy)]
enum At<'a> {
    /// A pointer given by the caller.
    Here(&'a str),
    /// A member of the object at the first.
    Key(&'a At<'a>, &'a str),
    /// An item of the array at the first.
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    /// The JSON pointer.
    fn render(&self) -> String {
        match self {
            At::Here(at) => (*at).to_owned(),
            At::Key(parent, key) => child_path(&parent.render(), key),
            At::Index(parent, i) => child_path(&parent.render(), &i.to_string()),
        }
    }
}

/// The field's value unless it is absent or `null`.
pub fn present<'a>(map: &'a Object, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

/// The value as an object, or `E_TYPE` at `at` naming it `what`.
pub fn root<'a>(report: &mut Report, value: &'a Value, at: &str, what: &str) -> Option<&'a Object> {
    root_at(report, value, &At::Here(at), what)
}

fn root_at<'a>(
    report: &mut Report,
    value: &'a Value,
    at: &At<'_>,
    what: &str,
) -> Option<&'a Object> {
    let map = value.as_object();
    if map.is_none() {
        report.error(
            "E_TYPE",
            at.render(),
            format!("{what} must be a JSON object, not {}", type_name(value)),
        );
    }
    map
}

/// Checks `value` as the object `shape` at `at` (root type, every field, unknown fields) and
/// returns it, or `None` (with `E_TYPE`) when it is not an object.
pub fn walk<'a>(
    report: &mut Report,
    value: &'a Value,
    shape: &Shape,
    at: &str,
) -> Option<&'a Object> {
    walk_at(report, value, shape, &At::Here(at))
}

fn walk_at<'a>(
    report: &mut Report,
    value: &'a Value,
    shape: &Shape,
    at: &At<'_>,
) -> Option<&'a Object> {
    let map = root_at(report, value, at, shape.what)?;
    fields_at(report, map, shape, at);
    Some(map)
}

/// Checks the fields of an object already known to be one (see [`walk`]).
pub fn fields(report: &mut Report, map: &Object, shape: &Shape, at: &str) {
    fields_at(report, map, shape, &At::Here(at));
}

fn fields_at(report: &mut Report, map: &Object, shape: &Shape, at: &At<'_>) {
    // Fields are usually in the shape's order: each is looked for after the one before.
    let mut next = 0usize;
    for field in shape.fields {
        next = check_field(report, map, field, at, next);
    }
    let variant = shape.variants.iter().find(|variant| {
        map.get(variant.field)
            .and_then(Value::as_str)
            .is_some_and(|value| variant.values.contains(&value))
    });
    if let Some(variant) = variant {
        let mut next = 0usize;
        for field in variant.fields {
            next = check_field(report, map, field, at, next);
        }
    }
    // A shape with variants knows its fields only within a variant (an fctry event of another
    // kind is free-form).
    let known_shape = shape.variants.is_empty() || variant.is_some();
    if shape.role == Role::Document && known_shape {
        let what = variant.map_or(shape.what, |v| v.what);
        for key in map.keys() {
            let known = shape.fields.iter().any(|f| f.name == key)
                || variant.is_some_and(|v| v.fields.iter().any(|f| f.name == key));
            if !known {
                report.warn(
                    "W_UNKNOWN_FIELD",
                    At::Key(at, key).render(),
                    format!(
                        "field {key:?} is not part of the {} schema; it is kept as is",
                        unknown_name(what)
                    ),
                );
            }
        }
    }
}

/// `"the fctry state"` → `"fctry state"`: the name an unknown-field warning uses.
fn unknown_name(what: &str) -> &str {
    ["the ", "an ", "a "]
        .iter()
        .find_map(|article| what.strip_prefix(article))
        .unwrap_or(what)
}

/// Checks one field of `map`: `E_REQUIRED` when a required field is absent (or `null`), else
/// its type. The field is looked for at position `near` first; returns the position after
/// it (`near` when it is absent).
fn check_field(
    report: &mut Report,
    map: &Object,
    field: &Field,
    at: &At<'_>,
    near: usize,
) -> usize {
    if field.check == Check::ByRule {
        // Checked by the kind's rules; stepped over when it is where it was looked for.
        let here = map
            .key_at(near)
            .is_some_and(|k| crate::value::same_bytes(k.as_bytes(), field.name.as_bytes()));
        return if here { near.saturating_add(1) } else { near };
    }
    let here = At::Key(at, field.name);
    let (next, value) = match map.get_near(field.name, near) {
        Some((found, value)) => (found.saturating_add(1), Some(value)),
        None => (near, None),
    };
    match value.filter(|v| !v.is_null()) {
        None if field.required && field.check == Check::Walk => report.error(
            "E_REQUIRED",
            here.render(),
            format!("{} is required", field.name),
        ),
        None => {}
        Some(value) => value_at(report, value, &field.ty, &here, field.name),
    }
    next
}

/// Checks `value` against `ty`; `key` names it in messages (`"status"`, `"tags items"`).
pub fn value_of(report: &mut Report, value: &Value, ty: &Ty, path: &str, key: &str) {
    value_at(report, value, ty, &At::Here(path), key);
}

fn value_at(report: &mut Report, value: &Value, ty: &Ty, path: &At<'_>, key: &str) {
    match *ty {
        Ty::Str | Ty::Line => {
            if !value.is_string() {
                type_error_at(report, path, key, "a string", value);
            }
        }
        Ty::Timestamp => match value.as_str() {
            None => type_error_at(report, path, key, "a string", value),
            Some(text) if !is_timestamp(text) => report.error(
                "E_TIMESTAMP_FORMAT",
                path.render(),
                format!(
                    "{key} {text:?} is not an ISO 8601 / RFC 3339 timestamp like \
                     2026-02-17T04:00:00Z"
                ),
            ),
            Some(_) => {}
        },
        Ty::Bool => {
            if !value.is_boolean() {
                type_error_at(report, path, key, "true or false", value);
            }
        }
        Ty::Whole(min) => {
            if value.as_u64().filter(|n| *n >= min).is_none() {
                type_error_at(report, path, key, &format!("a whole number ≥ {min}"), value);
            }
        }
        Ty::Int => {
            if value.as_i64().is_none() {
                type_error_at(report, path, key, "a whole number", value);
            }
        }
        Ty::Number => {
            if !value.is_number() {
                type_error_at(report, path, key, "a number", value);
            }
        }
        Ty::Enum(e) => match value.as_str() {
            None => type_error_at(report, path, key, "a string", value),
            Some(text) if !e.values.contains(&text) => report.error(
                "E_ENUM",
                path.render(),
                format!("{key} {text:?} is not one of {}", e.values.join(", ")),
            ),
            Some(_) => {}
        },
        Ty::Lit(expected) => {
            if value.as_str() != Some(expected) {
                type_error_at(report, path, key, &format!("{expected:?}"), value);
            }
        }
        Ty::Object(shape) => match value.as_object() {
            None => type_error_at(report, path, key, "an object", value),
            Some(map) => fields_at(report, map, shape, path),
        },
        Ty::List(item) => match value.as_array() {
            None => type_error_at(report, path, key, "a list", value),
            Some(items) => {
                let item_key = format!("{key} items");
                for (i, element) in items.iter().enumerate() {
                    item_of(report, element, item, &At::Index(path, i), &item_key);
                }
            }
        },
        Ty::Map(item) => match value.as_object() {
            None => type_error_at(report, path, key, "an object", value),
            Some(map) => {
                for (name, element) in map {
                    item_of(report, element, item, &At::Key(path, name), name);
                }
            }
        },
        Ty::Nullable(inner) => {
            if !value.is_null() {
                value_at(report, value, inner, path, key);
            }
        }
        Ty::Null => {
            if !value.is_null() {
                type_error_at(report, path, key, "null", value);
            }
        }
        Ty::Alias(alias) => value_at(report, value, &alias.ty, path, key),
        Ty::Union(_) | Ty::Json | Ty::Param | Ty::Apply(..) | Ty::KindDoc | Ty::Kind => {}
    }
}

/// An item of a list or a value of a map: an object must be one (`E_TYPE` naming the shape),
/// a string item says `"<key> must be strings"`.
fn item_of(report: &mut Report, value: &Value, ty: &Ty, path: &At<'_>, key: &str) {
    match *ty {
        Ty::Object(shape) => {
            walk_at(report, value, shape, path);
        }
        Ty::Str if !value.is_string() => type_error_at(report, path, key, "strings", value),
        _ => value_at(report, value, ty, path, key),
    }
}

/// `E_TYPE`: `"<key> must be <expected>, not <found>"` (a number or boolean shown as it is).
pub fn type_error(report: &mut Report, path: &str, key: &str, expected: &str, value: &Value) {
    type_error_at(report, &At::Here(path), key, expected, value);
}

fn type_error_at(report: &mut Report, path: &At<'_>, key: &str, expected: &str, value: &Value) {
    let found = match value {
        Value::Number(_) | Value::Bool(_) => value.to_string(),
        other => type_name(other).to_owned(),
    };
    report.error(
        "E_TYPE",
        path.render(),
        format!("{key} must be {expected}, not {found}"),
    );
}
