//! Validation of the kind `hivemind.state` (`workspace/state.json`, seed 002 "state.json
//! Format"), and its default document (what a missing file reads as).

use super::machine::{active_agents, AGENTS, STATES};
use super::shapes;
use crate::report::Report;
use crate::shape::check::{present_in, type_error, walk_json};
use crate::value::Json;
use crate::{Map, Value};

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

/// Validates `workspace/state.json`: the field rules of [`shapes::STATE`], then the
/// cross-field rules (the state's active agents, the checkpoint range). The document is a
/// tree or a read text ([`Json`]).
pub fn validate_state<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    let Some(map) = walk_json(&mut report, doc, &shapes::STATE, "") else {
        return report;
    };
    let state = present_in(map, "state")
        .and_then(J::as_str)
        .filter(|s| STATES.contains(s));
    if let Some(state) = state {
        agents(&mut report, map, state);
    }
    let current = present_in(map, "current_checkpoint").and_then(J::as_u64);
    let total = present_in(map, "total_checkpoints").and_then(J::as_u64);
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
    report
}

/// `active_agents`: a list of known agents (`E_ENUM`); `W_ACTIVE_AGENTS` when it is not the
/// state's list from the seed's table (the next transition rewrites it).
fn agents<'a, J: Json<'a>>(report: &mut Report, map: J, state: &str) {
    let Some(value) = present_in(map, "active_agents") else {
        return;
    };
    if !value.is_array() {
        type_error(report, "/active_agents", "active_agents", "a list", value);
        return;
    }
    let count = value.len();
    let mut names = Vec::with_capacity(count);
    for (i, item) in value.items().enumerate() {
        match item.as_str() {
            Some(name) if AGENTS.contains(&name) => names.push(name),
            _ => report.error(
                "E_ENUM",
                format!("/active_agents/{i}"),
                format!(
                    "active_agents items must be one of {}, not {}",
                    AGENTS.join(", "),
                    item.to_value()
                ),
            ),
        }
    }
    let expected = active_agents(state);
    if names.len() == count && names != expected {
        report.warn(
            "W_ACTIVE_AGENTS",
            "/active_agents",
            format!(
                "active_agents {names:?} is not the seed's list for state {state:?}: {expected:?}"
            ),
        );
    }
}
