//! Numbers a host's update did not change keep their exact text (docs/api.md § Host values).
//!
//! A host reads a document into its own values and hands back a new one. Where the host's
//! numbers are doubles (every JavaScript number, a Python `float`), a number it did not change
//! comes back as the double's shortest text: another writer's `9223372036854775808` would be
//! written back as `9223372036854776000`, `100000000000000000000000` (an integer to Python) as
//! `1e+23` (a float), `1.50` as `1.5`. [`keep_number_texts`] puts the file's own text back
//! wherever the new number reads as the same double as the number the file held at the same
//! place, and refuses a changed integer a JavaScript number cannot hold exactly.

use super::{is_integer_text, MAX_SAFE_INTEGER};
use crate::error::{child_path, Code, Error, Result};
use crate::Value;

/// Gives each number of `new` that reads as the same double as the number at the same JSON
/// pointer in `old` (the document the host was given) the text it has in `old`.
///
/// `from_doubles`: the host's numbers are doubles (JavaScript), so an integer literal written
/// as a double writes itself (`9223372036854776000`) came from one; an integer literal in any
/// other form is exact (a `BigInt`). Otherwise every integer literal is exact (a Python `int`)
/// and only the other numbers are compared. With `from_doubles`, a number from a double that is
/// not the file's own and is an integer literal beyond ±(2^53 − 1) is `E_PRECISION` at its
/// path: the double stands for many integers, so writing it would change another writer's
/// value or invent one.
pub fn keep_number_texts(old: &Value, new: &mut Value, from_doubles: bool) -> Result<()> {
    walk(Some(old), new, from_doubles, &mut String::new())
}

fn walk(old: Option<&Value>, new: &mut Value, from_doubles: bool, path: &mut String) -> Result<()> {
    match new {
        Value::Number(n) => {
            if is_integer_text(n.as_str()) && !(from_doubles && double_text(n.as_str())) {
                return Ok(()); // an exact integer: a Python `int`, a JavaScript `BigInt`
            }
            if let Some(Value::Number(o)) = old {
                if o.as_str() == n.as_str() {
                    return Ok(());
                }
                if o.as_f64().is_some() && o.as_f64() == n.as_f64() {
                    *n = o.clone();
                    return Ok(());
                }
            }
            if from_doubles && unsafe_integer(n.as_str()) {
                return Err(Error::new(
                    Code::Precision,
                    path.clone(),
                    format!(
                        "the new value {} is an integer beyond ±(2^53 − 1), which a JavaScript \
                         number cannot hold exactly; keep it as a string, or write it with the \
                         text API or from Python",
                        n.as_str()
                    ),
                )
                .with_detail("number", n.as_str()));
            }
            Ok(())
        }
        Value::Array(items) => {
            let olds = match old {
                Some(Value::Array(o)) => Some(o),
                _ => None,
            };
            for (i, item) in items.iter_mut().enumerate() {
                let before = path.len();
                *path = child_path(path, &i.to_string());
                let result = walk(olds.and_then(|o| o.get(i)), item, from_doubles, path);
                path.truncate(before);
                result?;
            }
            Ok(())
        }
        Value::Object(map) => {
            let olds = match old {
                Some(Value::Object(o)) => Some(o),
                _ => None,
            };
            for (key, item) in map.iter_mut() {
                let before = path.len();
                *path = child_path(path, key);
                let result = walk(
                    olds.and_then(|o| o.get(key.as_str())),
                    item,
                    from_doubles,
                    path,
                );
                path.truncate(before);
                result?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// True when an integer literal is how a double is written (its shortest form, as
/// JavaScript's `String(number)` writes it: 2^63 is `9223372036854776000`): a number that came
/// from a double. Any other integer literal came from an exact integer (a `BigInt`).
fn double_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() <= 15
        || crate::value::float::parse_f64(text)
            .is_some_and(|f| super::float_text::shortest_whole(f).is_some_and(|t| t == text))
}

/// True for an integer literal beyond ±(2^53 − 1).
fn unsafe_integer(text: &str) -> bool {
    if !is_integer_text(text) {
        return false;
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() > 16 || digits.parse::<u64>().map_or(true, |v| v > MAX_SAFE_INTEGER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(old: &str, new: &str, from_doubles: bool) -> Result<String> {
        let old = crate::json::parse(old.as_bytes())?;
        let mut new = crate::json::parse(new.as_bytes())?;
        keep_number_texts(&old, &mut new, from_doubles)?;
        Ok(crate::json::serialize_compact(&new))
    }

    #[test]
    fn unchanged_numbers_keep_their_text() {
        let old =
            r#"{"big": 9223372036854775808, "huge": 100000000000000000000000, "f": 1.50, "x": 1}"#;
        let new = r#"{"big": 9223372036854776000, "huge": 1e+23, "f": 1.5, "x": 2}"#;
        assert_eq!(
            run(old, new, true).ok().as_deref(),
            Some(r#"{"big":9223372036854775808,"huge":100000000000000000000000,"f":1.50,"x":2}"#)
        );
    }

    #[test]
    fn a_changed_unsafe_integer_from_a_double_is_refused() {
        let err = run(r#"{"a": [1]}"#, r#"{"a": [9223372036854776000]}"#, true).err();
        assert_eq!(
            err.map(|e| (e.code, e.path)),
            Some((Code::Precision, "/a/0".to_owned()))
        );
    }

    #[test]
    fn an_integer_not_written_as_a_double_is_exact_even_from_javascript() {
        let old = r#"{"n": 9223372036854775807}"#;
        let new = r#"{"n": 9223372036854775813}"#;
        assert_eq!(
            run(old, new, true).ok().as_deref(),
            Some(r#"{"n":9223372036854775813}"#)
        );
        assert!(double_text("9223372036854776000") && !double_text("9223372036854775808"));
    }

    #[test]
    fn exact_integers_are_left_alone() {
        let old = r#"{"n": 9007199254740993}"#;
        let new = r#"{"n": 9007199254740992}"#;
        assert_eq!(
            run(old, new, false).ok().as_deref(),
            Some(r#"{"n":9007199254740992}"#)
        );
    }
}
