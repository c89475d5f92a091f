//! `jsonl`: append-only logs (`statecore::jsonl`): parsing, reading, appending, repair.
//!
//! Input: `log bytes \0 value`: the log file's bytes (NULs allowed) and, after the last NUL,
//! the JSON text of a value to append (text that is not JSON appends as a string; no NUL at
//! all: the whole input is the log and a fixed record is appended). Laws:
//! - `read` agrees with `parse_log` (records, torn tail and its `W_TORN_TAIL` warning, or the
//!   same error); errors have stable codes and pointer paths;
//! - every record is within the limits; a torn tail starts a line, and cutting the file there
//!   leaves a log with the same records and nothing torn;
//! - an append is one line (`\n`-terminated, no other line break but a leading one when the
//!   last record has none) and, applied as a host does (cut at `truncate_at`, then write
//!   `text`), gives a log whose records are the old ones plus the value, with nothing torn;
//! - a log that cannot be parsed cannot be appended to (same error).

use crate::input::{self, SEP};
use crate::laws;
use crate::seeds::Case;
use statecore::jsonl::{append, line, parse_log, read};
use statecore::Value;
use statecore::{json, Code};

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let (log_bytes, value) = match data.iter().rposition(|&b| b == SEP) {
        Some(at) => (&data[..at], input::json_or_text(&data[at + 1..])),
        None => (data, statecore::json!({"event": "fuzz"})),
    };
    let parsed = parse_log(log_bytes);
    let read_back = read(Some(log_bytes));
    let appended = append(Some(log_bytes), &value);
    let log = match parsed {
        Ok(log) => log,
        Err(e) => {
            laws::error("parse_log", &e);
            assert!(
                read_back.as_ref().err() == Some(&e),
                "read and parse_log disagree on an error: {read_back:?}"
            );
            let code = appended.as_ref().err().map(|a| a.code);
            assert!(
                code.is_some(),
                "append to an unparseable log ({e}) succeeded"
            );
            assert!(
                line(&value).is_err() || code == Some(e.code),
                "append to an unparseable log ({e}) gave {appended:?}"
            );
            return;
        }
    };
    for record in &log.records {
        assert!(
            json::check_limits(record).is_ok(),
            "a record breaks a limit"
        );
    }
    match &read_back {
        Ok(v) => {
            assert!(
                v.get("records").and_then(Value::as_array) == Some(&log.records),
                "read's records differ from parse_log's"
            );
            let torn_warning = v
                .get("warnings")
                .and_then(Value::as_array)
                .is_some_and(|w| {
                    w.iter()
                        .any(|w| w.get("code") == Some(&"W_TORN_TAIL".into()))
                });
            assert!(
                torn_warning == log.torn.is_some(),
                "W_TORN_TAIL iff torn: {v:?}"
            );
        }
        Err(e) => panic!("read fails where parse_log succeeds: {e}"),
    }
    if let Some((line, offset)) = log.torn {
        assert!(
            line >= 1 && offset <= log_bytes.len(),
            "torn tail out of range"
        );
        assert!(
            offset == 0 || log_bytes.get(offset - 1) == Some(&b'\n'),
            "a torn tail that does not start a line"
        );
        let cut = parse_log(&log_bytes[..offset]);
        assert!(
            cut.as_ref()
                .is_ok_and(|c| c.records == log.records && c.torn.is_none()),
            "cutting the torn tail does not leave the same records: {cut:?}"
        );
    }
    match appended {
        Ok(outcome) => applied(log_bytes, &log.records, &value, &outcome),
        Err(e) => {
            laws::error("append", &e);
            assert!(
                json::check_limits(&value).is_err() || e.code == Code::Limit,
                "append of a value within the limits failed: {e}"
            );
        }
    }
}

/// Applies an append as a host does and reads the log back.
fn applied(bytes: &[u8], records: &[Value], value: &Value, outcome: &Value) {
    let text = outcome
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let body = text.strip_prefix('\n').unwrap_or(text);
    assert!(
        body.ends_with('\n') && body.matches('\n').count() == 1,
        "an append is not one line: {text:?}"
    );
    let at = match outcome.get("truncate_at") {
        Some(Value::Null) | None => bytes.len(),
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n <= bytes.len() => n,
            _ => panic!("truncate_at {v} is outside the {} log bytes", bytes.len()),
        },
    };
    let mut after = bytes[..at].to_vec();
    after.extend_from_slice(text.as_bytes());
    let log = match parse_log(&after) {
        Ok(log) => log,
        Err(e) => panic!("the log after an append does not parse: {e}"),
    };
    assert!(
        log.torn.is_none() && !log.needs_newline,
        "the log after an append is torn"
    );
    let mut want = records.to_vec();
    want.push(value.clone());
    assert!(
        log.records == want,
        "after an append the records are not the old ones plus the value\n  got:  {:?}\n  want: {:?}",
        log.records,
        want
    );
}

/// Seeds from one conformance case of the log operations.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    match case.op.as_str() {
        "parse_log" | "log_read" => out.extend(case.bytes(0)),
        "log_append" => {
            let value = case.args.get(1).map(input::text).unwrap_or_default();
            let log = case.bytes(0).unwrap_or_default();
            out.push([log, vec![SEP], value].concat());
        }
        _ => {}
    }
}
