//! `update`'s locked write carried out inside the command line's job (docs/cli.md § How it
//! runs): the job asks the host for the lock's and the file's system calls itself
//! ([`statecore::locked_update`]) and applies the change itself, instead of asking the host
//! to run its own update routine and gathering what it reported. The fact it keeps is the
//! one a host's routine gave (`CliWrite`: `{etag, changed, warnings, corrupt_copy, item?,
//! result?}` or `{error}`), so the command reads it as before. A store URL's update is still
//! the host's store's (docs/store.md § Store URLs).

use super::paths;
use statecore::document::Precondition;
use statecore::file_update::{Applied, Apply};
use statecore::job::{Io, Stop};
use statecore::lock::DEFAULT_TIMEOUT_MS;
use statecore::ops::{update_unread, Args};
use statecore::{Map, Value};

/// Whether the job carries `need` out itself: a locked update of a file (not a store URL's).
pub fn own(need: &Value) -> bool {
    let text = |key: &str| need.get(key).and_then(Value::as_str);
    text("op") == Some("update") && text("path").is_some_and(|path| !paths::is_store(path))
}

/// The fact of the locked update `need` (a `CliNeed` with `op: "update"`), carried out on the
/// job's `io`: the file is `need.path` made absolute against `cwd`.
pub async fn fact(io: &Io, need: &Value, cwd: Option<&str>) -> Value {
    let text = |key: &str| need.get(key).and_then(Value::as_str).unwrap_or_default();
    let path = absolute(cwd, text("path"));
    let timeout_ms = need
        .get("timeout_ms")
        .and_then(Value::as_f64)
        .unwrap_or(DEFAULT_TIMEOUT_MS as f64);
    let now = match need.get("now") {
        Some(now) if now.is_string() => now.clone(),
        _ => Value::from(io.now_ms()),
    };
    let apply = applying(
        text("kind").to_owned(),
        text("change").to_owned(),
        need.get("args")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        now,
        need.get("if_match")
            .and_then(Value::as_str)
            .map(str::to_owned),
    );
    let updated =
        statecore::locked_update::locked_update(io, &path, text("kind"), timeout_ms, apply).await;
    match updated {
        Ok((done, applied)) => written(&done, applied),
        Err(Stop::Core(error)) => error_fact(failure_of(&error.to_value())),
        Err(Stop::Host(failure)) => error_fact(failure_of(&failure)),
    }
}

/// A failure as a write's error: a statecore error (the core's own, or one the host's routine
/// raised: `{code, path, message}`, a FIFO where the file was is `E_FILE_TYPE`), or the name
/// of the system error the host answered (`EACCES`).
fn failure_of(failure: &Value) -> Map {
    let mut error = Map::new();
    match failure {
        Value::Object(raised) => {
            for key in ["code", "path", "message"] {
                if let Some(Value::String(text)) = raised.get(key) {
                    error.insert(key.into(), text.as_str().into());
                }
            }
        }
        Value::String(name) => {
            error.insert("code".into(), name.as_str().into());
        }
        _ => {}
    }
    if !error.contains_key("code") {
        error.insert("code".into(), "EIO".into());
    }
    error
}

/// `path` made absolute against the host's working directory (as the hosts' routines resolve
/// it); a Windows path with its drive (`C:\`, `\\server`) is absolute already.
fn absolute(cwd: Option<&str>, path: &str) -> String {
    if statecore::locked_update::is_windows_absolute(path) {
        return path.to_owned();
    }
    paths::resolve(cwd, path)
}

/// The change of a need: the writer, patch or pointer `change` names with `args`, applied to
/// the file's bytes at the time `now` with the etag check `if_match` (the hosts' update
/// routine's `update_file`).
fn applying(
    kind: String,
    change: String,
    args: Vec<Value>,
    now: Value,
    if_match: Option<String>,
) -> Apply {
    Box::new(move |bytes, _| {
        let change = crate::TABLE.change(&change, Args::values(args.clone()))?;
        let pre = Precondition {
            if_match: if_match.as_deref(),
            reset: false,
        };
        let (_, text, meta) = update_unread(&kind, bytes, change, &now, pre)?.into_parts();
        let flag = |key: &str| meta.get(key).and_then(Value::as_bool) == Some(true);
        Ok(Applied {
            changed: flag("changed"),
            corrupt: flag("corrupt"),
            text,
            meta,
        })
    })
}

/// The fact of a write carried out: the change's `etag`, `changed` and `warnings` (with the
/// `.corrupt-` copy's, when one was kept), the copy, and the operation's `item` or `result`.
fn written(done: &Value, applied: Applied) -> Value {
    let mut meta = applied.meta;
    let mut warnings = match meta.shift_remove("warnings") {
        Some(Value::Array(warnings)) => warnings,
        _ => Vec::new(),
    };
    warnings.extend(done.get("warning").cloned());
    let mut fact = Map::new();
    fact.insert(
        "etag".into(),
        meta.shift_remove("etag").unwrap_or(Value::Null),
    );
    fact.insert("changed".into(), applied.changed.into());
    fact.insert("warnings".into(), Value::Array(warnings));
    fact.insert(
        "corrupt_copy".into(),
        done.get("corrupt_copy").cloned().unwrap_or(Value::Null),
    );
    for extra in ["item", "result"] {
        if let Some(value) = meta.shift_remove(extra) {
            fact.insert(extra.into(), value);
        }
    }
    Value::Object(fact)
}

/// `{"error": failure}`.
fn error_fact(failure: Map) -> Value {
    let mut fact = Map::new();
    fact.insert("error".into(), Value::Object(failure));
    Value::Object(fact)
}
