//! The table: what the host layers ask the core (the manifest, option errors) and the shapes
//! of the hosts' own options, so both hosts check them the same way.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::error::{Code, Error};
use crate::lock;
use crate::shape::common::ISSUE;
use crate::shape::common::NOW;
use crate::shape::{Field, Shape, Ty};
use crate::Value;

/// The options of a locked file update (`update_document` and every writer helper).
pub static UPDATE_OPTIONS: Shape = Shape::exact(
    "UpdateOptions",
    "Options of a locked file update.",
    &[
        Field::opt("if_match", Ty::Nullable(&Ty::Str), "Require the file's current etag (null: the file must not exist); else `ConflictError`."),
        Field::opt("now", Ty::Nullable(&Ty::Alias(&NOW)), "The time for stamps and `now` arguments (default: the host's clock, read under the lock)."),
        Field::opt("timeout", Ty::Nullable(&Ty::Number), "How long to wait for the lock before `LockTimeoutError` (JS: milliseconds; Python: seconds): a finite number ≥ 0; null: the default."),
        Field::opt("reset", Ty::Nullable(&Ty::Bool), "Replace a file that breaks a limit or repeats a key (a `.corrupt-` copy is kept first) instead of refusing with its error."),
    ],
);

/// The options of a step (or a read) of a file kept with its event log.
pub static LOGGED_OPTIONS: Shape = Shape::exact(
    "LoggedOptions",
    "Options of a step of a file kept with its event log (a hive session's).",
    &[
        Field::opt("now", Ty::Nullable(&Ty::Alias(&NOW)), "The time of the step's event (default: the host's clock, read under the lock)."),
        Field::opt("timeout", Ty::Nullable(&Ty::Number), "How long to wait for the lock before `LockTimeoutError` (JS: milliseconds; Python: seconds): a finite number ≥ 0; null: the default."),
    ],
);

/// The options of a locked log append.
pub static APPEND_OPTIONS: Shape = Shape::exact(
    "AppendOptions",
    "Options of a locked log append.",
    &[Field::opt(
        "timeout",
        Ty::Nullable(&Ty::Number),
        "How long to wait for the lock (JS: milliseconds; Python: seconds): a finite number \
         ≥ 0; null: the default.",
    )],
);

/// The options of an append to a `PostgresStore`'s log.
pub static STORE_APPEND_OPTIONS: Shape = Shape::exact(
    "StoreAppendOptions",
    "Options of an append to a `PostgresStore`'s log.",
    &[Field::opt(
        "id",
        Ty::Nullable(&Ty::Str),
        "The record's id, chosen by the caller: a record already appended to the log with \
         this id is not appended again (exactly once; `appended` false, its `seq`).",
    )],
);

/// The options of a read of a `PostgresStore`'s log.
pub static READ_LOG_OPTIONS: Shape = Shape::exact(
    "ReadLogOptions",
    "Options of a read of a `PostgresStore`'s log.",
    &[
        Field::opt(
            "after",
            Ty::Nullable(&Ty::Whole(0)),
            "Read the records after this sequence number (default 0: from the first).",
        ),
        Field::opt(
            "limit",
            Ty::Nullable(&Ty::Whole(0)),
            "Read at most this many records (default: all).",
        ),
    ],
);

/// The options of a store's watcher (docs/store.md § Watching).
pub static STORE_WATCH_OPTIONS: Shape = Shape::exact(
    "StoreWatchOptions",
    "Options of `store.watch` (JS also takes `onError`; Python `on_error`).",
    &[Field::opt("initial", Ty::Nullable(&Ty::Bool), "Report each document and log under the prefix as it is when watching starts (default true); false: only later changes.")],
);

/// `E_OPTIONS` for the first option of `options` whose value does not have its field's type
/// (a `timeout` must also be ≥ 0): the hosts' options are checked in one place. A host passes
/// a value JSON cannot hold (`NaN`) as its text.
fn check_values(shape: &Shape, options: &Value, camel_case: bool) -> crate::error::Result<()> {
    let Some(map) = options.as_object() else {
        return Ok(());
    };
    for field in shape.fields {
        let key = if camel_case {
            crate::options::camel(field.name)
        } else {
            field.name.to_owned()
        };
        let Some(value) = map.get(&key) else {
            continue;
        };
        let mut report = crate::report::Report::default();
        crate::shape::check::value_of(&mut report, value, &field.ty, "", &key);
        let negative = field.name == "timeout" && value.as_f64().is_some_and(|n| n < 0.0);
        let message = match report.errors.first() {
            _ if field.name == "timeout" && (negative || !report.errors.is_empty()) => {
                format!("{key} must be a finite number ≥ 0 (or null for the default), not {value}")
            }
            Some(issue) => issue.message.clone(),
            None => continue,
        };
        return Err(Error::new(
            Code::Options,
            crate::error::child_path("", &key),
            format!("{message} (an option of {})", shape.name),
        )
        .with_detail("option", key.as_str()));
    }
    Ok(())
}

/// The options of a document read (JS `readDocument`; Python ints are always exact).
pub static READ_OPTIONS: Shape = Shape::exact(
    "ReadOptions",
    "Options of a document read (JS).",
    &[Field::opt(
        "bigint",
        Ty::Nullable(&Ty::Bool),
        "Integers no double holds come back as `BigInt` instead of `E_PRECISION` (JS; an \
         update takes it too).",
    )],
);

/// The options of a watcher (docs/watch.md).
pub static WATCH_OPTIONS: Shape = Shape::exact(
    "WatchOptions",
    "Options of `watch` (JS also takes `onError`).",
    &[
        Field::opt("debounce_ms", Ty::Nullable(&Ty::Whole(0)), "Quiet time of a file before it is read, in ms (default 50): a burst of writes is one change."),
        Field::opt("initial", Ty::Nullable(&Ty::Bool), "Report each watched file as it is when watching starts (default true); false: only later changes."),
    ],
);

/// Every options shape of the hosts, by the name a host names it with.
pub static HOST_OPTIONS: [(&str, &Shape); 8] = [
    ("update", &UPDATE_OPTIONS),
    ("append", &APPEND_OPTIONS),
    ("read", &READ_OPTIONS),
    ("logged", &LOGGED_OPTIONS),
    ("watch", &WATCH_OPTIONS),
    ("store_append", &STORE_APPEND_OPTIONS),
    ("read_log", &READ_LOG_OPTIONS),
    ("store_watch", &STORE_WATCH_OPTIONS),
];

/// A number the hosts use, declared once (manifest `host.constants`; generated as
/// `CONSTANTS.<camelName>` in JS and `<NAME>` in `statecore._generated.tables`).
#[derive(Debug, Clone, Copy)]
pub struct Constant {
    /// Its snake_case name.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Its value.
    pub value: i64,
}

/// The host constants of ids, the agency watchdog, locks, files people edit and documents.
pub static HOST_CONSTANTS: &[Constant] = &[
    Constant {
        name: "random_bytes",
        doc: "How many random bytes the core draws an id suffix from.",
        value: crate::fctry::RANDOM_BYTES as i64,
    },
    Constant {
        name: "stall_threshold_ms",
        doc: "The agency watchdog's default stall threshold, in ms.",
        value: crate::agency::DEFAULT_STALL_THRESHOLD_MS,
    },
    Constant {
        name: "lock_lease_ms",
        doc: "A lock held on another host is broken only this long after it was taken, in ms.",
        value: lock::LEASE_MS,
    },
    Constant {
        name: "lock_queue_after_ms",
        doc: "A lock waiter claims the next turn (`<file>.lock.next`) after waiting this long, in ms.",
        value: lock::QUEUE_AFTER_MS,
    },
    Constant {
        name: "lock_turn_ms",
        doc: "A turn claim is honoured this long after its mtime (its claimant refreshes it), in ms.",
        value: lock::TURN_MS,
    },
    Constant {
        name: "lock_claim_watch_us",
        doc: "A synchronous claimant of the next turn checks this often whether its claim file is gone (a releaser hands the lock over by renaming the claim over the lock) or the lock file is, in µs.",
        value: lock::CLAIM_WATCH_US,
    },
    Constant {
        name: "lock_claim_ripe_ms",
        doc: "A claim to the next turn is honoured (others let its claimant go first, a releaser hands it the lock) only once it is this old, in ms.",
        value: lock::CLAIM_RIPE_MS,
    },
    Constant {
        name: "edit_quiet_ms",
        doc: "A file people edit must have been left alone this long before a writer replaces it; a writer stamps its own write this far in the past, so that it is not waited on (docs/locking.md § Files people edit), in ms.",
        value: crate::edit::QUIET_MS,
    },
    Constant {
        name: "max_document_bytes",
        doc: "The largest document (file) a reader accepts; a host reads at most this + 1 bytes.",
        value: crate::json::MAX_DOCUMENT_BYTES as i64,
    },
    Constant {
        name: "lock_grace_ms",
        doc: "A malformed lock record (or break marker) is broken only when this old, in ms.",
        value: lock::GRACE_MS,
    },
    Constant {
        name: "walk_max_depth",
        doc: "How many levels of directories below its start a walk of a tree goes down at most (the command line's listings, the MCP server's resource list); `.git` and `node_modules` are never entered.",
        value: crate::watch::WALK_MAX_DEPTH,
    },
    Constant {
        name: "lock_timeout_ms",
        doc: "How long a host waits for a lock by default, in ms.",
        value: lock::DEFAULT_TIMEOUT_MS,
    },
];

/// The host constants of the store (`PostgresStore`).
pub static STORE_CONSTANTS: &[Constant] = &[
    Constant {
        name: "store_known_chars",
        doc: "How many characters of row text a `PostgresStore` keeps to try updates on, in all (a text over a quarter of it is not kept).",
        value: crate::store::KNOWN_CHARS,
    },
    Constant {
        name: "store_keepalive_idle_s",
        doc: "How long a store's connection may be silent before keepalive probes start, in s.",
        value: crate::store::KEEPALIVE_IDLE_S,
    },
    Constant {
        name: "store_keepalive_interval_s",
        doc: "The time between unanswered keepalive probes of a store's connection, in s.",
        value: crate::store::KEEPALIVE_INTERVAL_S,
    },
    Constant {
        name: "store_keepalive_count",
        doc: "How many unanswered keepalive probes end a store's connection (a vanished host's locks are then released).",
        value: crate::store::KEEPALIVE_COUNT,
    },
    Constant {
        name: "store_tcp_user_timeout_ms",
        doc: "How long data a store's connection sent may stay unacknowledged before it is ended, in ms.",
        value: crate::store::TCP_USER_TIMEOUT_MS,
    },
];

/// The host constant of lock tokens.
pub static TOKEN_CONSTANTS: &[Constant] = &[Constant {
    name: "token_bytes",
    doc: "How many random bytes a lock token is made of.",
    value: lock::TOKEN_BYTES as i64,
}];

/// The host-facing operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "corrupt_copy_suffix",
        doc: "The suffix of a `.corrupt-` copy made now: `.corrupt-YYYYMMDDTHHMMSSmmmZ`.",
        params: &[Param::now()],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| {
            let (_, millis) = crate::time::normalize_now(a.get(0))?;
            Ok(Out::Text(crate::document::corrupt_copy_suffix(millis)?))
        },
    },
    Op {
        module: Module::Root,
        method: "corrupt_copy_warning",
        doc: "The `W_CORRUPT_COPY` warning: the unparseable file was kept as `copy`.",
        params: &[Param::text("copy", Ty::Str)],
        returns: Returns::json(Ty::Object(&ISSUE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(
                crate::document::corrupt_copy_warning(a.text(0)?).to_value(),
            ))
        },
    },
    Op {
        module: Module::Lock,
        method: "record",
        doc: "A new owner record for this process (`identity`), its token from the host's \
              random bytes: `{record, text}` (`text`: the lock file's bytes).",
        params: &[
            Param::value("identity", Ty::Object(&lock::shapes::IDENTITY)),
            Param::bytes("random"),
            Param::now(),
        ],
        returns: Returns::json(Ty::Object(&lock::shapes::NEW_RECORD)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let (_, millis) = crate::time::normalize_now(a.get(2))?;
            Ok(Out::Json(lock::record(a.get(0), a.bytes(1)?, millis)?))
        },
    },
    Op {
        module: Module::Lock,
        method: "owner",
        doc: "What a lock file's bytes say of its owner: `{record, id}` (`stamp`: the file's \
              `inode:mtime_ns`, naming a malformed record).",
        params: &[Param::bytes("data"), Param::text("stamp", Ty::Str)],
        returns: Returns::json(Ty::Object(&lock::shapes::OWNER)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(lock::owner(a.bytes(0)?, a.text(1)?))),
    },
    Op {
        module: Module::Lock,
        method: "verdict",
        doc: "Whether a lock's owner (its record, or null when malformed) is provably gone, \
              from the facts the host saw: `{dead, reason}`. Only then may it be broken.",
        params: &[
            Param::value("record", Ty::Nullable(&Ty::Object(&lock::shapes::RECORD))),
            Param::value("facts", Ty::Object(&lock::shapes::FACTS)),
        ],
        returns: Returns::json(Ty::Object(&lock::shapes::VERDICT)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(lock::verdict(a.get(0), a.get(1))?)),
    },
    Op {
        module: Module::Lock,
        method: "proc_stat",
        doc: "A process's `{state, start}` from the text of its `/proc/<pid>/stat`, or null.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&lock::shapes::PROC_STAT))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(lock::proc_stat(a.text(0)?))),
    },
    Op {
        module: Module::Lock,
        method: "litter",
        doc: "What a lock holder may clean up next to the file `name` among its directory's \
              `entries`: `[{entry, what}]` (`write_temp`: remove; `lock_temp`, `marker`: judge \
              the owner first).",
        params: &[
            Param::text("name", Ty::Str),
            Param::value("entries", Ty::List(&Ty::Str)),
        ],
        returns: Returns::json(Ty::List(&Ty::Object(&lock::shapes::LITTER))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(lock::litter(a.text(0)?, &a.texts(1)?))),
    },
    Op {
        module: Module::Lock,
        method: "timeout",
        doc: "Raises the `E_LOCK_TIMEOUT` error: the lock `lock_path` was held by `owner` (what \
              the lock file held, or null) for `timeout_ms`.",
        params: &[
            Param::text("lock_path", Ty::Str),
            Param::opt_value("owner", Ty::Nullable(&Ty::Object(&lock::shapes::OWNER))),
            Param::value("timeout_ms", Ty::Number),
        ],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| Err(lock::timeout_error(a.text(0)?, a.get(1), a.get(2))),
    },
    Op {
        module: Module::Lock,
        method: "turn",
        doc: "Whether an acquirer lets the claimant of the next turn go first (docs/locking.md \
              § Fairness): `claim` is what `<file>.lock.next` holds (null: none), `facts` as \
              for `verdict`, `token` the acquirer's own claim's token, `waiting`: the acquirer \
              has waited and holds no claim (it defers to a young claim too), `since_ms`: when \
              it started waiting (epoch ms; its claim record is dated so): a waiting acquirer \
              that started before the claimant takes the claim over (`displace_ms`).",
        params: &[
            Param::opt_value("claim", Ty::Nullable(&Ty::Object(&lock::shapes::OWNER))),
            Param::value("facts", Ty::Object(&lock::shapes::FACTS)),
            Param::opt_text("token", Ty::Str),
            Param::opt_value("waiting", Ty::Nullable(&Ty::Bool)),
            Param::opt_value("since_ms", Ty::Nullable(&Ty::Whole(0))),
        ],
        returns: Returns::json(Ty::Object(&lock::shapes::TURN)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let waiting = a.opt_flag(3)?;
            let since = match a.get(4) {
                Value::Null => None,
                _ => Some(i64::try_from(a.whole(4)?).unwrap_or(i64::MAX)),
            };
            Ok(Out::Json(lock::turn(
                a.get(0),
                a.get(1),
                a.opt_text(2)?,
                waiting,
                since,
            )?))
        },
    },
    Op {
        module: Module::Lock,
        method: "glance",
        doc: "What a turn claim whose file's mtime is `mtime_ms` means at `now_ms`, before it is \
              read (docs/locking.md § Fairness): `judge` (read it, ask `turn`); while it is \
              younger than 20 ms (not honoured yet, nor broken), `pass` (go on as if there were \
              none) for a releaser or an acquirer that has not waited yet, `peek` (read it, do \
              not check its claimant's liveness, ask `turn`: it may have waited longer than the \
              claimant) for a `waiting` acquirer.",
        params: &[
            Param::value("now_ms", Ty::Whole(0)),
            Param::value("mtime_ms", Ty::Whole(0)),
            Param::value("waiting", Ty::Bool),
        ],
        returns: Returns::json(Ty::Enum(&lock::shapes::GLANCE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let ms = |k: usize| a.whole(k).map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
            Ok(Out::Json(lock::glance(ms(0)?, ms(1)?, a.opt_flag(2)?).into()))
        },
    },
    Op {
        module: Module::Lock,
        method: "pause",
        doc: "How long a lock waiter pauses before its next attempt, and what it watches \
              meanwhile (docs/locking.md § Fairness): `{us, watch, step_us}`. `claim_age_ms`: the age \
              of its own claim to the next turn (null: none); `watching`: it can watch files \
              while it pauses, and how often (`step_us`). A claim younger than 20 ms: sleep \
              until it is honoured, checking the claim every 1 ms; a ripe claim: watch the \
              claim and the lock every 100 µs up to 25 ms (else 1 ms); no claim: 1 ms doubling \
              with each `attempt` up to 25 ms, times `1 + jitter / 4`.",
        params: &[
            Param::value("attempt", Ty::Whole(0)),
            Param::opt_value("claim_age_ms", Ty::Nullable(&Ty::Number)),
            Param::value("watching", Ty::Bool),
            Param::value("jitter", Ty::Number),
        ],
        returns: Returns::json(Ty::Object(&lock::shapes::PAUSE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let attempt = u32::try_from(a.whole(0)?).unwrap_or(u32::MAX);
            let age = a.get(1).as_f64().map(|ms| ms.floor() as i64);
            let jitter = a.get(3).as_f64().unwrap_or(0.0);
            Ok(Out::Json(lock::pause(attempt, age, a.opt_flag(2)?, jitter)))
        },
    },
    Op {
        module: Module::Root,
        method: "file_type_error",
        doc: "Raises the `E_FILE_TYPE` error: `path` is a `what` (`fifo`, `character device`, \
              `directory`, `symbolic link`, ...), not a regular file statecore may read or write.",
        params: &[Param::text("path", Ty::Str), Param::text("what", Ty::Str)],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| Err(crate::error::file_type_error(a.text(0)?, a.text(1)?)),
    },
    Op {
        module: Module::Lock,
        method: "foreign",
        doc: "Raises the `E_LOCK_FOREIGN` error: the lock path `lock_path` holds `text`, which \
              is not a statecore lock (another tool's file): it is left alone.",
        params: &[
            Param::text("lock_path", Ty::Str),
            Param::text("text", Ty::Str),
        ],
        returns: Returns::raises(),
        access: Access::Pure,
        web: false,
        run: |a| Err(lock::foreign_error(a.text(0)?, a.text(1)?)),
    },
    Op {
        module: Module::Root,
        method: "manifest",
        doc: "The operation table as data: every operation, its parameters and result, the \
              types, the document kinds, the error classes and the hosts' constants.",
        params: &[],
        returns: Returns::json(Ty::Map(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| match a.table() {
            Some(table) => Ok(Out::Json(table.manifest())),
            None => Err(Error::new(
                Code::Unavailable,
                "",
                "the manifest describes the table a call is dispatched from: call it through \
                 a table (`Table::call`)",
            )),
        },
    },
    Op {
        module: Module::Root,
        method: "check_options",
        doc: "Checks a host's options (`set`: `update` or `append`, plus the keys `also` \
              names): null or an object of known keys, else `E_OPTIONS` naming the nearest \
              valid key (`camel`: keys in camelCase, as JS spells them).",
        params: &[
            Param::text("set", Ty::Str),
            Param::value("options", Ty::Json),
            Param::opt_value("camel", Ty::Bool),
            Param::opt_value("also", Ty::Nullable(&Ty::List(&Ty::Str))),
        ],
        returns: Returns::nothing(),
        access: Access::Pure,
        web: false,
        run: |a| {
            let set = a.text(0)?;
            let (_, shape) = HOST_OPTIONS
                .iter()
                .find(|(name, _)| *name == set)
                .ok_or_else(|| {
                    Error::new(Code::Argument, "", format!("no host options named {set:?}"))
                        .with_detail("argument", "set")
                })?;
            let camel_case = a.get(2).as_bool().unwrap_or(false);
            let also = match a.get(3) {
                Value::Null => Vec::new(),
                _ => a.texts(3)?,
            };
            let names = shape.field_names();
            let known: Vec<String> = names
                .iter()
                .map(|name| {
                    if camel_case {
                        crate::options::camel(name)
                    } else {
                        (*name).to_owned()
                    }
                })
                .chain(also.into_iter().map(str::to_owned))
                .collect();
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            crate::options::check_keys(set, a.get(1), &known)?;
            check_values(shape, a.get(1), camel_case)?;
            Ok(Out::Nothing)
        },
    },
]);
