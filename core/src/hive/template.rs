//! The templates of the seed's project: a new session's `STATE.json`
//! (`state-v2-template.json`) and a planned worker (`worker-state-template.json`).

use crate::{Map, Value};

/// An object of `pairs`, in order.
pub(super) fn object(pairs: Vec<(&str, Value)>) -> Value {
    let mut map = Map::with_capacity(pairs.len());
    for (key, value) in pairs {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

/// A planned worker: the template's worker with its `task` and `focus_areas`.
pub(super) fn planned_worker(task: Value, focus_areas: Value) -> Value {
    object(vec![
        ("status", "planned".into()),
        ("spawned_at", Value::Null),
        ("last_update", Value::Null),
        ("last_heartbeat", Value::Null),
        ("task", task),
        ("focus_areas", focus_areas),
        (
            "outputs",
            object(vec![
                ("notes", Value::Null),
                ("json", Value::Null),
                ("artifacts", Value::Array(Vec::new())),
            ]),
        ),
        (
            "metrics",
            object(vec![
                ("events_logged", 0.into()),
                ("debug_entries", 0.into()),
                ("files_created", 0.into()),
                ("tokens_estimated", 0.into()),
                ("duration_seconds", 0.into()),
            ]),
        ),
        (
            "protocol_compliance",
            object(vec![
                ("startup_logged", false.into()),
                ("configuration_logged", false.into()),
                ("completion_logged", false.into()),
                ("debug_logging_active", false.into()),
            ]),
        ),
    ])
}

/// The v2 structure of a new session (the template's `state-v2-template.json`).
pub(super) fn created(session_id: &str, details: &Value, now: &str) -> Map {
    let task = details.get("task").cloned().unwrap_or_else(|| "".into());
    let null = || Value::Null;
    let list = || Value::Array(Vec::new());
    let empty = || Value::Object(Map::new());
    let transitions = object(vec![
        ("planning_started", null()),
        ("spawning_started", null()),
        ("execution_started", null()),
        ("synthesis_started", null()),
        ("completed_at", null()),
    ]);
    let mut state = Map::new();
    for (key, value) in [
        ("version", "2.0".into()),
        ("session_id", session_id.into()),
        ("task", task),
        ("status", "initializing".into()),
    ] {
        state.insert(key.into(), value);
    }
    let sections = [
        (
            "timestamps",
            object(vec![
                ("created_at", now.into()),
                ("updated_at", now.into()),
                ("last_heartbeat", now.into()),
                ("phase_transitions", transitions),
            ]),
        ),
        (
            "coordination_status",
            object(vec![
                ("phase", "planning".into()),
                ("workers_planned", list()),
                ("workers_spawned", list()),
                ("workers_active", list()),
                ("workers_completed", list()),
                ("workers_failed", list()),
                ("spawn_attempts", empty()),
                ("synthesis_ready", false.into()),
                ("blocking_issues", list()),
            ]),
        ),
        ("worker_states", empty()),
        (
            "queen_decisions",
            object(vec![
                (
                    "complexity_assessment",
                    object(vec![
                        ("level", 1.into()),
                        ("factors", list()),
                        ("rationale", "".into()),
                    ]),
                ),
                ("worker_selection_rationale", "".into()),
                ("coordination_strategy", "parallel".into()),
                ("execution_plan", object(vec![("phases", list())])),
                ("escalation_triggers", list()),
            ]),
        ),
        (
            "research_progress",
            object(vec![
                ("domains_identified", list()),
                ("domains_completed", list()),
                ("synthesis_status", "pending".into()),
                ("key_findings", list()),
                ("synthesis_file", null()),
            ]),
        ),
        (
            "implementation_progress",
            object(vec![
                ("tasks_created", 0.into()),
                ("tasks_assigned", 0.into()),
                ("tasks_in_progress", 0.into()),
                ("tasks_completed", 0.into()),
                ("tasks_blocked", 0.into()),
                ("blocking_issues", list()),
            ]),
        ),
        (
            "quality_gates",
            object(vec![
                ("worker_selection_validated", false.into()),
                ("all_workers_spawned", false.into()),
                ("protocol_compliance_verified", false.into()),
                ("outputs_validated", false.into()),
                ("synthesis_complete", false.into()),
            ]),
        ),
        (
            "metrics",
            object(vec![
                ("session_duration_seconds", 0.into()),
                ("total_events_logged", 0.into()),
                ("total_debug_entries", 0.into()),
                ("worker_efficiency", empty()),
                ("token_usage_estimated", 0.into()),
                ("coordination_overhead_seconds", 0.into()),
            ]),
        ),
        (
            "session_metadata",
            object(vec![
                ("hive_mind_version", "2.0".into()),
                ("protocol_version", "2.0".into()),
                ("environment", "production".into()),
                ("resumption_capability", "full".into()),
                ("auto_recovery_enabled", true.into()),
            ]),
        ),
    ];
    for (key, value) in sections {
        state.insert(key.into(), value);
    }
    state
}
