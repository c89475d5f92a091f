//! `check_worker_health` (seed 003, "Heartbeat Monitoring"): active workers whose heartbeat
//! is the timeout old or older (inclusive, as agency's stall check), computed on total
//! durations (the original compared only the seconds part of a difference, so a heartbeat a
//! day old looked healthy). A heartbeat in the future beyond a small tolerance is clock skew,
//! reported as such; a missing or unreadable one is reported, never taken as "now".

use crate::error::Result;
use crate::shape::check::present;
use crate::time::{normalize_now, parse_timestamp};
use crate::{Map, Value};

/// The seed's timeout: 5 minutes without a heartbeat.
pub const HEARTBEAT_TIMEOUT_MS: u64 = 5 * 60 * 1000;

/// A heartbeat up to this far in the future counts as now: processes on one machine read
/// the clock a few milliseconds apart (docs/hive.md § Health).
pub const SKEW_TOLERANCE_MS: i64 = 1000;

/// The active workers of `state` to flag at `now` (`timeout_ms`: default 5 minutes).
pub fn check_worker_health(state: &Value, now: &Value, timeout_ms: Option<u64>) -> Result<Value> {
    let (_, now) = normalize_now(now)?;
    let timeout = timeout_ms.unwrap_or(HEARTBEAT_TIMEOUT_MS);
    let workers = state
        .as_object()
        .and_then(|s| present(s, "worker_states"))
        .and_then(Value::as_object);
    let mut unhealthy = Vec::new();
    let mut checked = 0u64;
    for (name, worker) in workers.into_iter().flatten() {
        let Some(worker) = worker.as_object() else {
            continue;
        };
        if worker.get("status").and_then(Value::as_str) != Some("active") {
            continue;
        }
        checked = checked.saturating_add(1);
        let seen = worker.get("last_heartbeat").cloned().unwrap_or(Value::Null);
        let (problem, since) = match &seen {
            Value::Null => ("no_heartbeat", None),
            Value::String(text) => match parse_timestamp(text) {
                Err(_) => ("unreadable_heartbeat", None),
                Ok(at) => {
                    let since = now.saturating_sub(at);
                    if since < -SKEW_TOLERANCE_MS {
                        ("clock_skew", Some(since))
                    } else if u64::try_from(since).is_ok_and(|s| s >= timeout) {
                        ("timeout", Some(since))
                    } else {
                        continue;
                    }
                }
            },
            _ => ("unreadable_heartbeat", None),
        };
        let mut finding = Map::new();
        finding.insert("worker".into(), Value::from(name.as_str()));
        finding.insert("problem".into(), Value::from(problem));
        finding.insert("last_seen".into(), seen);
        finding.insert("since_ms".into(), since.map_or(Value::Null, Value::from));
        unhealthy.push(Value::Object(finding));
    }
    let mut out = Map::new();
    out.insert("unhealthy".into(), Value::Array(unhealthy));
    out.insert("timeout_ms".into(), timeout.into());
    out.insert("checked".into(), checked.into());
    Ok(Value::Object(out))
}
