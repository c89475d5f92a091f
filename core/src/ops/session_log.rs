//! A hive session's log as its session's (docs/hive.md § Files, docs/locking.md § Append-only
//! logs): a generic appender finds the file the log is kept with and appends by its step under
//! that file's lock ([`log_owner`]); a repair sets aside the lines a read refuses
//! ([`session_log_repair`], [`set_aside`]).

use super::logged::logged_kind;
use crate::error::{Code, Error, Result};
use crate::hive::Replay;
use crate::{json, Map, Value};

/// What a generic appender of the log at `path` must do instead of appending alone, found
/// from the log's name: `{file, kind, record, step}` when it is the log kept with a kind's
/// file (`EVENTS.jsonl` of a hive session: `STATE.json`, `hive.state`, `hive.event`,
/// `hive_apply_event`); when that file is there (the host looks, `lstat`), the appender takes
/// its lock and appends by the step (one session, one lock); `null` for any other log.
pub fn log_owner(path: &str) -> Value {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let owner = crate::kinds::KINDS.iter().find_map(|k| {
        let file = k.file.as_ref()?;
        let log = file.log?;
        (log.name == name).then_some((k.name, file.path.last().copied()?, log.record))
    });
    let Some((kind, file, record)) = owner else {
        return Value::Null;
    };
    let mut out = Map::new();
    out.insert("file".into(), file.into());
    out.insert("kind".into(), kind.into());
    out.insert("record".into(), record.into());
    out.insert("step".into(), APPLY.into());
    Value::Object(out)
}

/// The step a generic append to a session's log is taken as.
const APPLY: &str = "hive_apply_event";

/// What a repair of session `session_id`'s log (`bytes`; none: no file) sets aside: every
/// line the replay refuses (not JSON, not a valid event, one that cannot be applied) and a
/// torn last line, as byte ranges `{line, start, end, code, message}` in `set_aside`, and the
/// ranges to keep in `keep` (`[start, end]`, in order). The host writes the set-aside bytes to
/// a side file, then replaces the log by the kept bytes. Both lists are empty when the log
/// replays cleanly; `E_NO_SESSION` (nothing done) when no line starts a session.
pub fn session_log_repair(kind: &str, session_id: &str, bytes: Option<&[u8]>) -> Result<Value> {
    logged_kind(kind)?;
    let bytes = bytes.unwrap_or_default();
    let mut replay = Replay::new(session_id, None, 0, true)?;
    let (mut keep, mut set_aside) = (Vec::new(), Vec::new());
    let (mut start, mut line) = (0usize, 0u64);
    let mut kept_any = false;
    while start < bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        let (end, terminated) = match rest.iter().position(|&b| b == b'\n') {
            Some(at) => (start.saturating_add(at).saturating_add(1), true),
            None => (bytes.len(), false),
        };
        line = line.saturating_add(1);
        let chunk = bytes.get(start..end).unwrap_or_default();
        let before = replay.skipped_count();
        let problem = if terminated {
            replay
                .feed(chunk)
                .err()
                .map(|e| (e.code.as_str(), e.message))
        } else if json::parse(chunk.strip_suffix(b"\r").unwrap_or(chunk)).is_ok() {
            // A last line without its newline that parses: applied by a replay (kept).
            let mut whole = chunk.to_vec();
            whole.push(b'\n');
            replay
                .feed(&whole)
                .err()
                .map(|e| (e.code.as_str(), e.message))
        } else if chunk.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            Some((
                "W_TORN_TAIL",
                format!("line {line} is an incomplete (torn) write"),
            ))
        };
        let problem = problem.or_else(|| {
            (replay.skipped_count() > before)
                .then(|| replay.last_skipped())
                .flatten()
        });
        match problem {
            Some((code, message)) => {
                let mut entry = Map::new();
                entry.insert("line".into(), line.into());
                entry.insert("start".into(), (start as u64).into());
                entry.insert("end".into(), (end as u64).into());
                entry.insert("code".into(), code.into());
                entry.insert("message".into(), message.into());
                set_aside.push(Value::Object(entry));
            }
            None => {
                kept_any |= !chunk.iter().all(u8::is_ascii_whitespace);
                keep.push(Value::Array(vec![
                    (start as u64).into(),
                    (end as u64).into(),
                ]))
            }
        }
        start = end;
    }
    if !kept_any && !set_aside.is_empty() {
        return Err(Error::new(
            Code::NoSession,
            "",
            format!(
                "the log of session {session_id:?} holds no line that starts a session \
                 (session_created): nothing to keep, so nothing was set aside"
            ),
        ));
    }
    if set_aside.is_empty() {
        keep.clear();
    }
    let mut out = Map::new();
    out.insert("keep".into(), Value::Array(keep));
    out.insert("set_aside".into(), Value::Array(set_aside));
    Ok(Value::Object(out))
}

/// The `W_SET_ASIDE` warning: a repair moved the refused `lines` of a session's log to `copy`.
pub fn set_aside(lines: &[u64], copy: &str) -> crate::report::Issue {
    let list: Vec<String> = lines.iter().map(u64::to_string).collect();
    let (noun, verb) = if lines.len() == 1 {
        ("line", "was")
    } else {
        ("lines", "were")
    };
    crate::report::Issue {
        code: "W_SET_ASIDE".into(),
        path: String::new(),
        message: format!(
            "{noun} {} of the log {verb} refused by a read; moved to {copy} (kept, not \
             dropped) and the log repaired",
            list.join(", ")
        ),
    }
}
