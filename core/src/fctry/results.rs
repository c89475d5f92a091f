//! What the fctry operations take and return besides the documents (`shapes.rs`), described
//! once for the generated TypeScript and Python types.

use super::shapes::{PLAN_PRIORITIES, PLAN_PRIORITY_SOURCE, PLAN_SPEC_VERSION};
use crate::shape::{Field, Shape, Ty};

pub use super::status::shapes::{
    CHUNK_COUNTS, LAYOUT, PROJECT, READINESS_COUNTS, RENDER_OPTIONS, SCAN_COUNTS, SCENARIO_COUNTS,
    STATUS_LINE,
};

const STRINGS: Ty = Ty::List(&Ty::Str);

/// An approved build plan (`create_build_run`'s argument).
pub static BUILD_PLAN: Shape = Shape::exact(
    "BuildPlan",
    "An approved build plan.",
    &[
        Field::req(
            "chunks",
            Ty::List(&Ty::Object(&PLAN_CHUNK)),
            "The chunks, in plan order.",
        ),
        PLAN_PRIORITIES,
        PLAN_PRIORITY_SOURCE,
        PLAN_SPEC_VERSION,
        Field::opt("maxRetries", Ty::Whole(0), "Retries per chunk (default 3)."),
        Field::opt(
            "convergencePhase",
            Ty::Str,
            "The convergence phase being built.",
        ),
    ],
);

/// A chunk of a build plan.
pub static PLAN_CHUNK: Shape = Shape::exact(
    "PlanChunk",
    "A chunk of a build plan.",
    &[
        Field::req("id", Ty::Whole(1), "The chunk id (unique)."),
        Field::opt("name", Ty::Str, "The chunk's name."),
        Field::opt("sections", STRINGS, "Spec sections it builds."),
        Field::opt("scenarios", STRINGS, "Scenarios it satisfies."),
        Field::opt(
            "dependsOn",
            Ty::List(&Ty::Whole(1)),
            "Ids of the chunks it needs first.",
        ),
    ],
);

/// The outcome of `check_prerequisites`.
pub static PREREQUISITES: Shape = Shape::exact(
    "PrerequisiteCheck",
    "An agent's prerequisites checked against `completedSteps`.",
    &[
        Field::req("ok", Ty::Bool, "True when nothing is missing."),
        Field::req("agent", Ty::Str, "The agent."),
        Field::req("command", Ty::Nullable(&Ty::Str), "The command, or null."),
        Field::req(
            "missing",
            Ty::List(&STRINGS),
            "Unmet requirements; each is satisfied by any one of its steps.",
        ),
        Field::req(
            "message",
            Ty::Nullable(&Ty::Str),
            "The seed's numbered \"Workflow error\" text, or null.",
        ),
        Field::req(
            "options",
            STRINGS,
            "The three numbered choices (empty when nothing is missing).",
        ),
    ],
);

/// The chunk DAG in layers.
pub static DAG_LAYERS: Shape = Shape::exact(
    "DagLayers",
    "The chunk DAG in layers for drawing.",
    &[
        Field::req(
            "layers",
            Ty::List(&Ty::List(&Ty::Whole(0))),
            "Layer 0 has no dependencies; layer n depends on earlier layers only.",
        ),
        Field::req(
            "unplaced",
            Ty::List(&Ty::Whole(0)),
            "Chunks in a cycle or depending on an unknown id.",
        ),
    ],
);

/// A completed chunk built against another spec version.
pub static CHANGED_CHUNK: Shape = Shape::exact(
    "ChangedChunk",
    "A completed chunk built against another spec version.",
    &[
        Field::req("id", Ty::Json, "The chunk id."),
        Field::req("name", Ty::Json, "Its name, or null."),
        Field::req(
            "specVersionAtBuild",
            Ty::Json,
            "The version it was built against.",
        ),
        Field::req("sections", Ty::Json, "Its sections."),
    ],
);

/// The resume protocol's answer.
pub static RESUME_PLAN: Shape = Shape::exact(
    "ResumePlan",
    "What to offer after an interruption.",
    &[
        Field::req(
            "offer",
            Ty::Bool,
            "True when the run is running and some chunk completed.",
        ),
        Field::req("completed", Ty::List(&Ty::Whole(0)), "Completed chunk ids."),
        Field::req("remaining", Ty::List(&Ty::Whole(0)), "The other chunk ids."),
        Field::req("next", Ty::List(&Ty::Whole(0)), "The ready chunks."),
        Field::req(
            "changed",
            Ty::List(&Ty::Object(&CHANGED_CHUNK)),
            "Completed chunks built against another spec version.",
        ),
        Field::req(
            "options",
            STRINGS,
            "The numbered choices (empty without an offer).",
        ),
    ],
);

/// Where an event without a valid timestamp was.
pub static FEED_INVALID: Shape = Shape::exact(
    "FeedEntry",
    "The place of an event in the lists given to the activity feed.",
    &[
        Field::req("source", Ty::Whole(0), "Which list."),
        Field::req("index", Ty::Whole(0), "Which entry of it."),
    ],
);

/// The activity feed.
pub static ACTIVITY_FEED: Shape = Shape::exact(
    "ActivityFeed",
    "Event lists merged oldest first.",
    &[
        Field::req(
            "events",
            Ty::List(&Ty::Json),
            "The events with a valid timestamp, oldest first.",
        ),
        Field::req(
            "invalid",
            Ty::List(&Ty::Object(&FEED_INVALID)),
            "Events without a valid timestamp.",
        ),
    ],
);

/// The context health indicator.
pub static CONTEXT_HEALTH: Shape = Shape::exact(
    "ContextHealth",
    "The context health indicator.",
    &[
        Field::req(
            "isolation",
            Ty::Str,
            "The latest boundary's isolation mode, or `standard`.",
        ),
        Field::req(
            "lastCheckpoint",
            Ty::Nullable(&Ty::Str),
            "The latest checkpoint's time, or null.",
        ),
    ],
);

/// `inbox_counts`' result.
pub static INBOX_COUNTS: Shape = Shape::exact(
    "InboxCounts",
    "How many inbox items are in each status.",
    &[
        Field::req("total", Ty::Whole(0), "All items."),
        Field::req("pending", Ty::Whole(0), "Queued, waiting for a command."),
        Field::req("processing", Ty::Whole(0), "Being worked on by a command."),
        Field::req(
            "processed",
            Ty::Whole(0),
            "Done, not yet incorporated into the spec.",
        ),
        Field::req("error", Ty::Whole(0), "Failed (can be retried)."),
        Field::req("incorporated", Ty::Whole(0), "Incorporated into the spec."),
        Field::req(
            "other",
            Ty::Whole(0),
            "Items whose status is missing or unknown.",
        ),
    ],
);
