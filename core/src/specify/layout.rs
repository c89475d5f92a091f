//! The tables statecore knows in index.md (seed 004 and its template, docs/specify.md § The
//! index): each one's key in the index document, how it is found, and its columns (or, for
//! a field/value table, its rows) with the aliases of both column sets.

use super::cells::Codec;

/// The loop statuses (seed 004, "Loop Status Values").
pub const LOOP_STATUSES: &[&str] = &[
    "not_started",
    "scaffolding",
    "spec_writing",
    "validating",
    "clarifying",
    "completed",
    "terminated",
];

/// The gap priorities, most urgent first.
pub const PRIORITIES: &[&str] = &["Critical", "Important", "Minor"];

/// The gap statuses (seed 004, "Gap Status Values").
pub const GAP_STATUSES: &[&str] = &["pending", "clarifying", "resolved", "deferred", "known_gap"];

/// A column of a known table (or a row of a field/value table).
#[derive(Debug)]
pub struct Column {
    /// The field of the index document.
    pub field: &'static str,
    /// The keys of the headers (labels) it is read from ([`super::cells::key_of`]).
    pub names: &'static [&'static str],
    /// How its cells read and write.
    pub codec: Codec,
    /// Its header (label) in a new table or row.
    pub header: &'static str,
}

const fn col(
    field: &'static str,
    names: &'static [&'static str],
    codec: Codec,
    header: &'static str,
) -> Column {
    Column {
        field,
        names,
        codec,
        header,
    }
}

/// A table statecore knows.
#[derive(Debug)]
pub struct Layout {
    /// Its key in the index document.
    pub key: &'static str,
    /// Its heading, for a new section.
    pub title: &'static str,
    /// The key of the section it is in (or of its own heading).
    pub section: &'static str,
    /// The key its first column must have, when the section holds other tables too.
    pub first: Option<&'static str>,
    /// True for a field/value table (the index document holds an object).
    pub record: bool,
    /// Its columns (a field/value table: its rows).
    pub columns: &'static [Column],
    /// How many of `columns` a new table has (the seed's column set).
    pub seed_columns: usize,
}

/// The Priority Loop State rows.
pub static PRIORITY_LOOP_STATE: Layout = Layout {
    key: "priority_loop_state",
    title: "Priority Loop State",
    section: "priority_loop_state",
    first: None,
    record: true,
    columns: &[
        col(
            "loop_status",
            &["loop_status", "status"],
            Codec::Enum(LOOP_STATUSES),
            "**Loop Status**",
        ),
        col(
            "current_iteration",
            &["current_iteration", "iteration"],
            Codec::Ratio("max_iterations"),
            "**Current Iteration**",
        ),
        col(
            "last_activity",
            &["last_activity"],
            Codec::Text,
            "**Last Activity**",
        ),
        col(
            "stale_count",
            &["stale_count"],
            Codec::Ratio("max_stale"),
            "**Stale Count**",
        ),
        col(
            "termination_reason",
            &["termination_reason"],
            Codec::Text,
            "**Termination Reason**",
        ),
        col(
            "deferred_minor_gaps",
            &["deferred_minor_gaps", "deferred_gaps"],
            Codec::Int,
            "**Deferred Minor Gaps**",
        ),
    ],
    seed_columns: 6,
};

/// The Gap Priority Queue columns: the seed's, then the template's `Synced`.
pub static GAP_PRIORITY_QUEUE: Layout = Layout {
    key: "gap_priority_queue",
    title: "Gap Priority Queue",
    section: "gap_priority_queue",
    first: None,
    record: false,
    columns: &[
        col(
            "priority",
            &["priority"],
            Codec::Enum(PRIORITIES),
            "Priority",
        ),
        col("id", &["gap_id", "id", "gap"], Codec::Text, "Gap ID"),
        col(
            "chk_source",
            &["chk_source", "chk", "chk_id", "source"],
            Codec::Text,
            "CHK Source",
        ),
        col(
            "fr_reference",
            &["fr_reference", "fr_ref", "fr", "fr_id"],
            Codec::Text,
            "FR Reference",
        ),
        col("question", &["question"], Codec::Text, "Question"),
        col("status", &["status"], Codec::Enum(GAP_STATUSES), "Status"),
        col("stale", &["stale", "stale_count"], Codec::Int, "Stale"),
        col(
            "clarification",
            &["clarification", "clarification_id"],
            Codec::Text,
            "Clarification",
        ),
        col("synced", &["synced"], Codec::Check, "Synced"),
    ],
    seed_columns: 8,
};

/// The Gap Resolution History columns: the seed's five, then the template's others.
pub static GAP_RESOLUTION_HISTORY: Layout = Layout {
    key: "gap_resolution_history",
    title: "Gap Resolution History",
    section: "gap_resolution_history",
    first: None,
    record: false,
    columns: &[
        col("gap_id", &["gap_id", "gap"], Codec::Text, "Gap ID"),
        col("iteration", &["iteration"], Codec::Int, "Iteration"),
        col("action", &["action"], Codec::Text, "Action"),
        col("details", &["details"], Codec::Text, "Details"),
        col("timestamp", &["timestamp"], Codec::Text, "Timestamp"),
        col("chk_source", &["chk_source"], Codec::Text, "CHK Source"),
        col(
            "original_gap",
            &["original_gap"],
            Codec::Text,
            "Original Gap",
        ),
        col(
            "priority",
            &["priority"],
            Codec::Enum(PRIORITIES),
            "Priority",
        ),
        col("resolution", &["resolution"], Codec::Text, "Resolution"),
        col(
            "resolved_via",
            &["resolved_via"],
            Codec::Text,
            "Resolved Via",
        ),
    ],
    seed_columns: 5,
};

/// The Traceability Matrix from requirements (the seed's, and the template's first table).
pub static TRACEABILITY_MATRIX: Layout = Layout {
    key: "traceability_matrix",
    title: "Traceability Matrix",
    section: "traceability_matrix",
    first: Some("fr_id"),
    record: false,
    columns: &[
        col("fr_id", &["fr_id"], Codec::Text, "FR ID"),
        col("chk_ids", &["chk_ids"], Codec::List, "CHK IDs"),
        col(
            "coverage_status",
            &["coverage_status", "coverage"],
            Codec::Coverage,
            "Coverage Status",
        ),
        col("gap_ids", &["gap_ids"], Codec::List, "Gap IDs"),
        col("notes", &["notes"], Codec::Text, "Notes"),
    ],
    seed_columns: 5,
};

/// The template's second traceability table, from checklist items to requirements.
pub static CHECKLIST_MAPPING: Layout = Layout {
    key: "checklist_mapping",
    title: "Checklist Mapping",
    section: "traceability_matrix",
    first: Some("chk_id"),
    record: false,
    columns: &[
        col("chk_id", &["chk_id"], Codec::Text, "CHK ID"),
        col("fr_ids", &["fr_ids"], Codec::List, "FR IDs"),
        col("gap_type", &["gap_type"], Codec::Text, "Gap Type"),
        col("resolution", &["resolution"], Codec::Text, "Resolution"),
    ],
    seed_columns: 4,
};

/// Every known table, in the seed's order.
pub static LAYOUTS: [&Layout; 5] = [
    &PRIORITY_LOOP_STATE,
    &GAP_PRIORITY_QUEUE,
    &GAP_RESOLUTION_HISTORY,
    &TRACEABILITY_MATRIX,
    &CHECKLIST_MAPPING,
];

/// The known table a table of index.md is: by its section's key (or its own heading's), and
/// its first column when the layout names one.
pub fn layout_for(section: &str, own: &str, first: &str) -> Option<&'static Layout> {
    LAYOUTS
        .iter()
        .copied()
        .find(|l| (l.section == section || l.key == own) && l.first.is_none_or(|f| f == first))
}

/// The known table whose key is `key`.
pub fn layout_named(key: &str) -> Option<&'static Layout> {
    LAYOUTS.iter().copied().find(|l| l.key == key)
}

impl Layout {
    /// The column read from a header (label) key.
    pub fn column(&self, key: &str) -> Option<&'static Column> {
        self.columns.iter().find(|c| c.names.contains(&key))
    }

    /// The column of a field.
    pub fn field(&self, field: &str) -> Option<&'static Column> {
        self.columns.iter().find(|c| c.field == field)
    }

    /// The columns a new table of this layout has.
    pub fn seed(&self) -> &[Column] {
        self.columns
            .get(..self.seed_columns)
            .unwrap_or(self.columns)
    }
}
