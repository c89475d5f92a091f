//! The stall watchdog: a run whose tmux session is alive but whose status file has not been
//! modified for `threshold` (default 15 minutes, inclusive) is stalled.

use super::args;
use crate::error::{Code, Error, Result};
use crate::time::normalize_now;
use crate::{Map, Value};

/// The seed's `DefaultStallThreshold`: 15 minutes, in milliseconds.
pub const DEFAULT_STALL_THRESHOLD_MS: i64 = 15 * 60 * 1000;

/// The fields of the activity signals object.
pub const SIGNAL_FIELDS: [&str; 2] = ["status_file_mod_time", "tmux_session_exists"];

/// The watchdog's verdict: `Some(duration)` when stalled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    /// How long the status file has gone unmodified, when that makes the run stalled.
    pub stalled_duration: Option<i64>,
}

impl Stall {
    /// `{"is_stalled": bool}`, plus `"stalled_duration"` (ms) only when stalled.
    pub fn to_value(self) -> Value {
        let mut map = Map::new();
        map.insert("is_stalled".into(), self.stalled_duration.is_some().into());
        if let Some(ms) = self.stalled_duration {
            map.insert("stalled_duration".into(), ms.into());
        }
        Value::Object(map)
    }
}

/// The threshold argument: `null` for the default, else a whole number of ms, 0 or more.
pub(crate) fn threshold(value: &Value) -> Result<i64> {
    match value {
        Value::Null => Ok(DEFAULT_STALL_THRESHOLD_MS),
        v => v.as_i64().filter(|n| *n >= 0).ok_or_else(|| {
            Error::new(
                Code::Argument,
                "",
                format!("the stall threshold must be a whole number of milliseconds, 0 or more, not {v}"),
            )
        }),
    }
}

/// The seed's `CheckStall`: `signals` is `{status_file_mod_time, tmux_session_exists}` (the
/// status file's modification time as RFC 3339 text or epoch ms, `null` for no file; whether
/// the run's tmux session exists). Not stalled without a session or without a file; stalled
/// when `now - mod_time >= threshold_ms` (inclusive). A mod time in the future (clock skew)
/// is not stalled.
pub fn check_stall(signals: &Value, now: &Value, threshold_ms: &Value) -> Result<Stall> {
    let map = args::object(signals, "", "the activity signals", &SIGNAL_FIELDS)?;
    let mod_time = args::time(map, "status_file_mod_time", "")?;
    let tmux = args::flag(map, "tmux_session_exists", "", false)?;
    let (_, now) = normalize_now(now)?;
    let threshold = threshold(threshold_ms)?;
    Ok(Stall {
        stalled_duration: stalled_for(tmux, mod_time, now, threshold),
    })
}

/// The verdict from its facts (times in epoch ms): `Some(duration)` when tmux runs and the
/// file has not been modified for `threshold` ms or more.
pub(crate) fn stalled_for(
    tmux: bool,
    mod_time: Option<i64>,
    now: i64,
    threshold: i64,
) -> Option<i64> {
    match (tmux, mod_time) {
        (true, Some(modified)) => Some(now.saturating_sub(modified)).filter(|d| *d >= threshold),
        _ => None,
    }
}
