//! The fctry protocol's words, each list once: the commands, the agents' steps, the run,
//! chunk and inbox statuses, the event kinds, the agents. The shapes, the validation and the
//! workflow all read them here.

/// Commands that start a workflow (`currentCommand`).
pub const COMMANDS: [&str; 5] = ["init", "evolve", "ref", "review", "execute"];
/// Agent steps (`workflowStep`, `completedSteps`, `agentOutputs` keys).
pub const STEPS: [&str; 8] = [
    "state-owner-scan",
    "interviewer",
    "researcher",
    "visual-translator",
    "scenario-crafter",
    "spec-writer",
    "executor-plan",
    "executor-build",
];
/// Build run statuses (`paused` is the real-world addition, with `pendingQuestion`).
pub const RUN_STATUSES: [&str; 4] = ["running", "completed", "partial", "paused"];
/// Chunk statuses (`blocked`: dependents of a failed chunk).
pub const CHUNK_STATUSES: [&str; 6] = [
    "planned",
    "active",
    "retrying",
    "completed",
    "failed",
    "blocked",
];
/// Where build priorities came from.
pub const PRIORITY_SOURCES: [&str; 3] = ["global", "project", "user-prompt"];
/// Inbox item types.
pub const INBOX_TYPES: [&str; 3] = ["evolve", "reference", "feature"];
/// Inbox item statuses (`incorporated`: a processed item folded into the spec).
pub const INBOX_STATUSES: [&str; 5] = [
    "pending",
    "processing",
    "processed",
    "error",
    "incorporated",
];
/// Verification event kinds.
pub const VERIFICATION_KINDS: [&str; 2] = ["chunk-verified", "verification-failed"];
/// Context lifecycle event kinds.
pub const CONTEXT_KINDS: [&str; 3] = [
    "context-checkpointed",
    "context-boundary",
    "context-compacted",
];

/// The build lifecycle event kinds the fctry client writes and its viewer names
/// (spaceshipmike/fctry: the Executor's and Interviewer's `hooks/emit-event.sh` kinds, the
/// build's end, and the activity feed's other kinds): known, so they raise no warning.
pub const LIFECYCLE_KINDS: [&str; 18] = [
    "chunk-started",
    "chunk-completed",
    "chunk-failed",
    "chunk-retrying",
    "section-started",
    "section-completed",
    "scenario-evaluated",
    "interview-started",
    "interview-completed",
    "checkpoint-saved",
    "build-completed",
    "build-paused",
    "agent-started-section",
    "agent-completed-section",
    "context-new",
    "escalation-emitted",
    "ratchet-regressed",
    "ratchet-passed",
];

/// The agents whose prerequisites [`super::check_prerequisites`] knows.
pub const AGENTS: [&str; 8] = [
    "state-owner",
    "observer",
    "interviewer",
    "researcher",
    "visual-translator",
    "scenario-crafter",
    "spec-writer",
    "executor",
];
