//! The host-routine table: every routine the host layers add around the core (documents on
//! files, logs, locks, watchers, each protocol's host part) and the types they give, declared
//! once; `xtask codegen` writes their TypeScript and Python types and the docs' list of them.

use super::host_api::{Entry, HostField, HostParam, HostTy, HostType, Lang, Routine, Style};
use super::table_host::{APPEND_OPTIONS, LOGGED_OPTIONS, READ_OPTIONS, UPDATE_OPTIONS};
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
    doc: "Options of a reader helper (checked: any other key is `E_OPTIONS`).",
    params: &[],
    base: None,
    fields: &[store_field(
        "Read the file's document from this store instead, the directory a key prefix (async only).",
    )],
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

const FILE: HostParam = HostParam::req("path", HostTy::Path);
static APPEND_SHAPES: [&crate::shape::Shape; 1] = [&APPEND_OPTIONS];
const APPEND: HostParam = HostParam::opt("host_options", HostTy::Options(&APPEND_SHAPES));
const HIVE_STATE: HostTy = HostTy::Core(Ty::Object(&crate::hive::shapes::STATE));
const HIVE_STEP: HostTy = HostTy::Core(Ty::Object(&crate::hive::shapes::STEP));

/// Every host routine.
pub static ROUTINES: &[Routine] = &[
    Routine {
        entry: Entry::Host,
        name: "read_document",
        params: &[
            FILE,
            HostParam::req("kind", HostTy::Kind),
            HostParam::opt("options", HostTy::Options(&[&READ_OPTIONS])).only(Lang::Js),
        ],
        returns: HostTy::Of(&DOCUMENT_FILE, &[HostTy::Core(Ty::KindDoc)]),
        style: Style::Both,
        doc: "Reads a document: the core's `load_document` over the file's bytes. A missing \
              file gives the kind's default (`etag` null); an unparseable one the default and \
              a `W_UNPARSEABLE` warning. Readers never write.",
    },
    Routine {
        entry: Entry::Host,
        name: "update_document",
        params: &[
            FILE,
            HostParam::req("kind", HostTy::Kind),
            HostParam::req("patch_or_function", HostTy::Change),
            HostParam {
                patch_only: true,
                ..HostParam::opt(
                    "options",
                    HostTy::Nullable(&HostTy::Core(Ty::Object(&MERGE_OPTIONS))),
                )
            },
            HostParam::opt(
                "host_options",
                HostTy::Options(&[&UPDATE_OPTIONS, &READ_OPTIONS]),
            ),
        ],
        returns: HostTy::Of(&FILE_RESULT, &[HostTy::Core(Ty::KindDoc)]),
        style: Style::Both,
        doc: "Locked read-merge-validate-write of `path`: a patch (merged with the merge \
              options; one crossing into the core) or a function given the current document \
              that returns the new one (or changes it and returns nothing). Host options: \
              `if_match` (compare-and-swap), `now` (for stamps), `timeout` (JS: milliseconds; \
              Python: seconds), `reset` (replace a file that breaks a limit). Unparseable old \
              bytes are first copied to `<path>.corrupt-<timestamp>`. Raises `ValidationError` \
              (file untouched), `ConflictError`, `LockTimeoutError`; a misspelt option is \
              `UsageError` `E_OPTIONS`.",
    },
    Routine {
        entry: Entry::Host,
        name: "append_line",
        params: &[
            FILE,
            HostParam::req("value", HostTy::Core(Ty::Json)),
            APPEND,
        ],
        returns: HostTy::Of(&APPEND_RESULT, &[]),
        style: Style::Both,
        doc: "Appends one JSONL record under the lock (one write(), fsync); repairs a torn \
              tail first.",
    },
    Routine {
        entry: Entry::Host,
        name: "repair_log",
        params: &[FILE, APPEND],
        returns: HostTy::Of(&REPAIR_RESULT, &[]),
        style: Style::Both,
        doc: "Cuts a JSONL log's torn last line off under the lock, keeping a copy; nothing \
              else changes.",
    },
    Routine {
        entry: Entry::Host,
        name: "read_log",
        params: &[FILE],
        returns: HostTy::Of(&READ_LOG_RESULT, &[]),
        style: Style::Both,
        doc: "Reads a JSONL log (a torn last line is dropped with a warning; never writes).",
    },
    Routine {
        entry: Entry::Host,
        name: "acquire_lock",
        params: &[
            FILE,
            HostParam::opt("timeout", HostTy::Nullable(&HostTy::Core(Ty::Number))),
        ],
        returns: HostTy::Native {
            js: "Lock",
            py: "Lock",
        },
        style: Style::Both,
        doc: "Takes the sidecar lock `<path>.lock`, waiting up to `timeout` (JS: milliseconds; \
              Python: seconds; default 10 s).",
    },
    Routine {
        entry: Entry::Host,
        name: "watch",
        params: &[
            HostParam::req("path", HostTy::Path),
            HostParam::req("kind", HostTy::Nullable(&HostTy::AnyKind)),
            HostParam::req(
                "callback",
                HostTy::Native {
                    js: "(change: C.WatchChange) => void",
                    py: "Callable[[WatchChange], object]",
                },
            ),
            HostParam::opt(
                "options",
                HostTy::Native {
                    js: "WatchHostOptions",
                    py: "WatchOptions",
                },
            ),
        ],
        returns: HostTy::Native {
            js: "Watcher",
            py: "Watcher",
        },
        style: Style::Direct,
        doc: "Watches a file, or every file statecore knows under a directory (of `kind` only, \
              when given), and calls `callback` with each change checked as its kind \
              (docs/watch.md). A write still under way (a torn document or last log line) is \
              read again until it reads or the writer's lock is gone; a log reports the records \
              appended since the last change. A named file's kind is `kind`, or the kind its \
              name gives (`UsageError` `E_KIND` at once when none).",
    },
    Routine {
        entry: Entry::Hivemind,
        name: "watch_workspace",
        params: &[
            HostParam::req("project", HostTy::Dir),
            HostParam::opt(
                "handlers",
                HostTy::Native {
                    js: "HivemindHandlers",
                    py: "HivemindHandlers",
                },
            ),
            HostParam::opt("options", HostTy::Of(&HIVEMIND_WATCH_OPTIONS, &[])),
        ],
        returns: HostTy::Native {
            js: "HivemindWatcher",
            py: "WorkspaceWatcher",
        },
        style: Style::Direct,
        doc: "Watches `<project>/workspace` (created if missing) and moves `state.json` by \
              the trigger files written there (`hivemind.on_file` under the lock; written only \
              when it changed), one reaction at a time, each path debounced; fires scheduled \
              follow-ups after their delay. state.json and its lock, temp and `.corrupt-` files \
              are never reacted to (docs/hivemind.md).",
    },
    Routine {
        entry: Entry::Agency,
        name: "snapshot",
        params: &[
            HostParam::req("worktree", HostTy::Dir),
            HostParam::req("meta_path", HostTy::Nullable(&HostTy::Dir)),
            HostParam::opt("options", HostTy::Of(&SNAPSHOT_OPTIONS, &[])),
        ],
        returns: HostTy::Core(Ty::Object(&crate::agency::shapes::SNAPSHOT)),
        style: Style::Both,
        doc: "A run's snapshot for `agency.derive` / `render_ls` / `render_show`: the status \
              file and its modification time, meta.json (kept outside the worktree; null or \
              unreadable: `broken`), whether the worktree exists (absent: `archived`) and \
              `tmux_active`.",
    },
    Routine {
        entry: Entry::Agency,
        name: "write_protocol_document",
        params: &[HostParam::req("repo_root", HostTy::Dir)],
        returns: HostTy::Core(Ty::Union(&[Ty::Lit("created"), Ty::Lit("exists")])),
        style: Style::Both,
        doc: "`agency init`'s CLAUDE.md, written only when nothing of that name exists: never \
              overwrites, even when another process creates it at the same moment.",
    },
    Routine {
        entry: Entry::Hive,
        name: "create_session_dir",
        params: &[
            HostParam::req("sessions_dir", HostTy::Dir),
            HostParam::req("session_id", HostTy::Core(Ty::Str)),
            HostParam::req("task", HostTy::Core(Ty::Str)),
            HostParam::opt("now", HostTy::Core(Ty::Nullable(&Ty::Alias(&NOW)))).only(Lang::Py),
            HostParam::opt("options", HostTy::Of(&SESSION_OPTIONS, &[])),
        ],
        returns: HostTy::Of(&LOGGED_RESULT, &[HIVE_STATE, HIVE_STEP]),
        style: Style::Both,
        doc: "Makes `<sessions_dir>/<session_id>/` with the session's first event line \
              (`session_created`) and its STATE.json; `E_ARGUMENT` when the session exists or \
              the id is not one path component. `store`: the session in a store, \
              `sessions_dir` a key prefix (docs/store.md § Hive sessions).",
    },
    Routine {
        entry: Entry::Hive,
        name: "check_sessions",
        params: &[
            HostParam::req("sessions_dir", HostTy::Dir),
            HostParam::opt("now", HostTy::Core(Ty::Nullable(&Ty::Alias(&NOW)))).only(Lang::Py),
            HostParam::opt("timeout_ms", HostTy::Core(Ty::Nullable(&Ty::Whole(0)))).only(Lang::Py),
            HostParam::opt("options", HostTy::Of(&CHECK_SESSIONS_OPTIONS, &[])),
        ],
        returns: HostTy::List(&HostTy::Native {
            js: "SessionHealth",
            py: "SessionHealth",
        }),
        style: Style::Both,
        doc: "`check_worker_health` of every session of `sessions_dir`, by name (a session \
              that cannot be read: its error's code and message). Options: `now`, \
              `timeout_ms` (the heartbeat timeout, default 5 minutes), `timeout` (JS: for a \
              session's lock when its state must be rebuilt), `store` (the sessions under \
              the key prefix `sessions_dir` of this store instead).",
    },
    Routine {
        entry: Entry::Specify,
        name: "apply_artifacts",
        params: &[
            HostParam::req("feature_dir", HostTy::Dir),
            HostParam::req(
                "artifacts",
                HostTy::Core(Ty::List(&Ty::Object(&crate::specify::op_shapes::ARTIFACT))),
            ),
            HostParam::opt("feature_id", HostTy::Nullable(&HostTy::Core(Ty::Str))),
        ],
        returns: HostTy::List(&HostTy::Of(&APPLIED_ARTIFACT, &[])),
        style: Style::Both,
        doc: "An agent's artifacts applied in the feature's directory: every path checked \
              first (the core's lexical rules, then no symbolic link or non-directory on the \
              way), a refusal refusing the batch before anything is written; each file \
              written atomically or deleted. `specs/<feature_id>/` in front of a path is read \
              as the directory itself.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::HOST_OPTIONS;

    #[test]
    fn each_routine_is_named_once_and_its_options_are_checked_host_options() {
        let mut names = std::collections::HashSet::new();
        for r in ROUTINES {
            assert!(names.insert((r.entry, r.name)), "{} twice", r.name);
            assert!(!r.doc.is_empty(), "{} has no doc", r.name);
            for p in r.params {
                if let HostTy::Options(shapes) = p.ty {
                    for shape in shapes {
                        assert!(
                            HOST_OPTIONS.iter().any(|(_, s)| std::ptr::eq(*s, *shape)),
                            "{}: {} is not a host options shape (check_options would not check it)",
                            r.name,
                            shape.name
                        );
                    }
                }
            }
            // A routine whose result names the kind's document takes the kind.
            let kind_doc = |t: &HostTy| match t {
                HostTy::Of(_, args) => args.iter().any(|a| matches!(a, HostTy::Core(Ty::KindDoc))),
                _ => false,
            };
            assert_eq!(kind_doc(&r.returns), r.generic(), "{}", r.name);
        }
    }

    #[test]
    fn each_host_type_is_declared_once_and_fields_name_its_parameters() {
        let mut names = std::collections::HashSet::new();
        for h in HOST_TYPES {
            assert!(names.insert(h.name) && names.insert(h.py_name) || h.name == h.py_name);
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
