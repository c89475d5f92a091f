//! The document type: [`Value`], a JSON value with keys kept in order ([`Map`]) and numbers
//! kept exactly ([`Number`]), made for small state files (docs/performance.md § Documents).
//! Its API follows `serde_json::Value`'s, which the core used before; [`json!`](crate::json!)
//! builds one.

mod bytes;
mod convert;
pub(crate) mod float;
mod macros;
mod map;
mod number;
mod read;
mod set;

pub use bytes::same_bytes;
pub use convert::ToValue;
pub use macros::new_items;
pub(crate) use map::Identity;
pub use map::{Iter, IterMut, Map};
pub use number::Number;
pub use read::{Json, JsonKind};

/// A string of a document (an object's key or a string value): kept inline, without a heap
/// allocation, up to 24 bytes (nearly every key and most values of a state file).
pub use compact_str::CompactString as Str;

use std::fmt;

/// A JSON value.
#[derive(Clone, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly as written.
    Number(Number),
    /// A string.
    String(Str),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in order.
    Object(Map),
}

/// What [`Value::get`] accepts: a key (`&str`, `String`) or an array index (`usize`).
pub trait Index {
    /// The member of `value` this names.
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    /// The member of `value` this names, to change it.
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for usize {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_array_mut()?.get_mut(*self)
    }
}

impl Index for str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

impl Index for String {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl Index for Str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(value)
    }
}

impl Value {
    /// The member named by a key (of an object) or an index (of an array).
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The member named by a key or an index, to change it.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The value at a JSON pointer (`""` is the value itself).
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        tokens(pointer)?.try_fold(self, |target, token| match target {
            Value::Object(map) => map.get(&token),
            Value::Array(items) => array_index(&token).and_then(|i| items.get(i)),
            _ => None,
        })
    }

    /// The value at a JSON pointer, to change it.
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        tokens(pointer)?.try_fold(self, |target, token| match target {
            Value::Object(map) => map.get_mut(&token),
            Value::Array(items) => array_index(&token).and_then(|i| items.get_mut(i)),
            _ => None,
        })
    }

    /// The value, leaving `null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64` (see [`Number::as_i64`]).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as a `u64` (see [`Number::as_u64`]).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as a finite double (see [`Number::as_f64`]).
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The array, to change it.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The object, to change it.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// True for a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// True for a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// True for a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// True for an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// True for an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// True for a number that is an `i64` (see [`Number::is_i64`]).
    pub fn is_i64(&self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    /// True for a number that is a `u64` (see [`Number::is_u64`]).
    pub fn is_u64(&self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    /// True for a number with a fraction or exponent (see [`Number::is_f64`]).
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }
}

/// The unescaped reference tokens of a JSON pointer (none for `""`), or `None` when it does not
/// start with `/`.
fn tokens(pointer: &str) -> Option<impl Iterator<Item = String> + '_> {
    let rest = if pointer.is_empty() {
        None
    } else {
        Some(pointer.strip_prefix('/')?)
    };
    Some(
        rest.into_iter()
            .flat_map(|rest| rest.split('/'))
            .map(|token| token.replace("~1", "/").replace("~0", "~")),
    )
}

/// An array index token of a JSON pointer: digits, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// A short English name for a JSON value's type, for messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => fmt::Debug::fmt(n, f),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(items) => {
                f.write_str("Array ")?;
                f.debug_list().entries(items).finish()
            }
            Value::Object(map) => {
                f.write_str("Object ")?;
                fmt::Debug::fmt(map, f)
            }
        }
    }
}

/// The `null` that [`std::ops::Index`] returns for a missing member.
pub(super) static NULL: Value = Value::Null;

/// `value["key"]`, `value[0]`: the member, or `null` when there is none (never a panic).
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}
