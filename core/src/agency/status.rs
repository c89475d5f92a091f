//! The runner status document (`.agency/state/runner_status.json`): its validation rules,
//! checked in the seed's order (status present, status one of the four, summary present,
//! then the field the status requires), each with its own code; the initial content; the
//! milestone update a runner makes; what a reader makes of the file; its age.

use super::shapes::STATUSES;
use crate::error::{Code, Error, Result};
use crate::report::Report;
use crate::shape::check::{fields_json, root, value_of};
use crate::shape::Ty;
use crate::time::{is_timestamp, normalize_now, parse_timestamp};
use crate::value::Json;
use crate::{Map, Value};

/// The document kind's name.
pub const KIND: &str = "agency.runner_status";

/// The fields a runner rewrites at every milestone; one it leaves out is cleared.
const DETAIL_FIELDS: [&str; 4] = ["questions", "blockers", "how_to_test", "risks"];

/// The seed's initial `runner_status.json` content, stamped with the host's `now` (RFC 3339
/// text kept as given, or epoch milliseconds).
pub fn initial_runner_status(now: &Value) -> Result<Value> {
    let (now, _) = normalize_now(now)?;
    Ok(initial(&now))
}

fn initial(now: &str) -> Value {
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

fn non_empty_string<'a, J: Json<'a>>(value: Option<J>) -> bool {
    value
        .and_then(J::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

fn non_empty_array<'a, J: Json<'a>>(value: Option<J>) -> bool {
    value.is_some_and(|a| a.is_array() && !a.is_empty())
}

/// Validates a runner status document; all problems are reported: the seed's rules in the
/// seed's order, then the field rules of [`super::shapes::RUNNER_STATUS`]. The document is a
/// tree (`&Value`) or a read text ([`crate::json::TapeValue`]).
pub fn validate_runner_status<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    let Some(map) = root(&mut report, doc, "", super::shapes::RUNNER_STATUS.what) else {
        return report;
    };
    let status = map.get("status").filter(|v| !v.is_null());
    match status {
        None => report.error(
            "E_STATUS_MISSING",
            "/status",
            "status is required: one of working, needs_input, blocked, ready_for_review",
        ),
        Some(s) if s.as_str().is_some_and(|s| STATUSES.contains(&s)) => {}
        Some(other) => {
            let text = other
                .as_str()
                .map_or_else(|| other.to_value().to_string(), str::to_owned);
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
    match status.and_then(J::as_str) {
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
    fields_json(&mut report, map, &super::shapes::RUNNER_STATUS, "");
    updated_at(&mut report, map.get("updated_at"));
    report
}

/// The `updated_at` rule: a string, an RFC 3339 timestamp; agency reads any string, so one
/// that is not RFC 3339 is a warning (its age is unknown): `W_TIMESTAMP_ZONE` without a time
/// zone (`2026-01-19T12:00:00`), `W_TIMESTAMP_FORMAT` otherwise.
fn updated_at<'a, J: Json<'a>>(report: &mut Report, value: Option<J>) {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return;
    };
    match value.as_str() {
        Some(text) if !is_timestamp(text) && local_time(text) => report.warn(
            "W_TIMESTAMP_ZONE",
            "/updated_at",
            format!(
                "updated_at {text:?} has no time zone, so its age is unknown; write it in UTC \
                 with a Z (2026-01-19T12:00:00Z)"
            ),
        ),
        Some(text) if !is_timestamp(text) => report.warn(
            "W_TIMESTAMP_FORMAT",
            "/updated_at",
            format!(
                "updated_at {text:?} is not an RFC 3339 timestamp, so its age is unknown; write \
                 it like 2026-01-19T12:00:00Z"
            ),
        ),
        _ => value_of(report, value, &Ty::Str, "/updated_at", "updated_at"),
    }
}

/// True when `text` is a date and time without a zone (`2026-01-19T12:00:00[.fff]`).
fn local_time(text: &str) -> bool {
    crate::time::is_local_datetime(text)
}

fn empty_detail(key: &str) -> Value {
    if key == "how_to_test" {
        Value::from("")
    } else {
        Value::Array(Vec::new())
    }
}

/// A runner's milestone write: `update` (an object with `status`, `summary` and the details
/// the status needs) applied to the `current` document (`null` or a non-object: the initial
/// content). `updated_at` becomes `now`; `status` and `summary` keep their current value when
/// the update leaves them out; `questions`, `blockers`, `how_to_test` and `risks` describe
/// the current milestone, so one the update leaves out is cleared. Every other field of the
/// current document is kept in place, and extra fields of the update are added. The result
/// must validate (`E_INVALID` with the report otherwise); `E_ARGUMENT` when `update` is not
/// an object or sets `updated_at` or `schema_version` (the writer stamps those).
pub fn update_runner_status(current: &Value, update: &Value, now: &Value) -> Result<Value> {
    let Some(changes) = update.as_object() else {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "a runner status update must be an object like {{\"status\": \"working\", \
                 \"summary\": \"...\"}}, not {}",
                crate::merge::type_name(update)
            ),
        ));
    };
    for stamped in ["updated_at", "schema_version"] {
        if changes.contains_key(stamped) {
            return Err(Error::new(
                Code::Argument,
                format!("/{stamped}"),
                format!("{stamped} is set by the writer, not by the update: leave it out"),
            ));
        }
    }
    let (now, _) = normalize_now(now)?;
    let mut doc = match current {
        Value::Object(map) => map.clone(),
        _ => match initial(&now) {
            Value::Object(map) => map,
            _ => Map::new(),
        },
    };
    if !doc.get("schema_version").is_some_and(Value::is_string) {
        doc.insert("schema_version".into(), "1.0".into());
    }
    doc.insert("updated_at".into(), Value::from(now));
    for key in DETAIL_FIELDS {
        doc.insert(key.into(), empty_detail(key));
    }
    for (key, value) in changes {
        doc.insert(key.clone(), value.clone());
    }
    let doc = Value::Object(doc);
    let report = validate_runner_status(&doc);
    if !report.valid() {
        return Err(crate::report::invalid_error(KIND, &report));
    }
    Ok(doc)
}

/// What a reader makes of the status file's bytes (`None`: no file): `{status, report}`.
/// A missing file gives `status: null, report: null`; a file that does not parse or does not
/// validate gives `status: null` and the report saying why (the seed: it counts as absent);
/// a valid one gives the document and its report (which may carry warnings).
pub fn parse_runner_status(bytes: Option<&[u8]>) -> Value {
    let mut out = Map::new();
    let (status, report) = match bytes {
        None => (Value::Null, Value::Null),
        Some(bytes) => match crate::json::parse(bytes) {
            Err(error) => {
                let mut report = Report::default();
                report.error(
                    error.code.as_str(),
                    error.path.clone(),
                    format!("the status file is not JSON: {}", error.message),
                );
                (Value::Null, report.to_value())
            }
            Ok(doc) => {
                let report = validate_runner_status(&doc);
                let status = if report.valid() { doc } else { Value::Null };
                (status, report.to_value())
            }
        },
    };
    out.insert("status".into(), status);
    out.insert("report".into(), report);
    Value::Object(out)
}

/// How long ago the status was updated, in milliseconds (`now - updated_at`); a future
/// `updated_at` (clock skew) is age 0. `E_TIMESTAMP` at `/updated_at` when it is missing or
/// not RFC 3339.
pub fn age(status: &Value, now: &Value) -> Result<i64> {
    let (_, now) = normalize_now(now)?;
    let updated = updated_at_millis(status).ok_or_else(|| {
        Error::new(
            Code::Timestamp,
            "/updated_at",
            "the runner status has no RFC 3339 updated_at, so its age is unknown",
        )
    })?;
    Ok(now.saturating_sub(updated).max(0))
}

/// `updated_at` in epoch milliseconds, when it is an RFC 3339 string.
pub(crate) fn updated_at_millis(status: &Value) -> Option<i64> {
    status
        .get("updated_at")
        .and_then(Value::as_str)
        .and_then(|t| parse_timestamp(t).ok())
}
