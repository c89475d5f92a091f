//! What a watcher does with a file it saw change (docs/watch.md): which files it reads
//! ([`target`]), and what the bytes it read are ([`read`]): a change to report, checked as
//! the file's kind, or a write still under way (a torn intermediate state) to read again a
//! moment later. Both hosts follow these answers, so they report the same changes.

pub mod shapes;

use crate::checked::{torn_tail, LogCheck};
use crate::checked::{Checked, Placed, Target};
use crate::error::{Code, Error, Result};
use crate::report::Issue;
use crate::{json, kinds, Map, Value};

/// The directories a host never enters when it walks a tree or watches one (the command
/// line's listings, the watchers, the MCP server's resource list): a repository's own and
/// installed packages, never a protocol's files.
pub const SKIPPED_DIRECTORIES: [&str; 2] = [".git", "node_modules"];
/// How many levels of directories below its start a host's walk of a tree goes down at most.
pub const WALK_MAX_DEPTH: i64 = 16;

/// The first wait before reading a torn file again, in ms; each retry of a file no lock
/// covers waits twice as long as the one before.
pub const RETRY_MS: u64 = 25;
/// How many times a torn file no lock covers is read again before it is reported as it is
/// (25 + 50 + 100 + 200 ms: a writer that writes in place has long finished); counted from the
/// last read that saw the lock.
pub const UNLOCKED_RETRIES: u64 = 4;
/// How many times in all a torn file is read again while its writer holds `<file>.lock`
/// (every [`RETRY_MS`]: the default lock timeout in all).
pub const LOCKED_RETRIES: u64 = crate::lock::DEFAULT_TIMEOUT_MS.unsigned_abs() / RETRY_MS;

/// The kind named `kind`, or `E_KIND`.
fn static_kind(kind: &str) -> Result<&'static str> {
    Ok(kinds::kind(kind)?.name)
}

/// What a watcher does with the file at `path` (`/`-separated): `Some(target)` to read it,
/// `None` to leave it. A path the caller named (`named`) is read as `kind`, else as the kind
/// its path gives (`E_KIND` when it gives none). A file found under a watched directory is
/// read when the viewer shows it (docs/viewer.md § Files) and, with `kind`, only when it is
/// of that kind (a log: its records are).
pub fn target(path: &str, kind: Option<&str>, named: bool) -> Result<Option<Target>> {
    let forced = kind.map(static_kind).transpose()?;
    if named {
        return Target::of(path, forced, true).map(Some).ok_or_else(|| {
            Error::new(
                Code::Kind,
                "",
                format!(
                    "cannot tell the kind of {path:?} from its name: pass the kind \
                     (`statecore kinds` lists them)"
                ),
            )
            .with_detail("path", path)
        });
    }
    let found = crate::checked::places::target_under(path);
    Ok(found.filter(|t| forced.is_none_or(|k| t.kind() == k)))
}

/// The target a `{kind, log}` names (`E_KIND` for an unknown kind). A known log is not
/// replayed: a watcher reads only what was appended.
pub fn resolve(kind: &str, log: bool) -> Result<Target> {
    let kind = static_kind(kind)?;
    Ok(if log {
        Target::Log(kind, None)
    } else {
        Target::Document(kind)
    })
}

/// `{path, kind, log}` of [`target`]'s answer (null: not read).
pub fn target_value(path: &str, found: Option<Target>) -> Value {
    let Some(found) = found else {
        return Value::Null;
    };
    let mut map = Map::new();
    map.insert("path".into(), Value::from(path));
    map.insert("kind".into(), Value::from(found.kind()));
    map.insert("log".into(), Value::Bool(matches!(found, Target::Log(..))));
    Value::Object(map)
}

/// What a watcher saw when it read a file.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// How many reads of this change came before this one.
    pub attempt: u64,
    /// True when the file's lock (`<file>.lock`) was there just before or just after the
    /// read: a writer is at work.
    pub locked: bool,
    /// How many of the reads before this one, since the lock was last seen, found no lock.
    pub unlocked: u64,
    /// A log: the byte where the bytes read start (where the last report stopped).
    pub offset: u64,
    /// A log: how many lines come before `offset`.
    pub line: u64,
    /// A log: the file has bytes past those read (a page of at most
    /// [`crate::json::MAX_DOCUMENT_BYTES`]; the host reads on from the new `offset`).
    pub more: bool,
    /// A document: the etag of the bytes last reported (the `etag` of the last answer).
    pub etag: Option<String>,
}

impl Facts {
    /// The facts of a `WatchFacts` object (already checked against its shape).
    pub fn of(value: &Value) -> Facts {
        let n = |key: &str| value.get(key).and_then(Value::as_u64).unwrap_or(0);
        Facts {
            attempt: n("attempt"),
            locked: value
                .get("locked")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            unlocked: n("unlocked"),
            offset: n("offset"),
            line: n("line"),
            more: value.get("more").and_then(Value::as_bool).unwrap_or(false),
            etag: value.get("etag").and_then(Value::as_str).map(str::to_owned),
        }
    }
}

/// How long to wait before reading a torn file again, or `None` to report it as it is.
fn retry_after(facts: &Facts) -> Option<u64> {
    if facts.locked {
        return (facts.attempt < LOCKED_RETRIES).then_some(RETRY_MS);
    }
    let shift = u32::try_from(facts.unlocked).ok()?;
    (facts.unlocked < UNLOCKED_RETRIES).then(|| RETRY_MS.checked_shl(shift).unwrap_or(RETRY_MS))
}

/// What a watcher does with `data`, the bytes it read of the file at `path` checked as
/// `target` (`None`: the file is gone; a log: the bytes from `facts.offset` on):
/// `{action, delay_ms, change, offset, line, etag}` (docs/watch.md § What a change is): a
/// document whose bytes are those last reported (`facts.etag`) and a document gone that was
/// already gone are nothing to report.
pub fn read(path: &str, target: Target, data: Option<&[u8]>, facts: &Facts) -> Value {
    let Some(data) = data else {
        let none = facts.etag.is_none() && matches!(target, Target::Document(_));
        let removed = (!none).then(|| change(gone(path, target), false));
        return answer(
            if none { "none" } else { "report" },
            None,
            removed,
            0,
            0,
            None,
        );
    };
    let etag = matches!(target, Target::Document(_)).then(|| json::etag(data));
    if etag.is_some() && etag == facts.etag {
        return answer("none", None, None, 0, 0, etag);
    }
    let (checked, torn, consumed, lines) = match target {
        Target::Document(_) => {
            let checked = Checked::check_bytes(path, target, data);
            let torn = checked.document.is_none()
                && checked
                    .errors
                    .iter()
                    .any(|e| e.issue.code == Code::Parse.as_str());
            (checked, torn, 0, 0)
        }
        Target::Log(kind, _) => log_part(path, kind, data, facts),
    };
    if torn {
        if let Some(delay) = retry_after(facts) {
            let etag = facts.etag.clone();
            return answer("retry", Some(delay), None, facts.offset, facts.line, etag);
        }
    }
    let (offset, line) = match target {
        Target::Document(_) => (0, 0),
        Target::Log(..) => (
            facts.offset.saturating_add(consumed),
            facts.line.saturating_add(lines),
        ),
    };
    let quiet = checked.is_log
        && checked.errors.is_empty()
        && checked.warnings.is_empty()
        && checked.records == Some(0);
    if quiet {
        return answer("none", None, None, offset, line, None);
    }
    answer(
        "report",
        None,
        Some(change(checked, true)),
        offset,
        line,
        etag,
    )
}

/// A log's new bytes checked from line `facts.line + 1` on: the check, whether its last line
/// is torn, and how many bytes and lines were read whole (a torn last line is not: the next
/// read starts at it). A corrupt line ends the check, and nothing is read past it.
fn log_part(
    path: &str,
    kind: &'static str,
    data: &[u8],
    facts: &Facts,
) -> (Checked, bool, u64, u64) {
    let start = usize::try_from(facts.line).unwrap_or(usize::MAX);
    if facts.more {
        return page(path, kind, data, start);
    }
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(_) => {
            // A last line cut inside a character is torn when the lines before it are text.
            let whole = data
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i.saturating_add(1));
            let head = data.get(..whole).unwrap_or_default();
            let Ok(head) = std::str::from_utf8(head) else {
                let checked = Checked::check_bytes(path, Target::Log(kind, None), data);
                return (checked, false, 0, 0);
            };
            let mut check = LogCheck::new(path, Some(kind), None).after(start);
            let mut records = Vec::new();
            check.part(head, false, Some(&mut records));
            let ended = check.ended();
            let mut checked = check.into_checked(path, Some(records));
            if ended {
                return (checked, false, 0, 0);
            }
            let lines = head.matches('\n').count();
            let at = start.saturating_add(lines).saturating_add(1);
            checked.warnings.push(torn_tail(at));
            return (checked, true, whole as u64, lines as u64);
        }
    };
    let mut check = LogCheck::new(path, Some(kind), None).after(start);
    let mut records = Vec::new();
    check.part(text, true, Some(&mut records));
    let ended = check.ended();
    let checked = check.into_checked(path, Some(records));
    if ended {
        return (checked, false, 0, 0);
    }
    let torn = checked.warnings.iter().any(|w| w.issue.code == TORN);
    let whole = if torn {
        text.rfind('\n').map_or(0, |i| i.saturating_add(1))
    } else {
        text.len()
    };
    let lines = text.get(..whole).unwrap_or_default().matches('\n').count();
    (checked, torn, whole as u64, lines as u64)
}

/// A page of a log with more after it: its whole lines checked (the last, cut by the page,
/// is read with the next page); a page with no line break holds a line over the limit.
fn page(path: &str, kind: &'static str, data: &[u8], start: usize) -> (Checked, bool, u64, u64) {
    let Some(end) = data.iter().rposition(|&b| b == b'\n') else {
        let mut checked = Checked::new(path, kind);
        checked.is_log = true;
        let line = start.saturating_add(1);
        checked.errors.push(Placed {
            at: Some((line, 1)),
            issue: Issue {
                code: Code::Limit.as_str().into(),
                path: String::new(),
                message: format!(
                    "line {line} of the log is longer than {} bytes, the most a line may hold",
                    crate::json::MAX_DOCUMENT_BYTES
                ),
            },
        });
        return (checked, false, 0, 0);
    };
    let whole = end.saturating_add(1);
    let head = data.get(..whole).unwrap_or_default();
    let facts = Facts {
        line: start as u64,
        ..Facts::default()
    };
    let (checked, _, consumed, lines) = log_part(path, kind, head, &facts);
    (checked, false, consumed, lines)
}

/// The code of a torn last line.
const TORN: &str = "W_TORN_TAIL";

/// The check of a file that is not there (removed, or renamed away).
fn gone(path: &str, target: Target) -> Checked {
    let mut checked = Checked::new(path, target.kind());
    checked.is_log = matches!(target, Target::Log(..));
    checked
}

/// A change as the callback gets it: `{path, kind, log, exists, valid, errors, warnings,
/// document, records}`.
fn change(checked: Checked, exists: bool) -> Value {
    let issues = |list: &[Placed]| Value::Array(list.iter().map(Placed::to_value).collect());
    let mut map = Map::new();
    map.insert("path".into(), Value::from(checked.path.as_str()));
    map.insert("kind".into(), Value::from(checked.kind));
    map.insert("log".into(), Value::Bool(checked.is_log));
    map.insert("exists".into(), Value::Bool(exists));
    map.insert("valid".into(), Value::Bool(checked.valid()));
    map.insert("errors".into(), issues(&checked.errors));
    map.insert("warnings".into(), issues(&checked.warnings));
    let (document, records) = match (checked.is_log, checked.document) {
        (true, Some(records)) => (Value::Null, records),
        (true, None) => (Value::Null, Value::Array(Vec::new())),
        (false, document) => (document.unwrap_or(Value::Null), Value::Null),
    };
    map.insert("document".into(), document);
    map.insert("records".into(), records);
    Value::Object(map)
}

/// The answer of [`read`]: `{action, delay_ms, change, offset, line, etag}`.
fn answer(
    action: &str,
    delay: Option<u64>,
    change: Option<Value>,
    offset: u64,
    line: u64,
    etag: Option<String>,
) -> Value {
    let mut map = Map::new();
    map.insert("action".into(), Value::from(action));
    map.insert("delay_ms".into(), delay.map_or(Value::Null, Value::from));
    map.insert("change".into(), change.unwrap_or(Value::Null));
    map.insert("offset".into(), Value::from(offset));
    map.insert("line".into(), Value::from(line));
    map.insert("etag".into(), etag.map_or(Value::Null, Value::from));
    Value::Object(map)
}
