//! `recover_state`: a session's state rebuilt from its `EVENTS.jsonl`, streamed. A host
//! feeds the log's bytes in chunks of any size ([`Replay::feed`]); each complete line is
//! applied with the one function every step uses, so memory holds the state, one partial
//! line and a window of recent lines, never the file (docs/hive.md § Recovery).

use super::fold::{apply, check_event, Check};
use super::phases::set;
use super::validate::validate_state;
use crate::error::{Code, Error, Result};
use crate::report::Issue;
use crate::time::compare_timestamps;
use crate::value::Identity;
use crate::{json, Map, Value};
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

/// How many recent lines a replay remembers: a line equal to one of them is a duplicate
/// (the same line appended twice) and is applied once.
pub const DUPLICATE_WINDOW: usize = 1024;

/// The recent lines, by hash, to find a duplicate (compared byte for byte on a hash match).
/// The lines' buffers are reused once the window is full.
#[derive(Debug, Default)]
struct Window {
    lines: VecDeque<(u64, Vec<u8>)>,
    hashes: HashMap<u64, u32, BuildHasherDefault<Identity>>,
}

impl Window {
    fn contains(&self, hash: u64, line: &[u8]) -> bool {
        self.hashes.contains_key(&hash)
            && self
                .lines
                .iter()
                .any(|(h, l)| *h == hash && l.as_slice() == line)
    }

    fn remember(&mut self, hash: u64, line: &[u8]) {
        let mut buffer = Vec::new();
        if self.lines.len() >= DUPLICATE_WINDOW {
            if let Some((old, used)) = self.lines.pop_front() {
                buffer = used;
                if let Some(count) = self.hashes.get_mut(&old) {
                    *count = count.saturating_sub(1);
                    if *count == 0 {
                        self.hashes.remove(&old);
                    }
                }
            }
        }
        buffer.clear();
        buffer.extend_from_slice(line);
        self.lines.push_back((hash, buffer));
        let count = self.hashes.entry(hash).or_insert(0);
        *count = count.saturating_add(1);
    }
}

/// A replay of a session's log in progress.
#[derive(Debug)]
pub struct Replay {
    session_id: String,
    state: Option<Map>,
    skip_bad_lines: bool,
    pending: Vec<u8>,
    offset: u64,
    line: u64,
    window: Window,
    applied: u64,
    duplicates: u64,
    out_of_order: u64,
    latest: Option<String>,
    skipped: Vec<Value>,
    failed: Option<Error>,
}

impl Replay {
    /// A replay of session `session_id`'s log from its byte `offset`, onto `state` (`None`:
    /// from nothing, the log's `session_created` first). `skip_bad_lines`: a line that is not
    /// JSON or cannot be applied is skipped and reported instead of stopping the replay.
    pub fn new(
        session_id: &str,
        state: Option<Value>,
        offset: u64,
        skip_bad_lines: bool,
    ) -> Result<Replay> {
        let state = match state {
            None | Some(Value::Null) => None,
            Some(Value::Object(map)) => Some(map),
            Some(other) => {
                return Err(Error::new(
                    Code::Argument,
                    "",
                    format!(
                        "the state must be a STATE.json object or null, not {}",
                        crate::merge::type_name(&other)
                    ),
                ))
            }
        };
        Ok(Replay {
            session_id: session_id.to_owned(),
            state,
            skip_bad_lines,
            pending: Vec::new(),
            offset,
            line: 0,
            window: Window::default(),
            applied: 0,
            duplicates: 0,
            out_of_order: 0,
            latest: None,
            skipped: Vec::new(),
            failed: None,
        })
    }

    /// Feeds the next bytes of the log. A bad line stops the replay (the same error from
    /// every later call) unless bad lines are skipped.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<()> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let (line, after) = rest.split_at(end);
            rest = after.get(1..).unwrap_or_default();
            let result = if self.pending.is_empty() {
                self.line(line, true)
            } else {
                let mut whole = std::mem::take(&mut self.pending);
                whole.extend_from_slice(line);
                let result = self.line(&whole, true);
                whole.clear();
                self.pending = whole;
                result
            };
            if let Err(error) = result {
                self.failed = Some(error.clone());
                return Err(error);
            }
        }
        self.pending.extend_from_slice(rest);
        json::check_document_size(self.pending.len(), "a line of the log")
            .inspect_err(|e| self.failed = Some(e.clone()))
    }

    /// Ends the replay: a last line without its newline is applied when it is JSON (the log
    /// then `needs_newline`) and otherwise dropped as a torn write (`W_TORN_TAIL`). Returns
    /// `{state, log_offset, events, duplicates, out_of_order, skipped, torn, needs_newline,
    /// warnings}`; the state's `session_metadata.log_offset` is the bytes folded into it.
    /// `E_NO_SESSION` when there is no session (no state and no `session_created`).
    pub fn finish(mut self) -> Result<Value> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        let tail = std::mem::take(&mut self.pending);
        let mut torn = Value::Null;
        let mut needs_newline = false;
        let mut warnings = Vec::new();
        if !tail.iter().all(|b| b.is_ascii_whitespace()) {
            let (line, offset) = (self.line.saturating_add(1), self.offset);
            if json::parse(trim_cr(&tail)).is_ok() {
                self.line(&tail, false)?;
                needs_newline = true;
            } else {
                self.line = line;
                let mut at = Map::new();
                at.insert("line".into(), line.into());
                at.insert("offset".into(), offset.into());
                torn = Value::Object(at);
                warnings.push(Issue {
                    code: "W_TORN_TAIL".into(),
                    path: String::new(),
                    message: format!(
                        "line {line} is an incomplete (torn) write and was not applied; the \
                         next append repairs the log"
                    ),
                });
            }
        } else {
            self.offset = self.offset.saturating_add(tail.len() as u64);
        }
        let Some(mut state) = self.state.take() else {
            return Err(Error::new(
                Code::NoSession,
                "",
                format!(
                    "there is no session {:?} to recover: its log holds no session_created event",
                    self.session_id
                ),
            ));
        };
        set(
            &mut state,
            "session_metadata",
            "log_offset",
            self.offset.into(),
        );
        let state = Value::Object(state);
        let report = validate_state(&state);
        if !report.valid() {
            return Err(crate::document::invalid_error("hive.state", &report));
        }
        warnings.extend(report.warnings);
        let mut out = Map::new();
        out.insert("state".into(), state);
        out.insert("log_offset".into(), self.offset.into());
        out.insert("events".into(), self.applied.into());
        out.insert("duplicates".into(), self.duplicates.into());
        out.insert("out_of_order".into(), self.out_of_order.into());
        out.insert("skipped".into(), Value::Array(self.skipped));
        out.insert("torn".into(), torn);
        out.insert("needs_newline".into(), needs_newline.into());
        out.insert("warnings".into(), crate::report::issues_value(&warnings));
        Ok(Value::Object(out))
    }

    /// One line (without its `\n`; `terminated`: it had one).
    fn line(&mut self, raw: &[u8], terminated: bool) -> Result<()> {
        let start = self.offset;
        self.offset = self
            .offset
            .saturating_add(raw.len() as u64)
            .saturating_add(u64::from(terminated));
        self.line = self.line.saturating_add(1);
        let line = trim_cr(raw);
        if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            return Ok(());
        }
        let hash = xxhash_rust::xxh3::xxh3_64(line);
        if self.window.contains(hash, line) {
            self.duplicates = self.duplicates.saturating_add(1);
            return Ok(());
        }
        match self.apply(line) {
            Ok(()) => {
                self.window.remember(hash, line);
                self.applied = self.applied.saturating_add(1);
                Ok(())
            }
            Err(error) => {
                let error = at_line(error, self.line, start);
                if !self.skip_bad_lines {
                    return Err(error);
                }
                let mut skipped = Map::new();
                skipped.insert("line".into(), self.line.into());
                skipped.insert("offset".into(), start.into());
                skipped.insert("code".into(), error.code.as_str().into());
                skipped.insert("message".into(), error.message.into());
                self.skipped.push(Value::Object(skipped));
                Ok(())
            }
        }
    }

    /// Parses and applies one line.
    fn apply(&mut self, line: &[u8]) -> Result<()> {
        let value = json::parse(line).map_err(|e| {
            Error::new(
                Code::LogCorrupt,
                "",
                format!(
                    "it is not JSON ({}) and it is a complete line, so it is not a torn write",
                    e.message
                ),
            )
        })?;
        if !value.is_object() {
            return Err(Error::new(
                Code::LogCorrupt,
                "",
                "it is not an event: an EVENTS.jsonl line is a JSON object",
            ));
        }
        check_event(&value)?;
        let Value::Object(event) = value else {
            return Err(Error::new(
                Code::LogCorrupt,
                "",
                "it is not an event: an EVENTS.jsonl line is a JSON object",
            ));
        };
        let state = self.state.take();
        // Kept to go on from when a bad line is skipped (without skipping, a bad line ends
        // the replay).
        let kept = if self.skip_bad_lines {
            state.clone()
        } else {
            None
        };
        match apply(state, &event, &self.session_id, Check::Replay) {
            Ok(state) => self.state = Some(state),
            Err(error) => {
                self.state = kept;
                return Err(error);
            }
        }
        // Out of order: before the latest time seen (which is kept without a new allocation).
        if let Some(time) = event.get("timestamp").and_then(Value::as_str) {
            let earlier = self
                .latest
                .as_deref()
                .and_then(|latest| compare_timestamps(time, latest));
            if earlier == Some(std::cmp::Ordering::Less) {
                self.out_of_order = self.out_of_order.saturating_add(1);
            } else {
                let latest = self.latest.get_or_insert_with(String::new);
                latest.clear();
                latest.push_str(time);
            }
        }
        Ok(())
    }
}

/// A line without its `\r` (a CRLF log).
fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `error` of the log's line `line` (starting at byte `offset`): the message says where.
fn at_line(mut error: Error, line: u64, offset: u64) -> Error {
    error.message = format!("line {line} of the log: {}", error.message);
    error
        .with_detail("line", line)
        .with_detail("offset", offset)
}

/// `recover_state`: the state of session `session_id` rebuilt from its whole log (`log`,
/// the bytes of `EVENTS.jsonl`), as [`Replay::finish`] returns it.
pub fn recover_state(log: &[u8], session_id: &str, skip_bad_lines: bool) -> Result<Value> {
    let mut replay = Replay::new(session_id, None, 0, skip_bad_lines)?;
    replay.feed(log)?;
    replay.finish()
}
