//! The run status: the seed's 12-level precedence over a snapshot of what the host observed
//! (meta.json, the runner status file, the watchdog, tmux), plus the `archived` marker.

use super::args;
use super::meta::meta_broken;
use super::status::validate_runner_status;
use crate::error::{Code, Error, Result};
use crate::value::Json;
use crate::{Map, Value};

/// The fields of a snapshot object.
pub const SNAPSHOT_FIELDS: [&str; 7] = [
    "meta",
    "worktree_present",
    "tmux_active",
    "runner_status",
    "runner_status_report",
    "stall_result",
    "status_file_mod_time",
];

/// A derived run status.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// The machine value (`"needs_input"`).
    pub status: &'static str,
    /// The display string (`"needs input"`, `"merged (archived)"`).
    pub display: String,
    /// True when the worktree is gone (or cannot be known: a broken run).
    pub archived: bool,
    /// How long the run has been stalled (ms), when `status` is `stalled`.
    pub stalled_duration: Option<i64>,
    /// The runner's summary, when the runner status counted (it was valid).
    pub summary: Option<String>,
}

impl Derived {
    /// `{status, display, archived}`, plus `stalled_duration` (ms) when stalled.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("status".into(), self.status.into());
        map.insert("display".into(), self.display.clone().into());
        map.insert("archived".into(), self.archived.into());
        if let Some(ms) = self.stalled_duration {
            map.insert("stalled_duration".into(), ms.into());
        }
        Value::Object(map)
    }
}

fn display(status: &str) -> String {
    status.replace('_', " ")
}

/// True when `meta.flags[flag]` is `true`.
fn flag_set<'a, J: Json<'a>>(meta: J, flag: &str) -> bool {
    meta.get("flags")
        .and_then(|f| f.get(flag))
        .and_then(J::as_bool)
        == Some(true)
}

/// True when `meta.archive.merged_at` is a non-empty string.
fn merged<'a, J: Json<'a>>(meta: J) -> bool {
    meta.get("archive")
        .and_then(|a| a.get("merged_at"))
        .and_then(J::as_str)
        .is_some_and(|t| !t.is_empty())
}

/// The watchdog verdict in a snapshot (`stall_result`): `Some(duration)` when stalled.
fn stalled(snapshot: &Map) -> Result<Option<i64>> {
    let value = match snapshot.get("stall_result") {
        None | Some(Value::Null) => return Ok(None),
        Some(v) => v,
    };
    let map = args::object(
        value,
        "/stall_result",
        "stall_result",
        &["is_stalled", "stalled_duration"],
    )?;
    if !args::flag(map, "is_stalled", "/stall_result", false)? {
        return Ok(None);
    }
    Ok(Some(
        args::millis(map, "stalled_duration", "/stall_result")?.unwrap_or(0),
    ))
}

/// The seed's `Derive`: the first of the 12 levels that applies. `snapshot` holds `meta`
/// (meta.json's document; `null` or absent when the file is missing or unreadable, and one
/// that [`check_meta`](super::check_meta) refuses, are `broken`, and a broken run is archived, as agency shows
/// it: its worktree cannot be known), `worktree_present` (default true; false adds the
/// `archived` marker), `tmux_active`
/// (default false), `runner_status` (the status document; `null` when missing, and one that
/// does not validate counts as absent), `stall_result` (what `check_stall` returned, or
/// `null`) and, ignored here, `runner_status_report` and `status_file_mod_time`.
pub fn derive(snapshot: &Value) -> Result<Derived> {
    let map = args::object(snapshot, "", "a snapshot", &SNAPSHOT_FIELDS)?;
    let present = args::flag(map, "worktree_present", "", true)?;
    let tmux = args::flag(map, "tmux_active", "", false)?;
    let stall = stalled(map)?;
    Ok(derive_parts(
        map.get("meta"),
        present,
        tmux,
        map.get("runner_status"),
        stall,
    ))
}

/// The 12 levels over a snapshot's parts, read and checked: `meta` (meta.json's document;
/// none or one [`check_meta`](super::check_meta) refuses: broken), whether the worktree is
/// present and tmux runs, the runner status document (one that does not validate counts as
/// absent) and the watchdog's stall duration (`None`: not stalled).
pub(crate) fn derive_parts<'a, J: Json<'a>>(
    meta: Option<J>,
    worktree_present: bool,
    tmux: bool,
    runner_status: Option<J>,
    stall: Option<i64>,
) -> Derived {
    let meta = meta.filter(|m| m.is_object() && !meta_broken(*m));
    let archived = !worktree_present || meta.is_none();
    let runner = runner_status.filter(|s| s.is_object() && validate_runner_status(*s).valid());
    let runner_status = runner.and_then(|s| s.get("status")).and_then(J::as_str);
    let status = match meta {
        None => "broken",
        Some(meta) if merged(meta) => "merged",
        Some(meta) if flag_set(meta, "abandoned") => "abandoned",
        Some(meta) if flag_set(meta, "setup_failed") => "failed",
        Some(meta) if flag_set(meta, "needs_attention") => "needs_attention",
        Some(_) => match runner_status {
            Some("ready_for_review") => "ready_for_review",
            Some("needs_input") => "needs_input",
            Some("blocked") => "blocked",
            Some("working") => "working",
            _ if stall.is_some() && tmux => "stalled",
            _ if tmux => "active",
            _ => "idle",
        },
    };
    let shown = display(status);
    Derived {
        status,
        display: if archived {
            format!("{shown} (archived)")
        } else {
            shown
        },
        archived,
        stalled_duration: stall.filter(|_| status == "stalled"),
        summary: runner
            .and_then(|s| s.get("summary"))
            .and_then(J::as_str)
            .map(str::to_owned),
    }
}

/// [`derive`] for a list of snapshots in one call (a viewer's whole table pays for crossing
/// into the core once): the results in order. A snapshot [`derive`] refuses is its error, with
/// its index at the front of the path (`/3/meta`).
pub fn derive_all(snapshots: &Value) -> Result<Vec<Derived>> {
    let list = snapshots.as_array().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            format!(
                "derive_all takes a list of snapshots, not {}",
                crate::merge::type_name(snapshots)
            ),
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, snapshot)| {
            derive(snapshot).map_err(|e| {
                let path = format!("/{i}{}", e.path);
                Error { path, ..e }
            })
        })
        .collect()
}
