//! [`Json`]: the read-only view of a JSON value that validators, number checks and host
//! conversions are written against once, so they run on a document tree (`&Value`) or on a
//! parsed text that was never built into one (a [`crate::json::TapeValue`];
//! docs/performance.md § The document representation).

use super::{Number, Value};
use std::borrow::Cow;

/// What a JSON value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A JSON value, read only. `'a` is the lifetime of what it reads (strings are borrowed).
pub trait Json<'a>: Copy + 'a {
    /// What the value is.
    fn kind(self) -> JsonKind;
    /// The text of a string.
    fn as_str(self) -> Option<&'a str>;
    /// The value of a boolean.
    fn as_bool(self) -> Option<bool>;
    /// The number, with its text as the parser keeps it (`1e+5` for `1E5`).
    fn number(self) -> Option<Cow<'a, Number>>;
    /// The member `key` of an object.
    fn get(self, key: &str) -> Option<Self>;
    /// A cursor at the first member of an object. Cursors let a caller that walks an
    /// object's keys in their usual order find each where it expects it; they are opaque,
    /// valid only for the object that made them.
    fn first_member(self) -> usize;
    /// The member `key` of an object, looked for at cursor `at` first, and the cursor after it.
    fn find_near(self, key: &str, at: usize) -> Option<(usize, Self)>;
    /// The key of the member at cursor `at`.
    fn key_at(self, at: usize) -> Option<&'a str>;
    /// The cursor after the member at cursor `at`.
    fn after_member(self, at: usize) -> usize;
    /// The members of an object in order (none for anything else).
    fn members(self) -> impl Iterator<Item = (&'a str, Self)>;
    /// The items of an array in order (none for anything else).
    fn items(self) -> impl Iterator<Item = Self>;
    /// The number of members of an object or items of an array (0 for anything else).
    fn len(self) -> usize;
    /// The value as a document tree (a copy).
    fn to_value(self) -> Value;

    /// Whether every number within the value passes `ok`, when the representation can tell
    /// without walking the value member by member (a tape's numbers are among its nodes, in
    /// one run); `None`: walk it.
    fn numbers_pass(self, _ok: &dyn Fn(&Number) -> bool) -> Option<bool> {
        None
    }

    /// True for `null`.
    fn is_null(self) -> bool {
        self.kind() == JsonKind::Null
    }
    /// True for a string.
    fn is_string(self) -> bool {
        self.kind() == JsonKind::String
    }
    /// True for `true` or `false`.
    fn is_boolean(self) -> bool {
        self.kind() == JsonKind::Bool
    }
    /// True for a number.
    fn is_number(self) -> bool {
        self.kind() == JsonKind::Number
    }
    /// True for an object.
    fn is_object(self) -> bool {
        self.kind() == JsonKind::Object
    }
    /// True for an array.
    fn is_array(self) -> bool {
        self.kind() == JsonKind::Array
    }
    /// True for an object or array without members.
    fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// A whole number ≥ 0 (see [`Number::as_u64`]).
    fn as_u64(self) -> Option<u64> {
        self.number()?.as_u64()
    }
    /// A whole number (see [`Number::as_i64`]).
    fn as_i64(self) -> Option<i64> {
        self.number()?.as_i64()
    }
    /// The number as a double.
    fn as_f64(self) -> Option<f64> {
        self.number()?.as_f64()
    }
    /// A number or boolean as its JSON text; `None` for anything else.
    fn scalar_text(self) -> Option<String> {
        match self.kind() {
            JsonKind::Bool => self.as_bool().map(|b| b.to_string()),
            JsonKind::Number => self.number().map(|n| n.as_str().to_owned()),
            _ => None,
        }
    }
    /// `"a string"`, `"an object"`, ...: the value's type as messages name it.
    fn type_name(self) -> &'static str {
        match self.kind() {
            JsonKind::Null => "null",
            JsonKind::Bool => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

impl<'a> Json<'a> for &'a Value {
    fn kind(self) -> JsonKind {
        match self {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }
    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }
    fn as_bool(self) -> Option<bool> {
        Value::as_bool(self)
    }
    fn number(self) -> Option<Cow<'a, Number>> {
        self.as_number().map(Cow::Borrowed)
    }
    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn first_member(self) -> usize {
        0
    }
    fn find_near(self, key: &str, at: usize) -> Option<(usize, Self)> {
        let (found, value) = self.as_object()?.get_near(key, at)?;
        Some((found.saturating_add(1), value))
    }
    fn key_at(self, at: usize) -> Option<&'a str> {
        self.as_object()?.key_at(at).map(|k| k.as_str())
    }
    fn after_member(self, at: usize) -> usize {
        at.saturating_add(1)
    }
    fn members(self) -> impl Iterator<Item = (&'a str, Self)> {
        self.as_object()
            .into_iter()
            .flat_map(|map| map.iter().map(|(k, v)| (k.as_str(), v)))
    }
    fn items(self) -> impl Iterator<Item = Self> {
        self.as_array().into_iter().flatten()
    }
    fn len(self) -> usize {
        match self {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        }
    }
    fn to_value(self) -> Value {
        self.clone()
    }
    // The tree answers these without making a number.
    fn as_u64(self) -> Option<u64> {
        Value::as_u64(self)
    }
    fn as_i64(self) -> Option<i64> {
        Value::as_i64(self)
    }
    fn as_f64(self) -> Option<f64> {
        Value::as_f64(self)
    }
}
