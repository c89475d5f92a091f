//! Building a snapshot from what a host read in a worktree: the status file's bytes and
//! modification time, meta.json's bytes, whether tmux runs and the worktree exists.

use super::args;
use super::status::parse_runner_status;
use super::watchdog::check_stall;
use crate::error::Result;
use crate::{Map, Value};

/// The fields of the facts object.
pub const FACT_FIELDS: [&str; 3] = ["status_file_mod_time", "tmux_active", "worktree_present"];

/// The snapshot `derive` takes, from the files' bytes (`None`: missing or unreadable) and
/// `facts` = `{status_file_mod_time, tmux_active, worktree_present}`: `meta` is meta.json's
/// object (`null` when missing or unparseable), `runner_status` and
/// `runner_status_report` come from `parse_runner_status`, `stall_result` from `check_stall`
/// with the status file's modification time and `threshold_ms` (default 15 minutes), and
/// `status_file_mod_time` is that time (what `show`'s `updated:` reads), when there is a file.
pub fn build_snapshot(
    status_bytes: Option<&[u8]>,
    meta_bytes: Option<&[u8]>,
    facts: &Value,
    now: &Value,
    threshold_ms: &Value,
) -> Result<Value> {
    let map = args::object(facts, "", "the facts", &FACT_FIELDS)?;
    let tmux = args::flag(map, "tmux_active", "", false)?;
    let present = args::flag(map, "worktree_present", "", true)?;
    let mod_time = map
        .get("status_file_mod_time")
        .cloned()
        .unwrap_or(Value::Null);
    let mut signals = Map::new();
    signals.insert("status_file_mod_time".into(), mod_time.clone());
    signals.insert("tmux_session_exists".into(), tmux.into());
    let stall = check_stall(&Value::Object(signals), now, threshold_ms)?;
    let meta = meta_bytes
        .and_then(|b| crate::json::parse(b).ok())
        .unwrap_or(Value::Null);
    let loaded = parse_runner_status(status_bytes);
    let mut out = Map::new();
    out.insert("meta".into(), meta);
    out.insert("worktree_present".into(), present.into());
    out.insert("tmux_active".into(), tmux.into());
    out.insert(
        "runner_status".into(),
        loaded.get("status").cloned().unwrap_or(Value::Null),
    );
    out.insert(
        "runner_status_report".into(),
        loaded.get("report").cloned().unwrap_or(Value::Null),
    );
    out.insert("stall_result".into(), stall.to_value());
    if !mod_time.is_null() {
        out.insert("status_file_mod_time".into(), mod_time);
    }
    Ok(Value::Object(out))
}
