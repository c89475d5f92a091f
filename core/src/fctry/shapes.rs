//! The fctry documents, described once
//! (`crate::shape`): the validators' field rules, the JSON Schemas and the TypeScript and
//! Python types all come from here (`results.rs` describes what the operations take and
//! return). Every field is optional unless the seed requires it;
//! `null` ≡ absent; unknown fields are kept (with a warning where the seed lists the fields).

use super::words::{
    AGENTS, CHUNK_STATUSES, COMMANDS, CONTEXT_KINDS, INBOX_STATUSES, INBOX_TYPES, PRIORITY_SOURCES,
    RUN_STATUSES, STEPS, VERIFICATION_KINDS,
};
use crate::shape::{Alias, Enum, Field, Shape, Ty, Variant};

/// `currentCommand`.
pub static COMMAND: Enum = Enum {
    name: "FctryCommand",
    doc: "A command that starts a workflow.",
    values: &COMMANDS,
};
/// `workflowStep`.
pub static STEP: Enum = Enum {
    name: "FctryStep",
    doc: "An agent step.",
    values: &STEPS,
};
/// An agent whose prerequisites are checked.
pub static AGENT: Enum = Enum {
    name: "FctryAgent",
    doc: "An agent whose prerequisites can be checked.",
    values: &AGENTS,
};
/// `buildRun.status`.
pub static RUN_STATUS: Enum = Enum {
    name: "BuildRunStatus",
    doc: "A build run status (`paused` waits on `pendingQuestion`).",
    values: &RUN_STATUSES,
};
/// A chunk's status.
pub static CHUNK_STATUS: Enum = Enum {
    name: "ChunkStatus",
    doc: "A chunk status (`blocked`: depends on a failed chunk).",
    values: &CHUNK_STATUSES,
};
/// Where build priorities came from.
pub static PRIORITY_SOURCE: Enum = Enum {
    name: "PrioritySource",
    doc: "Where build priorities came from.",
    values: &PRIORITY_SOURCES,
};
/// An inbox item's type.
pub static INBOX_TYPE: Enum = Enum {
    name: "InboxType",
    doc: "What kind of input an inbox item is.",
    values: &INBOX_TYPES,
};
/// An inbox item's status.
pub static INBOX_STATUS: Enum = Enum {
    name: "InboxStatus",
    doc: "Where an inbox item is in its lifecycle.",
    values: &INBOX_STATUSES,
};
/// The events of the inbox item lifecycle.
pub static INBOX_EVENT: Enum = Enum {
    name: "InboxEvent",
    doc: "An event of the inbox item lifecycle.",
    values: &["start", "complete", "fail", "incorporate", "retry"],
};
/// The events of the chunk lifecycle an agent fires.
pub static CHUNK_EVENT: Enum = Enum {
    name: "ChunkEvent",
    doc: "A chunk event.",
    values: &["start", "complete", "fail"],
};
/// A verification check's result.
pub static CHECK_RESULT: Enum = Enum {
    name: "CheckResult",
    doc: "A verification check's result.",
    values: &["pass", "fail"],
};
/// How thoroughly a chunk was verified.
pub static VERIFICATION_MODE: Enum = Enum {
    name: "VerificationMode",
    doc: "How thoroughly a chunk was verified.",
    values: &["full", "reduced", "minimal"],
};

const STRINGS: Ty = Ty::List(&Ty::Str);
const SCHEMA_FIELD: Field = Field::opt(
    "$schema",
    Ty::Str,
    "The JSON Schema this document follows (kept as it is).",
);

/// `scenarioScore`.
pub static SCENARIO_SCORE: Shape = Shape::document(
    "ScenarioScore",
    "scenarioScore",
    "Satisfied scenarios out of the total (`satisfied ≤ total`).",
    &[
        Field::opt("satisfied", Ty::Whole(0), "Satisfied scenarios."),
        Field::opt("total", Ty::Whole(0), "All scenarios."),
    ],
);

/// One chunk of the extended `chunkProgress`.
pub static CHUNK_SUMMARY: Shape = Shape::open(
    "ChunkSummary",
    "a chunk summary",
    "One chunk in the extended `chunkProgress`.",
    &[
        Field::opt("id", Ty::Whole(1), "The chunk id."),
        Field::opt("name", Ty::Str, "The chunk's name."),
        Field::opt("status", Ty::Enum(&CHUNK_STATUS), "The chunk's status."),
    ],
);

/// `chunkProgress`.
pub static CHUNK_PROGRESS: Shape = Shape::document(
    "ChunkProgress",
    "chunkProgress",
    "Build progress: `{current, total}` (legacy) or `{current, total, chunks}` (extended).",
    &[
        Field::opt("current", Ty::Whole(0), "Chunks done."),
        Field::opt("total", Ty::Whole(0), "All chunks."),
        Field::opt(
            "chunks",
            Ty::List(&Ty::Object(&CHUNK_SUMMARY)),
            "Each chunk's status (extended form).",
        ),
    ],
);

/// A readiness count or a metadata value (anything but a number that is not a count).
const READINESS_VALUE: Ty = Ty::Union(&[
    Ty::Whole(0),
    Ty::Str,
    Ty::Bool,
    Ty::Null,
    Ty::List(&Ty::Json),
    Ty::Map(&Ty::Json),
]);

/// An untracked change.
pub static UNTRACKED_CHANGE: Shape = Shape::document(
    "UntrackedChange",
    "an untracked change",
    "A file write made outside fctry commands (one entry per file).",
    &[
        Field::req(
            "file",
            Ty::Str,
            "The file written (the key: one entry per file).",
        ),
        Field::opt("section", Ty::Str, "The section alias it belongs to."),
        Field::opt("sectionNumber", Ty::Str, "The section's number."),
        Field::opt("timestamp", Ty::Timestamp, "When it was written."),
    ],
);

/// An agent's output.
pub static AGENT_OUTPUT: Shape = Shape::open(
    "AgentOutput",
    "an agent output",
    "What an agent found or did in the current command.",
    &[
        Field::req("summary", Ty::Str, "What the agent found or did."),
        Field::opt(
            "relevanceManifest",
            STRINGS,
            "Files and spec sections relevant to it.",
        ),
    ],
);

/// A skipped prerequisite check.
pub static SKIPPED: Shape = Shape::open(
    "SkippedPrerequisite",
    "a skipped prerequisite",
    "A prerequisite check the user chose to skip.",
    &[
        Field::opt("agent", Ty::Str, "The agent that ran anyway."),
        Field::opt("command", Ty::Str, "The command it ran in."),
        Field::opt("missing", STRINGS, "The unmet requirements."),
        Field::opt("timestamp", Ty::Timestamp, "When the user chose to skip."),
    ],
);

/// `priorities` of a plan (the approved one and the one stored in `buildRun.plan`).
pub const PLAN_PRIORITIES: Field = Field::opt(
    "priorities",
    STRINGS,
    "Build priorities, most important first.",
);
/// `prioritySource` of a plan.
pub const PLAN_PRIORITY_SOURCE: Field = Field::opt(
    "prioritySource",
    Ty::Enum(&PRIORITY_SOURCE),
    "Where the priorities came from.",
);
/// `specVersion` of a plan.
pub const PLAN_SPEC_VERSION: Field = Field::opt(
    "specVersion",
    Ty::Str,
    "The spec version the plan was made from.",
);

/// The approved plan stored in `buildRun.plan`.
pub static PLAN: Shape = Shape::document(
    "BuildRunPlan",
    "a build plan",
    "The approved plan a build run was created from.",
    &[
        Field::opt("totalChunks", Ty::Whole(0), "Number of chunks."),
        PLAN_PRIORITIES,
        PLAN_PRIORITY_SOURCE,
        PLAN_SPEC_VERSION,
        Field::opt("maxRetries", Ty::Whole(0), "Retries per chunk."),
    ],
);

/// One build chunk.
pub static CHUNK: Shape = Shape::document(
    "Chunk",
    "a chunk",
    "One build chunk.",
    &[
        Field::req("id", Ty::Whole(1), "The chunk id (unique in the run)."),
        Field::opt("name", Ty::Str, "The chunk's name."),
        Field::opt("status", Ty::Enum(&CHUNK_STATUS), "The chunk's status."),
        Field::opt("sections", STRINGS, "Spec sections it builds."),
        Field::opt("scenarios", STRINGS, "Scenarios it satisfies."),
        Field::opt(
            "specVersionAtBuild",
            Ty::Str,
            "The spec version it was built against.",
        ),
        Field::opt("error", Ty::Str, "The last failure."),
        Field::opt("attempt", Ty::Whole(1), "The current attempt."),
        Field::opt(
            "startedAt",
            Ty::Timestamp,
            "When the current attempt started.",
        ),
        Field::opt("completedAt", Ty::Timestamp, "When it completed."),
        Field::opt("failedAt", Ty::Timestamp, "When it was abandoned."),
        Field::opt(
            "dependsOn",
            Ty::List(&Ty::Whole(1)),
            "Ids of the chunks it needs first.",
        )
        .by_rule(),
    ],
);

/// `buildRun`.
pub static BUILD_RUN: Shape = Shape::document(
    "BuildRun",
    "buildRun",
    "The build run in progress (or ended `partial`).",
    &[
        Field::opt("runId", Ty::Str, "`run-{epoch ms}`."),
        Field::opt("status", Ty::Enum(&RUN_STATUS), "The run's status."),
        Field::opt("startedAt", Ty::Timestamp, "When the run started."),
        Field::opt(
            "lastCheckpoint",
            Ty::Timestamp,
            "When the last chunk completed.",
        ),
        Field::opt("completedAt", Ty::Timestamp, "When a `partial` run ended."),
        Field::opt(
            "convergencePhase",
            Ty::Str,
            "The convergence phase being built.",
        ),
        Field::opt("maxRetries", Ty::Whole(0), "Retries per chunk (default 3)."),
        Field::opt("plan", Ty::Object(&PLAN), "The approved plan."),
        Field::opt(
            "chunks",
            Ty::List(&Ty::Object(&CHUNK)),
            "The chunks, in plan order.",
        ),
        Field::opt(
            "pendingQuestion",
            Ty::Json,
            "What a paused run waits for (any JSON value).",
        ),
    ],
);

/// `.fctry/state.json`.
pub static STATE: Shape = Shape::document(
    "FctryState",
    "the fctry state",
    "`.fctry/state.json`: the status state every fctry agent reads and writes.",
    &[
        SCHEMA_FIELD,
        Field::opt(
            "activeSection",
            Ty::Str,
            "The spec section being worked on (alias, with or without `#`).",
        ),
        Field::opt(
            "activeSectionNumber",
            Ty::Str,
            "The section's number, like `2.2`; set together with `activeSection`.",
        ),
        Field::opt(
            "currentCommand",
            Ty::Enum(&COMMAND),
            "The command in progress.",
        ),
        Field::opt(
            "workflowStep",
            Ty::Enum(&STEP),
            "The agent step in progress.",
        ),
        Field::opt(
            "completedSteps",
            STRINGS,
            "Steps completed in the current command, in order.",
        ),
        Field::opt(
            "nextStep",
            Ty::Str,
            "What the user should do next, for people.",
        ),
        Field::opt("specVersion", Ty::Str, "The spec version."),
        Field::opt(
            "lastUpdated",
            Ty::Timestamp,
            "When the state was last written.",
        ),
        Field::opt(
            "scenarioScore",
            Ty::Object(&SCENARIO_SCORE),
            "Satisfied scenarios out of the total.",
        ),
        Field::opt(
            "chunkProgress",
            Ty::Object(&CHUNK_PROGRESS),
            "Build progress.",
        ),
        Field::opt(
            "readinessSummary",
            Ty::Map(&READINESS_VALUE),
            "Section counts by readiness (whole numbers ≥ 0); other values are metadata.",
        ),
        Field::opt(
            "untrackedChanges",
            Ty::List(&Ty::Object(&UNTRACKED_CHANGE)),
            "File writes made outside fctry commands.",
        ),
        Field::opt(
            "agentOutputs",
            Ty::Map(&Ty::Object(&AGENT_OUTPUT)),
            "Each agent's output of the current command, by agent.",
        ),
        Field::opt(
            "skippedPrerequisites",
            Ty::List(&Ty::Object(&SKIPPED)),
            "Prerequisite checks the user chose to skip.",
        ),
        Field::opt(
            "buildRun",
            Ty::Object(&BUILD_RUN),
            "The build run in progress (or ended `partial`).",
        ),
    ],
);

/// One inbox item.
pub static INBOX_ITEM: Shape = Shape::document(
    "InboxItem",
    "an inbox item",
    "An item of `.fctry/inbox.json`.",
    &[
        Field::req("id", Ty::Str, "`inbox-{epoch ms}-{6 base36}`."),
        Field::req("type", Ty::Enum(&INBOX_TYPE), "What kind of input it is."),
        Field::req("content", Ty::Str, "The user's text."),
        Field::req("timestamp", Ty::Timestamp, "When it was added."),
        Field::req(
            "status",
            Ty::Enum(&INBOX_STATUS),
            "Where it is in its lifecycle.",
        ),
        Field::opt("error", Ty::Str, "Why processing failed."),
    ],
);

/// `.fctry/inbox.json`.
pub static INBOX: Alias = Alias {
    name: "FctryInbox",
    doc: "`.fctry/inbox.json`: the inbox items, newest first.",
    ty: Ty::List(&Ty::Object(&INBOX_ITEM)),
};

/// One verification check.
pub static CHECK: Shape = Shape::document(
    "VerificationCheck",
    "a verification check",
    "One check of a verification event.",
    &[
        Field::req("name", Ty::Str, "The check's name."),
        Field::req("result", Ty::Enum(&CHECK_RESULT), "Its result."),
        Field::opt("retried", Ty::Bool, "Whether it passed only on a retry."),
    ],
);

/// One fctry event.
pub static EVENT: Shape = Shape::document(
    "FctryEvent",
    "an fctry event",
    "One fctry build, verification or context lifecycle event.",
    &[
        Field::req(
            "kind",
            Ty::Str,
            "The event kind; verification and context kinds have more fields.",
        ),
        Field::req("timestamp", Ty::Timestamp, "When it happened."),
        Field::opt("chunk", Ty::Str, "The chunk it concerns."),
        Field::opt("summary", Ty::Str, "What happened, for people."),
    ],
)
.with_variants(&[
    Variant {
        field: "kind",
        values: &VERIFICATION_KINDS,
        what: "verification event",
        fields: &[
            Field::opt("checks", Ty::List(&Ty::Object(&CHECK)), "The checks run."),
            Field::opt(
                "mode",
                Ty::Enum(&VERIFICATION_MODE),
                "How thoroughly it verified.",
            ),
            Field::opt("screenshot", Ty::Str, "A screenshot's path."),
        ],
    },
    Variant {
        field: "kind",
        values: &CONTEXT_KINDS,
        what: "context event",
        fields: &[Field::opt(
            "isolation",
            Ty::Str,
            "The isolation mode (`context-boundary`).",
        )],
    },
]);

/// A state argument: the document, or null for a missing file.
pub const STATE_IN: Ty = Ty::Nullable(&Ty::Object(&STATE));
/// An inbox argument: the document, or null for a missing file.
pub const INBOX_IN: Ty = Ty::Nullable(&Ty::Alias(&INBOX));
