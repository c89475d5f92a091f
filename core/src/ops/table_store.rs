//! The table: the PostgreSQL store's rules (docs/store.md), for both hosts' `PostgresStore`.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::shape::Ty;
use crate::store::{self, shapes as s};

/// The store's operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "store_job_script",
        doc: "The steps a store job (`update`: a document's update, \
              docs/store.md § The update as a job; `session_step`, `session_read`: a hive \
              session's step or state read, § Hive sessions) started from `setup` asks for, given \
              `answers` in turn: every step up to its end (`done`, `raise`), then \
              `{do: \"error\", error}` when it ended with its own error (`E_STORE`, \
              `E_LOCK_TIMEOUT`).",
        params: &[
            Param::text("job", Ty::Enum(&s::JOB_KIND)),
            Param::value("setup", Ty::Object(&s::UPDATE_SETUP)),
            Param::value("answers", Ty::List(&Ty::Json)),
        ],
        returns: Returns::json(Ty::List(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(store::script(a.text(0)?, a.get(1), a.list(2))?)),
    },
    Op {
        module: Module::Root,
        method: "store_schema",
        doc: "The PostgreSQL store's schema and statements as data: `{version, migration_lock, \
              channel, bootstrap, statements}`, so that every host runs the same SQL.",
        params: &[],
        returns: Returns::json(Ty::Object(&s::SCHEMA)),
        access: Access::Pure,
        web: false,
        run: |_| Ok(Out::Json(store::schema())),
    },
    Op {
        module: Module::Root,
        method: "store_migrations",
        doc: "The migrations a database at schema version `current` (null: never used by \
              statecore) needs, in order; `E_STORE` for a schema newer than this library's.",
        params: &[Param::opt_text("current", Ty::Str)],
        returns: Returns::json(Ty::List(&Ty::Object(&s::MIGRATION))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(store::migrations(a.opt_text(0)?)?)),
    },
    Op {
        module: Module::Root,
        method: "store_key",
        doc: "A store key checked: a relative `/`-separated path with no empty, `.` or `..` \
              name, the same rules on every OS; else `E_PATH_UNSAFE`.",
        params: &[Param::text("key", Ty::Str)],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Text(store::key(a.text(0)?)?)),
    },
    Op {
        module: Module::Root,
        method: "store_file_key",
        doc: "The store key of a protocol file: `directory` (a key prefix: relative, \
              `/`-separated; `\"\"` or `.` for the store's root) joined with the file's place \
              `parts` (`[\".fctry\", \"state.json\"]`), checked as `store_key`.",
        params: &[
            Param::text("directory", Ty::Str),
            Param::value("parts", Ty::List(&Ty::Str)),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Text(store::file_key(a.text(0)?, &a.texts(1)?)?)),
    },
    Op {
        module: Module::Root,
        method: "store_logged",
        doc: "Where the event log of the document of `kind` at `key` is kept, when its kind \
              keeps one (a hive session's `STATE.json`): `{log, record, session_id}`, the \
              log's key beside the document's; null for a kind with no log. `E_ARGUMENT` \
              when the key names no session (`<session>/STATE.json`).",
        params: &[Param::text("key", Ty::Str), Param::text("kind", Ty::Kind)],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&s::LOGGED))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(store::logged(a.text(0)?, a.text(1)?)?)),
    },
    Op {
        module: Module::Root,
        method: "store_url",
        doc: "A store URL split: `postgresql://[user[:password]@]host[:port]/database[/key]` \
              is `{conninfo, key}` (the connection string; the key below the database, `\"\"` \
              for the root, `.` and `..` resolved); null for text that is not a store URL (a \
              file's path). `E_ARGUMENT` for no database or `?` options.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&s::URL))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(store::url(a.text(0)?)?.unwrap_or_default())),
    },
    Op {
        module: Module::Root,
        method: "store_failure",
        doc: "What a failed statement means to a store, from its SQLSTATE (null: none) and \
              whether the driver says the connection failed: `lock_timeout` (55P03), \
              `unavailable` (a lost or refused connection: class 08, 53, 57P, or a connection \
              error without SQLSTATE; raise `store_unavailable`), `schema` (a partial schema: \
              a statecore table, column or function missing or already there, 42P01, 42703, \
              42883, 42P07, 42701, 42710, 42723; raise `store_schema_mismatch`), else \
              `statement` (the statement's own error, raised as it is).",
        params: &[
            Param::opt_text("sqlstate", Ty::Str),
            Param::value("connection", Ty::Bool),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| {
            let connection = a.get(1).as_bool().unwrap_or(false);
            Ok(Out::Text(
                store::failure(a.opt_text(0)?, connection).to_owned(),
            ))
        },
    },
    Op {
        module: Module::Root,
        method: "store_lock_timeout",
        doc: "Raises the `E_LOCK_TIMEOUT` error of an update that waited `timeout_ms` for the \
              row of `key`, locked by another writer's transaction (SQLSTATE 55P03): nothing \
              was written.",
        params: &[
            Param::text("key", Ty::Str),
            Param::value("timeout_ms", Ty::Number),
        ],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| Err(store::lock_timeout(a.text(0)?, a.get(1))),
    },
    Op {
        module: Module::Root,
        method: "store_unavailable",
        doc: "Raises the `E_STORE` error of an operation (`operation` on `key`; `connect`: \
              `key` names the server) the store could not carry out because its connection \
              failed (`cause`: the driver's message): nothing was half-applied, and it may be \
              tried again (`details.retryable`).",
        params: &[
            Param::text("operation", Ty::Str),
            Param::text("key", Ty::Str),
            Param::text("cause", Ty::Str),
        ],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| Err(store::unavailable(a.text(0)?, a.text(1)?, a.text(2)?)),
    },
    Op {
        module: Module::Root,
        method: "store_schema_mismatch",
        doc: "Raises the `E_STORE` error (not retryable) of an operation (`migrate`: the \
              schema's migration) whose statement found the database's statecore schema \
              partial (`store_failure` said `schema`; `sqlstate`, and `cause`: the driver's \
              message): what to do, a version row to set or tables to restore.",
        params: &[
            Param::text("operation", Ty::Str),
            Param::text("key", Ty::Str),
            Param::text("sqlstate", Ty::Str),
            Param::text("cause", Ty::Str),
        ],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| {
            Err(store::schema_mismatch(
                a.text(0)?,
                a.text(1)?,
                a.text(2)?,
                a.text(3)?,
            ))
        },
    },
]);
