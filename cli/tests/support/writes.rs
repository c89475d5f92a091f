//! The Rust host's writes for the command-line corpus run in rounds (cli/tests/cli.rs `run`):
//! each write a round asks for, carried out as the hosts' routines do, and its fact.

use statecore::ops::{self, Arg, Args};
use statecore::{jsonl, Value};
use statecore_cli::TABLE;
use std::path::Path;

/// A statecore error as the hosts report a write's failure.
fn failed(error: &statecore::Error) -> Value {
    statecore::json!({"error": {"code": error.code.as_str(), "path": error.path.as_str(), "message": error.message.as_str()}})
}

/// `.corrupt-<time>` for a copy made now.
fn corrupt_suffix() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    statecore::document::corrupt_copy_suffix(i64::try_from(ms).unwrap()).unwrap()
}

/// A write carried out as the hosts' routines do (without their lock: this host runs one
/// command at a time; a path in `locked` times out as a held lock does).
pub fn write_fact(root: &Path, need: &Value, locked: &[&str]) -> Value {
    let path = need["path"].as_str().unwrap();
    let full = root.join(path);
    if locked.iter().any(|l| root.join(l) == full) {
        let lock = format!("{}.lock", full.display());
        let timeout = need
            .get("timeout_ms")
            .cloned()
            .unwrap_or(Value::from(10_000u64));
        return failed(&statecore::lock::timeout_error(
            &lock,
            &Value::Null,
            &timeout,
        ));
    }
    if !full.parent().unwrap().is_dir() {
        return statecore::json!({"error": {"code": "ENOENT"}});
    }
    let bytes = std::fs::read(&full).ok();
    let copy_tail = |at: u64| {
        let copy = format!("{}{}", full.display(), corrupt_suffix());
        let at = usize::try_from(at).unwrap();
        std::fs::write(&copy, &bytes.as_ref().unwrap()[at..]).unwrap();
        let kept = std::fs::read(&full).unwrap();
        std::fs::write(&full, &kept[..at]).unwrap();
        copy
    };
    match need["op"].as_str().unwrap() {
        "protocol_document" => {
            let target = full.join("CLAUDE.md");
            let created = !target.exists();
            if created {
                std::fs::write(&target, statecore::agency::PROTOCOL_DOCUMENT).unwrap();
            }
            statecore::json!({"changed": created})
        }
        "update" => {
            let kind = need["kind"].as_str().unwrap();
            let change = need["change"].as_str().unwrap();
            let args: Vec<Arg<'_>> = need["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| Arg::Value(a.clone()))
                .collect();
            let pre = statecore::document::Precondition {
                if_match: need.get("if_match").and_then(Value::as_str),
                reset: false,
            };
            let updated = TABLE
                .change(change, Args::new(args))
                .and_then(|c| ops::update(kind, bytes.as_deref(), c, &need["now"], pre));
            match updated {
                Err(e) => failed(&e),
                Ok(u) => {
                    let mut warnings: Vec<Value> =
                        u.warnings.iter().map(|w| w.to_value()).collect();
                    let mut copy = Value::Null;
                    if u.corrupt && u.changed && bytes.is_some() {
                        let name = format!("{}{}", full.display(), corrupt_suffix());
                        std::fs::copy(&full, &name).unwrap();
                        warnings.push(statecore::document::corrupt_copy_warning(&name).to_value());
                        copy = Value::from(name);
                    }
                    if u.changed {
                        std::fs::write(&full, &u.text).unwrap();
                    }
                    let mut fact = statecore::json!({"etag": u.etag, "changed": u.changed, "warnings": Value::Array(warnings), "corrupt_copy": copy});
                    if let Some(result) = u.result {
                        fact.as_object_mut()
                            .unwrap()
                            .insert("result".into(), result);
                    }
                    if let Some((name, value)) = u.extra {
                        fact.as_object_mut().unwrap().insert(name.into(), value);
                    }
                    fact
                }
            }
        }
        "append" => match jsonl::append(bytes.as_deref(), &need["record"]) {
            Err(e) => failed(&e),
            Ok(plan) => {
                let mut warnings = Vec::new();
                let mut copy = Value::Null;
                if let Some(at) = plan["truncate_at"].as_u64() {
                    let name = copy_tail(at);
                    let line = plan["torn_line"].as_u64().unwrap();
                    warnings.push(jsonl::repaired(line, &name).to_value());
                    copy = Value::from(name);
                }
                let mut kept = std::fs::read(&full).unwrap_or_default();
                kept.extend_from_slice(plan["text"].as_str().unwrap().as_bytes());
                std::fs::write(&full, kept).unwrap();
                statecore::json!({"warnings": Value::Array(warnings), "corrupt_copy": copy})
            }
        },
        _ => match jsonl::repair(bytes.as_deref()) {
            Err(e) => failed(&e),
            Ok(plan) => {
                let Some(at) = plan["truncate_at"].as_u64() else {
                    return statecore::json!({"warnings": [], "corrupt_copy": null, "torn_line": null});
                };
                let name = copy_tail(at);
                let line = plan["torn_line"].as_u64().unwrap();
                let warning = jsonl::repaired(line, &name).to_value();
                statecore::json!({"warnings": [warning], "corrupt_copy": name, "torn_line": line})
            }
        },
    }
}
