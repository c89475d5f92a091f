//! The run statuses of many runs from their files' bytes in one call (a viewer's whole table):
//! every run's meta.json and runner_status.json, one after another in one buffer, with their
//! lengths and the host's facts per run. Each file is read as strictly as every other read
//! (the strict reader: duplicate keys, limits; checked on the read text, no tree built); a file
//! whose bytes do not read is that run's `error`, never the batch's.

use super::args;
use super::derive::derive_parts;
use super::watchdog::{stalled_for, threshold};
use crate::error::{Code, Error, Result};
use crate::json::Tape;
use crate::merge::type_name;
use crate::time::normalize_now;
use crate::{Map, Value};

/// The fields of one run of [`derive_files`].
pub const FILE_RUN_FIELDS: [&str; 5] = [
    "meta",
    "status",
    "status_file_mod_time",
    "tmux_active",
    "worktree_present",
];

/// The length of one file of run `at` (`None`: the file is missing).
fn length(map: &crate::shape::check::Object, key: &str, at: &str) -> Result<Option<usize>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Ok(Some(n)),
            None => Err(Error::new(
                Code::Argument,
                crate::error::child_path(at, key),
                format!(
                    "{key} must be the file's length in bytes (a whole number, 0 or more) or \
                     null for a missing file, not {v}"
                ),
            )),
        },
    }
}

/// The bytes of the next file: `len` bytes of `data` from `*cursor` (moved past them).
fn take<'a>(data: &'a [u8], cursor: &mut usize, len: usize, at: &str) -> Result<&'a [u8]> {
    let slice = cursor
        .checked_add(len)
        .and_then(|end| data.get(*cursor..end).map(|s| (s, end)));
    match slice {
        Some((bytes, end)) => {
            *cursor = end;
            Ok(bytes)
        }
        None => Err(Error::new(
            Code::Argument,
            at,
            format!(
                "the files' lengths add up to more than the {} bytes of data (this file \
                 starts at byte {} and is {len} bytes long)",
                data.len(),
                cursor
            ),
        )),
    }
}

/// The error of a file whose bytes do not read as JSON (`file`: `meta` or `runner_status`).
fn file_error(file: &str, error: &Error) -> Value {
    let mut map = Map::new();
    map.insert("file".into(), file.into());
    map.insert("code".into(), error.code.as_str().into());
    map.insert("path".into(), error.path.clone().into());
    map.insert("message".into(), error.message.clone().into());
    Value::Object(map)
}

/// The run statuses of `runs` from their files' bytes. `data` holds each run's meta.json then
/// its runner_status.json, run after run; `runs` lists per run `{meta, status}` (each file's
/// length in bytes; null: missing, so nothing of `data` is its) and the facts of
/// [`build_snapshot`](super::build_snapshot) (`status_file_mod_time`, `tmux_active`,
/// `worktree_present`). Each result is [`derive`](super::derive)'s of the run's snapshot as
/// `build_snapshot` makes it at `now` with `threshold_ms` (null: 15 minutes), and, when a
/// file's bytes do not read as JSON (not JSON, a duplicate key, a limit broken: the run is
/// then `broken`, or its status counts as absent), `error`: `{file, code, path, message}` of
/// the first such file (meta.json first). `E_ARGUMENT` for the whole call when `runs` is not a
/// list of such objects or the lengths do not add up to `data`'s.
pub fn derive_files(data: &[u8], runs: &Value, now: &Value, threshold_ms: &Value) -> Result<Value> {
    let list = runs.as_array().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            format!(
                "derive_files takes a list of runs like {{\"meta\": 312, \"status\": 240}}, not {}",
                type_name(runs)
            ),
        )
    })?;
    let (_, now) = normalize_now(now)?;
    let threshold = threshold(threshold_ms)?;
    let mut cursor = 0usize;
    let mut out = Vec::with_capacity(list.len());
    for (i, run) in list.iter().enumerate() {
        let at = format!("/{i}");
        let map = args::object(run, &at, "a run", &FILE_RUN_FIELDS)?;
        let meta_len = length(map, "meta", &at)?;
        let status_len = length(map, "status", &at)?;
        let tmux = args::flag(map, "tmux_active", &at, false)?;
        let present = args::flag(map, "worktree_present", &at, true)?;
        let mod_time = args::time(map, "status_file_mod_time", &at)?;
        let mut error = None;
        let meta = match meta_len {
            None => None,
            Some(len) => match Tape::parse(take(data, &mut cursor, len, &at)?) {
                Ok((doc, _)) => Some(doc),
                Err(e) => {
                    error = Some(file_error("meta", &e));
                    None
                }
            },
        };
        let status = match status_len {
            None => None,
            Some(len) => match Tape::parse(take(data, &mut cursor, len, &at)?) {
                Ok((doc, _)) => Some(doc),
                Err(e) => {
                    error.get_or_insert_with(|| file_error("runner_status", &e));
                    None
                }
            },
        };
        let stall = stalled_for(tmux, mod_time, now, threshold);
        // Each file is checked where it was read, without building its tree.
        let derived = derive_parts(
            meta.as_ref().map(Tape::root),
            present,
            tmux,
            status.as_ref().map(Tape::root),
            stall,
        );
        let mut value = derived.to_value();
        if let (Some(error), Value::Object(map)) = (error, &mut value) {
            map.insert("error".into(), error);
        }
        out.push(value);
    }
    if cursor != data.len() {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "the files' lengths add up to {cursor} bytes but the data holds {}: give each \
                 run's meta and status lengths, in order",
                data.len()
            ),
        ));
    }
    Ok(Value::Array(out))
}
