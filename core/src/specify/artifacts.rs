//! An agent's artifacts checked before anything is written (docs/specify.md § Artifacts):
//! each path lexically, the same on every OS, so that a host writes only inside the
//! feature's spec directory. One refused artifact refuses the batch.

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// The longest path accepted, in bytes.
pub const MAX_PATH_BYTES: usize = 1024;
/// The longest path component accepted, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// The operations an artifact can have.
pub const OPERATIONS: [&str; 3] = ["create", "update", "delete"];

/// Names Windows reserves, with or without an extension.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// `E_PATH_UNSAFE` for `path` at `at`, with the reason's code.
fn unsafe_path(at: &str, path: &str, reason: &str, why: &str) -> Error {
    let shown: String = path.chars().take(80).collect();
    let more = if shown.len() < path.len() { "…" } else { "" };
    Error::new(
        Code::PathUnsafe,
        at,
        format!("refused artifact path {shown:?}{more}: {why}; nothing was written"),
    )
    .with_detail("path", path)
    .with_detail("reason", reason)
}

/// What is wrong with a relative `/`-separated path as a whole, the same on every OS: the
/// reason's code and why, or `None` (empty, too long, NUL or control characters, a drive, a
/// backslash, absolute). Its names are checked one by one by the caller.
pub(crate) fn lexical_problem(path: &str) -> Option<(&'static str, String)> {
    if path.trim().is_empty() {
        return Some(("empty", "the path is empty".into()));
    }
    if path.len() > MAX_PATH_BYTES {
        return Some((
            "too_long",
            format!("the path is longer than {MAX_PATH_BYTES} bytes"),
        ));
    }
    if path.contains('\0') {
        return Some(("nul", "the path has a NUL character".into()));
    }
    if path.chars().any(char::is_control) {
        return Some(("control", "the path has a control character".into()));
    }
    let bytes = path.as_bytes();
    if bytes.len() >= 2
        && bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.get(1) == Some(&b':')
    {
        return Some(("drive", "the path names a drive".into()));
    }
    if path.contains('\\') {
        return Some((
            "backslash",
            "the path has a backslash (write / between names)".into(),
        ));
    }
    if path.starts_with('/') {
        return Some(("absolute", "the path is absolute; give it relative".into()));
    }
    None
}

/// What is wrong with one name of a path (too long, reserved by Windows, ending with a dot
/// or a space), or `None`.
pub(crate) fn name_problem(name: &str) -> Option<(&'static str, String)> {
    if name.len() > MAX_NAME_BYTES {
        return Some((
            "too_long",
            format!("a name is longer than {MAX_NAME_BYTES} bytes"),
        ));
    }
    let stem = name
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if RESERVED.contains(&stem.trim_end()) {
        return Some(("reserved", format!("{name:?} is a name Windows reserves")));
    }
    if name.ends_with(['.', ' ']) {
        return Some(("reserved", format!("{name:?} ends with a dot or a space")));
    }
    None
}

/// A path as the components below the feature's spec directory: relative, `/`-separated,
/// no `..` escaping it, no absolute or drive path, no backslash, NUL or control character,
/// no empty, over-long or reserved name, not in `.workflow` (index.md changes through the
/// index operations). `specs/<feature_id>/` in front is read as the directory itself, so a
/// path that normalises to `specs/<feature_id>` (`specs/<feature_id>/`, `.../.`, `...//`)
/// names the directory and is refused like the empty path.
pub fn check_path(path: &str, feature_id: Option<&str>, at: &str) -> Result<Vec<String>> {
    let refuse = |reason: &str, why: &str| Err(unsafe_path(at, path, reason, why));
    if let Some((reason, why)) = lexical_problem(path) {
        return refuse(reason, &why);
    }
    let mut parts: Vec<String> = Vec::new();
    for name in path.split('/') {
        match name {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return refuse("escape", "the path leaves the feature's directory (..)");
                }
            }
            name => {
                if let Some((reason, why)) = name_problem(name) {
                    return refuse(reason, &why);
                }
                parts.push(name.to_owned());
            }
        }
    }
    if let Some(feature) = feature_id {
        if parts.len() >= 2
            && parts.first().map(String::as_str) == Some("specs")
            && parts.get(1).map(String::as_str) == Some(feature)
        {
            parts.drain(..2);
        }
    }
    if parts.is_empty() {
        return refuse("empty", "the path names the feature's directory itself");
    }
    if parts.first().map(String::as_str) == Some(".workflow") {
        return refuse(
            "workflow",
            "the .workflow directory is the workflow's own: index.md changes through \
             state_updates, never as an artifact",
        );
    }
    Ok(parts)
}

/// Checks a batch of artifacts (`{operation, path, content}`): every operation known, every
/// path safe ([`check_path`]), content a string for `create` and `update`, no path twice.
/// Returns them with their paths normalized (relative to the feature's directory, `/`
/// between names) and their other fields as they were; the first refusal refuses the batch.
pub fn check_artifacts(artifacts: &Value, feature_id: Option<&str>) -> Result<Value> {
    let items = artifacts.as_array().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            "artifacts are a list of {operation, path, content}",
        )
    })?;
    let mut out = Vec::with_capacity(items.len());
    let mut seen: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("/{i}");
        let artifact = item.as_object().ok_or_else(|| {
            Error::new(
                Code::Argument,
                at.as_str(),
                "an artifact is {operation, path, content}",
            )
        })?;
        let operation = artifact
            .get("operation")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !OPERATIONS.contains(&operation) {
            return Err(Error::new(
                Code::Argument,
                format!("{at}/operation"),
                format!(
                    "an artifact's operation is create, update or delete, not {}",
                    artifact
                        .get("operation")
                        .map(crate::json::serialize_compact)
                        .unwrap_or_default()
                ),
            ));
        }
        let Some(path) = artifact.get("path").and_then(Value::as_str) else {
            return Err(Error::new(
                Code::Argument,
                format!("{at}/path"),
                "an artifact's path is a string",
            ));
        };
        let parts = check_path(path, feature_id, &format!("{at}/path"))?;
        let normal = parts.join("/");
        if seen.contains(&normal) {
            return Err(unsafe_path(
                &format!("{at}/path"),
                path,
                "duplicate",
                "another artifact of the batch has the same path",
            ));
        }
        if operation != "delete" && !artifact.get("content").is_some_and(Value::is_string) {
            return Err(Error::new(
                Code::Argument,
                format!("{at}/content"),
                format!("a {operation} artifact has its content as a string"),
            ));
        }
        let mut checked = Map::new();
        for (key, value) in artifact.iter() {
            let value = if key == "path" {
                Value::from(normal.as_str())
            } else {
                value.clone()
            };
            checked.insert(key.clone(), value);
        }
        seen.push(normal);
        out.push(Value::Object(checked));
    }
    Ok(Value::Array(out))
}
