//! The agency runner status contract (`.agency/state/runner_status.json`), seed 001.
//!
//! This module starts with the document kind `agency.runner_status`: its validation rules,
//! checked in the seed's order (status present, status one of the four, summary present,
//! then the field the status requires), each with its own code.

use crate::report::Report;
use crate::time::is_timestamp;
use serde_json::{Map, Value};

/// The four runner statuses, case-sensitive.
pub const STATUSES: [&str; 4] = ["working", "needs_input", "blocked", "ready_for_review"];

const KNOWN_FIELDS: [&str; 8] = [
    "schema_version",
    "status",
    "updated_at",
    "summary",
    "questions",
    "blockers",
    "how_to_test",
    "risks",
];

/// The seed's initial `runner_status.json` content, stamped with the host's `now`.
pub fn initial_runner_status(now: &str) -> Value {
    let mut map = Map::new();
    map.insert("schema_version".into(), "1.0".into());
    map.insert("status".into(), "working".into());
    map.insert("updated_at".into(), now.into());
    map.insert("summary".into(), "Starting work".into());
    map.insert("questions".into(), Value::Array(Vec::new()));
    map.insert("blockers".into(), Value::Array(Vec::new()));
    map.insert("how_to_test".into(), "".into());
    map.insert("risks".into(), Value::Array(Vec::new()));
    Value::Object(map)
}

fn non_empty_string(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

fn non_empty_array(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// Validates a runner status document; all problems are reported, in the seed's order.
pub fn validate_runner_status(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(map) = doc.as_object() else {
        report.error("E_TYPE", "", "a runner status must be a JSON object");
        return report;
    };
    let status = map.get("status").filter(|v| !v.is_null());
    match status {
        None => report.error(
            "E_STATUS_MISSING",
            "/status",
            "status is required: one of working, needs_input, blocked, ready_for_review",
        ),
        Some(Value::String(s)) if STATUSES.contains(&s.as_str()) => {}
        Some(other) => {
            let text = other
                .as_str()
                .map_or_else(|| other.to_string(), str::to_owned);
            let hint = STATUSES
                .iter()
                .find(|known| known.eq_ignore_ascii_case(&text.replace(' ', "_")))
                .map(|known| format!(" (statuses are case-sensitive: did you mean {known:?}?)"))
                .unwrap_or_default();
            report.error(
                "E_STATUS_UNKNOWN",
                "/status",
                format!(
                    "status {text:?} is not one of working, needs_input, blocked, ready_for_review{hint}"
                ),
            );
        }
    }
    if !non_empty_string(map.get("summary")) {
        report.error(
            "E_SUMMARY_MISSING",
            "/summary",
            "summary is required: one line saying what the runner is doing",
        );
    }
    match status.and_then(Value::as_str) {
        Some("needs_input") if !non_empty_array(map.get("questions")) => report.error(
            "E_QUESTIONS_MISSING",
            "/questions",
            "status needs_input requires a non-empty questions list",
        ),
        Some("blocked") if !non_empty_array(map.get("blockers")) => report.error(
            "E_BLOCKERS_MISSING",
            "/blockers",
            "status blocked requires a non-empty blockers list",
        ),
        Some("ready_for_review") if !non_empty_string(map.get("how_to_test")) => report.error(
            "E_HOW_TO_TEST_MISSING",
            "/how_to_test",
            "status ready_for_review requires how_to_test: how a reviewer checks the work",
        ),
        _ => {}
    }
    check_types(map, &mut report);
    crate::check::unknown_fields(&mut report, map, &KNOWN_FIELDS, "", "runner status");
    report
}

fn check_types(map: &Map<String, Value>, report: &mut Report) {
    for key in ["schema_version", "summary", "how_to_test", "updated_at"] {
        if let Some(v) = map.get(key).filter(|v| !v.is_null() && !v.is_string()) {
            report.error(
                "E_TYPE",
                format!("/{key}"),
                format!("{key} must be a string, not {}", crate::merge::type_name(v)),
            );
        }
    }
    if let Some(Value::String(t)) = map.get("updated_at") {
        if !is_timestamp(t) {
            report.error(
                "E_TIMESTAMP_FORMAT",
                "/updated_at",
                format!("updated_at {t:?} is not an RFC 3339 timestamp like 2026-01-19T12:00:00Z"),
            );
        }
    }
    for key in ["questions", "blockers", "risks"] {
        match map.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        report.error(
                            "E_TYPE",
                            format!("/{key}/{i}"),
                            format!("{key} items must be strings"),
                        );
                    }
                }
            }
            Some(v) => report.error(
                "E_TYPE",
                format!("/{key}"),
                format!(
                    "{key} must be a list of strings, not {}",
                    crate::merge::type_name(v)
                ),
            ),
        }
    }
}
