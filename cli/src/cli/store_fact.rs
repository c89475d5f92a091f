//! What a store URL the command line reads is, as a file would be (docs/store.md § Store URLs):
//! a document's text (its beginning, or a page of it), a log's lines as the text of a file
//! (pages by byte offset, as a file's), a key with keys below it a directory, or missing.
//! Decided here once for both packages' stores; the hosts run the store's statements
//! (`cli_read`, then `read_log_page` when this asks for a log's lines) and hand the rows over.

use statecore::error::{Code, Error, Result};
use statecore::shape::{Field, Shape, Ty};
use statecore::{Map, Value};

/// The row of the store's `cli_read` statement.
pub static ROW: Shape = Shape::exact(
    "CliStoreRow",
    "What the store's `cli_read` statement read for a key: its document's text, or its log's length, or whether keys are below it.",
    &[
        Field::opt("text", Ty::Nullable(&Ty::Str), "The document's text (null: no document)."),
        Field::opt("mtime", Ty::Nullable(&Ty::Number), "When the document was written, in ms since 1970."),
        Field::opt("log_bytes", Ty::Nullable(&Ty::Whole(0)), "The log's length in bytes, its lines and their line breaks (null: no log)."),
        Field::opt("log_mtime", Ty::Nullable(&Ty::Number), "When the log was last appended to, in ms since 1970."),
        Field::opt("directory", Ty::Bool, "Whether keys are below the key."),
    ],
);

/// A line of the store's `read_log_page` statement.
pub static LOG_LINE: Shape = Shape::exact(
    "CliStoreLogLine",
    "A line of a log in a store, as `read_log_page` reads it: its text (without its line break) and where it ends in the log, in bytes (its line break counted).",
    &[
        Field::req("text", Ty::Str, "The line, without its line break."),
        Field::req("end_offset", Ty::Whole(0), "Where the line ends in the log, in bytes, its line break counted."),
    ],
);

/// What to read of a log.
pub static LOG_PAGE: Shape = Shape::exact(
    "CliStoreLogPage",
    "The log's lines to read (`read_log_page`): those that end after byte `from`, up to `bytes` bytes.",
    &[
        Field::req("from", Ty::Whole(0), "The first byte wanted."),
        Field::req("bytes", Ty::Whole(0), "How many bytes are wanted."),
    ],
);

/// The answer: the fact, or the log's lines to read first.
pub static ANSWER: Shape = Shape::exact(
    "CliStoreRead",
    "What a store URL the command line reads is, as a file (`fact`), or the log's lines to read first (`log_page`: call again with them as `log`).",
    &[
        Field::opt("fact", Ty::Object(&super::shapes::FILE), "The file's fact, as a `read` need's."),
        Field::opt("log_page", Ty::Object(&LOG_PAGE), "The log's lines to read first."),
    ],
);

/// The fact of a `read` need (`offset`, `limit`: the need's) on a store URL whose `cli_read`
/// row is `row`; `log`: the lines of `read_log_page` once asked for (`{log_page}`).
pub fn read(
    row: &Map,
    offset: Option<u64>,
    limit: Option<u64>,
    log: Option<&[Value]>,
) -> Result<Value> {
    let number = |key: &str| row.get(key).and_then(Value::as_f64).unwrap_or(0.0);
    if let Some(text) = row.get("text").and_then(Value::as_str) {
        let data = text.as_bytes();
        let mtime = number("mtime");
        let fact = match offset {
            Some(offset) => page(
                tail(data, offset),
                offset,
                limit.unwrap_or(1),
                data.len() as u64,
                mtime,
            ),
            None => text_fact(head(data, limit), mtime),
        };
        return Ok(answer("fact", fact));
    }
    if let Some(size) = row.get("log_bytes").and_then(Value::as_u64) {
        let start = offset.unwrap_or(0);
        let want = limit.unwrap_or(size);
        let Some(lines) = log else {
            let mut asked = Map::new();
            asked.insert("from".into(), Value::from(start));
            asked.insert("bytes".into(), Value::from(want));
            return Ok(answer("log_page", Value::Object(asked)));
        };
        let data = from_lines(lines, start)?;
        let mtime = number("log_mtime");
        let fact = match offset {
            Some(_) => page(&data, start, want, size, mtime),
            None => text_fact(head(&data, limit), mtime),
        };
        return Ok(answer("fact", fact));
    }
    let directory = row.get("directory").and_then(Value::as_bool) == Some(true);
    let mut fact = Map::new();
    fact.insert(
        "error".into(),
        Value::from(if directory { "directory" } else { "missing" }),
    );
    Ok(answer("fact", Value::Object(fact)))
}

/// `{key: value}`.
fn answer(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.into(), value);
    Value::Object(map)
}

/// The log's bytes from byte `start`: each line with its line break, the first cut where
/// `start` falls in it.
fn from_lines(lines: &[Value], start: u64) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (Some(text), Some(end)) = (
            line.get("text").and_then(Value::as_str),
            line.get("end_offset").and_then(Value::as_u64),
        ) else {
            return Err(Error::new(
                Code::Argument,
                format!("/log/{i}"),
                "a line of the log is {text, end_offset}",
            ));
        };
        let length = (text.len() as u64).saturating_add(1);
        let begin = end.saturating_sub(length);
        let skip = usize::try_from(start.saturating_sub(begin)).unwrap_or(usize::MAX);
        let raw = text.as_bytes().iter().chain(b"\n").skip(skip);
        data.extend(raw);
    }
    Ok(data)
}

/// `data` from byte `offset` (nothing when it is past the end).
fn tail(data: &[u8], offset: u64) -> &[u8] {
    let offset = usize::try_from(offset).unwrap_or(usize::MAX);
    data.get(offset..).unwrap_or_default()
}

/// At most `limit` bytes of `data`, cut back to their last line break when there are more
/// (all of it without a limit).
fn head(data: &[u8], limit: Option<u64>) -> &[u8] {
    let limit = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    if data.len() <= limit {
        return data;
    }
    let within = data.get(..limit).unwrap_or(data);
    let end = within
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |at| at.saturating_add(1));
    data.get(..end).unwrap_or_default()
}

/// A page (docs/cli.md § Logs read in pages): at most `limit` bytes of `data` (what follows
/// `offset` in a text of `size` bytes), cut back to their last line break unless the text ends
/// within them.
fn page(data: &[u8], offset: u64, limit: u64, size: u64, mtime: f64) -> Value {
    let within = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut bytes = data.get(..within).unwrap_or(data);
    if offset.saturating_add(bytes.len() as u64) < size {
        let cut = bytes
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |at| at.saturating_add(1));
        bytes = bytes.get(..cut).unwrap_or_default();
    }
    let mut fact = match text_fact(bytes, mtime) {
        Value::Object(fact) if fact.contains_key("text") => fact,
        not_text => return not_text,
    };
    fact.insert("offset".into(), Value::from(offset));
    fact.insert("limit".into(), Value::from(limit));
    fact.insert("size".into(), Value::from(size));
    Value::Object(fact)
}

/// `{text, mtime}`, or `{error: "not_text"}` for bytes cut inside a character.
fn text_fact(bytes: &[u8], mtime: f64) -> Value {
    let mut fact = Map::new();
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            fact.insert("text".into(), Value::from(text));
            fact.insert("mtime".into(), mtime_value(mtime));
        }
        Err(_) => {
            fact.insert("error".into(), Value::from("not_text"));
        }
    }
    Value::Object(fact)
}

/// A time in ms as a whole number (a store's time may come as a float).
fn mtime_value(ms: f64) -> Value {
    // The store's times are ms since 1970: well within i64.
    #[allow(clippy::cast_possible_truncation)]
    let whole = ms.trunc() as i64;
    Value::from(whole)
}
