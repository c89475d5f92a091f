//! The types the host routines give and take, declared once for both languages (the
//! host-routine table's results and options; docs/architecture.md § The host-routine table):
//! `xtask codegen` writes them as TypeScript types (`npm/lib/generated/host-api.d.ts`) and `TypedDict`s
//! (`statecore._generated.host_types`).

use super::host_api::{HostField, HostTy, HostType, Lang};
use super::table_host::{LOGGED_OPTIONS, UPDATE_OPTIONS};
use crate::shape::common::{ISSUE, LOAD_RESULT, MERGE_OPTIONS, NOW};
use crate::shape::Ty;

const ISSUES: HostTy = HostTy::Core(Ty::List(&Ty::Object(&ISSUE)));
const COPY: HostTy = HostTy::Nullable(&HostTy::Core(Ty::Str));

/// What a locked update returns (`update_document`, and every writer of the protocol helpers).
pub static FILE_RESULT: HostType = HostType {
    name: "FileResult",
    py_name: "FileResult",
    doc: "What a locked update returns (`updateDocument`, and every writer of the protocol helpers).",
    params: &[("D", "Json"), ("R", "never")],
    base: None,
    fields: &[
        HostField::req("document", HostTy::Param("D"), "The document now in the file."),
        HostField::req(
            "etag",
            HostTy::Nullable(&HostTy::Core(Ty::Str)),
            "Its etag (pass it as `ifMatch` to the next update for compare-and-swap); null when there is no file.",
        ),
        HostField::req(
            "changed",
            HostTy::Core(Ty::Bool),
            "False when nothing was written (the new text equalled the file, or the outcome changed nothing).",
        ),
        HostField::req("warnings", ISSUES, "Warnings (unparseable old file, validation warnings)."),
        HostField::req(
            "corrupt_copy",
            COPY,
            "The `<file>.corrupt-<timestamp>` copy of unparseable old bytes, or null.",
        ),
        HostField {
            name: "result",
            ty: HostTy::Param("R"),
            required: true,
            when: Some("R"),
            lang: Lang::Both,
            doc: "The operation's own result (a Hivemind outcome).",
        },
        HostField {
            name: "item",
            ty: HostTy::Core(Ty::Json),
            required: false,
            when: None,
            lang: Lang::Py,
            doc: "A writer's extra field: the inbox item `inbox_add` added.",
        },
    ],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

/// What a step (or a read) of a file kept with its event log gives.
pub static LOGGED_RESULT: HostType = HostType {
    name: "LoggedResult",
    py_name: "LoggedResult",
    doc: "What a step (or a read) of a file kept with its event log gives (a hive session's STATE.json, docs/hive.md § Files): a file result, and what a replay of the log met when the state had to be rebuilt (null otherwise).",
    params: &[("D", "Json"), ("R", "never")],
    base: Some(HostTy::Of(
        &FILE_RESULT,
        &[HostTy::Param("D"), HostTy::Param("R")],
    )),
    fields: &[HostField::req(
        "recovered",
        HostTy::Nullable(&HostTy::Native {
            js: "Omit<C.HiveRecovered, \"state\" | \"warnings\">",
            py: "dict[str, Any]",
        }),
        "What the replay of the log met (the recovery less its state and warnings), or null.",
    )],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

/// What a read of a document file returns.
pub static DOCUMENT_FILE: HostType = HostType {
    name: "DocumentFile",
    py_name: "DocumentFile",
    doc: "What a read returns: the core's `loadDocument` over the file's bytes.",
    params: &[("D", "Json")],
    base: None,
    fields: &[],
    alias: Some(HostTy::Core(Ty::Apply(&LOAD_RESULT, &Ty::Param))),
    lang: Lang::Both,
    omit_py: &[],
};

/// What `append_line` returns.
pub static APPEND_RESULT: HostType = HostType {
    name: "AppendLineResult",
    py_name: "AppendResult",
    doc: "What `appendLine` returns.",
    params: &[],
    base: None,
    fields: &[
        HostField::req(
            "warnings",
            ISSUES,
            "`W_TORN_TAIL` when a torn tail was repaired first.",
        ),
        HostField::req(
            "corrupt_copy",
            COPY,
            "Where a repaired torn tail's bytes were kept, or null.",
        ),
    ],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

/// What `repair_log` returns.
pub static REPAIR_RESULT: HostType = HostType {
    name: "RepairLogResult",
    py_name: "RepairResult",
    doc: "What `repairLog` returns.",
    params: &[],
    base: None,
    fields: &[
        HostField::req(
            "torn_line",
            HostTy::Nullable(&HostTy::Core(Ty::Whole(1))),
            "The torn last line cut off, or null when there was none (nothing written).",
        ),
        HostField::req("warnings", ISSUES, "`W_TORN_TAIL` when a line was cut off."),
        HostField::req("corrupt_copy", COPY, "Where its bytes were kept, or null."),
    ],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

/// What `read_log` returns.
pub static READ_LOG_RESULT: HostType = HostType {
    name: "ReadLogResult",
    py_name: "LogResult",
    doc: "What `readLog` returns.",
    params: &[],
    base: None,
    fields: &[],
    alias: Some(HostTy::Core(Ty::Object(&crate::lock::shapes::READ))),
    lang: Lang::Both,
    omit_py: &[],
};

/// An artifact as `apply_artifacts` applied it.
pub static APPLIED_ARTIFACT: HostType = HostType {
    name: "AppliedArtifact",
    py_name: "AppliedArtifact",
    doc: "An artifact as it was applied.",
    params: &[],
    base: Some(HostTy::Core(Ty::Object(
        &crate::specify::op_shapes::ARTIFACT,
    ))),
    fields: &[HostField::req(
        "result",
        HostTy::Native {
            js: "\"written\" | \"deleted\" | \"absent\"",
            py: "Literal[\"written\", \"deleted\", \"absent\"]",
        },
        "`written`, `deleted`, or `absent` (a delete of a file that was not there).",
    )],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

const STORE: HostTy = HostTy::Native {
    js: "Store",
    py: "Store",
};
static UPDATE_SHAPES: [&crate::shape::Shape; 1] = [&UPDATE_OPTIONS];
static LOGGED_SHAPES: [&crate::shape::Shape; 1] = [&LOGGED_OPTIONS];
static KEYWORD_SHAPES: [&crate::shape::Shape; 2] = [&UPDATE_OPTIONS, &MERGE_OPTIONS];

/// The options of a store field: the file's document in a store instead.
const fn store_field(doc: &'static str) -> HostField {
    HostField {
        name: "store",
        ty: STORE,
        required: false,
        when: None,
        lang: Lang::Both,
        doc,
    }
}

/// The options of a locked update of a protocol file (a writer helper).
pub static HELPER_OPTIONS: HostType = HostType {
    name: "HelperOptions",
    py_name: "HelperOptions",
    doc: "Options of a locked update of a protocol file (checked: a misspelt key is a `UsageError` `E_OPTIONS`; Python takes `now` as an argument).",
    params: &[],
    base: Some(HostTy::Options(&UPDATE_SHAPES)),
    fields: &[store_field(
        "Keep the file's document in this store instead (docs/store.md): the directory argument is then a key prefix (`storeFileKey`). Async helpers only in JS.",
    )],
    alias: None,
    lang: Lang::Both,
    omit_py: &["now"],
};

/// The options of a reader helper.
pub static READER_OPTIONS: HostType = HostType {
    name: "ReaderOptions",
    py_name: "ReaderOptions",
    doc: "Options of a reader helper (checked: any other key is `E_OPTIONS`; Python takes `now` as an argument).",
    params: &[],
    base: None,
    fields: &[
        store_field(
            "Read the file's document from this store instead, the directory a key prefix (async only).",
        ),
        HostField {
            name: "now",
            ty: HostTy::Core(Ty::Nullable(&Ty::Alias(&NOW))),
            required: false,
            when: None,
            lang: Lang::Both,
            doc: "The time, for a reader whose answer depends on it (`checkWorkerHealth`; default: the clock); any other reader refuses it (`E_OPTIONS`).",
        },
    ],
    alias: None,
    lang: Lang::Js,
    omit_py: &[],
};

/// The options of a step or a read of a file kept with its event log.
pub static SESSION_OPTIONS: HostType = HostType {
    name: "SessionOptions",
    py_name: "SessionOptions",
    doc: "Options of a step or a read of a file kept with its event log (a hive session's): the core's `LoggedOptions` (Python takes `now` as an argument), and the store the session is kept in (docs/store.md § Hive sessions; async only in JS).",
    params: &[],
    base: Some(HostTy::Options(&LOGGED_SHAPES)),
    fields: &[store_field("The session in this store instead, the directory a key prefix.")],
    alias: None,
    lang: Lang::Both,
    omit_py: &["now"],
};

/// The keywords of Python's `update_document`: the host options and the merge options.
pub static UPDATE_KEYWORDS: HostType = HostType {
    name: "UpdateKeywords",
    py_name: "UpdateKeywords",
    doc: "The keywords of `update_document`: the host options and the merge options.",
    params: &[],
    base: Some(HostTy::Options(&KEYWORD_SHAPES)),
    fields: &[],
    alias: None,
    lang: Lang::Py,
    omit_py: &[],
};

/// What an append to a `PostgresStore`'s log returns.
pub static STORE_APPEND: HostType = HostType {
    name: "StoreAppend",
    py_name: "StoreAppend",
    doc: "What an append to a `PostgresStore`'s log returns.",
    params: &[],
    base: None,
    fields: &[
        HostField::req(
            "seq",
            HostTy::Core(Ty::Whole(1)),
            "The record's sequence number in its log (increasing; a repeated `id` may skip one).",
        ),
        HostField::req(
            "appended",
            HostTy::Core(Ty::Bool),
            "False when a record with the same `id` was already appended (then `seq` is its).",
        ),
    ],
    alias: None,
    lang: Lang::Both,
    omit_py: &[],
};

/// An optional field of an options type.
const fn option(name: &'static str, ty: HostTy, doc: &'static str) -> HostField {
    HostField {
        name,
        ty,
        required: false,
        when: None,
        lang: Lang::Both,
        doc,
    }
}

/// The options of `agency.snapshot` (Python: keywords).
pub static SNAPSHOT_OPTIONS: HostType = HostType {
    name: "AgencySnapshotOptions",
    py_name: "AgencySnapshotOptions",
    doc: "Options of `snapshot` (Python: keywords of the same names).",
    params: &[],
    base: None,
    fields: &[
        option(
            "tmux_active",
            HostTy::Core(Ty::Bool),
            "Whether the run's tmux session is alive (the host checks it).",
        ),
        option(
            "now",
            HostTy::Core(Ty::Alias(&NOW)),
            "The time (default: the clock).",
        ),
        option(
            "threshold_ms",
            HostTy::Core(Ty::Nullable(&Ty::Whole(0))),
            "The stall threshold in ms (default 15 minutes).",
        ),
    ],
    alias: None,
    lang: Lang::Js,
    omit_py: &[],
};

/// The options of `hive.check_sessions` (Python: arguments and a `store` keyword).
pub static CHECK_SESSIONS_OPTIONS: HostType = HostType {
    name: "CheckSessionsOptions",
    py_name: "CheckSessionsOptions",
    doc: "Options of `checkSessions` (checked: a misspelt key is `E_OPTIONS`).",
    params: &[],
    base: None,
    fields: &[
        option(
            "now",
            HostTy::Core(Ty::Nullable(&Ty::Alias(&NOW))),
            "The time (default: the clock).",
        ),
        option(
            "timeout_ms",
            HostTy::Core(Ty::Nullable(&Ty::Whole(0))),
            "The heartbeat timeout in ms (default 5 minutes, inclusive).",
        ),
        option(
            "timeout",
            HostTy::Core(Ty::Nullable(&Ty::Number)),
            "How long to wait for a session's lock when its state must be rebuilt, in ms.",
        ),
        store_field(
            "The sessions under the key prefix `sessionsDir` of this store instead (async only).",
        ),
    ],
    alias: None,
    lang: Lang::Js,
    omit_py: &[],
};

/// The options of `hivemind.watch_workspace` (Python: keywords).
pub static HIVEMIND_WATCH_OPTIONS: HostType = HostType {
    name: "HivemindWatchOptions",
    py_name: "HivemindWatchOptions",
    doc: "Options of `watchWorkspace` (Python: keywords of the same names; `timeout` in seconds).",
    params: &[],
    base: None,
    fields: &[
        option("debounce_ms", HostTy::Core(Ty::Whole(0)), "Quiet time of a path before reacting to it, in ms (default 50): a burst gives one reaction. 0: each event is reacted to at once, with no timer."),
        option("now", HostTy::Native { js: "() => C.Now", py: "Callable[[], Now]" }, "The clock of every transition (default `Date.now`)."),
        option("timeout", HostTy::Core(Ty::Number), "Milliseconds to wait for the lock before `LockTimeoutError` (default 10000)."),
    ],
    alias: None,
    lang: Lang::Js,
    omit_py: &[],
};

/// Every host type, in the order they are declared.
pub static HOST_TYPES: &[&HostType] = &[
    &HELPER_OPTIONS,
    &READER_OPTIONS,
    &SESSION_OPTIONS,
    &UPDATE_KEYWORDS,
    &DOCUMENT_FILE,
    &FILE_RESULT,
    &LOGGED_RESULT,
    &APPEND_RESULT,
    &REPAIR_RESULT,
    &READ_LOG_RESULT,
    &APPLIED_ARTIFACT,
    &STORE_APPEND,
    &SNAPSHOT_OPTIONS,
    &CHECK_SESSIONS_OPTIONS,
    &HIVEMIND_WATCH_OPTIONS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_type_is_declared_once_and_fields_name_its_parameters() {
        let mut names = std::collections::HashSet::new();
        for h in HOST_TYPES {
            assert!(names.insert(h.name), "{} twice", h.name);
            if h.py_name != h.name {
                assert!(names.insert(h.py_name), "{} twice", h.py_name);
            }
            for f in h.fields {
                if let Some(param) = f.when {
                    assert!(
                        h.params.iter().any(|(p, _)| *p == param),
                        "{}.{}",
                        h.name,
                        f.name
                    );
                }
                if let HostTy::Param(param) = f.ty {
                    assert!(
                        h.params.iter().any(|(p, _)| *p == param),
                        "{}.{}",
                        h.name,
                        f.name
                    );
                }
            }
        }
    }
}
