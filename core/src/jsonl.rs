//! Append-only JSONL logs (`EVENTS.jsonl`): one JSON value per line, `\n`-terminated.
//!
//! Reading rules (`docs/locking.md` § Logs): blank lines (JSON white space only) are skipped; a last line that does
//! not parse *and has no final newline* is a torn write, dropped with a warning and reported
//! so the next appender repairs it (keeping a copy). Any other unparseable line (followed by
//! another non-blank line, or complete with its `\n`) is corruption, `E_LOG_CORRUPT` naming
//! the line: one torn `write()` can only leave an unterminated last line, so a complete bad
//! line was written whole by someone else, and a file that is not a log is never cut.

use crate::error::{Code, Error, Result};
use crate::json;
use crate::{Map, Value};

/// A parsed log.
#[derive(Debug, Clone, PartialEq)]
pub struct Log {
    /// The records, in file order.
    pub records: Vec<Value>,
    /// The 1-based line of each record (blank lines are skipped), for messages.
    pub lines: Vec<usize>,
    /// The torn tail, if the last line did not parse: 1-based line and byte offset where it
    /// starts (a repair truncates the file there).
    pub torn: Option<(usize, usize)>,
    /// True when the file's last record has no trailing `\n` (an appender writes one first).
    pub needs_newline: bool,
}

impl Log {
    /// `{records, torn: {line, offset} | null, needs_newline}` (the lines stay out).
    pub fn into_value(self) -> Value {
        let mut map = Map::new();
        map.insert("records".into(), Value::Array(self.records));
        let torn = self.torn.map_or(Value::Null, |(line, offset)| {
            let mut t = Map::new();
            t.insert("line".into(), (line as u64).into());
            t.insert("offset".into(), (offset as u64).into());
            Value::Object(t)
        });
        map.insert("torn".into(), torn);
        map.insert("needs_newline".into(), self.needs_newline.into());
        Value::Object(map)
    }
}

/// Parses a JSONL log.
pub fn parse_log(bytes: &[u8]) -> Result<Log> {
    parse_log_from(bytes, 1)
}

/// Parses a part of a JSONL log that starts at its line `first_line` (1-based) and at a line's
/// start: the lines of the result and of its errors are the file's. A part that is not the
/// file's end ends with a line break, so its lines are all complete.
pub fn parse_log_from(bytes: &[u8], first_line: usize) -> Result<Log> {
    let mut records = Vec::new();
    let mut lines = Vec::new();
    let mut failed: Option<(usize, usize, Error)> = None;
    let mut offset = 0usize;
    let mut needs_newline = false;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = index.saturating_add(first_line);
        let start = offset;
        offset = offset.saturating_add(raw.len()).saturating_add(1);
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        // Blank: JSON white space only (a form feed is not: it cannot precede a record).
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        }
        if let Some((bad_line, _, error)) = failed.take() {
            return Err(corrupt(bad_line, &error, "valid lines follow it"));
        }
        match json::parse(line) {
            Ok(value) => {
                records.push(value);
                lines.push(line_no);
                needs_newline = offset > bytes.len();
            }
            Err(error) if offset <= bytes.len() => {
                // A complete line (its `\n` is there): not a torn write.
                return Err(corrupt(line_no, &error, "it is a complete line"));
            }
            Err(error) => failed = Some((line_no, start, error)),
        }
    }
    let torn = failed.map(|(line, start, _)| (line, start));
    if torn.is_some() {
        needs_newline = false;
    }
    Ok(Log {
        records,
        lines,
        torn,
        needs_newline,
    })
}

/// `E_LOG_CORRUPT` for the unparseable line `line` that cannot be a torn write (`why`).
fn corrupt(line: usize, error: &Error, why: &str) -> Error {
    Error::new(
        Code::LogCorrupt,
        "",
        format!(
            "line {line} of the log is not JSON ({}) and {why}, so it is not a torn write; \
             the file was left unchanged: if it is a log, a person needs to look at it",
            error.message
        ),
    )
    .with_detail("line", line as u64)
}

/// One log line: the compact JSON text of `value` followed by `\n` (within the document size
/// limit, so that readers can read it back).
pub fn line(value: &Value) -> Result<String> {
    json::check_limits(value)?;
    let mut text = json::serialize_compact(value);
    json::check_document_size(text.len(), "the log line")?;
    text.push('\n');
    Ok(text)
}

/// What an appender does to a log's bytes (`None`: no file) to add `value`, in one `write()`:
/// `{text, truncate_at, torn_line}`. A torn last line (`torn_line`) is first copied from
/// `truncate_at` to a `.corrupt-` file and cut off; `text` is the line (after a newline when the
/// last record has none). `E_LOG_CORRUPT` leaves the file alone.
pub fn append(bytes: Option<&[u8]>, value: &Value) -> Result<Value> {
    let mut text = line(value)?;
    let mut truncate_at = Value::Null;
    let mut torn_line = Value::Null;
    if let Some(bytes) = bytes {
        let log = parse_log(bytes)?;
        if let Some((line, offset)) = log.torn {
            truncate_at = (offset as u64).into();
            torn_line = (line as u64).into();
        } else if log.needs_newline {
            text.insert(0, '\n');
        }
    }
    let mut map = Map::new();
    map.insert("text".into(), text.into());
    map.insert("truncate_at".into(), truncate_at);
    map.insert("torn_line".into(), torn_line);
    Ok(Value::Object(map))
}

/// What a repair does to a log's bytes: `{truncate_at, torn_line}`, both `null` when the log
/// has no torn last line. The torn line is copied from `truncate_at` to a `.corrupt-` file,
/// then cut off; `E_LOG_CORRUPT` (a bad line that is not the last) leaves the file alone.
pub fn repair(bytes: Option<&[u8]>) -> Result<Value> {
    let torn = match bytes {
        Some(bytes) => parse_log(bytes)?.torn,
        None => None,
    };
    let mut map = Map::new();
    let (at, line) = torn.map_or((Value::Null, Value::Null), |(line, offset)| {
        ((offset as u64).into(), (line as u64).into())
    });
    map.insert("truncate_at".into(), at);
    map.insert("torn_line".into(), line);
    Ok(Value::Object(map))
}

/// What a reader gets of a log's bytes (`None`: no file, empty): `{records, torn, warnings}`;
/// a torn last line is dropped with `W_TORN_TAIL` (the next append repairs it). Never writes.
pub fn read(bytes: Option<&[u8]>) -> Result<Value> {
    let log = match bytes {
        Some(bytes) => parse_log(bytes)?,
        None => Log {
            records: Vec::new(),
            lines: Vec::new(),
            torn: None,
            needs_newline: false,
        },
    };
    let mut warnings = Vec::new();
    if let Some((line, _)) = log.torn {
        warnings.push(crate::report::Issue {
            code: "W_TORN_TAIL".into(),
            path: String::new(),
            message: format!(
                "line {line} is an incomplete (torn) write and was ignored; the next append repairs it"
            ),
        });
    }
    let mut value = log.into_value();
    if let Value::Object(map) = &mut value {
        map.shift_remove("needs_newline");
        map.insert("warnings".into(), crate::report::issues_value(&warnings));
    }
    Ok(value)
}

/// `W_TORN_TAIL` of an appender that moved the torn line `line` to `copy` and repaired the log.
pub fn repaired(line: u64, copy: &str) -> crate::report::Issue {
    crate::report::Issue {
        code: "W_TORN_TAIL".into(),
        path: String::new(),
        message: format!(
            "line {line} was an incomplete (torn) write; it was moved to {copy} and the log repaired"
        ),
    }
}
