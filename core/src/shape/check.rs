//! The field rules every validator shares, read from a [`Shape`]: one place for each type
//! rule and its report code (`E_TYPE`, `E_ENUM`, `E_REQUIRED`, `E_TIMESTAMP_FORMAT`,
//! `W_UNKNOWN_FIELD`). `null` counts as absent in documents (docs/conventions.md § Documents).
//!
//! [`walk`] checks every field of a shape in order (fields marked `by_rule` are left to the
//! protocol's own rules) and returns the object so the protocol can add its cross-field rules.

use super::{Check, Field, Role, Shape, Ty};
use crate::error::child_path;
use crate::report::Report;
use crate::time::is_timestamp;
use crate::value::Json;
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

/// [`present`] of any [`Json`] view of an object.
pub fn present_in<'a, J: Json<'a>>(object: J, key: &str) -> Option<J> {
    object.get(key).filter(|v| !v.is_null())
}

/// The value (any [`Json`] view) if it is an object, or `E_TYPE` at `at` naming it `what`.
pub fn root<'a, J: Json<'a>>(report: &mut Report, value: J, at: &str, what: &str) -> Option<J> {
    root_at(report, value, &At::Here(at), what)
}

fn root_at<'a, J: Json<'a>>(report: &mut Report, value: J, at: &At<'_>, what: &str) -> Option<J> {
    if value.is_object() {
        return Some(value);
    }
    report.error(
        "E_TYPE",
        at.render(),
        format!("{what} must be a JSON object, not {}", value.type_name()),
    );
    None
}

/// Checks `value` as the object `shape` at `at` (root type, every field, unknown fields) and
/// returns it, or `None` (with `E_TYPE`) when it is not an object.
pub fn walk<'a>(
    report: &mut Report,
    value: &'a Value,
    shape: &Shape,
    at: &str,
) -> Option<&'a Object> {
    walk_json(report, value, shape, at)?.as_object()
}

/// [`walk`] of any [`Json`] view: the object itself, or `None`.
pub fn walk_json<'a, J: Json<'a>>(
    report: &mut Report,
    value: J,
    shape: &Shape,
    at: &str,
) -> Option<J> {
    walk_at(report, value, shape, &At::Here(at))
}

fn walk_at<'a, J: Json<'a>>(
    report: &mut Report,
    value: J,
    shape: &Shape,
    at: &At<'_>,
) -> Option<J> {
    let object = root_at(report, value, at, shape.what)?;
    fields_at(report, object, shape, at);
    Some(object)
}

/// Checks the fields of an object already known to be one (see [`walk`]).
pub fn fields(report: &mut Report, map: &Object, shape: &Shape, at: &str) {
    fields_json(report, Tree::Map(map), shape, at);
}

/// [`fields`] of an object given as any [`Json`] view.
pub fn fields_json<'a, J: Json<'a>>(report: &mut Report, object: J, shape: &Shape, at: &str) {
    fields_at(report, object, shape, &At::Here(at));
}

fn fields_at<'a, J: Json<'a>>(report: &mut Report, map: J, shape: &Shape, at: &At<'_>) {
    // Fields are usually in the shape's order: each is looked for after the one before.
    let mut next = map.first_member();
    for field in shape.fields {
        next = check_field(report, map, field, at, next);
    }
    let variant = shape.variants.iter().find(|variant| {
        map.get(variant.field)
            .and_then(J::as_str)
            .is_some_and(|value| variant.values.contains(&value))
    });
    if let Some(variant) = variant {
        let mut next = map.first_member();
        for field in variant.fields {
            next = check_field(report, map, field, at, next);
        }
    }
    // A shape with variants knows its fields only within a variant (an fctry event of another
    // kind is free-form).
    let known_shape = shape.variants.is_empty() || variant.is_some();
    if shape.role == Role::Document && known_shape {
        let what = variant.map_or(shape.what, |v| v.what);
        for (key, _) in map.members() {
            // Compared without `memcmp` (a byte loop in wasm), the lengths first.
            let named = |f: &Field| crate::value::same_bytes(f.name.as_bytes(), key.as_bytes());
            let known = shape.fields.iter().any(named)
                || variant.is_some_and(|v| v.fields.iter().any(named));
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

/// Checks only the fields of `shape` (not its variants') that `changed` names, as [`walk`]
/// checks them (`E_REQUIRED`, their types, everything under them), with no warning for an
/// unknown key: for an object that was valid before a change of those fields alone, whose
/// other fields would give the same report as before.
pub fn changed_fields_json<'a, J: Json<'a>>(
    report: &mut Report,
    object: J,
    shape: &Shape,
    at: &str,
    changed: impl Fn(&str) -> bool,
) {
    let at = At::Here(at);
    for field in shape.fields.iter().filter(|f| changed(f.name)) {
        check_field(report, object, field, &at, object.first_member());
    }
}

/// An object given as its map, seen as the value it is, for the generic rules; its members
/// are the tree's values.
#[derive(Clone, Copy)]
enum Tree<'a> {
    Map(&'a Map),
    Value(&'a Value),
}

impl<'a> Tree<'a> {
    fn map(self) -> Option<&'a Map> {
        match self {
            Tree::Map(map) => Some(map),
            Tree::Value(value) => value.as_object(),
        }
    }
}

impl<'a> Json<'a> for Tree<'a> {
    fn kind(self) -> crate::value::JsonKind {
        match self {
            Tree::Map(_) => crate::value::JsonKind::Object,
            Tree::Value(value) => value.kind(),
        }
    }
    fn as_str(self) -> Option<&'a str> {
        match self {
            Tree::Map(_) => None,
            Tree::Value(value) => value.as_str(),
        }
    }
    fn as_bool(self) -> Option<bool> {
        match self {
            Tree::Map(_) => None,
            Tree::Value(value) => value.as_bool(),
        }
    }
    fn number(self) -> Option<std::borrow::Cow<'a, crate::Number>> {
        match self {
            Tree::Map(_) => None,
            Tree::Value(value) => value.number(),
        }
    }
    fn get(self, key: &str) -> Option<Self> {
        self.map()?.get(key).map(Tree::Value)
    }
    fn first_member(self) -> usize {
        0
    }
    fn find_near(self, key: &str, at: usize) -> Option<(usize, Self)> {
        let (found, value) = self.map()?.get_near(key, at)?;
        Some((found.saturating_add(1), Tree::Value(value)))
    }
    fn key_at(self, at: usize) -> Option<&'a str> {
        self.map()?.key_at(at).map(|k| k.as_str())
    }
    fn after_member(self, at: usize) -> usize {
        at.saturating_add(1)
    }
    fn members(self) -> impl Iterator<Item = (&'a str, Self)> {
        self.map()
            .into_iter()
            .flat_map(|map| map.iter().map(|(k, v)| (k.as_str(), Tree::Value(v))))
    }
    fn items(self) -> impl Iterator<Item = Self> {
        let items = match self {
            Tree::Map(_) => None,
            Tree::Value(value) => value.as_array(),
        };
        items.into_iter().flatten().map(Tree::Value)
    }
    fn len(self) -> usize {
        match self {
            Tree::Map(map) => map.len(),
            Tree::Value(value) => value.len(),
        }
    }
    fn to_value(self) -> Value {
        match self {
            Tree::Map(map) => Value::Object(map.clone()),
            Tree::Value(value) => value.clone(),
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
fn check_field<'a, J: Json<'a>>(
    report: &mut Report,
    map: J,
    field: &Field,
    at: &At<'_>,
    near: usize,
) -> usize {
    if field.check == Check::ByRule {
        // Checked by the kind's rules; stepped over when it is where it was looked for.
        let here = map
            .key_at(near)
            .is_some_and(|k| crate::value::same_bytes(k.as_bytes(), field.name.as_bytes()));
        return if here { map.after_member(near) } else { near };
    }
    let here = At::Key(at, field.name);
    let (next, value) = match map.find_near(field.name, near) {
        Some((after, value)) => (after, Some(value)),
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
pub fn value_of<'a, J: Json<'a>>(report: &mut Report, value: J, ty: &Ty, path: &str, key: &str) {
    value_at(report, value, ty, &At::Here(path), key);
}

fn value_at<'a, J: Json<'a>>(report: &mut Report, value: J, ty: &Ty, path: &At<'_>, key: &str) {
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
        Ty::Object(shape) => {
            if value.is_object() {
                fields_at(report, value, shape, path);
            } else {
                type_error_at(report, path, key, "an object", value);
            }
        }
        Ty::List(item) => {
            if value.is_array() {
                let item_key = format!("{key} items");
                for (i, element) in value.items().enumerate() {
                    item_of(report, element, item, &At::Index(path, i), &item_key);
                }
            } else {
                type_error_at(report, path, key, "a list", value);
            }
        }
        Ty::Map(item) => {
            if value.is_object() {
                for (name, element) in value.members() {
                    item_of(report, element, item, &At::Key(path, name), name);
                }
            } else {
                type_error_at(report, path, key, "an object", value);
            }
        }
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
fn item_of<'a, J: Json<'a>>(report: &mut Report, value: J, ty: &Ty, path: &At<'_>, key: &str) {
    match *ty {
        Ty::Object(shape) => {
            walk_at(report, value, shape, path);
        }
        Ty::Str if !value.is_string() => type_error_at(report, path, key, "strings", value),
        _ => value_at(report, value, ty, path, key),
    }
}

/// `E_TYPE`: `"<key> must be <expected>, not <found>"` (a number or boolean shown as it is).
pub fn type_error<'a, J: Json<'a>>(
    report: &mut Report,
    path: &str,
    key: &str,
    expected: &str,
    value: J,
) {
    type_error_at(report, &At::Here(path), key, expected, value);
}

fn type_error_at<'a, J: Json<'a>>(
    report: &mut Report,
    path: &At<'_>,
    key: &str,
    expected: &str,
    value: J,
) {
    let found = value
        .scalar_text()
        .unwrap_or_else(|| value.type_name().to_owned());
    report.error(
        "E_TYPE",
        path.render(),
        format!("{key} must be {expected}, not {found}"),
    );
}
