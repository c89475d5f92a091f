//! A progress event's values: the fields of its `details` it may set (`metrics` and
//! `protocol_compliance`), read from a tree; the typed line reads the same in place.

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// A progress's fields and their values, in the order of [`PROGRESS_FIELDS`].
pub(super) type Fields = Vec<(&'static str, Map)>;

/// The fields a progress event may set.
pub const PROGRESS_FIELDS: [&str; 2] = ["metrics", "protocol_compliance"];

/// The fields a progress's `details` gives: its `metrics` and `protocol_compliance` objects,
/// empty ones left out (`E_ARGUMENT` when one is not an object); `None` when `details` is not
/// an object. The typed line reads the same in place ([`Event::progress`]).
pub(super) fn progress_values(details: &Value) -> Result<Option<Fields>> {
    if !details.is_object() {
        return Ok(None);
    }
    let mut fields = Vec::new();
    for field in PROGRESS_FIELDS {
        let values = object_field(details, field, false)?;
        if !values.is_empty() {
            fields.push((field, values));
        }
    }
    Ok(Some(fields))
}

/// `details[field]` as an object (empty when absent and not `required`).
pub(super) fn object_field(details: &Value, field: &str, required: bool) -> Result<Map> {
    match details.get(field) {
        Some(Value::Object(map)) => Ok(map.clone()),
        None | Some(Value::Null) if !required => Ok(Map::new()),
        _ => Err(Error::new(
            Code::Argument,
            format!("/details/{field}"),
            format!("{field} must be an object"),
        )),
    }
}
