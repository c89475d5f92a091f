//! The values of the hive milestones and of recovery (arguments and results), described once
//! (`crate::shape`): the generated TypeScript and Python types come from here.

use super::shapes::{COMPLIANCE, STATE, WORKER_ERROR, WORKER_METRICS};
use crate::shape::common::ISSUE;
use crate::shape::{Field, Shape, Ty};

/// One worker the queen plans.
pub static WORKER_PLAN: Shape = Shape::exact(
    "HiveWorkerPlan",
    "A worker the queen plans: its name, its task, what it focuses on.",
    &[
        Field::req(
            "name",
            Ty::Line,
            "The worker's name (unique in the session).",
        ),
        Field::req("task", Ty::Str, "Its task."),
        Field::opt("focus_areas", Ty::List(&Ty::Str), "What it focuses on."),
    ],
);

/// A worker's progress.
pub static PROGRESS: Shape = Shape::exact(
    "HiveWorkerProgress",
    "Fields a worker's progress sets (`metrics.events_logged` is counted from the log).",
    &[
        Field::opt("metrics", Ty::Object(&WORKER_METRICS), "Counters to set."),
        Field::opt(
            "protocol_compliance",
            Ty::Object(&COMPLIANCE),
            "Compliance flags to set.",
        ),
    ],
);

/// Why a worker failed, as a step takes it.
pub const FAILURE: Ty = Ty::Union(&[Ty::Str, Ty::Object(&WORKER_ERROR)]);

/// The options of `recover_state`.
pub static RECOVER_OPTIONS: Shape = Shape::exact(
    "HiveRecoverOptions",
    "Options of a recovery from the log.",
    &[Field::opt(
        "skip_bad_lines",
        Ty::Nullable(&Ty::Bool),
        "Skip a line that is not JSON or cannot be applied, and report it, instead of \
         stopping with its error.",
    )],
);

/// A line a recovery skipped.
pub static SKIPPED: Shape = Shape::exact(
    "HiveSkippedLine",
    "A log line a recovery skipped (with `skip_bad_lines`).",
    &[
        Field::req(
            "line",
            Ty::Whole(1),
            "Its line number (from where the replay began).",
        ),
        Field::req("offset", Ty::Whole(0), "Its byte offset in the file."),
        Field::req("code", Ty::Str, "The error code it would have raised."),
        Field::req("message", Ty::Str, "Why it was skipped."),
    ],
);

/// Where a torn last line starts.
pub static TORN: Shape = Shape::exact(
    "HiveTornLine",
    "A torn (incomplete) last line, not applied: where it starts.",
    &[
        Field::req("line", Ty::Whole(1), "Its line number."),
        Field::req(
            "offset",
            Ty::Whole(0),
            "Its byte offset (a repair truncates there).",
        ),
    ],
);

/// What a recovery gives.
pub static RECOVERED: Shape = Shape::exact(
    "HiveRecovered",
    "A state rebuilt from its log, and what the replay met.",
    &[
        Field::req(
            "state",
            Ty::Object(&STATE),
            "The state (its `session_metadata.log_offset` set).",
        ),
        Field::req(
            "log_offset",
            Ty::Whole(0),
            "The bytes of the log folded into the state.",
        ),
        Field::req("events", Ty::Whole(0), "Event lines applied."),
        Field::req(
            "duplicates",
            Ty::Whole(0),
            "Lines applied once already (the same line repeated).",
        ),
        Field::req(
            "out_of_order",
            Ty::Whole(0),
            "Lines whose time is before an earlier line's (applied in file order).",
        ),
        Field::req(
            "skipped",
            Ty::List(&Ty::Object(&SKIPPED)),
            "Lines skipped (`skip_bad_lines`).",
        ),
        Field::req(
            "torn",
            Ty::Nullable(&Ty::Object(&TORN)),
            "A torn last line, not applied.",
        ),
        Field::req(
            "needs_newline",
            Ty::Bool,
            "The last line has no `\\n` (an appender writes one first).",
        ),
        Field::req(
            "warnings",
            Ty::List(&Ty::Object(&ISSUE)),
            "`W_TORN_TAIL`, and the state's warnings.",
        ),
    ],
);
