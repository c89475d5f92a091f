//! An operation's arguments as a binding hands them over, and the typed accessors the table's
//! functions read them with. Every argument rule (a string where a string is needed, a whole
//! number for an id, known option keys) is stated here once, for every binding.

use super::param::{Kind, Param};
use crate::error::{Code, Error, Result};
use crate::shape::Shape;
use crate::Value;
use std::borrow::Cow;

/// One argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    /// A JSON value (text, numbers and documents alike).
    Value(Value),
    /// File contents or random bytes (`None`: no file).
    Bytes(Option<Cow<'a, [u8]>>),
}

/// The arguments of one call, bound to the operation's parameters.
#[derive(Debug, Default, Clone)]
pub struct Args<'a> {
    pub(super) items: Vec<Arg<'a>>,
    pub(super) params: &'static [Param],
    pub(super) now: Option<Value>,
    /// The value arguments (bit `i`: argument `i`) their binding held to the documents'
    /// limits as it converted them ([`Args::mark_within_limits`]).
    pub(super) within_limits: u64,
    /// The table the call was dispatched from ([`super::Table::call`]).
    pub(super) table: Option<&'static dyn Described>,
}

/// What an operation may ask of the table its call was dispatched from (a
/// [`super::Table`]): its description, for the `manifest` operation.
pub trait Described: Sync {
    /// The table's manifest.
    fn manifest(&self) -> Value;
}

impl std::fmt::Debug for dyn Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Described")
    }
}

static NULL: Value = Value::Null;

/// The suffix of a new inbox id: given, or drawn from random bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suffix<'a> {
    /// The caller's 6 lowercase base36 characters.
    Given(&'a str),
    /// Random bytes from the host (at least 32).
    Random(&'a [u8]),
}

impl<'a> Args<'a> {
    /// Arguments in parameter order (fewer than the parameters: the rest are `null`).
    pub fn new(items: Vec<Arg<'a>>) -> Args<'a> {
        Args {
            items,
            params: &[],
            now: None,
            within_limits: 0,
            table: None,
        }
    }

    /// The same arguments owning their bytes (a job keeps them past the call that gave them).
    pub fn into_owned(self) -> Args<'static> {
        let items = self.items.into_iter().map(|item| match item {
            Arg::Value(value) => Arg::Value(value),
            Arg::Bytes(bytes) => Arg::Bytes(bytes.map(|b| Cow::Owned(b.into_owned()))),
        });
        Args {
            items: items.collect(),
            params: self.params,
            now: self.now,
            within_limits: self.within_limits,
            table: self.table,
        }
    }

    /// The table the call was dispatched from ([`super::Table::call`]); none for a call
    /// made without one ([`super::call`]).
    pub fn table(&self) -> Option<&'static dyn Described> {
        self.table
    }

    /// The same arguments after `first` (the document a file operation read).
    pub fn prepend(mut self, first: Arg<'a>) -> Args<'a> {
        self.items.insert(0, first);
        self.within_limits <<= 1;
        self
    }

    /// Says that the value at `i` is within the documents' limits (nesting depth at most
    /// [`crate::json::MAX_DEPTH`], every string and key at most
    /// [`crate::json::MAX_STRING_BYTES`]), as the binding that converted it checked on the
    /// way: the call then does not walk it again ([`crate::json::check_limits`]). A binding
    /// marks only what its conversion checked against these same constants.
    pub fn mark_within_limits(&mut self, i: usize) {
        if let Some(bit) = u32::try_from(i).ok().and_then(|i| 1u64.checked_shl(i)) {
            self.within_limits |= bit;
        }
    }

    /// Whether the value at `i` was marked by [`Args::mark_within_limits`].
    pub(super) fn is_within_limits(&self, i: usize) -> bool {
        u32::try_from(i)
            .ok()
            .and_then(|i| 1u64.checked_shl(i))
            .is_some_and(|bit| self.within_limits & bit != 0)
    }

    /// The host's clock: every `now` parameter left out (or `null`) takes this value.
    pub fn set_now(&mut self, now: &Value) {
        self.now = Some(now.clone());
    }

    /// Arguments that are all JSON values (bytes parameters take a string's UTF-8 bytes).
    pub fn values(values: Vec<Value>) -> Args<'a> {
        Args::new(values.into_iter().map(Arg::Value).collect())
    }

    fn name(&self, i: usize) -> &'static str {
        self.params.get(i).map_or("argument", |p| p.name)
    }

    /// The JSON value at `i` (`null` when left out).
    pub fn get(&self, i: usize) -> &Value {
        match self.items.get(i) {
            Some(Arg::Value(value)) => value,
            _ => &NULL,
        }
    }

    /// The items of the array at `i` (none when it is left out or not an array: a list the
    /// table types as one, such as a job's `answers`).
    pub fn list(&self, i: usize) -> &[Value] {
        self.get(i)
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The JSON value at `i`, taken (documents are consumed, never copied).
    pub fn take(&mut self, i: usize) -> Value {
        match self.items.get_mut(i) {
            Some(Arg::Value(value)) => std::mem::take(value),
            _ => Value::Null,
        }
    }

    /// The string at `i` (`E_VALUE` otherwise).
    pub fn text(&self, i: usize) -> Result<&str> {
        let value = self.get(i);
        value
            .as_str()
            .ok_or_else(|| argument_type(self.name(i), "a string", value))
    }

    /// The list of strings at `i` (`E_VALUE` otherwise, at the item's path).
    pub fn texts(&self, i: usize) -> Result<Vec<&str>> {
        let value = self.get(i);
        let name = self.name(i);
        let list = value
            .as_array()
            .ok_or_else(|| argument_type(name, "a list of strings", value))?;
        let mut texts = Vec::with_capacity(list.len());
        for (n, v) in list.iter().enumerate() {
            let text = v.as_str().ok_or_else(|| {
                let mut error = argument_type(&format!("{name}[{n}]"), "a string", v);
                error.path = format!("/{n}");
                error.with_detail("argument", name)
            })?;
            texts.push(text);
        }
        Ok(texts)
    }

    /// The string at `i`, or `None` when it is left out or `null`.
    pub fn opt_text(&self, i: usize) -> Result<Option<&str>> {
        match self.get(i) {
            Value::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }

    /// The boolean at `i`, `false` when it is left out or `null` (`E_VALUE` otherwise).
    pub fn opt_flag(&self, i: usize) -> Result<bool> {
        match self.get(i) {
            Value::Null => Ok(false),
            Value::Bool(b) => Ok(*b),
            value => Err(argument_type(self.name(i), "true or false", value)),
        }
    }

    /// The boolean at `i` (`E_VALUE` otherwise).
    pub fn flag(&self, i: usize) -> Result<bool> {
        match self.get(i) {
            Value::Bool(b) => Ok(*b),
            value => Err(argument_type(self.name(i), "true or false", value)),
        }
    }

    /// The number at `i` (`E_VALUE` otherwise).
    pub fn number(&self, i: usize) -> Result<f64> {
        let value = self.get(i);
        value
            .as_f64()
            .ok_or_else(|| argument_type(self.name(i), "a number", value))
    }

    /// The whole number at `i`, as a host's epoch milliseconds (`E_VALUE` otherwise; a
    /// fraction is cut off).
    pub fn millis(&self, i: usize) -> Result<i64> {
        let value = self.get(i);
        match (value.as_i64(), value.as_f64()) {
            (Some(ms), _) => Ok(ms),
            #[allow(clippy::cast_possible_truncation)] // saturating: a clock in range
            (None, Some(ms)) if ms.is_finite() => Ok(ms as i64),
            _ => Err(argument_type(self.name(i), "a number", value)),
        }
    }

    /// The bytes at `i`, or `None` (no file).
    pub fn opt_bytes(&self, i: usize) -> Option<&[u8]> {
        match self.items.get(i) {
            Some(Arg::Bytes(Some(bytes))) => Some(bytes),
            _ => None,
        }
    }

    /// The bytes at `i` (`E_VALUE` when there are none).
    pub fn bytes(&self, i: usize) -> Result<&[u8]> {
        self.opt_bytes(i)
            .ok_or_else(|| argument_type(self.name(i), "bytes or a string", &NULL))
    }

    /// A whole number ≥ 0 at `i` (`E_ARGUMENT` at `/<name>` otherwise).
    pub fn whole(&self, i: usize) -> Result<u64> {
        let value = self.get(i);
        value.as_u64().ok_or_else(|| {
            let name = self.name(i);
            Error::new(
                Code::Argument,
                format!("/{name}"),
                format!("{name} must be a whole number ≥ 0, not {value}"),
            )
            .with_detail("argument", name)
        })
    }

    /// The id suffix at `i`: a given string, or the host's random bytes.
    pub fn suffix(&self, i: usize) -> Result<Suffix<'_>> {
        match self.items.get(i) {
            Some(Arg::Value(Value::String(text))) => Ok(Suffix::Given(text)),
            Some(Arg::Bytes(Some(bytes))) => Ok(Suffix::Random(bytes)),
            Some(Arg::Value(other)) if !other.is_null() => {
                Err(argument_type(self.name(i), "a string", other))
            }
            _ => Err(Error::new(
                Code::Argument,
                format!("/{}", self.name(i)),
                "the host must pass random bytes (or a 6-character base36 suffix)",
            )),
        }
    }

    /// The options at `i` (`null` when left out), their keys checked against the parameter's
    /// shape (`E_OPTIONS` naming the nearest valid key) and their values against its types.
    pub fn options(&self, i: usize) -> Result<&Value> {
        let value = self.get(i);
        if let Some(Param {
            kind: Kind::Options(shape),
            name,
            ..
        }) = self.params.get(i)
        {
            crate::options::check_typed(name, value, shape)?;
        }
        Ok(value)
    }

    /// The value at `i`, checked as an object of `shape` (no unknown field, each field of its
    /// type): `E_ARGUMENT` at the first problem, naming the nearest field for an unknown one.
    pub fn input(&self, i: usize, shape: &Shape) -> Result<&Value> {
        crate::options::input(self.get(i), shape, self.name(i))
    }
}

/// An error at `/<index>/...` of the argument array, moved into the argument it is in.
pub(super) fn within_argument(mut error: Error, params: &[Param]) -> Error {
    let rest = error.path.strip_prefix('/').unwrap_or_default();
    let (index, inner) = rest.split_once('/').map_or((rest, ""), |(i, r)| (i, r));
    if let Some(param) = index.parse::<usize>().ok().and_then(|i| params.get(i)) {
        error.path = if inner.is_empty() {
            String::new()
        } else {
            format!("/{inner}")
        };
        error = error.with_detail("argument", param.name);
    }
    error
}

/// `E_VALUE`: an argument of the wrong type, with the argument's name in `details`.
pub(super) fn argument_type(name: &str, expected: &str, value: &Value) -> Error {
    Error::new(
        Code::Value,
        "",
        format!(
            "{name} must be {expected}, not {}",
            crate::merge::type_name(value)
        ),
    )
    .with_detail("argument", name)
}
