//! Setting the value at a JSON pointer (RFC 6901): the `set_value` operation and the
//! command line's `update --set` (docs/cli.md § update).
//!
//! Choices: an object member is added or replaced, and a missing member on the way is created
//! as an empty object (as `mkdir -p` does); an array item is replaced, and the index one past
//! the end, or `-`, appends. Anything else (an index beyond the end, a step into a string or
//! a number, a pointer without its leading `/`) is `E_ARGUMENT` at the place it stopped.

use super::{array_index, tokens, Value};
use crate::error::{child_path, Code, Error, Result};
use crate::merge::type_name;
use crate::Map;

impl Value {
    /// Sets the value at `pointer` to `value` (`""`: the whole document).
    pub fn set_pointer(&mut self, pointer: &str, value: Value) -> Result<()> {
        let Some(tokens) = tokens(pointer) else {
            return Err(Error::new(
                Code::Argument,
                "",
                format!("{pointer:?} is not a JSON pointer: it starts with '/' (or is \"\" for the whole document)"),
            ));
        };
        let tokens: Vec<String> = tokens.collect();
        let Some((last, parents)) = tokens.split_last() else {
            *self = value;
            return Ok(());
        };
        let mut here = String::new();
        let mut target = self;
        for token in parents {
            let at = here.clone();
            here = child_path(&here, token);
            target = match target {
                Value::Object(map) => {
                    if !map.contains_key(token) {
                        map.insert(token.as_str().into(), Value::Object(Map::new()));
                    }
                    match map.get_mut(token) {
                        Some(member) => member,
                        None => return Err(not_container(&at, &Value::Null)),
                    }
                }
                Value::Array(items) => {
                    let length = items.len();
                    match array_index(token).and_then(|i| items.get_mut(i)) {
                        Some(item) => item,
                        None => return Err(no_item(&at, token, length, false)),
                    }
                }
                other => return Err(not_container(&at, other)),
            };
        }
        match target {
            Value::Object(map) => {
                map.insert(last.as_str().into(), value);
                Ok(())
            }
            Value::Array(items) => {
                let length = items.len();
                let index = if last == "-" {
                    Some(length)
                } else {
                    array_index(last)
                };
                match index {
                    Some(i) if i == length => items.push(value),
                    Some(i) if i < length => {
                        if let Some(item) = items.get_mut(i) {
                            *item = value;
                        }
                    }
                    _ => return Err(no_item(&here, last, length, true)),
                }
                Ok(())
            }
            other => Err(not_container(&here, other)),
        }
    }
}

/// `E_ARGUMENT`: the array at `at` has no item `token` (`last`: the pointer's last step, where
/// one past the end appends).
fn no_item(at: &str, token: &str, length: usize, last: bool) -> Error {
    let fix = if last {
        format!("use an index up to {length} (or `-`) to append")
    } else {
        match length {
            0 => "it is empty".to_owned(),
            n => format!("use an index from 0 to {}", n.saturating_sub(1)),
        }
    };
    Error::new(
        Code::Argument,
        child_path(at, token),
        format!(
            "the array at {:?} has {length} item(s), so {token:?} names none: {fix}",
            display(at)
        ),
    )
}

/// `E_ARGUMENT`: the value at `at` holds no members or items.
fn not_container(at: &str, value: &Value) -> Error {
    Error::new(
        Code::Argument,
        at,
        format!(
            "the value at {:?} is {}, which has no members to set: set it first, or set a \
             pointer above it",
            display(at),
            type_name(value)
        ),
    )
}

/// A pointer for a message (`""`: the document).
fn display(at: &str) -> &str {
    if at.is_empty() {
        "the document"
    } else {
        at
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    fn set(doc: &str, pointer: &str, value: &str) -> Result<String, String> {
        let mut doc = json::parse_str(doc).map_err(|e| e.to_string())?;
        let value = json::parse_str(value).map_err(|e| e.to_string())?;
        doc.set_pointer(pointer, value)
            .map(|()| json::serialize_compact(&doc))
            .map_err(|e| format!("{} {}", e.code.as_str(), e.path))
    }

    #[test]
    fn members_and_items_are_set() {
        assert_eq!(set(r#"{"a":1}"#, "/a", "2"), Ok(r#"{"a":2}"#.into()));
        assert_eq!(
            set(r#"{}"#, "/a/b", "true"),
            Ok(r#"{"a":{"b":true}}"#.into())
        );
        assert_eq!(
            set(r#"{"l":[1,2]}"#, "/l/1", "9"),
            Ok(r#"{"l":[1,9]}"#.into())
        );
        assert_eq!(
            set(r#"{"l":[1]}"#, "/l/-", "2"),
            Ok(r#"{"l":[1,2]}"#.into())
        );
        assert_eq!(
            set(r#"{"l":[1]}"#, "/l/1", "2"),
            Ok(r#"{"l":[1,2]}"#.into())
        );
        assert_eq!(set(r#"{"a/b":1}"#, "/a~1b", "2"), Ok(r#"{"a/b":2}"#.into()));
        assert_eq!(set(r#"{"a":1}"#, "", "[]"), Ok("[]".into()));
    }

    #[test]
    fn impossible_places_are_refused_where_they_stop() {
        assert_eq!(
            set(r#"{"l":[1]}"#, "/l/3", "2"),
            Err("E_ARGUMENT /l/3".into())
        );
        assert_eq!(
            set(r#"{"l":[1]}"#, "/l/01", "2"),
            Err("E_ARGUMENT /l/01".into())
        );
        assert_eq!(
            set(r#"{"l":[]}"#, "/l/0/x", "2"),
            Err("E_ARGUMENT /l/0".into())
        );
        assert_eq!(
            set(r#"{"s":"x"}"#, "/s/t", "2"),
            Err("E_ARGUMENT /s".into())
        );
        assert_eq!(set(r#"{}"#, "a", "2"), Err("E_ARGUMENT ".into()));
    }
}
