//! Validation of the hive kinds: `hive.state` (the field rules of [`shapes::STATE`], then the
//! seed's consistency rules), `hive.worker` (the seed's four worker checks) and `hive.event`.
//! Every rule is an error with its path; docs/hive.md § Rules lists them.

use super::phases::PHASES;
use super::shapes::{self, WORKER_STATUSES};
use crate::report::{Issue, Report};
use crate::shape::check::{changed_fields_json, present_in, walk_json};
use crate::time::parse_timestamp;
use crate::value::{Json, JsonKind};
use crate::{Map, Value};

/// Validates a `STATE.json` document (a tree or a read text: [`Json`]).
pub fn validate_state<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    let Some(map) = walk_json(&mut report, doc, &shapes::STATE, "") else {
        return report;
    };
    state_rules(&mut report, map);
    report
}

/// Whether a state that was valid is still valid after a change of its top-level fields
/// `changed` alone (a merge of updates of those keys): their fields' rules, then every
/// cross-field rule (the phase, the worker lists, the stamps, each worker's rules) as
/// [`validate_state`] has them. The other fields are not walked again: unchanged, they pass
/// as they passed. True exactly when [`validate_state`] would find no error; on false, that
/// gives the report (its warnings and paths are not made here).
pub(super) fn still_valid(state: &Value, changed: &Map) -> bool {
    let mut report = Report::default();
    changed_fields_json(&mut report, state, &shapes::STATE, "", |name| {
        changed.contains_key(name)
    });
    if report.valid() {
        state_rules(&mut report, state);
    }
    report.valid()
}

/// The seed's consistency rules of a state whose fields were walked.
fn state_rules<'a, J: Json<'a>>(report: &mut Report, map: J) {
    phase_fields(report, map);
    worker_lists(report, map);
    timestamps(report, map);
    if let Some(workers) = present_in(map, "worker_states").filter(|w| w.is_object()) {
        for (name, worker) in workers.members() {
            if worker.is_object() {
                let at = crate::error::child_path("/worker_states", name);
                worker_rules(report, worker, &at);
            }
        }
    }
}

/// Validates one worker state (the kind `hive.worker`).
pub fn validate_worker<'a, J: Json<'a>>(doc: J) -> Report {
    validate_worker_at(doc, "")
}

/// The rules of one worker of a state, at `at` (`/worker_states/<name>`): its fields and
/// the four checks (a replay checks the worker an event touched).
pub(super) fn validate_worker_at<'a, J: Json<'a>>(doc: J, at: &str) -> Report {
    let mut report = Report::default();
    if walk_json(&mut report, doc, &shapes::WORKER, at).is_some() {
        worker_rules(&mut report, doc, at);
    }
    report
}

/// Validates one `EVENTS.jsonl` line (the kind `hive.event`).
pub fn validate_event<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    if let Some(map) = walk_json(&mut report, doc, &shapes::EVENT, "") {
        match present_in(map, "details") {
            None => report.error("E_REQUIRED", "/details", "details is required"),
            Some(d) if d.is_string() || d.is_object() || d.is_array() => {}
            Some(other) => report.error(
                "E_TYPE",
                "/details",
                format!(
                    "details must be a string, an object or a list, not {}",
                    other.type_name()
                ),
            ),
        }
    }
    report
}

/// The seed's `validate_worker_state`: its four checks by name, each with the problems found
/// (paths from the worker), and `valid` when all passed. Never fails on a missing field.
pub fn validate_worker_state<'a, J: Json<'a>>(worker: J) -> Value {
    const NAMES: [&str; 4] = [
        "has_required_fields",
        "status_valid",
        "metrics_consistent",
        "outputs_present",
    ];
    let checks = worker_checks(worker, "");
    let mut out = Map::new();
    let mut valid = true;
    for (name, problems) in NAMES.iter().zip(checks) {
        valid &= problems.is_empty();
        let mut check = Map::new();
        check.insert("passed".into(), problems.is_empty().into());
        check.insert("problems".into(), crate::report::issues_value(&problems));
        out.insert((*name).into(), Value::Object(check));
    }
    let mut result = Map::new();
    result.insert("valid".into(), valid.into());
    result.insert("checks".into(), Value::Object(out));
    Value::Object(result)
}

fn issue(code: &str, path: String, message: String) -> Issue {
    Issue {
        code: code.into(),
        path,
        message,
    }
}

/// The four checks of a worker at `at`: required fields, status valid, metrics consistent,
/// outputs present (a completed worker's).
fn worker_checks<'a, J: Json<'a>>(worker: J, at: &str) -> [Vec<Issue>; 4] {
    let mut required = Vec::new();
    let mut status_valid = Vec::new();
    let mut metrics = Vec::new();
    let mut outputs = Vec::new();
    if !worker.is_object() {
        let message = "a worker state must be a JSON object".to_owned();
        required.push(issue("E_TYPE", at.to_owned(), message));
        return [required, status_valid, metrics, outputs];
    }
    let map = worker;
    let path = |key: &str| crate::error::child_path(at, key);
    let status = present_in(map, "status");
    if status.is_none() {
        required.push(issue(
            "E_REQUIRED",
            path("status"),
            "a worker needs a status".into(),
        ));
    }
    match present_in(map, "task") {
        None => required.push(issue(
            "E_REQUIRED",
            path("task"),
            "a worker needs a task".into(),
        )),
        Some(task) if !task.is_string() => required.push(issue(
            "E_TYPE",
            path("task"),
            format!("task must be a string, not {}", task.type_name()),
        )),
        Some(_) => {}
    }
    let status = status.map(|s| (s, s.as_str().filter(|s| WORKER_STATUSES.contains(s))));
    if let Some((value, None)) = status {
        status_valid.push(issue(
            "E_ENUM",
            path("status"),
            format!(
                "status must be one of {}, not {}",
                WORKER_STATUSES.join(", "),
                value.to_value()
            ),
        ));
    }
    let status = status.and_then(|(_, s)| s);
    if map.get("spawned_at").is_none() {
        let message = "spawned_at must be present (null until the worker is spawned)";
        required.push(issue("E_REQUIRED", path("spawned_at"), message.into()));
    } else if matches!(status, Some("active" | "completed"))
        && present_in(map, "spawned_at").is_none()
    {
        let message = format!(
            "a worker that is {} has been spawned: spawned_at",
            status.unwrap_or("")
        );
        required.push(issue(
            "E_REQUIRED",
            path("spawned_at"),
            format!("{message} must be set"),
        ));
    }
    if status == Some("completed") {
        let logged = present_in(map, "metrics")
            .and_then(|m| m.get("events_logged"))
            .and_then(J::as_u64)
            .unwrap_or(0);
        if logged == 0 {
            metrics.push(issue(
                "E_METRICS",
                crate::error::child_path(&path("metrics"), "events_logged"),
                "a completed worker must have logged events (metrics.events_logged > 0)".into(),
            ));
        }
        if !present_in(map, "outputs").is_some_and(holds_something) {
            outputs.push(issue(
                "E_OUTPUTS",
                path("outputs"),
                "a completed worker must have an output: notes, json or an artifact that is \
                 not null or empty"
                    .into(),
            ));
        }
    }
    [required, status_valid, metrics, outputs]
}

/// A worker's rules as a document: the four checks, then `spawned_at` ≤ `last_update`
/// (a rule of the seed's timestamp consistency, not one of its four checks).
fn worker_rules<'a, J: Json<'a>>(report: &mut Report, worker: J, at: &str) {
    report
        .errors
        .extend(worker_checks(worker, at).into_iter().flatten());
    if !worker.is_object() {
        return;
    }
    let spawned = present_in(worker, "spawned_at").and_then(J::as_str);
    let updated = present_in(worker, "last_update").and_then(J::as_str);
    if let (Some(spawned), Some(updated)) = (spawned, updated) {
        if let (Ok(s), Ok(u)) = (parse_timestamp(spawned), parse_timestamp(updated)) {
            if u < s {
                report.error(
                    "E_TIMESTAMP_ORDER",
                    crate::error::child_path(at, "last_update"),
                    format!("last_update ({updated}) is before spawned_at ({spawned})"),
                );
            }
        }
    }
}

/// True for a real output: not null, not an empty or blank string, not an empty list or
/// object, and for a list or object, one item that holds something (an object of nulls does
/// not).
fn holds_something<'a, J: Json<'a>>(value: J) -> bool {
    match value.kind() {
        JsonKind::Null => false,
        JsonKind::String => value.as_str().is_some_and(|s| !s.trim().is_empty()),
        JsonKind::Array => value.items().any(holds_something),
        JsonKind::Object => value.members().any(|(_, v)| holds_something(v)),
        JsonKind::Bool | JsonKind::Number => true,
    }
}

/// `status` is the phase of record; `coordination_status.phase` equals it, or is `planning`
/// while `status` is `initializing` (the template's pair). Otherwise a warning (files of the
/// original tool move only one of them).
fn phase_fields<'a, J: Json<'a>>(report: &mut Report, map: J) {
    let status = present_in(map, "status").and_then(J::as_str);
    let phase = present_in(map, "coordination_status")
        .and_then(|c| c.get("phase"))
        .and_then(J::as_str);
    if let (Some(status), Some(phase)) = (status, phase) {
        let agrees = status == phase || (status == "initializing" && phase == "planning");
        if !agrees && PHASES.contains(&status) && PHASES.contains(&phase) {
            report.warn(
                "W_PHASE_MISMATCH",
                "/coordination_status/phase",
                format!(
                    "coordination_status.phase ({phase}) disagrees with status ({status}), the \
                     phase of record; the next phase change sets both"
                ),
            );
        }
    }
}

/// The names in `coordination_status[list]` (strings only: the walk reports other items).
fn names<'a, J: Json<'a>>(coordination: J, list: &str) -> Vec<(usize, &'a str)> {
    present_in(coordination, list)
        .filter(|items| items.is_array())
        .map(|items| {
            items
                .items()
                .enumerate()
                .filter_map(|(i, v)| v.as_str().map(|s| (i, s)))
                .collect()
        })
        .unwrap_or_default()
}

/// spawned ⊆ planned (by count and by name); active, completed, failed ⊆ spawned; nobody both
/// active and completed; a `worker_states` entry for every spawned worker.
fn worker_lists<'a, J: Json<'a>>(report: &mut Report, map: J) {
    let Some(coordination) = present_in(map, "coordination_status").filter(|c| c.is_object())
    else {
        return;
    };
    let at = |list: &str, i: usize| format!("/coordination_status/{list}/{i}");
    let planned = names(coordination, "workers_planned");
    let spawned = names(coordination, "workers_spawned");
    let has = |list: &[(usize, &str)], name: &str| list.iter().any(|(_, n)| *n == name);
    if spawned.len() > planned.len() {
        report.error(
            "E_WORKER_COUNT",
            "/coordination_status/workers_spawned",
            format!(
                "{} workers are spawned but only {} were planned",
                spawned.len(),
                planned.len()
            ),
        );
    }
    let workers = present_in(map, "worker_states").filter(|w| w.is_object());
    for &(i, name) in &spawned {
        if !has(&planned, name) {
            report.error(
                "E_WORKER_LISTS",
                at("workers_spawned", i),
                format!("worker {name:?} is spawned but was not planned (workers_planned)"),
            );
        }
        if workers.is_none_or(|w| w.get(name).is_none()) {
            report.error(
                "E_WORKER_MISSING",
                at("workers_spawned", i),
                format!("worker {name:?} is spawned but has no entry in worker_states"),
            );
        }
    }
    let completed = names(coordination, "workers_completed");
    for list in ["workers_active", "workers_completed", "workers_failed"] {
        for (i, name) in names(coordination, list) {
            if !has(&spawned, name) {
                report.error(
                    "E_WORKER_LISTS",
                    at(list, i),
                    format!("worker {name:?} is in {list} but was not spawned (workers_spawned)"),
                );
            }
            if list == "workers_active" && has(&completed, name) {
                report.error(
                    "E_WORKER_LISTS",
                    at(list, i),
                    format!("worker {name:?} is both active and completed"),
                );
            }
        }
    }
}

/// `created_at` ≤ `updated_at` (equal at creation: docs/hive.md), and the phase transition
/// times in phase order, none before `created_at`.
fn timestamps<'a, J: Json<'a>>(report: &mut Report, map: J) {
    let Some(times) = present_in(map, "timestamps").filter(|t| t.is_object()) else {
        return;
    };
    let millis = |m: J, key: &str| {
        present_in(m, key)
            .and_then(J::as_str)
            .and_then(|t| parse_timestamp(t).ok())
            .map(|ms| (ms, key.to_owned()))
    };
    let created = millis(times, "created_at");
    if let (Some((c, _)), Some((u, _))) = (&created, millis(times, "updated_at")) {
        if u < *c {
            report.error(
                "E_TIMESTAMP_ORDER",
                "/timestamps/updated_at",
                "updated_at is before created_at",
            );
        }
    }
    let Some(transitions) = present_in(times, "phase_transitions").filter(|t| t.is_object()) else {
        return;
    };
    let mut latest = created.clone();
    for key in [
        "planning_started",
        "spawning_started",
        "execution_started",
        "synthesis_started",
        "completed_at",
    ] {
        let Some((ms, _)) = millis(transitions, key) else {
            continue;
        };
        if let Some((before, name)) = &latest {
            if ms < *before {
                report.error(
                    "E_TIMESTAMP_ORDER",
                    format!("/timestamps/phase_transitions/{key}"),
                    format!("{key} is before {name}: phase transitions follow the phase order"),
                );
            }
        }
        latest = Some((ms, key.to_owned()));
    }
    if let (Some((failed, _)), Some((c, _))) = (millis(transitions, "failed_at"), &created) {
        if failed < *c {
            report.error(
                "E_TIMESTAMP_ORDER",
                "/timestamps/phase_transitions/failed_at",
                "failed_at is before created_at",
            );
        }
    }
}
