//! The arguments and results of the specify operations, described once (`crate::shape`).

use super::shapes::{INDEX, LOOP_STATUS};
use crate::shape::{Field, Shape, Ty};

/// The index a writer is given: `null` for a missing index.md.
pub const INDEX_IN: Ty = Ty::Nullable(&Ty::Object(&INDEX));
const IDS: Ty = Ty::List(&Ty::Str);

/// Where a workflow resumes.
pub static RESUME: Shape = Shape::exact(
    "SpecifyResume",
    "Where a workflow resumes, by its loop status.",
    &[
        Field::req("loop_status", Ty::Enum(&LOOP_STATUS), "The loop status."),
        Field::req("phase", Ty::Str, "The seed's phase (`A2`, `B1`, ...)."),
        Field::req(
            "action",
            Ty::Str,
            "What the driver does next: start, scaffold, write_spec, validate, collect_answers or done.",
        ),
        Field::req("description", Ty::Str, "The action, for people."),
        Field::opt("clarifying", IDS, "The gaps awaiting answers (`clarifying`)."),
        Field::opt("termination_reason", Ty::Str, "Why the loop ended."),
    ],
);

/// One clarification of an iteration.
pub static CLARIFICATION: Shape = Shape::exact(
    "SpecifyClarification",
    "A clarification: the gaps of one requirement asked together.",
    &[
        Field::req("id", Ty::Str, "`C{iteration}.{n}`."),
        Field::req("fr_reference", Ty::Nullable(&Ty::Str), "The requirement."),
        Field::req("gaps", IDS, "Its gaps, in queue order."),
        Field::req("questions", Ty::List(&Ty::Str), "Their questions."),
    ],
);

/// The termination check.
pub static TERMINATION: Shape = Shape::exact(
    "SpecifyTermination",
    "The termination check, in the seed's order.",
    &[
        Field::req(
            "outcome",
            Ty::Str,
            "success, max_iterations, stale, no_progress or continue.",
        ),
        Field::req(
            "reason",
            Ty::Nullable(&Ty::Str),
            "The termination reason it sets.",
        ),
        Field::req("blocking", IDS, "The open Critical and Important gaps."),
        Field::req(
            "stale_gaps",
            IDS,
            "The blocking gaps open 3 iterations (escalated).",
        ),
        Field::req(
            "warning_gaps",
            IDS,
            "The blocking gaps open 2 iterations (a warning).",
        ),
    ],
);

/// `start`'s result.
pub static STARTED: Shape = Shape::exact(
    "SpecifyStarted",
    "The index, whether it changed, and where the workflow resumes.",
    &[
        Field::req("index", Ty::Object(&INDEX), "The index."),
        Field::req("changed", Ty::Bool, "True when the workflow was started."),
        Field::req("resume", Ty::Object(&RESUME), "Where it resumes."),
    ],
);

/// `start_clarifying`'s result.
pub static CLARIFYING: Shape = Shape::exact(
    "SpecifyClarifying",
    "The index and the clarifications presented.",
    &[
        Field::req("index", Ty::Object(&INDEX), "The index."),
        Field::req("changed", Ty::Bool, "False when there was nothing to ask."),
        Field::req(
            "clarifications",
            Ty::List(&Ty::Object(&CLARIFICATION)),
            "The clarifications presented.",
        ),
    ],
);

/// `end_iteration`'s result.
pub static ITERATION_ENDED: Shape = Shape::exact(
    "SpecifyIterationEnded",
    "The index after the iteration, and its termination check.",
    &[
        Field::req("index", Ty::Object(&INDEX), "The index."),
        Field::req("changed", Ty::Bool, "True."),
        Field::req(
            "termination",
            Ty::Object(&TERMINATION),
            "The termination check.",
        ),
    ],
);

/// An agent's artifact.
pub static ARTIFACT: Shape = Shape::open(
    "SpecifyArtifact",
    "an artifact",
    "A file an agent returned: `create` and `update` write `content`, `delete` removes it.",
    &[
        Field::req("operation", Ty::Str, "create, update or delete."),
        Field::req(
            "path",
            Ty::Str,
            "Its path, relative to the feature's directory.",
        ),
        Field::opt("content", Ty::Str, "Its content (create, update)."),
    ],
);
