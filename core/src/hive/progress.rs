//! A progress event's values: the fields of its `details` it may set (`metrics` and
//! `protocol_compliance`), read from a tree; the typed line reads the same in place. The
//! values are pairs whose keys are borrowed (from the tree, or from the line's bytes), not a
//! [`Map`] per line: a worker's objects already hold the keys, and a key longer than a
//! compact string's inline bytes would be a heap string on wasm32, made and dropped per line.

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// One object's values of a progress: its keys borrowed, in their order, each at most once.
pub(super) type Pairs<'a> = Vec<(&'a str, Value)>;

/// A progress's values per field of [`PROGRESS_FIELDS`] (in its order); an empty list where
/// the field is absent or its object empty.
pub(super) type Fields<'a> = [Pairs<'a>; 2];

/// The fields a progress event may set.
pub const PROGRESS_FIELDS: [&str; 2] = ["metrics", "protocol_compliance"];

/// The fields a progress's `details` gives: its `metrics` and `protocol_compliance` objects
/// (`E_ARGUMENT` when one is not an object); `None` when `details` is not an object. The
/// typed line reads the same in place ([`super::event::Event::progress`]).
pub(super) fn progress_values(details: &Value) -> Result<Option<Fields<'_>>> {
    if !details.is_object() {
        return Ok(None);
    }
    let mut fields = Fields::default();
    for (field, pairs) in PROGRESS_FIELDS.into_iter().zip(fields.iter_mut()) {
        let Some(Value::Object(map)) = details.get(field) else {
            // Absent or `null`: nothing to set; anything else refused.
            object_field(details, field, false)?;
            continue;
        };
        pairs.reserve_exact(map.len());
        for (key, value) in map.iter() {
            pairs.push((key.as_str(), value.clone()));
        }
    }
    Ok(Some(fields))
}

/// Sets each of `pairs` in `map`: in place where the key exists (its position kept), else at
/// the end, as [`Map`]'s `extend` does (a key is made only when it is new).
pub(super) fn set_pairs(map: &mut Map, pairs: Pairs<'_>) {
    for (key, value) in pairs {
        match map.get_mut(key) {
            Some(slot) => *slot = value,
            None => {
                map.insert(key.into(), value);
            }
        }
    }
}

/// `pairs` as a map (for the shape's whole check, when a value does not plainly pass).
pub(super) fn pairs_map(pairs: &[(&str, Value)]) -> Map {
    let mut map = Map::with_capacity(pairs.len());
    for (key, value) in pairs {
        // Distinct: a tree's keys, or a line's checked for a key twice.
        map.push_distinct((*key).into(), value.clone());
    }
    map
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
