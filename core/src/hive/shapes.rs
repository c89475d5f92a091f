//! The hive documents (`STATE.json`, a worker's state, an `EVENTS.jsonl` line) and the values
//! of the hive operations, described once (`crate::shape`): validation's field rules, the JSON
//! Schema and the TypeScript and Python types come from here.

use super::phases::PHASES;
use crate::shape::common::ISSUE;
use crate::shape::{Enum, Field, Shape, Ty};

/// A session's phase.
pub static PHASE: Enum = Enum {
    name: "HivePhase",
    doc: "A session's phase: initializing → planning → spawning → executing → synthesizing → \
          complete, or failed from any of them.",
    values: &PHASES,
};

/// The worker statuses.
pub const WORKER_STATUSES: [&str; 5] = ["planned", "spawning", "active", "completed", "failed"];

/// A worker's status.
pub static WORKER_STATUS: Enum = Enum {
    name: "HiveWorkerStatus",
    doc: "A worker's status.",
    values: &WORKER_STATUSES,
};

/// `update_state`'s merge strategies.
pub const STRATEGIES: [&str; 2] = ["deep", "shallow"];

/// `update_state`'s merge strategy.
pub static STRATEGY: Enum = Enum {
    name: "HiveMergeStrategy",
    doc: "`deep`: objects merged recursively, lists replaced, null kept; `shallow`: top level.",
    values: &STRATEGIES,
};

/// When each phase started (null: not yet).
pub static PHASE_TRANSITIONS: Shape = Shape::document(
    "HivePhaseTransitions",
    "the phase transitions",
    "When each phase was entered, stamped by a phase change (null: not yet).",
    &[
        Field::opt("planning_started", Ty::Timestamp, "Entered `planning`."),
        Field::opt("spawning_started", Ty::Timestamp, "Entered `spawning`."),
        Field::opt("execution_started", Ty::Timestamp, "Entered `executing`."),
        Field::opt(
            "synthesis_started",
            Ty::Timestamp,
            "Entered `synthesizing`.",
        ),
        Field::opt("completed_at", Ty::Timestamp, "Entered `complete`."),
        Field::opt(
            "failed_at",
            Ty::Timestamp,
            "Entered `failed` (statecore's addition: the seed has no stamp for it).",
        ),
    ],
);

/// The session's timestamps.
pub static TIMESTAMPS: Shape = Shape::document(
    "HiveTimestamps",
    "the timestamps",
    "The session's timestamps.",
    &[
        Field::req("created_at", Ty::Timestamp, "When the session was created."),
        Field::req(
            "updated_at",
            Ty::Timestamp,
            "The last update (every step sets it).",
        ),
        Field::opt(
            "last_heartbeat",
            Ty::Timestamp,
            "The last sign of life of anyone.",
        ),
        Field::opt(
            "phase_transitions",
            Ty::Object(&PHASE_TRANSITIONS),
            "When each phase was entered.",
        ),
    ],
);

const NAMES: Ty = Ty::List(&Ty::Str);

/// Who is planned, spawned, active, completed, failed.
pub static COORDINATION: Shape = Shape::document(
    "HiveCoordinationStatus",
    "the coordination status",
    "Worker planning, spawning and execution tracking.",
    &[
        Field::opt(
            "phase",
            Ty::Enum(&PHASE),
            "The coordination phase: `status`, except `planning` while `status` is \
             `initializing` (the template's pair).",
        ),
        Field::opt("workers_planned", NAMES, "Workers the queen planned."),
        Field::opt(
            "workers_spawned",
            NAMES,
            "Workers spawned (each also planned).",
        ),
        Field::opt("workers_active", NAMES, "Spawned workers now working."),
        Field::opt(
            "workers_completed",
            NAMES,
            "Spawned workers that completed.",
        ),
        Field::opt("workers_failed", NAMES, "Spawned workers that failed."),
        Field::opt(
            "spawn_attempts",
            Ty::Map(&Ty::Whole(0)),
            "Spawn attempts per worker.",
        ),
        Field::opt("synthesis_ready", Ty::Bool, "Ready for synthesis."),
        Field::opt(
            "blocking_issues",
            Ty::List(&Ty::Json),
            "What blocks progress.",
        ),
    ],
);

/// A worker's outputs.
pub static OUTPUTS: Shape = Shape::document(
    "HiveWorkerOutputs",
    "the worker outputs",
    "What a worker produced: its notes file, its JSON output, other artifacts.",
    &[
        Field::opt("notes", Ty::Json, "The notes (a path or the text)."),
        Field::opt("json", Ty::Json, "The JSON output (a path or the value)."),
        Field::opt("artifacts", Ty::List(&Ty::Json), "Other artifacts."),
    ],
);

/// A worker's metrics.
pub static WORKER_METRICS: Shape = Shape::document(
    "HiveWorkerMetrics",
    "the worker metrics",
    "A worker's counters.",
    &[
        Field::opt(
            "events_logged",
            Ty::Whole(0),
            "Event lines logged for this worker (each worker step adds one).",
        ),
        Field::opt("debug_entries", Ty::Whole(0), "Debug log entries."),
        Field::opt("files_created", Ty::Whole(0), "Files created."),
        Field::opt("tokens_estimated", Ty::Whole(0), "Tokens used, estimated."),
        Field::opt("duration_seconds", Ty::Number, "Time worked, in seconds."),
    ],
);

/// A worker's protocol compliance flags.
pub static COMPLIANCE: Shape = Shape::document(
    "HiveProtocolCompliance",
    "the protocol compliance",
    "Which protocol steps a worker logged.",
    &[
        Field::opt("startup_logged", Ty::Bool, "Startup logged."),
        Field::opt("configuration_logged", Ty::Bool, "Configuration logged."),
        Field::opt("completion_logged", Ty::Bool, "Completion logged."),
        Field::opt("debug_logging_active", Ty::Bool, "Debug logging on."),
    ],
);

/// Why a worker failed.
pub static WORKER_ERROR: Shape = Shape::open(
    "HiveWorkerError",
    "the worker error",
    "Why a worker failed (statecore's addition; other fields kept).",
    &[
        Field::req("message", Ty::Line, "What went wrong."),
        Field::opt("at", Ty::Timestamp, "When."),
    ],
);

/// One worker's state (`worker_states[name]`, the kind `hive.worker`).
pub static WORKER: Shape = Shape::document(
    "HiveWorker",
    "a worker",
    "One worker's state (the template's `worker-state-template.json`).",
    &[
        Field::req("status", Ty::Enum(&WORKER_STATUS), "The worker's status.").by_rule(),
        Field::req("task", Ty::Str, "The worker's task.").by_rule(),
        Field::opt(
            "spawned_at",
            Ty::Timestamp,
            "When it was spawned (null before).",
        ),
        Field::opt("last_update", Ty::Timestamp, "Its last update."),
        Field::opt("last_heartbeat", Ty::Timestamp, "Its last heartbeat."),
        Field::opt("focus_areas", NAMES, "What it focuses on."),
        Field::opt("outputs", Ty::Object(&OUTPUTS), "What it produced."),
        Field::opt("metrics", Ty::Object(&WORKER_METRICS), "Its counters."),
        Field::opt(
            "protocol_compliance",
            Ty::Object(&COMPLIANCE),
            "Which protocol steps it logged.",
        ),
        Field::opt("error", Ty::Object(&WORKER_ERROR), "Why it failed."),
    ],
);

/// The queen's complexity assessment.
pub static COMPLEXITY: Shape = Shape::document(
    "HiveComplexityAssessment",
    "the complexity assessment",
    "How complex the queen judged the task.",
    &[
        Field::opt(
            "level",
            Ty::Whole(0),
            "The level (the template starts at 1).",
        ),
        Field::opt("factors", Ty::List(&Ty::Json), "What makes it complex."),
        Field::opt("rationale", Ty::Str, "Why."),
    ],
);

/// The queen's execution plan.
pub static EXECUTION_PLAN: Shape = Shape::open(
    "HiveExecutionPlan",
    "the execution plan",
    "The queen's plan (other fields kept).",
    &[Field::opt(
        "phases",
        Ty::List(&Ty::Json),
        "The plan's phases.",
    )],
);

/// The queen's decisions.
pub static QUEEN_DECISIONS: Shape = Shape::document(
    "HiveQueenDecisions",
    "the queen decisions",
    "The queen's decisions: complexity, worker selection, strategy, plan, escalation.",
    &[
        Field::opt(
            "complexity_assessment",
            Ty::Object(&COMPLEXITY),
            "How complex the task is.",
        ),
        Field::opt("worker_selection_rationale", Ty::Str, "Why these workers."),
        Field::opt(
            "coordination_strategy",
            Ty::Str,
            "`parallel`, `sequential`, ...",
        ),
        Field::opt("execution_plan", Ty::Object(&EXECUTION_PLAN), "The plan."),
        Field::opt(
            "escalation_triggers",
            Ty::List(&Ty::Json),
            "When to escalate.",
        ),
    ],
);

/// Research progress.
pub static RESEARCH: Shape = Shape::document(
    "HiveResearchProgress",
    "the research progress",
    "Research domains and synthesis.",
    &[
        Field::opt("domains_identified", Ty::List(&Ty::Json), "Domains found."),
        Field::opt("domains_completed", Ty::List(&Ty::Json), "Domains done."),
        Field::opt("synthesis_status", Ty::Str, "`pending`, ..."),
        Field::opt("key_findings", Ty::List(&Ty::Json), "Key findings."),
        Field::opt("synthesis_file", Ty::Str, "The synthesis file."),
    ],
);

/// Implementation progress.
pub static IMPLEMENTATION: Shape = Shape::document(
    "HiveImplementationProgress",
    "the implementation progress",
    "Implementation task counters.",
    &[
        Field::opt("tasks_created", Ty::Whole(0), "Tasks created."),
        Field::opt("tasks_assigned", Ty::Whole(0), "Tasks assigned."),
        Field::opt("tasks_in_progress", Ty::Whole(0), "Tasks in progress."),
        Field::opt("tasks_completed", Ty::Whole(0), "Tasks completed."),
        Field::opt("tasks_blocked", Ty::Whole(0), "Tasks blocked."),
        Field::opt("blocking_issues", Ty::List(&Ty::Json), "What blocks them."),
    ],
);

/// Quality gates.
pub static QUALITY_GATES: Shape = Shape::document(
    "HiveQualityGates",
    "the quality gates",
    "The session's quality gates.",
    &[
        Field::opt(
            "worker_selection_validated",
            Ty::Bool,
            "Worker selection checked.",
        ),
        Field::opt(
            "all_workers_spawned",
            Ty::Bool,
            "Every planned worker spawned.",
        ),
        Field::opt(
            "protocol_compliance_verified",
            Ty::Bool,
            "Compliance checked.",
        ),
        Field::opt("outputs_validated", Ty::Bool, "Outputs checked."),
        Field::opt("synthesis_complete", Ty::Bool, "Synthesis done."),
    ],
);

/// Session-wide metrics.
pub static METRICS: Shape = Shape::document(
    "HiveMetrics",
    "the metrics",
    "Session-wide metrics.",
    &[
        Field::opt(
            "session_duration_seconds",
            Ty::Number,
            "Seconds since creation.",
        ),
        Field::opt(
            "total_events_logged",
            Ty::Whole(0),
            "Event lines logged (each step adds one).",
        ),
        Field::opt("total_debug_entries", Ty::Whole(0), "Debug entries."),
        Field::opt("worker_efficiency", Ty::Map(&Ty::Json), "Per worker."),
        Field::opt("token_usage_estimated", Ty::Whole(0), "Tokens, estimated."),
        Field::opt(
            "coordination_overhead_seconds",
            Ty::Number,
            "Coordination time.",
        ),
    ],
);

/// Session metadata.
pub static SESSION_METADATA: Shape = Shape::open(
    "HiveSessionMetadata",
    "the session metadata",
    "Environment and recovery settings (other fields kept).",
    &[
        Field::opt("hive_mind_version", Ty::Str, "`2.0`."),
        Field::opt("protocol_version", Ty::Str, "`2.0`."),
        Field::opt("environment", Ty::Str, "`production`, ..."),
        Field::opt("resumption_capability", Ty::Str, "`full`, ..."),
        Field::opt(
            "auto_recovery_enabled",
            Ty::Bool,
            "Recovery from the log allowed.",
        ),
        Field::opt(
            "log_offset",
            Ty::Whole(0),
            "The bytes of `EVENTS.jsonl` folded into this state (statecore's addition: a \
             session helper replays the lines after it, docs/hive.md § Files).",
        ),
    ],
);

/// `STATE.json` (the kind `hive.state`).
pub static STATE: Shape = Shape::document(
    "HiveState",
    "the hive state",
    "`<sessions>/<session_id>/STATE.json`: a hive session (STATE.json v2).",
    &[
        Field::opt("$schema", Ty::Str, "The JSON Schema this document follows."),
        Field::req("version", Ty::Lit("2.0"), "The structure's version."),
        Field::req(
            "session_id",
            Ty::Line,
            "The session (its directory's name).",
        ),
        Field::req("task", Ty::Str, "What the session does."),
        Field::req(
            "status",
            Ty::Enum(&PHASE),
            "The session's phase, the phase of record (docs/hive.md § Phases).",
        ),
        Field::req(
            "timestamps",
            Ty::Object(&TIMESTAMPS),
            "The session's timestamps.",
        ),
        Field::req(
            "coordination_status",
            Ty::Object(&COORDINATION),
            "Who is planned, spawned, active, completed, failed.",
        ),
        Field::opt(
            "worker_states",
            Ty::Map(&Ty::Object(&WORKER)),
            "Each worker's state, by name.",
        ),
        Field::opt(
            "queen_decisions",
            Ty::Object(&QUEEN_DECISIONS),
            "The queen's decisions.",
        ),
        Field::opt("research_progress", Ty::Object(&RESEARCH), "Research."),
        Field::opt(
            "implementation_progress",
            Ty::Object(&IMPLEMENTATION),
            "Implementation.",
        ),
        Field::opt(
            "quality_gates",
            Ty::Object(&QUALITY_GATES),
            "Quality gates.",
        ),
        Field::opt("metrics", Ty::Object(&METRICS), "Session-wide metrics."),
        Field::opt(
            "session_metadata",
            Ty::Object(&SESSION_METADATA),
            "Environment and recovery.",
        ),
    ],
);

/// One `EVENTS.jsonl` line (the kind `hive.event`).
pub static EVENT: Shape = Shape::open(
    "HiveEvent",
    "an event",
    "One `EVENTS.jsonl` line (other fields, such as a logger's `sequence` or `level`, kept).",
    &[
        Field::req("timestamp", Ty::Timestamp, "When."),
        Field::req("type", Ty::Line, "The event type (docs/hive.md § Events)."),
        Field::req("agent", Ty::Str, "Who: `queen`, a worker's name, ..."),
        Field::req(
            "details",
            Ty::Union(&[Ty::Str, Ty::Map(&Ty::Json), Ty::List(&Ty::Json)]),
            "The payload: a string, an object or a list.",
        )
        .by_rule(),
        Field::opt("status", Ty::Str, "An optional status."),
    ],
);

/// What a step returns: the new state and the event line that records it.
pub static STEP: Shape = Shape::exact(
    "HiveStep",
    "A step's result: the new `STATE.json` document and the `EVENTS.jsonl` line recording it \
     (the host writes the state and appends the line under one lock).",
    &[
        Field::req("state", Ty::Object(&STATE), "The new state."),
        Field::req("event", Ty::Object(&EVENT), "The event line to append."),
    ],
);

/// One of `validate_worker_state`'s checks.
pub static CHECK: Shape = Shape::exact(
    "HiveWorkerCheck",
    "One check of a worker state: passed or not, and the problems found.",
    &[
        Field::req("passed", Ty::Bool, "True when nothing was found."),
        Field::req("problems", Ty::List(&Ty::Object(&ISSUE)), "What was found."),
    ],
);

/// The seed's four checks, by name.
pub static CHECKS: Shape = Shape::exact(
    "HiveWorkerChecks",
    "The seed's four checks of a worker state, by the original's names.",
    &[
        Field::req(
            "has_required_fields",
            Ty::Object(&CHECK),
            "`status`, `task`, `spawned_at`.",
        ),
        Field::req("status_valid", Ty::Object(&CHECK), "A known status."),
        Field::req(
            "metrics_consistent",
            Ty::Object(&CHECK),
            "A completed worker logged events.",
        ),
        Field::req(
            "outputs_present",
            Ty::Object(&CHECK),
            "A completed worker has a real output.",
        ),
    ],
);

/// `validate_worker_state`'s result.
pub static WORKER_VALIDATION: Shape = Shape::exact(
    "HiveWorkerValidation",
    "`validate_worker_state`'s result: valid when every check passed.",
    &[
        Field::req("valid", Ty::Bool, "Every check passed."),
        Field::req("checks", Ty::Object(&CHECKS), "Each check."),
    ],
);

/// What the health check found wrong with an active worker.
pub static PROBLEM: Enum = Enum {
    name: "HiveHealthProblem",
    doc: "`timeout`: no heartbeat for the timeout or longer; `clock_skew`: a heartbeat in the \
          future; `no_heartbeat`: none recorded; `unreadable_heartbeat`: not a timestamp.",
    values: &[
        "timeout",
        "clock_skew",
        "no_heartbeat",
        "unreadable_heartbeat",
    ],
};

/// One unhealthy worker.
pub static UNHEALTHY: Shape = Shape::exact(
    "HiveUnhealthyWorker",
    "An active worker the health check flags.",
    &[
        Field::req("worker", Ty::Str, "The worker's name."),
        Field::req("problem", Ty::Enum(&PROBLEM), "What is wrong."),
        Field::req(
            "last_seen",
            Ty::Json,
            "Its `last_heartbeat` as written (null when absent).",
        ),
        Field::req(
            "since_ms",
            Ty::Nullable(&Ty::Int),
            "Milliseconds from the heartbeat to `now` (negative: in the future; null when \
             there is no readable heartbeat).",
        ),
    ],
);

/// `check_worker_health`'s result.
pub static HEALTH: Shape = Shape::exact(
    "HiveHealth",
    "`check_worker_health`'s result.",
    &[
        Field::req(
            "unhealthy",
            Ty::List(&Ty::Object(&UNHEALTHY)),
            "The active workers flagged, in `worker_states` order.",
        ),
        Field::req("timeout_ms", Ty::Whole(0), "The timeout used."),
        Field::req(
            "checked",
            Ty::Whole(0),
            "How many active workers were checked.",
        ),
    ],
);

/// A state argument.
pub const STATE_IN: Ty = Ty::Object(&STATE);
