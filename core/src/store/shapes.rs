//! The store's results, described once (`crate::shape`): the types of `store_schema` and
//! `store_migrations` in every host.

use crate::shape::{Field, Shape, Ty};

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
