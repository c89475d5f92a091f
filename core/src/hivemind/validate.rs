//! Validation of the kind `hivemind.state` (`workspace/state.json`, seed 002 "state.json
//! Format"), and its default document (what a missing file reads as).

use super::machine::{active_agents, AGENTS, STATES};
use crate::check::{one_of, present, required, root, string, timestamp, unknown_fields, whole};
use crate::report::Report;
use serde_json::{Map, Value};

/// The fields of `state.json`.
pub(super) const FIELDS: [&str; 9] = [
    "state",
    "previous_state",
    "active_agents",
    "timestamp",
    "project",
    "current_checkpoint",
    "total_checkpoints",
    "friction_count",
    "error",
];

/// What a missing `state.json` reads as: `idle`, no project, counters at zero.
pub fn default_state() -> Value {
    let mut map = Map::new();
    map.insert("state".into(), "idle".into());
    map.insert("previous_state".into(), Value::Null);
    map.insert("active_agents".into(), Value::Array(Vec::new()));
    map.insert("timestamp".into(), Value::Null);
    map.insert("project".into(), Value::Null);
    map.insert("current_checkpoint".into(), 0.into());
    map.insert("total_checkpoints".into(), Value::Null);
    map.insert("friction_count".into(), 0.into());
    map.insert("error".into(), Value::Null);
    Value::Object(map)
}

/// Validates `workspace/state.json`.
pub fn validate_state(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(map) = root(&mut report, doc, "", "the hivemind state") else {
        return report;
    };
    let state = match required(&mut report, map, "state", "") {
        Some(_) => one_of(&mut report, map, "state", "", &STATES),
        None => None,
    };
    one_of(&mut report, map, "previous_state", "", &STATES);
    if let Some(state) = state {
        agents(&mut report, map, state);
    }
    timestamp(&mut report, map, "timestamp", "");
    string(&mut report, map, "project", "");
    string(&mut report, map, "error", "");
    let current = whole(&mut report, map, "current_checkpoint", "", 0);
    let total = whole(&mut report, map, "total_checkpoints", "", 0);
    whole(&mut report, map, "friction_count", "", 0);
    if let (Some(current), Some(total)) = (current, total) {
        if current > total {
            report.error(
                "E_CHECKPOINT_RANGE",
                "/current_checkpoint",
                format!(
                    "current_checkpoint ({current}) is greater than total_checkpoints ({total})"
                ),
            );
        }
    }
    unknown_fields(&mut report, map, &FIELDS, "", "hivemind state");
    report
}

/// `active_agents`: a list of known agents (`E_ENUM`); `W_ACTIVE_AGENTS` when it is not the
/// state's list from the seed's table (the next transition rewrites it).
fn agents(report: &mut Report, map: &Map<String, Value>, state: &str) {
    let Some(value) = present(map, "active_agents") else {
        return;
    };
    let Some(items) = value.as_array() else {
        crate::check::array(report, map, "active_agents", "");
        return;
    };
    let mut names = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some(name) if AGENTS.contains(&name) => names.push(name),
            _ => report.error(
                "E_ENUM",
                format!("/active_agents/{i}"),
                format!(
                    "active_agents items must be one of {}, not {item}",
                    AGENTS.join(", ")
                ),
            ),
        }
    }
    let expected = active_agents(state);
    if names.len() == items.len() && names != expected {
        report.warn(
            "W_ACTIVE_AGENTS",
            "/active_agents",
            format!(
                "active_agents {names:?} is not the seed's list for state {state:?}: {expected:?}"
            ),
        );
    }
}
