//! Files kept with an event log: a hive session's `STATE.json` and its `EVENTS.jsonl`
//! (docs/hive.md § Files). Under the session's lock a host passes the state's bytes and the
//! log's size with one step of the table, and gets back the line to append and the state to
//! write, in one crossing. The state records the bytes of the log folded into it
//! (`session_metadata.log_offset`): when the log is longer (a crash between the append and
//! the write), or the state is missing or unreadable, the host replays the log from there
//! ([`LogReplay`]) and the step is taken on the replayed state.

use super::{Access, Arg, Args, Change, Op};
use crate::document::load;
use crate::error::{Code, Error, Result};
use crate::hive::Replay;
use crate::report::issues_value;
use crate::{json, jsonl, Map, Value};

/// The kind kept with a log, and the pointer of its log offset.
const KIND: &str = "hive.state";
const OFFSET: &str = "/session_metadata/log_offset";
const CREATE: &str = "hive_create_session";

/// Where a logged step stands after reading the state.
enum Resume {
    /// The state folds the whole log (or was written by a tool that does not record it).
    Current(Value),
    /// Replay the log from `from` (onto the state when `corrupt` is false and `from` > 0).
    Replay { from: u64, corrupt: bool },
    /// No state and an empty log: only `create_session` may run.
    Empty,
}

/// A step of a logged file, or a read (`change` `None`): `bytes` (`None`: missing) are the
/// state's, `log_size` the log's length, `session_id` the session directory's name,
/// `event_id` the step's unique event id (from the host's random bytes: the core has no
/// randomness; written into the line as `event_id`). Returns `{document, text, write, line,
/// event, log_offset, truncate_at, torn_line, replay_from, corrupt, recovered, warnings}`:
/// with `replay_from` set, nothing else is done yet (replay the log from there with
/// [`LogReplay`]); otherwise append `line` (when set), then write `text` (when `write`).
pub fn update_logged(
    kind: &str,
    session_id: &str,
    bytes: Option<&[u8]>,
    log_size: u64,
    change: Option<Change<'_>>,
    now: &Value,
    event_id: Option<&str>,
) -> Result<Value> {
    logged_kind(kind)?;
    check_event_id(event_id)?;
    let creates = matches!(&change, Some(Change::Op(op, _)) if op.is(CREATE));
    let resumed = resume(bytes, log_size)?;
    match (&resumed, creates) {
        (Resume::Empty, true) | (Resume::Current(_), false) | (Resume::Replay { .. }, false) => {}
        (Resume::Empty, false) => {
            return Err(Error::new(
                Code::NoSession,
                "",
                format!(
                    "there is no session {session_id:?}: no STATE.json and an empty log; \
                     create it first (create_session)"
                ),
            ))
        }
        (_, true) => {
            return Err(Error::new(
                Code::Argument,
                "",
                format!("the session {session_id:?} exists already: it has a state or a log"),
            ))
        }
    }
    match resumed {
        Resume::Replay { from, corrupt } => Ok(replay_from(from, corrupt, Vec::new())),
        Resume::Current(state) => commit(
            Some(state),
            session_id,
            change,
            now,
            event_id,
            Tail::at(log_size),
            Vec::new(),
        ),
        Resume::Empty => commit(
            None,
            session_id,
            change,
            now,
            event_id,
            Tail::at(0),
            Vec::new(),
        ),
    }
}

/// The answer that asks the host to replay the log from byte `from` (see [`LogReplay::new`])
/// and commit the step on the replay; `corrupt`: keep a copy of the state's bytes first (just
/// before the state is written: a call that fails copies nothing).
fn replay_from(from: u64, corrupt: bool, warnings: Vec<Value>) -> Value {
    let mut out = Map::new();
    for (key, value) in [
        ("document", Value::Null),
        ("text", "null".into()),
        ("etag", Value::Null),
        ("write", false.into()),
        ("line", Value::Null),
        ("event", Value::Null),
        ("log_offset", Value::Null),
        ("truncate_at", Value::Null),
        ("torn_line", Value::Null),
        ("replay_from", from.into()),
        ("corrupt", corrupt.into()),
        ("recovered", Value::Null),
        ("warnings", Value::Array(warnings)),
    ] {
        out.insert(key.into(), value);
    }
    Value::Object(out)
}

/// `E_ARGUMENT` unless `event_id` (when given) is a usable id: 1 to 128 printable ASCII
/// characters without a space.
fn check_event_id(event_id: Option<&str>) -> Result<()> {
    match event_id {
        Some(id)
            if id.is_empty() || id.len() > 128 || !id.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            Err(Error::new(
                Code::Argument,
                "",
                format!(
                    "{id:?} is not an event id: 1 to 128 printable ASCII characters, no space \
                     (the host makes one from random bytes)"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// `E_KIND` unless `kind` is kept with a log.
pub(super) fn logged_kind(kind: &str) -> Result<()> {
    if kind == KIND {
        return Ok(());
    }
    Err(Error::new(
        Code::Kind,
        "",
        format!("{kind} is not kept with an event log: only {KIND} is"),
    ))
}

/// How the state's bytes stand against the log's length.
fn resume(bytes: Option<&[u8]>, log_size: u64) -> Result<Resume> {
    let Some(bytes) = bytes else {
        return Ok(if log_size == 0 {
            Resume::Empty
        } else {
            Resume::Replay {
                from: 0,
                corrupt: false,
            }
        });
    };
    let loaded = load(KIND, Some(bytes))?;
    if loaded.corrupt || !loaded.report.valid() {
        if log_size == 0 {
            // Nothing to rebuild it from: the state's own error.
            json::parse(bytes)?;
            return Err(crate::report::invalid_error(KIND, &loaded.report));
        }
        return Ok(Resume::Replay {
            from: 0,
            corrupt: true,
        });
    }
    let state = loaded.document;
    Ok(match state.pointer(OFFSET).and_then(Value::as_u64) {
        None => Resume::Current(state),
        Some(offset) if offset == log_size => Resume::Current(state),
        // The log is missing (or emptied) under a state that folds some of it: its own
        // error, nothing copied or written (the log is the record: restore it).
        Some(offset) if log_size == 0 => return Err(log_missing(offset)),
        // Replayed from where it stops, starting one byte before it: the replay checks that
        // this byte ends a line (a state's offset inside a line is replayed from the start);
        // a state that folds nothing of a log is rebuilt from the log, its bytes kept.
        Some(offset) if offset < log_size => Resume::Replay {
            from: offset.saturating_sub(1),
            corrupt: offset == 0,
        },
        // The log is shorter than the state says: the log is the record.
        Some(_) => Resume::Replay {
            from: 0,
            corrupt: true,
        },
    })
}

/// `E_LOG_CORRUPT` for a state that folds `offset` bytes of a log that is missing or empty.
fn log_missing(offset: u64) -> Error {
    Error::new(
        Code::LogCorrupt,
        "/session_metadata/log_offset",
        format!(
            "EVENTS.jsonl is missing or empty, but STATE.json folds {offset} bytes of it: the log \
             is the session's record; restore it (or move STATE.json away to start over)"
        ),
    )
    .with_detail("reason", "log_missing")
    .with_detail("log_offset", offset)
    .with_detail("log_size", 0)
}

/// Where the log ends and how the next line goes on it.
#[derive(Debug, Clone, Copy)]
struct Tail {
    /// The length the log will have before the line: its size, or where a torn line starts.
    end: u64,
    /// The last line has no `\n`: one goes first.
    needs_newline: bool,
    /// A torn last line starts here (and at this line): cut it off first.
    torn: Option<(u64, u64)>,
}

impl Tail {
    fn at(end: u64) -> Tail {
        Tail {
            end,
            needs_newline: false,
            torn: None,
        }
    }
}

/// The step `change` (none: a read) taken on `state`, its line and the state that records
/// the log up to the end of that line.
#[allow(clippy::too_many_arguments)] // the step's inputs, flat
fn commit(
    state: Option<Value>,
    session_id: &str,
    change: Option<Change<'_>>,
    now: &Value,
    event_id: Option<&str>,
    tail: Tail,
    mut warnings: Vec<Value>,
) -> Result<Value> {
    let replayed = state.is_none() || tail.torn.is_some();
    let (state, mut event) = match change {
        None => (state.unwrap_or_default(), None),
        Some(Change::Op(op, args)) => step(op, args, state, session_id, now)?,
        Some(_) => {
            return Err(Error::new(
                Code::Argument,
                "",
                "a logged file changes by a step of the table only",
            ))
        }
    };
    // The line carries the step's unique id (a field the fold ignores: the state is the same
    // with or without it), so two equal lines only ever mean one append retried.
    if let (Some(Value::Object(line)), Some(id)) = (&mut event, event_id) {
        line.insert("event_id".into(), id.into());
    }
    let mut line = match &event {
        Some(event) => jsonl::line(event)?,
        None => String::new(),
    };
    if tail.needs_newline && event.is_some() {
        line.insert(0, '\n');
    }
    let log_offset = tail.end.saturating_add(line.len() as u64);
    let mut state = state;
    let write = event.is_some() || replayed;
    if let Some(Value::Object(meta)) = state
        .as_object_mut()
        .and_then(|s| s.get_mut("session_metadata"))
    {
        meta.insert("log_offset".into(), log_offset.into());
    }
    let prepared = crate::document::prepare(KIND, &state)?;
    if let Value::Array(items) = issues_value(&prepared.report.warnings) {
        warnings.extend(items);
    }
    let mut out = Map::new();
    out.insert("document".into(), state);
    out.insert("text".into(), prepared.text.into());
    out.insert("etag".into(), prepared.etag.into());
    out.insert("write".into(), write.into());
    out.insert(
        "line".into(),
        if line.is_empty() {
            Value::Null
        } else {
            line.into()
        },
    );
    out.insert("event".into(), event.unwrap_or_default());
    out.insert("log_offset".into(), log_offset.into());
    let (truncate_at, torn_line) = tail.torn.map_or((Value::Null, Value::Null), |(at, line)| {
        (at.into(), line.into())
    });
    out.insert("truncate_at".into(), truncate_at);
    out.insert("torn_line".into(), torn_line);
    out.insert("replay_from".into(), Value::Null);
    out.insert("corrupt".into(), false.into());
    out.insert("recovered".into(), Value::Null);
    out.insert("warnings".into(), Value::Array(warnings));
    Ok(Value::Object(out))
}

/// Runs a step of the table on `state` (`create_session` on none): `(state, event)`.
fn step(
    op: &'static Op,
    args: Args<'_>,
    state: Option<Value>,
    session_id: &str,
    now: &Value,
) -> Result<(Value, Option<Value>)> {
    let mut args = if op.is(CREATE) {
        args.prepend(Arg::Value(session_id.into()))
    } else {
        match op.access {
            Access::Writes(write) if write.kind == KIND && write.document_at == Some("state") => {}
            _ => {
                return Err(Error::new(
                    Code::Argument,
                    "",
                    format!("{} is not a step of a hive session", op.name()),
                ))
            }
        }
        args.prepend(Arg::Value(state.unwrap_or_default()))
    };
    args.set_now(now);
    let mut out = match super::call(op, args)?.into_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let state = out.shift_remove("state").unwrap_or_default();
    Ok((state, out.shift_remove("event")))
}

/// A replay of a session's log for a step (or a read) of its state: fed the log from the
/// offset [`update_logged`] gave, then committed like it.
///
/// A replay from a state's offset starts one byte before it, which must end a line. When it
/// does not (the offset falls inside a line: an append of another writer got between a step's
/// read and its write), or when a line after the offset cannot be applied, the replay does not
/// fail: [`LogReplay::commit`] asks for a replay of the whole log instead (`replay_from` 0), so
/// the state is repaired from the start and an error names the file's own line numbers.
#[derive(Debug)]
pub struct LogReplay {
    session_id: String,
    replay: Replay,
    corrupt: bool,
    /// The replay goes on from a state's offset: the first byte fed must be a `\n`.
    boundary: bool,
    /// Why a replay from an offset gave up (the whole log is replayed instead).
    restart: Option<Value>,
}

impl LogReplay {
    /// A replay of `kind`'s log from byte `offset` onto the state in `bytes` (`None`, or
    /// `corrupt`: from nothing; the host keeps a `.corrupt-` copy of those bytes). When the
    /// state records a `log_offset` one past `offset`, the byte at `offset` must end a line.
    pub fn new(
        kind: &str,
        session_id: &str,
        bytes: Option<&[u8]>,
        offset: u64,
        corrupt: bool,
    ) -> Result<LogReplay> {
        logged_kind(kind)?;
        let state = match bytes {
            Some(bytes) if !corrupt && offset > 0 => Some(json::parse(bytes)?),
            _ => None,
        };
        let recorded = state
            .as_ref()
            .and_then(|s| s.pointer(OFFSET))
            .and_then(Value::as_u64);
        let boundary = state.is_some() && recorded == Some(offset.saturating_add(1));
        let from = match (&state, boundary) {
            (None, _) => 0,
            (Some(_), true) => offset.saturating_add(1),
            (Some(_), false) => offset,
        };
        Ok(LogReplay {
            session_id: session_id.to_owned(),
            replay: Replay::new(session_id, state, from, false)?,
            corrupt,
            boundary,
            restart: None,
        })
    }

    /// Feeds the next bytes of the log. A replay from a state's offset that meets a bad line
    /// stops feeding and asks for a whole replay at [`LogReplay::commit`].
    pub fn feed(&mut self, chunk: &[u8]) -> Result<()> {
        if self.restart.is_some() {
            return Ok(());
        }
        let mut chunk = chunk;
        if self.boundary {
            let Some((&first, rest)) = chunk.split_first() else {
                return Ok(());
            };
            self.boundary = false;
            if first != b'\n' {
                self.restart = Some(offset_inside_line());
                return Ok(());
            }
            chunk = rest;
        }
        let partial = self.replay.from_offset();
        match self.replay.feed(chunk) {
            Err(_) if partial => {
                self.restart = Some(Value::Null);
                Ok(())
            }
            other => other,
        }
    }

    /// Ends the replay and takes the step `change` (none: a read) on the replayed state, as
    /// [`update_logged`] does, with `recovered` (what the replay met) and, when the state was
    /// unreadable, `corrupt` (keep a copy of its bytes before writing). A replay from an
    /// offset that could not go on answers `replay_from` 0 instead: replay the whole log.
    pub fn commit(
        self,
        change: Option<Change<'_>>,
        now: &Value,
        event_id: Option<&str>,
    ) -> Result<Value> {
        check_event_id(event_id)?;
        if let Some(warning) = self.restart {
            let warnings = if warning.is_null() {
                Vec::new()
            } else {
                vec![warning]
            };
            return Ok(replay_from(0, false, warnings));
        }
        let partial = self.replay.from_offset();
        let recovered = match self.replay.finish() {
            Ok(recovered) => recovered,
            // A line after the offset that cannot be applied: replayed whole, so the error
            // (if it is one) names the file's line.
            Err(_) if partial => return Ok(replay_from(0, false, Vec::new())),
            Err(error) => return Err(error),
        };
        let mut fields = match recovered {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let state = fields.shift_remove("state").unwrap_or_default();
        let offset = fields
            .get("log_offset")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let torn = fields
            .get("torn")
            .and_then(|t| Some((t.get("offset")?.as_u64()?, t.get("line")?.as_u64()?)));
        // A torn tail's W_TORN_TAIL is the host's to give: it cuts the line off, naming the
        // copy it keeps.
        let warnings = match fields.shift_remove("warnings") {
            Some(Value::Array(items)) => items
                .into_iter()
                .filter(|w| torn.is_none() || w.get("code") != Some(&Value::from("W_TORN_TAIL")))
                .collect(),
            _ => Vec::new(),
        };
        let tail = Tail {
            end: offset,
            needs_newline: fields.get("needs_newline") == Some(&Value::Bool(true)),
            torn,
        };
        let mut out = commit(
            Some(state),
            &self.session_id,
            change,
            now,
            event_id,
            tail,
            warnings,
        )?;
        if let Value::Object(map) = &mut out {
            map.insert("write".into(), true.into());
            map.insert("corrupt".into(), self.corrupt.into());
            map.insert("recovered".into(), Value::Object(fields));
        }
        Ok(out)
    }
}

/// The `W_LOG_OFFSET` warning: the state's offset fell inside a line of its log.
fn offset_inside_line() -> Value {
    crate::report::Issue {
        code: "W_LOG_OFFSET".into(),
        path: OFFSET.into(),
        message: "STATE.json's log_offset does not fall on a line start of EVENTS.jsonl \
                  (another writer appended between a step's read and its write): the state \
                  was rebuilt from the whole log"
            .into(),
    }
    .to_value()
}
