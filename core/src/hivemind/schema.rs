//! `workspace/state.json` as Rust types, for JSON Schema generation (feature `schema`; see
//! `crate::schema`). The structure `validate.rs` checks: the state names, the agents, the
//! counters; cross-field rules (checkpoint range, active agents matching the state) are the
//! validator's.

// The types are never built: they exist only to describe the document to schemars.
#![allow(dead_code)]

use schemars::JsonSchema;

/// `workspace/state.json`: the Hivemind workflow state.
#[derive(JsonSchema)]
#[schemars(title = "hivemind.state")]
pub struct State {
    /// The current state.
    state: StateName,
    /// The state before it (where `resume` and `user_input` return).
    previous_state: Option<StateName>,
    /// The agents that can write in this state.
    active_agents: Option<Vec<Agent>>,
    /// When the state was entered.
    timestamp: Option<crate::fctry::schema::Timestamp>,
    /// The project folder.
    project: Option<String>,
    /// The checkpoint being worked on or reviewed (0 before the first).
    current_checkpoint: Option<u64>,
    /// How many checkpoints the plan has (`Checkpoints: N` in plan.md).
    total_checkpoints: Option<u64>,
    /// Friction files logged since the task started.
    friction_count: Option<u64>,
    /// What broke (state `error`).
    error: Option<String>,
}

/// The Hivemind states (seed 002 plus `blocked`).
#[derive(JsonSchema)]
#[schemars(rename_all = "snake_case")]
pub enum StateName {
    /// App open, no project selected.
    Idle,
    /// The user picked a folder.
    ProjectSelected,
    /// Lead creating the build plan.
    Planning,
    /// Reviewer checking the plan.
    PlanReview,
    /// Lead addressing feedback.
    PlanRevision,
    /// Workers building.
    Executing,
    /// Workers hit a checkpoint.
    Checkpoint,
    /// Reviewer checking the work.
    CheckpointReview,
    /// Lead and Workers fixing issues.
    CheckpointFix,
    /// Agents logged friction.
    FrictionLogged,
    /// All agents see the friction.
    FrictionSync,
    /// Lead fixing the friction.
    FrictionResolution,
    /// All done.
    Complete,
    /// Something broke.
    Error,
    /// The user paused.
    Paused,
    /// Agents waiting on user input.
    Blocked,
}

/// The Hivemind agents.
#[derive(JsonSchema)]
#[schemars(rename_all = "snake_case")]
pub enum Agent {
    /// The Lead.
    Lead,
    /// The Reviewer.
    Reviewer,
    /// Worker 1.
    Worker1,
    /// Worker 2.
    Worker2,
}

#[cfg(test)]
mod tests {
    use super::super::{AGENTS, STATES};
    use serde_json::Value;

    /// The `const` of each `oneOf` variant of `$defs[def]` (a non-string shows as its JSON).
    fn names(schema: &Value, def: &str) -> Vec<String> {
        crate::schema::enum_values(schema, def)
    }

    #[test]
    fn states_agents_and_fields_match_the_validator() {
        let schema = crate::schema::generate("hivemind.state").unwrap_or_default();
        assert_eq!(names(&schema, "StateName"), STATES);
        assert_eq!(names(&schema, "Agent"), AGENTS);
        let fields: Vec<&String> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        assert_eq!(fields, super::super::validate::FIELDS);
    }
}
