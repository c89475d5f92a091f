//! Files kept with an event log: a hive session's `STATE.json` and its `EVENTS.jsonl`
//! (docs/hive.md § Files). Under the session's lock a host passes the state's bytes and the
//! log's size with one step of the table, and gets back the line to append and the state to
//! write, in one crossing. The state records the bytes of the log folded into it
//! (`session_metadata.log_offset`): when the log is longer (a crash between the append and
//! the write), or the state is missing or unreadable, the host replays the log from there
//! ([`LogReplay`]) and the step is taken on the replayed state.

use super::{find, Access, Arg, Args, Change, Op};
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
/// state's, `log_size` the log's length, `session_id` the session directory's name. Returns
/// `{document, text, write, line, event, log_offset, truncate_at, torn_line, replay_from,
/// corrupt, recovered, warnings}`: with `replay_from` set, nothing else is done yet (replay
/// the log from there with [`LogReplay`]); otherwise append `line` (when set), then write
/// `text` (when `write`).
pub fn update_logged(
    kind: &str,
    session_id: &str,
    bytes: Option<&[u8]>,
    log_size: u64,
    change: Option<Change<'_>>,
    now: &Value,
) -> Result<Value> {
    logged_kind(kind)?;
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
        Resume::Replay { from, corrupt } => {
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
                ("warnings", Value::Array(Vec::new())),
            ] {
                out.insert(key.into(), value);
            }
            Ok(Value::Object(out))
        }
        Resume::Current(state) => commit(
            Some(state),
            session_id,
            change,
            now,
            Tail::at(log_size),
            Vec::new(),
        ),
        Resume::Empty => commit(None, session_id, change, now, Tail::at(0), Vec::new()),
    }
}

/// `E_KIND` unless `kind` is kept with a log.
fn logged_kind(kind: &str) -> Result<()> {
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
            return Err(crate::document::invalid_error(KIND, &loaded.report));
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
        // Replayed from where it stops; a state that folds nothing of a log is rebuilt from
        // the log, its bytes kept as a copy.
        Some(offset) if offset < log_size => Resume::Replay {
            from: offset,
            corrupt: offset == 0,
        },
        // The log is shorter than the state says: the log is the record.
        Some(_) => Resume::Replay {
            from: 0,
            corrupt: true,
        },
    })
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
fn commit(
    state: Option<Value>,
    session_id: &str,
    change: Option<Change<'_>>,
    now: &Value,
    tail: Tail,
    mut warnings: Vec<Value>,
) -> Result<Value> {
    let replayed = state.is_none() || tail.torn.is_some();
    let (state, event) = match change {
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
#[derive(Debug)]
pub struct LogReplay {
    session_id: String,
    replay: Replay,
    corrupt: bool,
}

impl LogReplay {
    /// A replay of `kind`'s log from `offset` onto the state in `bytes` (`None`, or
    /// `corrupt`: from nothing; the host keeps a `.corrupt-` copy of those bytes).
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
        let from = if state.is_some() { offset } else { 0 };
        Ok(LogReplay {
            session_id: session_id.to_owned(),
            replay: Replay::new(session_id, state, from, false)?,
            corrupt,
        })
    }

    /// Feeds the next bytes of the log.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<()> {
        self.replay.feed(chunk)
    }

    /// Ends the replay and takes the step `change` (none: a read) on the replayed state, as
    /// [`update_logged`] does, with `recovered` (what the replay met) and, when the state was
    /// unreadable, `corrupt` (keep a copy of its bytes before writing).
    pub fn commit(self, change: Option<Change<'_>>, now: &Value) -> Result<Value> {
        let recovered = self.replay.finish()?;
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
        let mut out = commit(Some(state), &self.session_id, change, now, tail, warnings)?;
        if let Value::Object(map) = &mut out {
            map.insert("write".into(), true.into());
            map.insert("corrupt".into(), self.corrupt.into());
            map.insert("recovered".into(), Value::Object(fields));
        }
        Ok(out)
    }
}

/// The change a host names for a logged step: none for a read (`""`), else a step of the
/// table with its arguments after the state.
pub fn logged_change<'a>(name: &str, args: Args<'a>) -> Result<Option<Change<'a>>> {
    if name.is_empty() {
        return Ok(None);
    }
    Ok(Some(Change::Op(find(name)?, args)))
}
