//! `recover_state`: a session's state rebuilt from its `EVENTS.jsonl`, streamed. A host
//! feeds the log's bytes in chunks of any size ([`Replay::feed`]); each complete line is
//! applied with the one function every step uses, so memory holds the state, one partial
//! line and a window of recent lines, never the file (docs/hive.md § Recovery).

use super::event::{self, Event};
use super::fold::{apply, check_event, Check};
use super::ids::{Ids, Seen};
use super::phases::set;
use super::state::State;
#[cfg(feature = "full")]
use super::typed::Session;
use super::validate::validate_state;
use super::window::{line_hash, window_hash, Window};
use crate::error::{Code, Error, Result};
use crate::report::Issue;
use crate::time::compare_timestamps;
use crate::{json, Map, Value};

mod carry;
pub use carry::{replay_part, ReplayStep};

/// The version of a replay's carry ([`Replay::carry`]): 2 since the lines are hashed with
/// `line_hash` (its ids remember their lines by that hash); version 1, xxh3, is still read
/// ([`Replay::resume`] recomputes its ids' hashes from its window).
pub const CARRY_VERSION: u64 = 2;

/// The state a replay folds into: the typed session (boxed: the fold takes the state and gives
/// it back once per event), or in the browser's modules (built without the `full` feature,
/// which fold into the tree) the tree itself, without the typed session's code
/// (docs/performance.md § wasm size).
#[cfg(feature = "full")]
type Held = Box<Session>;
#[cfg(not(feature = "full"))]
type Held = Map;

/// A replay of a session's log in progress.
#[derive(Debug)]
pub struct Replay {
    session_id: String,
    state: Option<Held>,
    skip_bad_lines: bool,
    pending: Vec<u8>,
    start: u64,
    offset: u64,
    line: u64,
    window: Window,
    ids: Ids,
    applied: u64,
    duplicates: u64,
    out_of_order: u64,
    latest: Option<String>,
    skipped: Vec<Value>,
    failed: Option<Error>,
    typed: bool,
    typed_session: bool,
    /// The state passed a whole check in this replay (see [`Check::ReplayFromValid`]); and
    /// whether that check may be used (off: the whole state after every `state_updated`).
    valid: (bool, bool),
    /// The last timestamp the typed reader parsed (see [`event::read`]).
    checked_time: String,
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
            state: state.map(Held::from_tree),
            skip_bad_lines,
            pending: Vec::new(),
            start: offset,
            offset,
            line: 0,
            window: Window::default(),
            ids: Ids::default(),
            applied: 0,
            duplicates: 0,
            out_of_order: 0,
            latest: None,
            skipped: Vec::new(),
            failed: None,
            typed: true,
            typed_session: true,
            valid: (false, true),
            checked_time: String::new(),
        })
    }

    /// Reads every line as a generic tree and folds it into the generic state tree
    /// (`false`), not in the typed forms (`true`, the default: a line in its typed form where
    /// it has it, the state as a typed session). Both give the same results, byte for byte:
    /// the switch is for the test that proves it (core/tests/hive_typed_properties.rs) and for
    /// measuring.
    pub fn read_typed(&mut self, typed: bool) {
        self.typed = typed;
        self.typed_session = typed;
    }

    /// Folds into the generic state tree (`false`) instead of the typed session (`true`, the
    /// default), whatever form the lines are read in ([`Replay::read_typed`] sets both): the
    /// same results, byte for byte; for the test that proves it and for measuring. The
    /// browser's module (built without the `full` feature) always folds into the tree.
    pub fn typed_session(&mut self, typed: bool) {
        self.typed_session = typed;
    }

    /// Validates the whole state after every `state_updated` (`true`), not the fields it
    /// changed in a state known valid (`false`, the default): the same verdicts and errors;
    /// for the test that proves it (core/tests/hive_session_properties.rs).
    pub fn check_whole(&mut self, whole: bool) {
        self.valid.1 = !whole;
    }

    /// How many bad lines were skipped so far.
    pub fn skipped_count(&self) -> usize {
        self.skipped.len()
    }

    /// The code and message of the last bad line skipped.
    pub fn last_skipped(&self) -> Option<(&'static str, String)> {
        let last = self.skipped.last()?;
        let code = last.get("code").and_then(Value::as_str)?;
        let code = Code::ALL.iter().find(|c| c.as_str() == code)?.as_str();
        let message = last.get("message").and_then(Value::as_str)?;
        Some((code, message.to_owned()))
    }

    /// The replay goes on from a byte offset onto a state (not the whole log from its start):
    /// its line numbers then count from that offset.
    pub fn from_offset(&self) -> bool {
        self.start > 0
    }

    /// Feeds the next bytes of the log. A bad line stops the replay (the same error from
    /// every later call) unless bad lines are skipped.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<()> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let mut rest = chunk;
        while let Some(end) = memchr::memchr(b'\n', rest) {
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
        let Some(mut state) = self.state.take().map(State::into_tree) else {
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
            let error = crate::report::invalid_error("hive.state", &report);
            return Err(read_invalid(
                error,
                "the state the log replays to is not a valid hive.state",
            ));
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
        let hash = window_hash(line);
        if self.window.contains(hash, line) {
            self.duplicates = self.duplicates.saturating_add(1);
            return Ok(());
        }
        match self.apply(line) {
            Ok(Seen::New) => {
                self.window.remember(hash, line);
                self.applied = self.applied.saturating_add(1);
                Ok(())
            }
            Ok(Seen::Again) => {
                self.duplicates = self.duplicates.saturating_add(1);
                Ok(())
            }
            Err(error) => {
                let error = at_line(error, self.line, start);
                if !self.skip_bad_lines {
                    let mut error = error;
                    error.message.push_str(
                        "; `statecore log repair EVENTS.jsonl` sets a refused line aside",
                    );
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

    /// Parses and applies one line ([`Seen::Again`]: its id and body were applied already):
    /// in the typed form when it has it ([`event::read`]), else as a generic tree.
    fn apply(&mut self, line: &[u8]) -> Result<Seen> {
        // The browser's modules fold the generic tree only: the same result (the differential
        // property test), without a second instance of the fold (docs/performance.md § wasm size).
        if cfg!(feature = "full") && self.typed {
            if let Some(event) = event::read(line, &mut self.checked_time) {
                self.fold(&event)?;
                return Ok(Seen::New);
            }
        }
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
        check_event(&value).map_err(|e| read_invalid(e, "it is not a valid hive.event"))?;
        let Value::Object(event) = value else {
            return Err(Error::new(
                Code::LogCorrupt,
                "",
                "it is not an event: an EVENTS.jsonl line is a JSON object",
            ));
        };
        let window = &self.window;
        if self.ids.check(&event, |h| window.find(h))? == Seen::Again {
            return Ok(Seen::Again);
        }
        self.fold(&event)?;
        self.ids.remember(&event, self.line, line_hash(line));
        Ok(Seen::New)
    }

    /// Applies a line read and checked to the state, and counts it out of order when its
    /// time is before the latest seen.
    fn fold<E: Event + ?Sized>(&mut self, event: &E) -> Result<()> {
        let state = self.state.take();
        // Kept to go on from when a bad line is skipped (without skipping, a bad line ends
        // the replay).
        let kept = if self.skip_bad_lines {
            state.clone()
        } else {
            None
        };
        // The browser's module (without `full`) folds into the tree: the same results, and
        // no second copy of the fold in a module whose size is what matters there.
        let check = match self.valid {
            (true, true) => Check::ReplayFromValid,
            _ => Check::Replay,
        };
        let folded = if cfg!(feature = "full") && self.typed_session {
            apply(state, event, &self.session_id, check)
        } else {
            let tree = state.map(State::into_tree);
            apply::<Map, E>(tree, event, &self.session_id, check).map(Held::from_tree)
        };
        match folded {
            Ok(state) => {
                self.state = Some(state);
                // Checked whole (or, known valid, in what changed): valid.
                self.valid.0 |= matches!(event.kind(), "state_updated" | "session_created");
            }
            Err(error) => {
                self.state = kept;
                return Err(read_invalid(
                    error,
                    "applying it would make the state invalid",
                ));
            }
        }
        // Out of order: before the latest time seen (which is kept without a new allocation).
        let time = event.timestamp();
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
        Ok(())
    }
}

/// A line without its `\r` (a CRLF log).
fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A validation error met on a read, said as a reader's problem (`what`, then the first
/// problem), not as a refused write; other errors as they are.
fn read_invalid(mut error: Error, what: &str) -> Error {
    if error.code != Code::Invalid {
        return error;
    }
    let errors = error.details.get("errors").and_then(Value::as_array);
    let count = errors.map_or(0, Vec::len);
    let first = errors.and_then(|e| e.first()).map(|i| {
        let text = |key: &str| i.get(key).and_then(Value::as_str).unwrap_or("");
        format!(
            "{} at {:?}: {}",
            text("code"),
            text("path"),
            text("message")
        )
    });
    error.message = match first {
        Some(first) => format!(
            "{what}: {first}{}",
            crate::report::more_problems(count.saturating_sub(1))
        ),
        None => what.to_owned(),
    };
    error
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
