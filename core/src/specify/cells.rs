//! Cells of index.md's tables as values (docs/specify.md § The index): how a cell's text
//! reads as a value of its column, and how a value is written back into a cell.

use crate::error::{Code, Error, Result};
use crate::Value;

/// How a column's cells read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// Text; an empty cell, `-` or `null` is `null`.
    Text,
    /// A cell of a table statecore does not know: a whole number written plainly (`12`, not
    /// `012` or `+12`) is a number, `true` and `false` booleans, other text text.
    Auto,
    /// A whole number (`0`); other text is kept as text (validation reports it).
    Int,
    /// `n / max` (`2 / 10`): the number, and its maximum in the named field.
    Ratio(&'static str),
    /// One of these values, read case-insensitively without backticks or bold.
    Enum(&'static [&'static str]),
    /// A coverage status, with or without the template's symbol (`✓ Covered`).
    Coverage,
    /// `✓` is `true`, `✗` is `false`.
    Check,
    /// Comma-separated ids (`CHK001, CHK015`); an empty cell or `-` is `[]`.
    List,
}

/// The coverage statuses (seed 004, "Coverage Status Values").
pub const COVERAGE: [&str; 4] = ["Covered", "Gap Found", "Partial", "Not Validated"];

/// The template's symbol form of each coverage status.
const COVERAGE_SYMBOLS: [(&str, &str); 4] = [
    ("Covered", "✓ Covered"),
    ("Gap Found", "⚠ Gap Found"),
    ("Partial", "◐ Partial"),
    ("Not Validated", "○ No validation"),
];

/// The key a heading, column or label reads as: lower case, markup dropped, every run of
/// other characters one `_` (`**Loop Status**` → `loop_status`, `FR ID` → `fr_id`).
pub fn key_of(label: &str) -> String {
    let mut key = String::with_capacity(label.len());
    let mut gap = false;
    for c in label.chars() {
        if c.is_alphanumeric() {
            if gap && !key.is_empty() {
                key.push('_');
            }
            gap = false;
            super::case::push_lower(c, &mut key);
        } else {
            gap = true;
        }
    }
    key
}

/// A key as a label for a new row or column (`user_stories` → `User Stories`).
pub fn label_of(key: &str) -> String {
    key.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            let mut label = String::with_capacity(w.len());
            if let Some(first) = chars.next() {
                super::case::push_upper(first, &mut label);
                label.push_str(chars.as_str());
            }
            label
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `str::trim`, without its work for a text that starts and ends with a visible ASCII
/// character (a cell as read is trimmed already).
fn trim(text: &str) -> &str {
    let visible = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_graphic());
    let bytes = text.as_bytes();
    if visible(bytes.first()) && visible(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

/// The cell's text without emphasis or code markup around it (`**x**`, `` `x` ``).
fn bare(cell: &str) -> &str {
    let mut text = trim(cell);
    if !text.starts_with(['*', '_', '`']) {
        return text;
    }
    loop {
        let inner = ["**", "__", "`"].iter().find_map(|m| {
            text.strip_prefix(m)
                .and_then(|t| t.strip_suffix(m))
                .filter(|t| !t.is_empty())
        });
        match inner {
            Some(t) => text = t.trim(),
            None => return text,
        }
    }
}

/// True for a cell that holds no value: empty or `-`.
fn empty(cell: &str) -> bool {
    matches!(trim(cell), "" | "-")
}

/// What a cell reads as: its value, and the maximum of a `n / max` cell.
pub fn read(codec: Codec, cell: &str) -> (Value, Option<Value>) {
    if empty(cell) {
        let none = match codec {
            Codec::List => Value::Array(Vec::new()),
            _ => Value::Null,
        };
        return (none, None);
    }
    match codec {
        Codec::Text if bare(cell) == "null" => (Value::Null, None),
        Codec::Text => (Value::from(cell), None),
        Codec::Int => (int(cell), None),
        Codec::Auto => (auto(cell), None),
        Codec::Ratio(_) => match cell.split_once('/') {
            Some((n, max)) => (int(n.trim()), Some(int(max.trim()))),
            None => (int(cell), None),
        },
        Codec::Enum(values) => {
            let text = bare(cell);
            let found = values.iter().find(|v| v.eq_ignore_ascii_case(text));
            (Value::from(found.copied().unwrap_or(cell)), None)
        }
        Codec::Coverage => (Value::from(coverage(cell).unwrap_or(cell)), None),
        Codec::Check => match bare(cell) {
            "✓" | "✔" | "✅" => (Value::Bool(true), None),
            "✗" | "✘" | "❌" => (Value::Bool(false), None),
            other => (Value::from(other), None),
        },
        Codec::List => {
            let items = cell
                .split(',')
                .map(str::trim)
                .filter(|i| !i.is_empty())
                .map(Value::from)
                .collect();
            (Value::Array(items), None)
        }
    }
}

/// A whole number's cell as a number; other text as it is.
fn int(cell: &str) -> Value {
    let text = bare(cell);
    if text == "null" {
        return Value::Null;
    }
    match text.parse::<u64>() {
        Ok(n) if !text.starts_with('+') => Value::from(n),
        _ => Value::from(cell),
    }
}

/// A cell of an unknown table: a plain whole number, a boolean, or its text.
fn auto(cell: &str) -> Value {
    match cell {
        "null" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match cell.parse::<u64>() {
            Ok(n) if n.to_string() == cell => Value::from(n),
            _ => Value::from(cell),
        },
    }
}

/// A coverage status with or without its symbol (`⚠ Gap Found`, `No validation`).
fn coverage(cell: &str) -> Option<&'static str> {
    let text = bare(cell).trim_start_matches(|c: char| !c.is_alphanumeric());
    if let Some(plain) = COVERAGE.iter().find(|c| **c == text) {
        return Some(plain);
    }
    let key = key_of(text);
    if key == "no_validation" {
        return Some("Not Validated");
    }
    COVERAGE.iter().find(|c| key_of(c) == key).copied()
}

/// True when a coverage cell is written with the template's symbol.
pub fn has_symbol(cell: &str) -> bool {
    bare(cell)
        .chars()
        .next()
        .is_some_and(|c| !c.is_alphanumeric())
}

/// The text a value is written as in a cell of `codec` (`max`: a ratio's maximum; `symbols`:
/// the column writes coverage with the template's symbols). `E_ARGUMENT` at `at` for a value
/// a cell cannot hold (an object, a list outside a list column, a line break).
pub fn write(
    codec: Codec,
    value: &Value,
    max: Option<&Value>,
    symbols: bool,
    at: &str,
) -> Result<String> {
    let text = match (codec, value) {
        (_, Value::Null) => "-".to_owned(),
        (Codec::Ratio(_), v) => match max.filter(|m| !m.is_null()) {
            Some(max) => format!("{} / {}", scalar(v, at)?, scalar(max, at)?),
            None => scalar(v, at)?,
        },
        (Codec::Coverage, Value::String(s)) if symbols => COVERAGE_SYMBOLS
            .iter()
            .find(|(plain, _)| plain == s)
            .map_or_else(|| s.to_string(), |(_, symbol)| (*symbol).to_owned()),
        (Codec::Check, Value::Bool(true)) => "✓".to_owned(),
        (Codec::Check, Value::Bool(false)) => "✗".to_owned(),
        (Codec::List, Value::Array(items)) if items.is_empty() => "-".to_owned(),
        (Codec::List, Value::Array(items)) => items
            .iter()
            .map(|i| scalar(i, at))
            .collect::<Result<Vec<_>>>()?
            .join(", "),
        (_, v) => scalar(v, at)?,
    };
    Ok(text)
}

/// A scalar's cell text: a string as it is, a number or boolean as JSON.
fn scalar(value: &Value, at: &str) -> Result<String> {
    let text = match value {
        Value::String(s) => s.to_string(),
        Value::Number(_) | Value::Bool(_) => crate::json::serialize_compact(value),
        Value::Null => "-".to_owned(),
        Value::Array(_) | Value::Object(_) => {
            return Err(Error::new(
                Code::Argument,
                at,
                "a table cell holds one value (text, a number or a boolean), not a list or an \
                 object",
            ))
        }
    };
    if text.contains(['\n', '\r']) {
        return Err(Error::new(
            Code::Argument,
            at,
            "a table cell is one line: this value has a line break",
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_labels() {
        assert_eq!(key_of("**Loop Status**"), "loop_status");
        assert_eq!(
            key_of("Requirements → Checklist Coverage"),
            "requirements_checklist_coverage"
        );
        assert_eq!(key_of("`last_sync`"), "last_sync");
        assert_eq!(label_of("user_stories"), "User Stories");
    }

    #[test]
    fn cells_read_and_write_back() {
        assert_eq!(
            read(Codec::Ratio("m"), "2 / 10"),
            (Value::from(2u64), Some(Value::from(10u64)))
        );
        assert_eq!(
            read(Codec::Coverage, "○ No validation").0,
            Value::from("Not Validated")
        );
        assert_eq!(
            read(Codec::Enum(&["Critical"]), "`critical`").0,
            Value::from("Critical")
        );
        assert_eq!(read(Codec::List, "-").0, Value::Array(Vec::new()));
        let gap = Value::from("Gap Found");
        assert_eq!(
            write(Codec::Coverage, &gap, None, true, "").ok().as_deref(),
            Some("⚠ Gap Found")
        );
    }
}
