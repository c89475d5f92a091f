//! What the writing commands (`update`, `log append`, `log repair`) share: the lock's
//! `--timeout`, and a write's outcome as the host reported it (`CliWrite`), printed the same
//! way by each: its warnings and error with the file's path, and the exit code.

use super::command::Call;
use super::host::Need;
use super::out::{clean, Output, Style, INVALID, USAGE};
use statecore::{Map, Value};

/// The need for a write on `path`, with the lock's timeout from `--timeout SECONDS`; `Err` is
/// the usage error of a timeout that is not a number of seconds ≥ 0.
pub fn need(op: &str, path: &str, call: &Call) -> Result<Need, Output> {
    let need = Need::new(op, path);
    let Some(text) = call.value("timeout") else {
        return Ok(need);
    };
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.0..=86_400.0).contains(&seconds) => {
            // In range: at most a day, so the product fits.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let ms = (seconds * 1000.0).round() as u64;
            Ok(need.with("timeout_ms", Value::from(ms)))
        }
        _ => Err(Output::usage(&format!(
            "--timeout takes seconds, a number from 0 to 86400 (got {:?})",
            clean(text)
        ))),
    }
}

/// What a locked update changes: the document's kind, the change as the host's update routine
/// names it (`merge`, `set_value`, a writer of the table), its arguments, and the etag the
/// file must have (`--if-match`).
pub struct Change<'a> {
    /// The document kind.
    pub kind: &'a str,
    /// The change's name.
    pub change: &'a str,
    /// Its arguments.
    pub args: Vec<Value>,
    /// The etag the file must have, if any.
    pub if_match: Option<&'a str>,
}

/// The need for the locked update `change` of the document at `path`, stamped with the
/// request's time `now` (with `--timeout` as [`need`]).
pub fn update_need(
    path: &str,
    call: &Call,
    now: Option<&str>,
    change: Change<'_>,
) -> Result<Need, Output> {
    let mut need = need("update", path, call)?
        .with("kind", Value::from(change.kind))
        .with("change", Value::from(change.change))
        .with("args", Value::Array(change.args));
    if let Some(etag) = change.if_match {
        need = need.with("if_match", Value::from(etag));
    }
    if let Some(now) = now {
        need = need.with("now", Value::from(now));
    }
    Ok(need)
}

/// A write's failure: its code, path and message.
pub struct Failure<'f> {
    /// `E_CONFLICT`, or the system error's name (`EACCES`).
    pub code: &'f str,
    /// The path into the document (statecore errors).
    pub path: &'f str,
    /// What the host's routine said (statecore errors), or the system error's meaning.
    pub message: String,
}

/// The failure a write fact reports, if any.
pub fn failure(fact: &Map) -> Option<Failure<'_>> {
    let error = fact.get("error")?;
    let field = |key: &str| error.get(key).and_then(Value::as_str).unwrap_or("");
    let code = field("code");
    let message = match field("message") {
        "" => system_error(code).to_owned(),
        text => text.to_owned(),
    };
    Some(Failure {
        code,
        path: field("path"),
        message,
    })
}

/// What a system error's name means, for a person.
fn system_error(code: &str) -> &'static str {
    match code {
        "ENOENT" => "no such file or directory (a missing file is created, its directory is not)",
        "EACCES" | "EPERM" => "permission denied",
        "EISDIR" => "is a directory",
        "ENOTDIR" => "a part of the path is not a directory",
        "EROFS" => "read-only file system",
        "ENOSPC" => "no space left on the device",
        "ELOOP" => "too many symbolic links",
        _ => "the system refused",
    }
}

impl Failure<'_> {
    /// The exit code: 2 when the file could not be written (the lock, the file's type, the
    /// system), 1 when the document refused the change (invalid, a stale etag, a bad value).
    pub fn exit_code(&self) -> u8 {
        let io = !self.code.starts_with("E_")
            || matches!(
                self.code,
                "E_LOCK_TIMEOUT" | "E_LOCK_FOREIGN" | "E_FILE_TYPE" | "E_PATH_UNSAFE"
            );
        if io {
            USAGE
        } else {
            INVALID
        }
    }

    /// `PATH: error CODE POINTER: message`.
    pub fn line(&self, file: &str, style: Style) -> String {
        issue_line(
            file,
            &style.error("error"),
            self.code,
            self.path,
            &self.message,
        )
    }

    /// `{code, path, message}`, for `--json`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code".into(), Value::from(self.code));
        map.insert("path".into(), Value::from(self.path));
        map.insert("message".into(), Value::from(self.message.as_str()));
        Value::Object(map)
    }
}

/// One problem's line, as `validate` prints it without a place: `FILE: LABEL CODE POINTER:
/// message`, everything from a file cleaned.
pub fn issue_line(file: &str, label: &str, code: &str, pointer: &str, message: &str) -> String {
    let pointer = if pointer.is_empty() {
        String::new()
    } else {
        format!(" {}", clean(pointer))
    };
    format!(
        "{}: {label} {}{pointer}: {}\n",
        clean(file),
        clean(code),
        clean(message)
    )
}

/// The warnings of a write fact, one line each.
pub fn warning_lines(file: &str, fact: &Map, style: Style) -> String {
    warnings(fact)
        .iter()
        .map(|w| {
            let field = |key: &str| w.get(key).and_then(Value::as_str).unwrap_or("");
            issue_line(
                file,
                &style.warning("warning"),
                field("code"),
                field("path"),
                field("message"),
            )
        })
        .collect()
}

/// The warnings of a write fact.
pub fn warnings(fact: &Map) -> &[Value] {
    fact.get("warnings")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The outcome of a write as the command prints it: `text` (the success line) on standard
/// output, or the failure on standard error; warnings on standard error; `--json`: `value`
/// with `file`, `warnings` and `error` added.
pub fn finish(
    file: &str,
    fact: &Map,
    call: &Call,
    style: Style,
    text: String,
    value: Map,
) -> Output {
    if call.flag("json") {
        let mut out = exit_of(fact);
        out.stdout = statecore::json::serialize(&json_of(file, fact, value, Map::new()));
        return out;
    }
    let failed = failure(fact);
    let mut out = exit_of(fact);
    out.stderr = warning_lines(file, fact, style);
    match &failed {
        Some(f) => out.stderr.push_str(&f.line(file, style)),
        None => out.stdout = text,
    }
    out
}

/// A write's outcome as one line of JSON (a watching command's JSON Lines): `finish`'s
/// `--json` object, compact, with the fields of `after` last.
pub fn finish_line(file: &str, fact: &Map, value: Map, after: Map) -> Output {
    let mut out = exit_of(fact);
    let line = statecore::json::serialize_compact(&json_of(file, fact, value, after));
    out.stdout = format!("{line}\n");
    out
}

/// No output yet, with the exit code of the write's failure (0 without one).
fn exit_of(fact: &Map) -> Output {
    let mut out = Output::default();
    if let Some(f) = failure(fact) {
        out.worst(f.exit_code());
    }
    out
}

/// `{file, ...value, warnings, error, ...after}`: a write's outcome for `--json`.
fn json_of(file: &str, fact: &Map, value: Map, after: Map) -> Value {
    let mut map = Map::new();
    map.insert("file".into(), Value::from(file));
    map.extend(value);
    map.insert("warnings".into(), Value::Array(warnings(fact).to_vec()));
    let error = failure(fact)
        .as_ref()
        .map_or(Value::Null, Failure::to_value);
    map.insert("error".into(), error);
    map.extend(after);
    Value::Object(map)
}
