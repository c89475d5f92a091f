//! The Hivemind workflow as a machine definition on the core engine, and the seed's tables
//! that hang off it: which agents are active per state and the context message each state
//! sends them.

use crate::error::Result;
use crate::machine::Machine;
use crate::Value;
use std::sync::OnceLock;

/// The 15 states of the seed plus `blocked` (the seed's question 4), in the seed's order.
pub const STATES: [&str; 16] = [
    "idle",
    "project_selected",
    "planning",
    "plan_review",
    "plan_revision",
    "executing",
    "checkpoint",
    "checkpoint_review",
    "checkpoint_fix",
    "friction_logged",
    "friction_sync",
    "friction_resolution",
    "complete",
    "error",
    "paused",
    "blocked",
];

/// The agents, in the seed's column order (`active_agents` keeps this order).
pub const AGENTS: [&str; 4] = ["lead", "reviewer", "worker1", "worker2"];

/// The events of the workflow machine, in the order of its transitions (a test checks them
/// against the definition).
pub const EVENTS: [&str; 25] = [
    "select_project",
    "give_task",
    "plan_written",
    "plan_approved",
    "plan_feedback",
    "plan_updated",
    "checkpoint_reached",
    "worker_crashed",
    "review_checkpoint",
    "approve_continue",
    "checkpoint_issues",
    "approve_friction",
    "approve_complete",
    "fixes_applied",
    "friction_found",
    "sync_friction",
    "start_resolution",
    "friction_resolved",
    "new_task",
    "retry",
    "abandon",
    "pause",
    "resume",
    "block",
    "user_input",
];

/// The delay of the automatic follow-ups (checkpoint → review, friction logged → sync).
pub const FOLLOW_UP_MS: u64 = 500;

/// The Hivemind workflow (seed 002, "Transitions"), with `pause`/`resume` and
/// `block`/`user_input` returning to the exact previous state (`$previous`).
pub fn hivemind_machine() -> Value {
    crate::machine::definition(MACHINE)
}

/// The workflow machine, read once: the definition is a constant, and every trigger file and
/// event uses it (building it per call dominated `on_file`'s cost).
pub(super) fn built() -> Result<&'static Machine> {
    static BUILT: OnceLock<Option<Machine>> = OnceLock::new();
    crate::machine::built_once(&BUILT, hivemind_machine, "hivemind")
}

const MACHINE: &str = r#"{
  "name": "hivemind",
  "initial": "idle",
  "states": [
    {"name": "idle", "description": "App open, no project selected"},
    {"name": "project_selected", "description": "User picked a folder"},
    {"name": "planning", "description": "Lead creating build plan"},
    {"name": "plan_review", "description": "Reviewer checking plan"},
    {"name": "plan_revision", "description": "Lead addressing feedback"},
    {"name": "executing", "description": "Workers building"},
    {"name": "checkpoint", "description": "Workers hit a checkpoint"},
    {"name": "checkpoint_review", "description": "Reviewer checking work"},
    {"name": "checkpoint_fix", "description": "Lead/Workers fixing issues"},
    {"name": "friction_logged", "description": "Agents logged friction"},
    {"name": "friction_sync", "description": "All agents see friction"},
    {"name": "friction_resolution", "description": "Lead fixing friction"},
    {"name": "complete", "description": "All done"},
    {"name": "error", "description": "Something broke"},
    {"name": "paused", "description": "User paused"},
    {"name": "blocked", "description": "Agents waiting on user input"}
  ],
  "transitions": [
    {"from": "idle", "event": "select_project", "to": "project_selected"},
    {"from": "project_selected", "event": "give_task", "to": "planning"},
    {"from": "planning", "event": "plan_written", "to": "plan_review"},
    {"from": "plan_review", "event": "plan_approved", "to": "executing"},
    {"from": "plan_review", "event": "plan_feedback", "to": "plan_revision"},
    {"from": "plan_revision", "event": "plan_updated", "to": "plan_review"},
    {"from": "executing", "event": "checkpoint_reached", "to": "checkpoint"},
    {"from": "executing", "event": "worker_crashed", "to": "error"},
    {"from": "checkpoint", "event": "review_checkpoint", "to": "checkpoint_review",
     "auto": true, "after_ms": 500},
    {"from": "checkpoint_review", "event": "approve_continue", "to": "executing"},
    {"from": "checkpoint_review", "event": "checkpoint_issues", "to": "checkpoint_fix"},
    {"from": "checkpoint_review", "event": "approve_friction", "to": "friction_logged"},
    {"from": "checkpoint_review", "event": "approve_complete", "to": "complete"},
    {"from": "checkpoint_fix", "event": "fixes_applied", "to": "checkpoint_review"},
    {"from": ["planning", "plan_review", "plan_revision", "executing", "checkpoint",
              "checkpoint_review", "checkpoint_fix"],
     "event": "friction_found", "to": "friction_logged"},
    {"from": "friction_logged", "event": "sync_friction", "to": "friction_sync",
     "auto": true, "after_ms": 500},
    {"from": "friction_sync", "event": "start_resolution", "to": "friction_resolution"},
    {"from": "friction_resolution", "event": "friction_resolved", "to": "plan_review"},
    {"from": "complete", "event": "new_task", "to": "idle"},
    {"from": "error", "event": "retry", "to": "planning"},
    {"from": "error", "event": "abandon", "to": "idle"},
    {"from": ["project_selected", "planning", "plan_review", "plan_revision", "executing",
              "checkpoint", "checkpoint_review", "checkpoint_fix", "friction_logged",
              "friction_sync", "friction_resolution"],
     "event": "pause", "to": "paused"},
    {"from": "paused", "event": "resume", "to": "$previous"},
    {"from": ["planning", "plan_review", "plan_revision", "executing", "checkpoint_review",
              "checkpoint_fix", "friction_resolution"],
     "event": "block", "to": "blocked"},
    {"from": "blocked", "event": "user_input", "to": "$previous"}
  ]
}"#;

/// What an agent does in a state (seed 002, "Active Agents Per State").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `●`: active, can write.
    Active,
    /// `○`: reading only.
    Reading,
    /// `-`: idle.
    Idle,
}

impl Mode {
    /// `"active"`, `"reading"`, `"idle"`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Active => "active",
            Mode::Reading => "reading",
            Mode::Idle => "idle",
        }
    }
}

/// The modes of lead, reviewer, worker1, worker2 in `state`. The seed's table has no rows for
/// `error`, `paused` and `blocked`: every agent is idle there (they wait for the user).
pub fn modes(state: &str) -> [Mode; 4] {
    use Mode::{Active as A, Idle as I, Reading as R};
    match state {
        "project_selected" | "planning" | "plan_revision" | "friction_resolution" => [A, I, I, I],
        "plan_review" | "checkpoint_review" => [I, A, I, I],
        "executing" => [I, I, A, A],
        "checkpoint" => [I, I, R, R],
        "checkpoint_fix" => [A, I, A, A],
        "friction_logged" | "friction_sync" => [R, R, R, R],
        _ => [I, I, I, I],
    }
}

/// The agents active (`●`) in `state`: the seed's `active_agents`.
pub fn active_agents(state: &str) -> Vec<&'static str> {
    AGENTS
        .iter()
        .zip(modes(state))
        .filter(|(_, mode)| *mode == Mode::Active)
        .map(|(agent, _)| *agent)
        .collect()
}

/// The context message an agent gets when `state` is entered (`buildContextMessage`). The
/// seed gives the first three; the `checkpoint_review` one adds the decision line of
/// `checkpoint-approved.md` (docs/hivemind.md). States without agents have none.
pub fn context_message(state: &str) -> Option<&'static str> {
    Some(match state {
        "plan_review" => "[HIVEMIND] Plan submitted. Please review workspace/plan.md and write either plan-approved.md or plan-feedback.md",
        "executing" => "[HIVEMIND] Plan approved. Begin implementation. Write to checkpoint.md when you reach a checkpoint.",
        "checkpoint_review" => "[HIVEMIND] Checkpoint reached. Please review the work and write checkpoint-approved.md or checkpoint-issues.md. In checkpoint-approved.md, add one line \"Decision: continue\" (more work), \"Decision: complete\" (all done) or \"Decision: friction\" (friction to resolve first).",
        "project_selected" => "[HIVEMIND] Project selected. Waiting for the task.",
        "planning" => "[HIVEMIND] New task. Write the build plan to workspace/plan.md (with a line \"Checkpoints: N\" for the number of checkpoints).",
        "plan_revision" => "[HIVEMIND] Plan feedback received. Address workspace/plan-feedback.md and write the updated workspace/plan.md.",
        "checkpoint" => "[HIVEMIND] Checkpoint recorded. Stop and wait for the Reviewer.",
        "checkpoint_fix" => "[HIVEMIND] Checkpoint issues found. Fix what workspace/checkpoint-issues.md lists, then write workspace/checkpoint.md again.",
        "friction_logged" => "[HIVEMIND] Friction logged in workspace/friction/.",
        "friction_sync" => "[HIVEMIND] Friction sync: read workspace/friction/. The Lead resolves it and writes workspace/friction-resolution.md.",
        "friction_resolution" => "[HIVEMIND] Resolve the logged friction and propose the fixes in workspace/friction-resolution.md.",
        _ => return None,
    })
}
