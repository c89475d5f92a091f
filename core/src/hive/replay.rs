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

/// How far a replay fed in parts got: what it goes on from ([`Replay::carry`]), or its end.
#[derive(Debug)]
pub enum ReplayStep {
    /// The replay so far, as JSON, to give back with the next part.
    Going(Value),
    /// What [`Replay::finish`] returned, after the last part.
    Done(Value),
}

/// One part of session `session_id`'s log replayed, bad lines skipped and reported: the first
/// part with `carry` `None`, each next with the previous [`ReplayStep::Going`]. Every part but
/// the `last` ends with a line break (a host reads a log in pages cut at line ends).
#[cfg(feature = "full")]
pub fn replay_part(
    carry: Option<&Value>,
    session_id: &str,
    part: &[u8],
    last: bool,
) -> Result<ReplayStep> {
    let mut replay = match carry {
        None => Replay::new(session_id, None, 0, true)?,
        Some(carry) => Replay::resume(carry)?,
    };
    replay.feed(part)?;
    if last {
        return replay.finish().map(ReplayStep::Done);
    }
    Ok(ReplayStep::Going(replay.carry()))
}

/// [`replay_part`] in the browser's modules (built without the `full` feature), which check a
/// log whole, in one part (`viewFile`): the replay of a log in pages, carried from one part to
/// the next, is the command line's, and its code (the carry, its resumption, the first
/// version's hashes) is left out of them (docs/performance.md § wasm size). A first and last
/// part is replayed as before; any other `E_UNAVAILABLE`.
#[cfg(not(feature = "full"))]
pub fn replay_part(
    carry: Option<&Value>,
    session_id: &str,
    part: &[u8],
    last: bool,
) -> Result<ReplayStep> {
    if carry.is_some() || !last {
        return Err(Error::new(
            Code::Unavailable,
            "",
            "a log replayed in parts (a carry from one part to the next) is not in the \
             browser's module: replay it whole, or through the Node entry or the Python package",
        ));
    }
    recover_state(part, session_id, true).map(ReplayStep::Done)
}

impl Replay {
    /// The replay so far as JSON, to go on from with [`Replay::resume`] (another call, another
    /// process): its state, counts, the recent lines that find a duplicate and the lines
    /// skipped. A part of a line not fed whole yet is not kept: call it at a line's end.
    pub fn carry(&self) -> Value {
        let mut map = Map::new();
        map.insert("version".into(), CARRY_VERSION.into());
        map.insert("session_id".into(), self.session_id.as_str().into());
        let state = self.state.clone();
        let state = state.map_or(Value::Null, |s| Value::Object(s.into_tree()));
        map.insert("state".into(), state);
        map.insert("skip_bad_lines".into(), self.skip_bad_lines.into());
        map.insert("offset".into(), self.offset.into());
        map.insert("line".into(), self.line.into());
        map.insert("applied".into(), self.applied.into());
        map.insert("duplicates".into(), self.duplicates.into());
        map.insert("out_of_order".into(), self.out_of_order.into());
        let latest = self.latest.as_deref().map_or(Value::Null, Value::from);
        map.insert("latest".into(), latest);
        map.insert("skipped".into(), Value::Array(self.skipped.clone()));
        let window = self.window.lines();
        let lines = window.map(|l| Value::from(String::from_utf8_lossy(l).as_ref()));
        map.insert("window".into(), Value::Array(lines.collect()));
        map.insert("ids".into(), self.ids.carry());
        Value::Object(map)
    }

    /// A replay going on from `carry` ([`Replay::carry`]); `E_ARGUMENT` when it is not one.
    pub fn resume(carry: &Value) -> Result<Replay> {
        let bad = |what: &str| {
            Error::new(
                Code::Argument,
                format!("/{what}"),
                format!("a replay's carry has no valid {what}"),
            )
        };
        let count = |key: &str| {
            carry
                .get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(key))
        };
        let version = match carry.get("version") {
            None => 1,
            Some(version) => version
                .as_u64()
                .filter(|v| (1..=CARRY_VERSION).contains(v))
                .ok_or_else(|| {
                    Error::new(
                        Code::Argument,
                        "/version",
                        format!(
                            "a replay's carry of version {}: this statecore reads versions 1 \
                             to {CARRY_VERSION} (a carry from a newer statecore?): start the \
                             replay again, from the state's session_metadata.log_offset or from \
                             the log's start",
                            json::serialize_compact(version)
                        ),
                    )
                })?,
        };
        let session_id = carry.get("session_id").and_then(Value::as_str);
        let skip = carry.get("skip_bad_lines").and_then(Value::as_bool);
        let state = carry.get("state").cloned();
        let mut replay = Replay::new(
            session_id.ok_or_else(|| bad("session_id"))?,
            state,
            count("offset")?,
            skip.ok_or_else(|| bad("skip_bad_lines"))?,
        )?;
        replay.line = count("line")?;
        replay.applied = count("applied")?;
        replay.duplicates = count("duplicates")?;
        replay.out_of_order = count("out_of_order")?;
        replay.latest = carry
            .get("latest")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let list = |key: &str| {
            carry
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| bad(key))
        };
        replay.skipped = list("skipped")?.clone();
        if let Some(ids) = carry.get("ids") {
            replay.ids = Ids::resume(ids).ok_or_else(|| bad("ids"))?;
        }
        let mut older = Vec::new();
        for line in list("window")? {
            let line = line.as_str().ok_or_else(|| bad("window"))?.as_bytes();
            replay.window.remember(window_hash(line), line);
            if version == 1 {
                older.push((xxhash_rust::xxh3::xxh3_64(line), line_hash(line)));
            }
        }
        if version == 1 {
            // Version 1 remembered its ids' lines by their xxh3 hashes: each becomes its
            // line's hash now, found among the window's lines. An id whose line has left the
            // window keeps its old hash, under which the window holds no line (a new line of
            // that hash is as unlikely as any collision of two lines' 64-bit hashes).
            replay.ids.rehash(|old| {
                older
                    .iter()
                    .find(|(xxh3, _)| *xxh3 == old)
                    .map_or(old, |(_, hash)| *hash)
            });
        }
        Ok(replay)
    }
}

/// `recover_state`: the state of session `session_id` rebuilt from its whole log (`log`,
/// the bytes of `EVENTS.jsonl`), as [`Replay::finish`] returns it.
pub fn recover_state(log: &[u8], session_id: &str, skip_bad_lines: bool) -> Result<Value> {
    let mut replay = Replay::new(session_id, None, 0, skip_bad_lines)?;
    replay.feed(log)?;
    replay.finish()
}
