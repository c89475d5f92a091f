//! The store's results, described once (`crate::shape`): the types of `store_schema` and
//! `store_migrations` in every host.

use crate::shape::{Enum, Field, Shape, Ty};

/// The schema and statements.
pub static SCHEMA: Shape = Shape::exact(
    "StoreSchema",
    "The PostgreSQL store's schema and statements (docs/store.md § Schema).",
    &[
        Field::req(
            "version",
            Ty::Whole(1),
            "The schema version this library reads and writes.",
        ),
        Field::req(
            "migration_lock",
            Ty::Int,
            "The advisory lock a migration holds (`pg_advisory_xact_lock`).",
        ),
        Field::req(
            "channel",
            Ty::Str,
            "The channel of change notifications (`LISTEN`).",
        ),
        Field::req(
            "bootstrap",
            Ty::Str,
            "The SQL that creates the table holding the version, run before it is read.",
        ),
        Field::req(
            "statements",
            Ty::Map(&Ty::Str),
            "Every statement the hosts run, by name; parameters `$1`, `$2`, ...",
        ),
    ],
);

/// A migration.
pub static MIGRATION: Shape = Shape::exact(
    "StoreMigration",
    "One schema version's SQL.",
    &[
        Field::req("version", Ty::Whole(1), "The version it makes."),
        Field::req(
            "sql",
            Ty::Str,
            "Its statements, `;`-separated, run in the migration's transaction.",
        ),
    ],
);

/// Where a document's event log is kept in a store.
pub static LOGGED: Shape = Shape::exact(
    "StoreLogged",
    "Where the event log kept with a document is in a store (docs/store.md § Hive sessions).",
    &[
        Field::req("log", Ty::Str, "The log's key, beside the document's."),
        Field::req("record", Ty::Str, "The kind of each of its records."),
        Field::req(
            "session_id",
            Ty::Str,
            "The session's name: the name before the document's in its key.",
        ),
    ],
);

/// A store URL split.
pub static URL: Shape = Shape::exact(
    "StoreUrl",
    "A store URL split (docs/store.md § Store URLs).",
    &[
        Field::req(
            "conninfo",
            Ty::Str,
            "The connection string: `postgresql://[user[:password]@]host[:port]/database`.",
        ),
        Field::req(
            "key",
            Ty::Str,
            "The key below the database (`\"\"`: the store's root).",
        ),
    ],
);

/// A store job's kind.
pub static JOB_KIND: Enum = Enum {
    name: "StoreJobKind",
    doc: "A store job: a document's update (`update`: docs/store.md § The update as a job), a hive session's step (`session_step`) or its state's read, rebuilt in a step when it does not fold its log (`session_read`: docs/store.md § Hive sessions).",
    values: &["update", "session_step", "session_read"],
};

/// What the text a store kept for a key is, to an update job.
pub static KNOWN: Shape = Shape::exact(
    "StoreKnownRow",
    "The text a store kept for the key (its last read or write of the row), as an update job sees it.",
    &[
        Field::req("etag", Ty::Str, "The kept text's etag."),
        Field::req(
            "trusted",
            Ty::Bool,
            "No other writer was seen to change the row since: the update tries its compare-and-swap on the kept text first.",
        ),
    ],
);

/// What a store's job starts from.
pub static UPDATE_SETUP: Shape = Shape::exact(
    "StoreUpdateSetup",
    "What a store's job starts from (docs/store.md § The update as a job); a session's job takes its key, kind and timeout_ms only.",
    &[
        Field::req("key", Ty::Str, "The document's key (checked)."),
        Field::req(
            "kind",
            Ty::Str,
            "The document's kind, written with the row.",
        ),
        Field::opt(
            "function",
            Ty::Bool,
            "The change is a function of the document, which the host calls (no compare-and-swap).",
        ),
        Field::opt(
            "timeout_ms",
            Ty::Number,
            "How long to wait for a row another writer's transaction holds (absent or null: wait).",
        ),
        Field::opt(
            "known",
            Ty::Object(&KNOWN),
            "The text the store kept for the key (absent or null: none).",
        ),
    ],
);
