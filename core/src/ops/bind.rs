//! Arguments bound to an operation: read from the wire for it ([`Args::from_wire`]) and
//! checked against its parameters ([`Args::bind`]), in a module of their own so that the
//! arguments (`args`) need not know the table's operations.

use super::args::{argument_type, within_argument, Arg, Args};
use super::gate::refuse;
use super::out::Out;
use super::param::Kind;
use super::types::Op;
use crate::error::{Code, Error, Result};
use crate::Value;
use std::borrow::Cow;

impl<'a> Args<'a> {
    /// The arguments of `op` as a host sends them over a text boundary (wasm): the JSON text
    /// of an array with one entry per parameter after the first `skip` (a file operation's
    /// document comes from the file), and one byte slot per bytes or random parameter, in
    /// order. A random parameter given as a string uses the string and not its slot. An
    /// error inside an argument's JSON names the argument (`details.argument`) and has a
    /// path within it.
    pub fn from_wire(
        op: &Op,
        skip: usize,
        json: &str,
        mut slots: impl Iterator<Item = Option<Cow<'a, [u8]>>>,
    ) -> Result<Args<'a>> {
        let params = op.params.get(skip..).unwrap_or_default();
        let values = match crate::json::parse_args(json) {
            Ok(Value::Array(values)) => values,
            Ok(_) => {
                return Err(Error::new(
                    Code::Argument,
                    "",
                    "the arguments must be a JSON array",
                ))
            }
            Err(error) => return Err(within_argument(error, params)),
        };
        let mut items = Vec::with_capacity(params.len());
        for (i, value) in values.into_iter().enumerate() {
            let kind = params.get(i).map(|p| p.kind);
            let item = match (kind, value) {
                (Some(Kind::Bytes), _) => Arg::Bytes(slots.next().flatten()),
                (Some(Kind::Random), Value::String(text)) => {
                    slots.next();
                    Arg::Value(Value::String(text))
                }
                (Some(Kind::Random), _) => match slots.next().flatten() {
                    Some(bytes) => Arg::Bytes(Some(bytes)),
                    None => Arg::Value(Value::Null),
                },
                (_, value) => Arg::Value(value),
            };
            items.push(item);
        }
        Ok(Args::new(items))
    }

    /// Binds the arguments to `op`'s parameters: `E_ARGUMENT` when there are too many; a
    /// string given for a bytes parameter becomes its UTF-8 bytes.
    pub(super) fn bind(&mut self, op: &Op) -> Result<()> {
        if self.items.len() > op.params.len() {
            return Err(Error::new(
                Code::Argument,
                "",
                format!(
                    "{} takes {}, not {}",
                    op.name(),
                    crate::report::count_of(op.params.len(), "argument"),
                    self.items.len()
                ),
            ));
        }
        self.params = op.params;
        // Each string of an argument may hold a document's text (`MAX_ARGUMENT_STRING_BYTES`);
        // a value argument (a document, a patch) is held to the documents' limits, except one
        // of a parameter that says not ([`Param::unlimited_value`]: the command line's
        // request, whose strings are the texts of the files it read).
        // A value its binding already held to them as it converted it is not walked again.
        for (i, (item, param)) in self.items.iter().zip(op.params).enumerate() {
            if let (Kind::Value, Arg::Value(value)) = (param.kind, item) {
                if param.limited && !self.is_within_limits(i) {
                    crate::json::check_limits(value)?;
                }
            }
        }
        if let Some(now) = &self.now {
            for (i, param) in op.params.iter().enumerate() {
                if matches!(param.kind, Kind::Now) && self.get(i).is_null() {
                    while self.items.len() <= i {
                        self.items.push(Arg::Value(Value::Null));
                    }
                    if let Some(item) = self.items.get_mut(i) {
                        *item = Arg::Value(now.clone());
                    }
                }
            }
        }
        for (item, param) in self.items.iter_mut().zip(op.params) {
            if let (Kind::Bytes, Arg::Value(value)) = (param.kind, &*item) {
                *item = match value {
                    Value::Null => Arg::Bytes(None),
                    Value::String(text) => Arg::Bytes(Some(Cow::Owned(text.as_bytes().to_vec()))),
                    other => return Err(argument_type(param.name, "bytes or a string", other)),
                };
            }
        }
        Ok(())
    }
}

/// Runs an operation on its arguments (as many as it has parameters at most; missing ones
/// are `null`). Every binding calls this through the table it found the operation in
/// ([`super::Table::call`]), which tells the operations that describe their table
/// (`manifest`) which it is.
pub fn call(op: &Op, mut args: Args<'_>) -> Result<Out> {
    if !op.available() {
        return Err(refuse(op));
    }
    args.bind(op)?;
    (op.run)(&mut args)
}
