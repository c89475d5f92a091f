//! The document stores' API (docs/store.md), declared once like the host routines: the
//! interface both stores share and each store's own members. `xtask codegen` writes their
//! TypeScript declarations (`npm/lib/generated/store.d.ts`) and the docs' list; each host's
//! tests check its classes against these rows (members, and Python's parameters).

use super::host_api::{HostClass, HostParam, HostTy, Lang, Member, MemberKind, WATCH_CALLBACK};
use super::host_types::{APPEND_RESULT, FILE_RESULT, STORE_APPEND};
use super::table_host::{
    APPEND_OPTIONS, LOGGED_OPTIONS, READ_LOG_OPTIONS, STORE_APPEND_OPTIONS, UPDATE_OPTIONS,
};
use crate::shape::common::{LOAD_RESULT, MERGE_OPTIONS};
use crate::shape::Ty;

const KEY: HostParam = HostParam::req("key", HostTy::Core(Ty::Str));
const LOG: HostParam = HostParam::req("log", HostTy::Core(Ty::Str));
const KIND: HostParam = HostParam::req("kind", HostTy::Kind);
const ANY_KIND: HostParam = HostParam::req("kind", HostTy::AnyKind);
const VALUE: HostParam = HostParam::req("value", HostTy::Core(Ty::Json));
const ARGS: HostParam = HostParam::opt("args", HostTy::List(&HostTy::Core(Ty::Json)));
static UPDATE_SHAPES: [&crate::shape::Shape; 1] = [&UPDATE_OPTIONS];
const UPDATE: HostParam = HostParam::opt("host_options", HostTy::Options(&UPDATE_SHAPES));
const NOTHING: HostTy = HostTy::Native {
    js: "void",
    py: "None",
};
const RECORDS: HostTy = HostTy::List(&HostTy::Core(Ty::Json));

/// A method of an instance, in both languages, a Promise in JS.
const fn method(
    name: &'static str,
    params: &'static [HostParam],
    returns: HostTy,
    doc: &'static str,
) -> Member {
    Member {
        name,
        kind: MemberKind::Method,
        params,
        returns,
        awaited: true,
        lang: Lang::Both,
        doc,
    }
}

/// What both stores do to a document, the same way.
pub static DOCUMENT_STORE: HostClass = HostClass {
    name: "DocumentStore",
    doc: "What both stores do to a document, the same way (a `FileStore` under its file's \
          lock, a `PostgresStore` in one transaction that locks the row).",
    interface: true,
    implements: None,
    members: &[
        method(
            "read",
            &[
                KEY,
                KIND,
                HostParam::opt("options", HostTy::Options(&[&LOGGED_OPTIONS])),
            ],
            HostTy::Core(Ty::Apply(&LOAD_RESULT, &Ty::KindDoc)),
            "The document at `key` with its etag (the default document when there is none); \
             a hive session's state as `read_state` reads it, rebuilt from its log when behind \
             (`timeout`: how long to wait for its lock then; other reads take no lock).",
        ),
        method(
            "query",
            &[KEY, KIND, HostParam::req("op", HostTy::Core(Ty::Str)), ARGS],
            HostTy::Core(Ty::Json),
            "A reader of the table (`\"fctry_context_health\"`) on the document at `key`, \
             `args` after the document.",
        ),
        method(
            "update",
            &[
                KEY,
                KIND,
                HostParam::req("patch_or_function", HostTy::Change),
                HostParam {
                    patch_only: true,
                    ..HostParam::opt(
                        "merge",
                        HostTy::Nullable(&HostTy::Core(Ty::Object(&MERGE_OPTIONS))),
                    )
                },
                UPDATE,
            ],
            HostTy::Of(&FILE_RESULT, &[HostTy::Core(Ty::KindDoc)]),
            "The change applied by the core (a patch merged with the merge options, or a \
             function of the document), validated, and written when it changed; `if_match` \
             requires the etag (`ConflictError`), `timeout` bounds the wait for the lock or \
             row (`LockTimeoutError`).",
        ),
        method(
            "change",
            &[
                KEY,
                KIND,
                HostParam::req("change", HostTy::Core(Ty::Str)),
                ARGS,
                UPDATE,
            ],
            HostTy::Of(
                &FILE_RESULT,
                &[HostTy::Core(Ty::KindDoc), HostTy::Core(Ty::Json)],
            ),
            "A change the core names applied to the document at `key`: a writer of the table \
             (`\"fctry_start_step\"`, `args` after the document), `\"\"` (replace with \
             `args[0]`) or `\"merge\"` (`args` = `[patch, options]`), as `update_file` takes it.",
        ),
        method(
            "close",
            &[],
            NOTHING,
            "Releases what the store holds (nothing for files; the connections for PostgreSQL).",
        ),
    ],
};

/// Documents and logs as files under a directory.
pub static FILE_STORE: HostClass = HostClass {
    name: "FileStore",
    doc: "Documents and logs as files under `root`: a key is a path below it (locked, atomic, \
          `.corrupt-` copies; docs/locking.md).",
    interface: false,
    implements: Some(&DOCUMENT_STORE),
    members: &[
        Member {
            name: "constructor",
            kind: MemberKind::Constructor,
            params: &[HostParam::opt("root", HostTy::Path)],
            returns: NOTHING,
            awaited: false,
            lang: Lang::Both,
            doc: "A store of the files under `root` (default: the working directory).",
        },
        Member {
            name: "root",
            kind: MemberKind::Property,
            params: &[],
            returns: HostTy::Core(Ty::Str),
            awaited: false,
            lang: Lang::Both,
            doc: "The directory the keys are paths below (absolute).",
        },
        Member {
            name: "path",
            kind: MemberKind::Method,
            params: &[KEY],
            returns: HostTy::Core(Ty::Str),
            awaited: false,
            lang: Lang::Both,
            doc: "The file of `key` (checked: `PathUnsafeError`).",
        },
        method(
            "append",
            &[
                LOG,
                ANY_KIND,
                VALUE,
                HostParam::opt("host_options", HostTy::Options(&[&APPEND_OPTIONS])),
            ],
            HostTy::Of(&APPEND_RESULT, &[]),
            "Validates `value` as `kind` (`ValidationError`) and appends it to the log's file \
             in one write, under its lock (no `id`: exactly once is `PostgresStore`'s).",
        ),
        method(
            "read_log",
            &[LOG],
            RECORDS,
            "The log's records, in order (a torn last line is left out).",
        ),
    ],
};

/// Documents and logs in PostgreSQL.
pub static POSTGRES_STORE: HostClass = HostClass {
    name: "PostgresStore",
    doc: "Documents and logs in PostgreSQL (docs/store.md): one row per document, updated in \
          one transaction that locks the row for the time of one core crossing; logs as an \
          append-only table with a per-log sequence. A lost connection is `StoreError` with \
          `details.retryable`: nothing was written. Needs `pg` (JS) or `psycopg` (Python).",
    interface: false,
    implements: Some(&DOCUMENT_STORE),
    members: &[
        Member {
            name: "constructor",
            kind: MemberKind::Constructor,
            params: &[
                HostParam::opt("conninfo", HostTy::Core(Ty::Str)),
                HostParam::opt(
                    "connect_timeout",
                    HostTy::Native {
                        js: "never",
                        py: "float",
                    },
                ),
            ],
            returns: NOTHING,
            awaited: false,
            lang: Lang::Py,
            doc: "A store on the database `conninfo` names (libpq's form), its schema created \
                  or migrated; `connect_timeout` in seconds (`StoreError` when it cannot \
                  connect).",
        },
        Member {
            name: "connect",
            kind: MemberKind::Static,
            params: &[HostParam::opt(
                "options",
                HostTy::Native {
                    js: "PostgresStoreOptions",
                    py: "object",
                },
            )],
            returns: HostTy::Native {
                js: "PostgresStore",
                py: "PostgresStore",
            },
            awaited: true,
            lang: Lang::Js,
            doc: "A store whose schema is created or migrated (`StoreError` when it cannot \
                  connect).",
        },
        method(
            "append",
            &[
                LOG,
                ANY_KIND,
                VALUE,
                HostParam::opt("options", HostTy::Options(&[&STORE_APPEND_OPTIONS])),
            ],
            HostTy::Of(&STORE_APPEND, &[]),
            "Validates `value` as `kind` and appends it; with `id`, exactly once.",
        ),
        method(
            "read_log",
            &[
                LOG,
                HostParam::opt("options", HostTy::Options(&[&READ_LOG_OPTIONS])),
            ],
            RECORDS,
            "The log's records after sequence number `after` (at most `limit`), in order.",
        ),
        Member {
            name: "read_log_lines",
            kind: MemberKind::Method,
            params: &[
                LOG,
                HostParam::opt("options", HostTy::Options(&[&READ_LOG_OPTIONS])),
            ],
            returns: HostTy::Native {
                js: "never",
                py: "Iterator[tuple[int, Json]]",
            },
            awaited: false,
            lang: Lang::Py,
            doc: "The log's records after `after` with their sequence numbers, read a page at \
                  a time.",
        },
        method(
            "watch",
            &[
                HostParam::req("prefix", HostTy::Core(Ty::Str)),
                HostParam::req("kind", HostTy::Nullable(&HostTy::AnyKind)),
                WATCH_CALLBACK,
                HostParam::opt(
                    "options",
                    HostTy::Native {
                        js: "C.StoreWatchOptions & { onError?(error: unknown): void }",
                        py: "StoreWatchOptions",
                    },
                ),
            ],
            HostTy::Native {
                js: "StoreWatcher",
                py: "StoreWatcher",
            },
            "Calls `callback` for each change of a document or log whose key starts with \
             `prefix` (of `kind` only, when given), woken by LISTEN/NOTIFY: the same \
             `WatchChange` a file watcher reports (`initial`: each as it is first). JS \
             resolves once the rows as they first were are reported; Python calls it on a \
             thread of its own and takes `on_error`.",
        ),
    ],
};

/// Every class of the stores' API, the interface first.
pub static STORE_CLASSES: &[&HostClass] = &[&DOCUMENT_STORE, &FILE_STORE, &POSTGRES_STORE];
