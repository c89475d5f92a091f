//! The watcher's arguments and results, described once (`crate::shape`): the types of
//! `watch_target` and `watch_read` in every host, and of the change a watcher reports.

use crate::shape::common::PLACED;
use crate::shape::{Enum, Field, Shape, Ty};

/// A file a watcher reads.
pub static TARGET: Shape = Shape::exact(
    "WatchTarget",
    "A file a watcher reads, and what it reads it as.",
    &[
        Field::req("path", Ty::Str, "Its path, as given."),
        Field::req(
            "kind",
            Ty::Str,
            "The kind of its document, or of its log's records.",
        ),
        Field::req(
            "log",
            Ty::Bool,
            "True for a JSONL log (read from where the last read stopped).",
        ),
    ],
);

/// What a watcher saw when it read a file.
pub static FACTS: Shape = Shape::exact(
    "WatchFacts",
    "What a watcher saw when it read a changed file.",
    &[
        Field::req("attempt", Ty::Whole(0), "How many reads of this change came before this one (0: the first)."),
        Field::req("locked", Ty::Bool, "True when the file's lock (`<file>.lock`) was there just before or just after the read: a writer is at work."),
        Field::opt("unlocked", Ty::Whole(0), "How many of the reads before this one, since the lock was last seen, found no lock (0 when none did)."),
        Field::opt("offset", Ty::Whole(0), "A log: the byte the bytes read start at (the `offset` of the last answer; 0 for a new or replaced file)."),
        Field::opt("line", Ty::Whole(0), "A log: how many lines come before `offset` (the `line` of the last answer)."),
        Field::opt("etag", Ty::Nullable(&Ty::Str), "A document: the `etag` of the last answer (null: nothing reported yet, or the file was gone); the same bytes again are nothing to report."),
        Field::opt("more", Ty::Bool, "A log: the file has bytes past those read (a host reads a log in pages of at most `max_document_bytes`): a last line the page cut is read with the next page."),
    ],
);

/// What a watcher does with what it read.
pub static ACTION: Enum = Enum {
    name: "WatchAction",
    doc: "What a watcher does with what it read: `report` the change, `retry` (read again after `delay_ms`: a write is under way), or `none` (a log with nothing new, a document with the bytes last reported, a file still gone).",
    values: &["report", "retry", "none"],
};

/// A change a watcher reports.
pub static CHANGE: Shape = Shape::exact(
    "WatchChange",
    "A change of a watched file, checked as its kind (docs/watch.md § What a change is).",
    &[
        Field::req("path", Ty::Str, "The file's path."),
        Field::req("kind", Ty::Str, "The kind of its document, or of its log's records."),
        Field::req("log", Ty::Bool, "True for a JSONL log."),
        Field::req("exists", Ty::Bool, "False when the file was removed (then valid, with no document)."),
        Field::req("valid", Ty::Bool, "No error (warnings allowed)."),
        Field::req("errors", Ty::List(&Ty::Object(&PLACED)), "Its errors, each placed at its line and column."),
        Field::req("warnings", Ty::List(&Ty::Object(&PLACED)), "Its warnings (a log's torn last line: `W_TORN_TAIL`)."),
        Field::req("document", Ty::Json, "A document: what it holds now (null when it does not read, or is gone); a log: null."),
        Field::req("records", Ty::Nullable(&Ty::List(&Ty::Json)), "A log: the records appended since the last report (all of them after the file was created or replaced); a document: null."),
    ],
);

/// The answer of `watch_read`.
pub static READ: Shape = Shape::exact(
    "WatchRead",
    "What a watcher does with the bytes it read of a file.",
    &[
        Field::req("action", Ty::Enum(&ACTION), "Report the change, read again, or nothing."),
        Field::req("delay_ms", Ty::Nullable(&Ty::Whole(0)), "`retry`: how long to wait before reading again, in ms."),
        Field::req("change", Ty::Nullable(&Ty::Object(&CHANGE)), "`report`: the change."),
        Field::req("offset", Ty::Whole(0), "A log: where the next read starts (the end of the last whole line read); 0 for a document."),
        Field::req("line", Ty::Whole(0), "A log: how many lines come before `offset`."),
        Field::req("etag", Ty::Nullable(&Ty::Str), "A document: the etag of the bytes read (pass it back as `facts.etag`); null for a log or a file gone."),
    ],
);
