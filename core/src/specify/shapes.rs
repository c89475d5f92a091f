//! The values of the specify operations, described once (`crate::shape`): the generated
//! TypeScript and Python types come from here.

use super::{cells, layout};
use crate::shape::{Enum, Field, Shape, Ty};

/// A table row.
pub static ROW: Shape = Shape::exact(
    "SpecifyRow",
    "A table row: its cells (trimmed, an escaped pipe read as `|`) and its line as written (absent for a \
     new row).",
    &[
        Field::req("cells", Ty::List(&Ty::Str), "The cells, in column order."),
        Field::opt(
            "raw",
            Ty::Str,
            "The line as written, with its line break: kept while the cells are its cells.",
        ),
    ],
);

/// A GFM pipe table.
pub static TABLE: Shape = Shape::exact(
    "SpecifyTable",
    "A pipe table of index.md, with the section it is in.",
    &[
        Field::req("line", Ty::Whole(1), "The line of its header row."),
        Field::req(
            "section",
            Ty::Nullable(&Ty::Str),
            "The `#`/`##` heading above it.",
        ),
        Field::req(
            "subsection",
            Ty::Nullable(&Ty::Str),
            "The deeper heading above it within its section.",
        ),
        Field::req("columns", Ty::List(&Ty::Str), "The header's cells."),
        Field::req("header", Ty::Str, "The header line as written."),
        Field::req("delimiter", Ty::Str, "The delimiter line as written."),
        Field::req("rows", Ty::List(&Ty::Object(&ROW)), "The rows, in order."),
    ],
);

/// Lines kept as they are.
pub static TEXT_BLOCK: Shape = Shape::exact(
    "SpecifyTextBlock",
    "Lines that are not a table, kept as written.",
    &[Field::req(
        "text",
        Ty::Str,
        "The lines, with their line breaks.",
    )],
);

/// A table block.
pub static TABLE_BLOCK: Shape = Shape::exact(
    "SpecifyTableBlock",
    "A table.",
    &[Field::req("table", Ty::Object(&TABLE), "The table.")],
);

/// `index.md` as a document.
pub static MARKDOWN: Shape = Shape::exact(
    "SpecifyMarkdown",
    "index.md as text blocks and tables, in order: rendered back byte for byte.",
    &[Field::req(
        "blocks",
        Ty::List(&Ty::Union(&[
            Ty::Object(&TEXT_BLOCK),
            Ty::Object(&TABLE_BLOCK),
        ])),
        "The blocks, in order.",
    )],
);

/// The loop statuses.
pub static LOOP_STATUS: Enum = Enum {
    name: "SpecifyLoopStatus",
    doc: "Where the specify workflow is (seed 004, \"Loop Status Values\").",
    values: layout::LOOP_STATUSES,
};

/// The gap priorities.
pub static PRIORITY: Enum = Enum {
    name: "SpecifyGapPriority",
    doc: "A gap's priority: Critical and Important block completion, Minor gaps are deferred.",
    values: layout::PRIORITIES,
};

/// The gap statuses.
pub static GAP_STATUS: Enum = Enum {
    name: "SpecifyGapStatus",
    doc: "A gap's status (seed 004, \"Gap Status Values\").",
    values: layout::GAP_STATUSES,
};

/// The coverage statuses.
pub static COVERAGE_STATUS: Enum = Enum {
    name: "SpecifyCoverageStatus",
    doc: "A requirement's coverage (the template's `✓ Covered`, `⚠ Gap Found`, `○ No validation` read as these).",
    values: &cells::COVERAGE,
};

const TEXT: Ty = Ty::Nullable(&Ty::Str);
const IDS: Ty = Ty::List(&Ty::Str);

/// The Priority Loop State table.
pub static LOOP_STATE: Shape = Shape::open(
    "SpecifyLoopState",
    "the priority loop state",
    "The Priority Loop State table (its other rows are kept, by their labels' keys).",
    &[
        Field::opt(
            "loop_status",
            Ty::Enum(&LOOP_STATUS),
            "Where the workflow is.",
        ),
        Field::opt(
            "current_iteration",
            Ty::Whole(0),
            "The iteration, 1 to 10 (`n / 10`).",
        )
        .by_rule(),
        Field::opt(
            "max_iterations",
            Ty::Whole(1),
            "The `/ 10` of the iteration cell.",
        ),
        Field::opt(
            "last_activity",
            Ty::Timestamp,
            "When the state last changed (ISO 8601).",
        ),
        Field::opt(
            "stale_count",
            Ty::Whole(0),
            "Iterations that changed no gap, 0 to 3 (`n / 3`).",
        )
        .by_rule(),
        Field::opt(
            "max_stale",
            Ty::Whole(1),
            "The `/ 3` of the stale count cell.",
        ),
        Field::opt(
            "termination_reason",
            TEXT,
            "Why the workflow ended (`success`, `max_iterations`, ...).",
        ),
        Field::opt(
            "deferred_minor_gaps",
            Ty::Whole(0),
            "How many Minor gaps are deferred.",
        ),
    ],
);

/// A gap of the queue.
pub static GAP: Shape = Shape::open(
    "SpecifyGap",
    "a gap",
    "A row of the Gap Priority Queue (both column sets; a column the table lacks is absent).",
    &[
        Field::opt(
            "priority",
            Ty::Enum(&PRIORITY),
            "Critical, Important or Minor.",
        ),
        Field::req("id", Ty::Str, "The gap id (`G-001`).").by_rule(),
        Field::opt(
            "chk_source",
            TEXT,
            "The checklist item that found it (`CHK015`).",
        ),
        Field::opt(
            "fr_reference",
            TEXT,
            "The requirement it is about (`FR-003`).",
        ),
        Field::opt("question", TEXT, "The question it asks."),
        Field::opt("status", Ty::Enum(&GAP_STATUS), "Its status."),
        Field::opt("stale", Ty::Whole(0), "Iterations it stayed open, 0 to 3.").by_rule(),
        Field::opt(
            "clarification",
            TEXT,
            "The clarification that asked it (`C2.1`).",
        ),
        Field::opt(
            "synced",
            Ty::Bool,
            "True (`✓`) once its answer is in the spec.",
        ),
    ],
);

/// A row of the Gap Resolution History.
pub static HISTORY_ENTRY: Shape = Shape::open(
    "SpecifyHistoryEntry",
    "a history row",
    "A row of the Gap Resolution History (the seed's five columns, the template's eight).",
    &[
        Field::opt("gap_id", Ty::Str, "The gap."),
        Field::opt("iteration", Ty::Whole(1), "The iteration."),
        Field::opt(
            "action",
            TEXT,
            "What happened (`created`, `clarifying`, `resolved`, ...).",
        ),
        Field::opt("details", TEXT, "Details."),
        Field::opt("timestamp", Ty::Timestamp, "When (ISO 8601)."),
        Field::opt("chk_source", TEXT, "The template's CHK Source."),
        Field::opt("original_gap", TEXT, "The template's Original Gap."),
        Field::opt("priority", Ty::Enum(&PRIORITY), "The template's Priority."),
        Field::opt("resolution", TEXT, "The template's Resolution."),
        Field::opt("resolved_via", TEXT, "The template's Resolved Via."),
    ],
);

/// A row of the Traceability Matrix.
pub static TRACE: Shape = Shape::open(
    "SpecifyTrace",
    "a traceability row",
    "A requirement's row of the Traceability Matrix.",
    &[
        Field::req("fr_id", Ty::Str, "The requirement (`FR-001`).").by_rule(),
        Field::opt("chk_ids", IDS, "The checklist items that check it."),
        Field::opt(
            "coverage_status",
            Ty::Enum(&COVERAGE_STATUS),
            "Its coverage.",
        ),
        Field::opt("gap_ids", IDS, "The gaps found in it."),
        Field::opt("notes", TEXT, "Notes."),
    ],
);

/// A row of the template's checklist-to-requirements table.
pub static CHECKLIST_ROW: Shape = Shape::open(
    "SpecifyChecklistRow",
    "a checklist mapping row",
    "A checklist item's row of the template's Checklist → Requirements Mapping.",
    &[
        Field::opt("chk_id", Ty::Str, "The checklist item (`CHK001`)."),
        Field::opt("fr_ids", IDS, "The requirements it checks."),
        Field::opt("gap_type", TEXT, "The kind of gap it found."),
        Field::opt("resolution", TEXT, "How it was resolved."),
    ],
);

/// index.md read as its tables.
pub static INDEX: Shape = Shape::open(
    "SpecifyIndex",
    "the index",
    "index.md read as its tables (docs/specify.md § The index): the ones statecore knows \
     typed, every other table under its heading's key (a field/value table an object, others \
     a list of rows).",
    &[
        Field::opt(
            "priority_loop_state",
            Ty::Object(&LOOP_STATE),
            "The Priority Loop State.",
        ),
        Field::opt(
            "gap_priority_queue",
            Ty::List(&Ty::Object(&GAP)),
            "The Gap Priority Queue.",
        ),
        Field::opt(
            "gap_resolution_history",
            Ty::List(&Ty::Object(&HISTORY_ENTRY)),
            "The Gap Resolution History.",
        ),
        Field::opt(
            "traceability_matrix",
            Ty::List(&Ty::Object(&TRACE)),
            "The Traceability Matrix, by requirement.",
        ),
        Field::opt(
            "checklist_mapping",
            Ty::List(&Ty::Object(&CHECKLIST_ROW)),
            "The template's Checklist → Requirements Mapping.",
        ),
    ],
);

/// A gap validation found, before it is added.
pub static NEW_GAP: Shape = Shape::open(
    "SpecifyNewGap",
    "a new gap",
    "A gap to add: its id (`G-NNN`), status (`pending`, Minor: `deferred`) and stale count \
     (0) are filled in when absent.",
    &[
        Field::opt(
            "priority",
            Ty::Enum(&PRIORITY),
            "Critical, Important or Minor.",
        ),
        Field::opt("id", Ty::Str, "The gap id, when it has one."),
        Field::opt("chk_source", TEXT, "The checklist item that found it."),
        Field::opt("fr_reference", TEXT, "The requirement it is about."),
        Field::opt("question", TEXT, "The question it asks."),
        Field::opt("status", Ty::Enum(&GAP_STATUS), "Its status."),
    ],
);
