//! The host-routine table: every routine the host layers add around the core (documents on
//! files, logs, locks, watchers, each protocol's host part), declared once (the types they give
//! and take are in `host_types.rs`); `xtask codegen` writes their TypeScript and Python types
//! and the docs' list of them.

use super::host_api::{Entry, HostParam, HostTy, Lang, Routine, Style, WATCH_CALLBACK};
use super::host_types::{
    APPEND_RESULT, APPLIED_ARTIFACT, CHECK_SESSIONS_OPTIONS, DOCUMENT_FILE, FILE_RESULT,
    HIVEMIND_WATCH_OPTIONS, LOGGED_RESULT, READ_LOG_RESULT, REPAIR_RESULT, SESSION_OPTIONS,
    SNAPSHOT_OPTIONS,
};
use super::table_host::{APPEND_OPTIONS, READ_OPTIONS, UPDATE_OPTIONS};
use crate::shape::common::{MERGE_OPTIONS, NOW};
use crate::shape::Ty;

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
        tool: false,
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
        tool: false,
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
        tool: false,
        doc: "Appends one JSONL record under the lock (one write(), fsync); repairs a torn \
              tail first.",
    },
    Routine {
        entry: Entry::Host,
        name: "repair_log",
        params: &[FILE, APPEND],
        returns: HostTy::Of(&REPAIR_RESULT, &[]),
        style: Style::Both,
        tool: true,
        doc: "Cuts a JSONL log's torn last line off under the lock, keeping a copy; nothing \
              else changes.",
    },
    Routine {
        entry: Entry::Host,
        name: "read_log",
        params: &[FILE],
        returns: HostTy::Of(&READ_LOG_RESULT, &[]),
        style: Style::Both,
        tool: true,
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
        tool: false,
        doc: "Takes the sidecar lock `<path>.lock`, waiting up to `timeout` (JS: milliseconds; \
              Python: seconds; default 10 s).",
    },
    Routine {
        entry: Entry::Host,
        name: "watch",
        params: &[
            HostParam::req("path", HostTy::Path),
            HostParam::req("kind", HostTy::Nullable(&HostTy::AnyKind)),
            WATCH_CALLBACK,
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
        tool: false,
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
        tool: false,
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
        tool: true,
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
        tool: true,
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
        tool: true,
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
        tool: true,
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
        tool: true,
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
}
