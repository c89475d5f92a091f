//! Shapes shared by every module: reports, file results, merge options, limits, times.

use super::{Alias, Enum, Field, Shape, Ty};

/// `string | number`: RFC 3339 text or epoch milliseconds (host code fills in its clock).
pub static NOW: Alias = Alias {
    name: "Now",
    doc: "A time: RFC 3339 text (kept as given) or epoch milliseconds.",
    ty: Ty::Union(&[Ty::Str, Ty::Int]),
};

/// One problem found in a document.
pub static ISSUE: Shape = Shape::exact(
    "Issue",
    "One problem in a document: a stable code, a JSON-pointer path, a message.",
    &[
        Field::req(
            "code",
            Ty::Str,
            "Stable code (`E_REQUIRED`, `W_UNKNOWN_FIELD`, ...).",
        ),
        Field::req(
            "path",
            Ty::Str,
            "JSON pointer to the offending place (`\"\"`: the whole document).",
        ),
        Field::req("message", Ty::Str, "What is wrong and how to fix it."),
    ],
);

const ISSUES: Ty = Ty::List(&Ty::Object(&ISSUE));

/// A validation report.
pub static REPORT: Shape = Shape::exact(
    "Report",
    "A validation report: `valid` is true when `errors` is empty (warnings never invalidate).",
    &[
        Field::req("valid", Ty::Bool, "True when there is no error."),
        Field::req(
            "errors",
            ISSUES,
            "Problems that make the document invalid, in check order.",
        ),
        Field::req("warnings", ISSUES, "Problems worth telling a person about."),
    ],
);

/// An entry of `kinds()`.
pub static KIND_INFO: Shape = Shape::exact(
    "KindInfo",
    "A document kind.",
    &[
        Field::req("name", Ty::Kind, "The kind's name."),
        Field::req("description", Ty::Str, "What its file holds."),
    ],
);

/// The documented limits.
pub static LIMITS: Shape = Shape::exact(
    "Limits",
    "The documented limits of every document.",
    &[
        Field::req(
            "max_depth",
            Ty::Whole(0),
            "Maximum nesting depth (`[]` has depth 1).",
        ),
        Field::req(
            "max_document_bytes",
            Ty::Whole(0),
            "Maximum size of a document's text, in bytes.",
        ),
        Field::req(
            "max_string_bytes",
            Ty::Whole(0),
            "Maximum length of one string (key or value), in UTF-8 bytes.",
        ),
    ],
);

/// Merge strategies.
pub static MERGE_STRATEGY: Enum = Enum {
    name: "MergeStrategy",
    doc: "How a patch combines with a document: top-level replace, recursive object merge, or RFC 7396 merge patch.",
    values: &["shallow", "deep", "merge_patch"],
};

/// Per-path rule modes.
pub static RULE_MODE: Enum = Enum {
    name: "MergeRuleMode",
    doc: "What a rule does with the array at its path.",
    values: &["append", "replace", "by_key"],
};

/// A per-path merge rule.
pub static MERGE_RULE: Shape = Shape::exact(
    "MergeRule",
    "A per-path array rule of shallow and deep merges.",
    &[
        Field::req(
            "path",
            Ty::Str,
            "JSON pointer; a `*` segment matches any key or index.",
        ),
        Field::req(
            "mode",
            Ty::Enum(&RULE_MODE),
            "What to do with the array there.",
        ),
        Field::opt("key", Ty::Str, "The identifying field for `by_key`."),
    ],
);

/// A timestamp stamp.
pub static MERGE_STAMP: Shape = Shape::exact(
    "MergeStamp",
    "Sets a top-level timestamp field after merging.",
    &[
        Field::req("field", Ty::Str, "The field to set."),
        Field::opt(
            "now",
            Ty::Alias(&NOW),
            "The time (a host fills in its clock when it is left out).",
        ),
    ],
);

/// Merge options.
pub static MERGE_OPTIONS: Shape = Shape::exact(
    "MergeOptions",
    "Merge options; none = deep merge, no rules, no stamp.",
    &[
        Field::opt(
            "strategy",
            Ty::Enum(&MERGE_STRATEGY),
            "The strategy (default `deep`).",
        ),
        Field::opt(
            "rules",
            Ty::List(&Ty::Object(&MERGE_RULE)),
            "Per-path array rules (shallow and deep only).",
        ),
        Field::opt(
            "stamp",
            Ty::Object(&MERGE_STAMP),
            "A timestamp field to set.",
        ),
    ],
);

/// What a reader makes of a file.
pub static LOAD_RESULT: Shape = Shape::exact(
    "LoadResult",
    "What a reader makes of a file's bytes.",
    &[
        Field::req(
            "document",
            Ty::Param,
            "The document, or the kind's default when the file is missing or unparseable.",
        ),
        Field::req(
            "etag",
            Ty::Nullable(&Ty::Str),
            "The etag of the file's bytes; null for a missing file.",
        ),
        Field::req(
            "corrupt",
            Ty::Bool,
            "True when the bytes were not JSON (a writer keeps a copy before replacing them).",
        ),
        Field::req("valid", Ty::Bool, "True when the document validates."),
        Field::req("errors", ISSUES, "Validation errors."),
        Field::req(
            "warnings",
            ISSUES,
            "Validation warnings (`W_UNPARSEABLE` for a corrupt file).",
        ),
    ],
)
.generic();

/// A document ready to write.
pub static PREPARED: Shape = Shape::exact(
    "PreparedDocument",
    "A validated document ready to write.",
    &[
        Field::req("text", Ty::Str, "Canonical text to write."),
        Field::req("etag", Ty::Str, "Its etag."),
        Field::req("warnings", ISSUES, "Validation warnings."),
    ],
);

/// The pure update step.
pub static UPDATE_RESULT: Shape = Shape::exact(
    "UpdateResult",
    "The pure update step: what to write and what to tell the caller.",
    &[
        Field::req("document", Ty::Param, "The new document."),
        Field::req("text", Ty::Str, "Its canonical text."),
        Field::req("etag", Ty::Str, "Its etag."),
        Field::req(
            "changed",
            Ty::Bool,
            "False when the new text equals the file's bytes (no write needed).",
        ),
        Field::req(
            "corrupt",
            Ty::Bool,
            "True when the old bytes were not JSON (keep a `.corrupt-` copy first).",
        ),
        Field::req(
            "warnings",
            ISSUES,
            "Warnings (unparseable old file, validation warnings).",
        ),
    ],
)
.generic();

/// What the one-crossing file update returns (`update_file`, the hosts' update routine).
pub static FILE_UPDATE: Shape = Shape::exact(
    "FileUpdate",
    "What a file update returns: the file's new state and what to write.",
    &[
        Field::req(
            "document",
            Ty::Param,
            "The document the file holds afterwards.",
        ),
        Field::req(
            "text",
            Ty::Str,
            "Its canonical text (write it when `changed`).",
        ),
        Field::req(
            "etag",
            Ty::Nullable(&Ty::Str),
            "The file's etag afterwards; null when there is no file and none was written.",
        ),
        Field::req("changed", Ty::Bool, "True when `text` must be written."),
        Field::req(
            "corrupt",
            Ty::Bool,
            "True when the old bytes were not JSON (keep a `.corrupt-` copy first).",
        ),
        Field::req(
            "warnings",
            ISSUES,
            "Warnings (unparseable old file, validation warnings).",
        ),
        Field::opt(
            "result",
            Ty::Json,
            "The operation's own result when it is not the document (a Hivemind outcome).",
        ),
        Field::opt(
            "item",
            Ty::Json,
            "A writer's extra field: the inbox item `fctry_inbox_add` added.",
        ),
    ],
)
.generic();

/// Where a torn last line of a log starts.
pub static TORN: Shape = Shape::exact(
    "TornLine",
    "A torn (incomplete) last line of a JSONL log.",
    &[
        Field::req("line", Ty::Whole(1), "Its 1-based line number."),
        Field::req("offset", Ty::Whole(0), "The byte offset where it starts."),
    ],
);

/// A parsed JSONL log.
pub static LOG: Shape = Shape::exact(
    "Log",
    "A parsed JSONL log.",
    &[
        Field::req("records", Ty::List(&Ty::Json), "The records, in order."),
        Field::req(
            "torn",
            Ty::Nullable(&Ty::Object(&TORN)),
            "The torn last line, or null.",
        ),
        Field::req(
            "needs_newline",
            Ty::Bool,
            "True when the last record has no trailing newline (an appender writes one first).",
        ),
    ],
);

/// The type of any JSON object (a JSON Schema, say).
pub const JSON_OBJECT: Ty = Ty::Map(&Ty::Json);

/// A problem placed in its file.
pub static PLACED: Shape = Shape::exact(
    "PlacedIssue",
    "A problem of a file and where it is: the line and column where its value starts (null when the file does not tell).",
    &[
        Field::req("code", Ty::Str, "Stable code (`E_TYPE`, `W_TORN_TAIL`, ...)."),
        Field::req("path", Ty::Str, "JSON pointer into the document (a log: into the record)."),
        Field::req("message", Ty::Str, "What is wrong and what to do."),
        Field::req("line", Ty::Nullable(&Ty::Whole(1)), "Its line (1-based)."),
        Field::req("column", Ty::Nullable(&Ty::Whole(1)), "Its column (1-based)."),
    ],
);
