//! Options objects: a misspelt or unknown key is refused (`E_OPTIONS`) with the nearest valid
//! name, never ignored. The one rule for merge options, operation options and the hosts'
//! options (`timeout`, `if_match`, ...).

use crate::error::{child_path, Code, Error, Result};
use crate::shape::{Shape, Ty};
use crate::Value;

/// `E_OPTIONS` for the unknown key `key` of `what` (`"merge"`, `"update"`), whose valid keys
/// are `known`: names the nearest valid key when one is close.
pub fn unknown(what: &str, key: &str, known: &[&str]) -> Error {
    let lead = format!("unknown {what} option {key:?}");
    let error = Error::new(Code::Options, child_path("", key), "").with_detail("option", key);
    unknown_key(error, &lead, key, "options", known)
}

/// `error` (its code, path and first details) for a key that is none of `known`, worded
/// `lead: did you mean "near"? the NOUN are a, b`, with the `known` keys and the `nearest` one
/// (when one is close) added to its details.
pub fn unknown_key(error: Error, lead: &str, key: &str, noun: &str, known: &[&str]) -> Error {
    let near = nearest(key, known);
    let hint = near
        .map(|near| format!("did you mean {near:?}? "))
        .unwrap_or_default();
    let error = Error {
        message: format!("{lead}: {hint}the {noun} are {}", known.join(", ")),
        ..error
    }
    .with_detail("known", known.to_vec());
    match near {
        Some(near) => error.with_detail("nearest", near),
        None => error,
    }
}

/// `value`, the argument `name`, checked as the object `shape` says: `E_ARGUMENT` (with
/// `details.argument`) at a key that is none of its fields (naming the nearest) or at the
/// first field that is not what it says.
pub fn input<'a>(value: &'a Value, shape: &Shape, name: &str) -> Result<&'a Value> {
    let known = shape.field_names();
    let unknown = value
        .as_object()
        .and_then(|map| map.keys().find(|k| !known.contains(&k.as_str())));
    if let Some(key) = unknown {
        let lead = format!("{name} has no field {key:?}");
        let error =
            Error::new(Code::Argument, child_path("", key), "").with_detail("argument", name);
        return Err(unknown_key(error, &lead, key, "fields", &known));
    }
    let mut report = crate::report::Report::default();
    crate::shape::check::walk(&mut report, value, shape, "");
    match report.errors.first() {
        None => Ok(value),
        Some(issue) => Err(Error::new(
            Code::Argument,
            issue.path.clone(),
            format!("{name} ({}): {}", shape.name, issue.message),
        )
        .with_detail("argument", name)),
    }
}

/// Checks that `value` is `null` or an object whose keys are all fields of `shape`.
pub fn check(what: &str, value: &Value, shape: &Shape) -> Result<()> {
    check_keys(what, value, &shape.field_names())
}

/// [`check`] through the objects `value` holds: each field whose type is a shape (or a map
/// of a shape) is checked the same way, an error's path saying where.
pub fn check_deep(what: &str, value: &Value, shape: &Shape) -> Result<()> {
    check(what, value, shape)?;
    let Some(map) = value.as_object() else {
        return Ok(());
    };
    for field in shape.fields {
        let Some(inner) = map.get(field.name) else {
            continue;
        };
        let within = |e: Error| Error {
            path: format!("{}{}", child_path("", field.name), e.path),
            ..e
        };
        match field.ty {
            Ty::Object(s) => check_deep(what, inner, s).map_err(within)?,
            Ty::Map(Ty::Object(s)) => {
                for (key, item) in inner.as_object().into_iter().flatten() {
                    check_deep(what, item, s)
                        .map_err(|e| Error {
                            path: format!("{}{}", child_path("", key), e.path),
                            ..e
                        })
                        .map_err(within)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// [`check`], then each option's value against its field's type: the first that does not
/// have it is `E_OPTIONS` at its key.
pub fn check_typed(what: &str, value: &Value, shape: &Shape) -> Result<()> {
    check(what, value, shape)?;
    let Some(map) = value.as_object() else {
        return Ok(());
    };
    for field in shape.fields {
        let Some(option) = map.get(field.name) else {
            continue;
        };
        let mut report = crate::report::Report::default();
        crate::shape::check::value_of(&mut report, option, &field.ty, "", field.name);
        if let Some(issue) = report.errors.first() {
            return Err(Error::new(
                Code::Options,
                child_path("", field.name),
                format!("{what}: {}", issue.message),
            )
            .with_detail("option", field.name));
        }
    }
    Ok(())
}

/// Checks that `value` is `null` or an object whose keys are all in `known`.
pub fn check_keys(what: &str, value: &Value, known: &[&str]) -> Result<()> {
    match value {
        Value::Null => Ok(()),
        Value::Object(map) => match map.keys().find(|key| !known.contains(&key.as_str())) {
            Some(key) => Err(unknown(what, key, known)),
            None => Ok(()),
        },
        other => Err(Error::new(
            Code::Options,
            "",
            format!(
                "{what} options must be an object, not {}",
                crate::merge::type_name(other)
            ),
        )),
    }
}

/// A snake_case name in camelCase, as JS names it (`if_match` → `ifMatch`): `name` is one of
/// the table's names, ASCII, so the letter after `_` is upper-cased as ASCII.
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The valid key closest to `key` (case-insensitive edit distance, at most a third of the
/// key's length and at least 2), if any.
pub fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let key = lower(key);
    let limit = (key.chars().count() / 3).max(2);
    known
        .iter()
        .map(|name| (distance(&key, &lower(name)), *name))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name)
}

/// `text` folded for comparing with the valid names, which are the table's ASCII names: what
/// `str::to_lowercase` gives as far as such a comparison can tell. ASCII letters are lowered;
/// the only characters beyond ASCII whose lower case holds an ASCII character are the Kelvin
/// sign (`k`) and `İ` (`i` and a combining dot above, two characters); every other character
/// is kept as it is, one character, which matches no valid name's character either way (its
/// lower case is one character beyond ASCII too). Unicode's case tables (24 KB) are thus not
/// linked into the browser's modules for a hint (docs/performance.md § wasm size).
fn lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{212A}' => out.push('k'),
            '\u{130}' => out.push_str("i\u{307}"),
            c => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut left = i.saturating_add(1);
        let mut next = Vec::with_capacity(row.len());
        next.push(left);
        for (j, cb) in b.iter().enumerate() {
            let up = row.get(j.saturating_add(1)).copied().unwrap_or(usize::MAX);
            let cost = usize::from(ca != *cb);
            let value = diagonal
                .saturating_add(cost)
                .min(up.saturating_add(1))
                .min(left.saturating_add(1));
            next.push(value);
            diagonal = up;
            left = value;
        }
        row = next;
    }
    row.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `nearest` as it was, with `str::to_lowercase`.
    fn nearest_before<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
        let key = key.to_lowercase();
        let limit = (key.chars().count() / 3).max(2);
        known
            .iter()
            .map(|name| (distance(&key, &name.to_lowercase()), *name))
            .filter(|(d, _)| *d <= limit)
            .min_by_key(|(d, _)| *d)
            .map(|(_, name)| name)
    }

    /// `camel` as it was, with Unicode's upper case.
    fn camel_before(name: &str) -> String {
        let mut out = String::with_capacity(name.len());
        let mut upper = false;
        for c in name.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn camel_names_every_option_as_before() {
        let mut names: Vec<&str> = crate::ops::UPDATE_OPTIONS.field_names();
        names.extend(crate::merge::OPTION_NAMES);
        names.extend(["if_match", "max_bytes", "a_b_c", "_x", "x_", "__"]);
        for name in names {
            assert_eq!(camel(name), camel_before(name), "{name}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        #[test]
        fn camel_of_an_ascii_name_is_as_before(name in "[a-z0-9_]{0,16}") {
            prop_assert_eq!(camel(&name), camel_before(&name));
        }

        #[test]
        fn nearest_names_what_it_named_before(
            key in prop_oneof![
                "[a-zA-Z_]{0,12}",
                "[a-zA-Z_\u{212A}\u{130}ΣσςÉéİıẞß]{0,12}",
                any::<String>(),
            ],
        ) {
            let known = ["if_match", "now", "timeout", "strategy", "rules", "stamp", "key", "ks"];
            prop_assert_eq!(nearest(&key, &known), nearest_before(&key, &known));
        }
    }

    #[test]
    fn nearest_names_the_misspelt_key() {
        let known = ["if_match", "now", "timeout"];
        assert_eq!(nearest("ifmatch", &known), Some("if_match"));
        assert_eq!(nearest("timout", &known), Some("timeout"));
        assert_eq!(nearest("TIMEOUT", &known), Some("timeout"));
        // Unicode's lower case, as before: the Kelvin sign is a `k`, `İ` two characters.
        assert_eq!(nearest("\u{212A}ey", &["key"]), Some("key"));
        assert_eq!(nearest("\u{130}f_match", &known), Some("if_match"));
        assert_eq!(nearest("colour", &["color"]), Some("color"));
        assert_eq!(nearest("something", &known), None);
        let error = unknown("update", "timout", &known);
        assert_eq!(error.code, Code::Options);
        assert_eq!(error.path, "/timout");
        assert!(
            error.message.contains("did you mean \"timeout\"?"),
            "{}",
            error.message
        );
    }
}
