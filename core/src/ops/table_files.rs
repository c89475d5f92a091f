//! The table: what a host asks the core about the files it writes beyond one update: an event
//! log's append, read and repair (a hive session's log as its session's), and whether a file
//! people edit may be written now (docs/locking.md § Files people edit).

use super::{Access, Module, Op, Out, Param, Returns};
use crate::lock;
use crate::shape::common::ISSUE;
use crate::shape::{Field, Shape, Ty};
use crate::Value;

/// Whose log a log is (`log_owner`).
pub static LOG_OWNER: Shape = Shape::exact(
    "LogOwner",
    "The file a log is kept with: a generic append to the log takes that file's lock and runs `step` with the record.",
    &[
        Field::req("file", Ty::Str, "The file's name, in the log's directory (`STATE.json`)."),
        Field::req("kind", Ty::Str, "The file's kind (`hive.state`)."),
        Field::req("record", Ty::Str, "The kind of each record of the log (`hive.event`)."),
        Field::req("step", Ty::Str, "The step an appended record is taken as (`hive_apply_event`)."),
    ],
);

/// A line a session log's repair sets aside.
pub static SET_ASIDE: Shape = Shape::exact(
    "LogSetAside",
    "A line of a session's log a repair sets aside: its number, byte range and why.",
    &[
        Field::req("line", Ty::Whole(1), "Its line number in the file."),
        Field::req("start", Ty::Whole(0), "Its first byte."),
        Field::req("end", Ty::Whole(0), "The byte after it (after its `\\n`)."),
        Field::req(
            "code",
            Ty::Str,
            "Why: the error code a read met (`E_INVALID`, `E_LOG_CORRUPT`, ...; `W_TORN_TAIL`).",
        ),
        Field::req("message", Ty::Str, "Why, for people."),
    ],
);

/// What a repair of a session's log does.
pub static SESSION_REPAIR: Shape = Shape::exact(
    "SessionLogRepair",
    "What a repair of a session's log does: write the `set_aside` lines to a side file, then replace the log by its `keep` ranges (both empty: nothing to do).",
    &[
        Field::req("keep", Ty::List(&Ty::List(&Ty::Whole(0))), "The byte ranges `[start, end]` kept, in order."),
        Field::req("set_aside", Ty::List(&Ty::Object(&SET_ASIDE)), "The lines set aside."),
    ],
);

/// The operations on logs and on files people edit.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "mcp_path",
        doc: "The names below `statecore mcp`'s directory of a path an agent gave as the tool \
              argument `argument` (`dir`, `path`; none: the directory itself): relative, \
              `/`-separated, no `..`, no absolute or drive path, backslash or control \
              character (`E_PATH_UNSAFE`, its path `/<argument>`). The host then refuses a \
              link or special file on the way.",
        params: &[Param::text("path", Ty::Str), Param::text("argument", Ty::Str)],
        returns: Returns::json(Ty::List(&Ty::Str)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let names = crate::mcp::tool_path(a.text(0)?, a.text(1)?)?;
            Ok(Out::Json(Value::Array(
                names.into_iter().map(Value::from).collect(),
            )))
        },
    },
    Op {
        module: Module::Root,
        method: "mcp_farms",
        doc: "`statecore mcp`'s private directories for helper calls (docs/mcp.md § Confined to DIR): \
              `{prefix, stale}`, the prefix of the names of this process's own (`pid`, in the \
              pid namespace whose link `/proc/self/ns/pid` reads `ns_link`; null: none), and \
              the names among `names` (the temp directory's) that are another process's of the \
              same namespace, each with its pid: the host removes one that is a real directory \
              of its user's whose process no longer exists.",
        params: &[
            Param::value("names", Ty::List(&Ty::Str)),
            Param::opt_text("ns_link", Ty::Str),
            Param::value("pid", Ty::Whole(1)),
        ],
        returns: Returns::json(Ty::Object(&crate::mcp_farms::FARMS)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let names: Vec<&str> = a
                .get(0)
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            Ok(Out::Json(crate::mcp_farms::farms(
                &names,
                a.opt_text(1)?,
                a.whole(2)?,
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "mcp_arguments",
        doc: "The arguments (JSON text, as bytes or a string) of a call of `statecore mcp`'s tool `tool`, checked \
              against its input schema `schema` (the tool list's `inputSchema`): at most a \
              document's size (`E_LIMIT`), an object, no argument the tool does not take, every \
              required one given (null is left out), each value of its type; a refusal is \
              `E_ARGUMENT` at the argument's pointer (`/workers/0/name`). The arguments.",
        params: &[
            Param::text("tool", Ty::Str),
            Param::value("schema", Ty::Json),
            Param::bytes("arguments"),
        ],
        returns: Returns::json(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(crate::mcp_arguments::check(
                a.text(0)?,
                a.get(1),
                a.bytes(2)?,
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "log_append",
        doc: "What an appender does to a log's bytes (none: no file) to add `value` in one \
              write: `{text, truncate_at, torn_line}` (a torn last line is copied, then cut).",
        params: &[Param::opt_bytes("data"), Param::value("value", Ty::Json)],
        returns: Returns::json(Ty::Object(&lock::shapes::APPEND)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(crate::jsonl::append(a.opt_bytes(0), a.get(1))?)),
    },
    Op {
        module: Module::Root,
        method: "log_owner",
        doc: "The file the log at `path` is kept with, from its name (`EVENTS.jsonl`: a hive \
              session's `STATE.json`, in the same directory): when that file is there, a \
              generic append takes its lock and runs the record as its `step`, and a repair \
              sets refused lines aside under it (one session, one lock); null for any other \
              log.",
        params: &[Param::text("path", Ty::Str)],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&LOG_OWNER))),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(super::session_log::log_owner(a.text(0)?))),
    },
    Op {
        module: Module::Root,
        method: "session_log_repair",
        doc: "What a repair of a session's log (its bytes; none: no file) sets aside: every \
              line a read refuses and a torn last line (`set_aside`), and the byte ranges kept \
              (`keep`); `E_NO_SESSION` when no line starts the session.",
        params: &[
            Param::text("kind", Ty::Str),
            Param::text("session_id", Ty::Line),
            Param::opt_bytes("data"),
        ],
        returns: Returns::json(Ty::Object(&SESSION_REPAIR)),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(super::session_log::session_log_repair(
                a.text(0)?,
                a.text(1)?,
                a.opt_bytes(2),
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "log_repair",
        doc: "What a repair does to a log's bytes (none: no file): `{truncate_at, torn_line}`, \
              both null when its last line is not torn (it is copied, then cut).",
        params: &[Param::opt_bytes("data")],
        returns: Returns::json(Ty::Object(&lock::shapes::REPAIR)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(crate::jsonl::repair(a.opt_bytes(0))?)),
    },
    Op {
        module: Module::Root,
        method: "log_read",
        doc: "What a reader gets of a log's bytes (none: no file): `{records, torn, warnings}`.",
        params: &[Param::opt_bytes("data")],
        returns: Returns::json(Ty::Object(&lock::shapes::READ)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(crate::jsonl::read(a.opt_bytes(0))?)),
    },
    Op {
        module: Module::Root,
        method: "log_repaired",
        doc: "The `W_TORN_TAIL` warning of an appender that moved the torn line to `copy`.",
        params: &[Param::int("line"), Param::text("copy", Ty::Str)],
        returns: Returns::json(Ty::Object(&ISSUE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(
                crate::jsonl::repaired(a.whole(0)?, a.text(1)?).to_value(),
            ))
        },
    },
    Op {
        module: Module::Root,
        method: "file_update_script",
        doc: "The steps a file update job (docs/locking.md § The update as a job: the guarded \
              read-change-write of a document's file, under its lock) started from `setup` asks \
              for, given `answers` in turn (an answer's `data`: the bytes read with it, as \
              text): every step up to its end (`done`, `raise`), then `{do: \"error\", error}` \
              when it ended with its own error (`E_CONFLICT`).",
        params: &[
            Param::value("setup", Ty::Object(&crate::file_update::SETUP)),
            Param::value("answers", Ty::List(&Ty::Json)),
        ],
        returns: Returns::json(Ty::List(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let setup = a.input(0, &crate::file_update::SETUP)?;
            Ok(Out::Json(crate::file_update::script(setup, a.list(1))?))
        },
    },
    Op {
        module: Module::Root,
        method: "update_job_script",
        doc: "The steps the library's update job (docs/locking.md § The update as one job: the \
              lock, the sweep, the guarded read-change-write and the release of a document's \
              file, in one job) started from `setup` asks for, given `answers` in turn (an \
              answer's `data`: the bytes read with it, as text): every step up to its end \
              (`done`, `raise`), then `{do: \"error\", error}` when it ended with its own \
              error (`E_CONFLICT`, `E_PRECISION`).",
        params: &[
            Param::value("setup", Ty::Object(&crate::update_job::SETUP)),
            Param::value("answers", Ty::List(&Ty::Json)),
        ],
        returns: Returns::json(Ty::List(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(crate::update_job::script(a.get(0), a.list(1))?)),
    },
    Op {
        module: Module::Root,
        method: "edit_wait",
        doc: "What a writer does next with the file of `kind` it read as `data` (none: \
              missing), given what it saw (`facts`): `{wait_ms, edited}` (0: go ahead; `edited`: the kind's files are edited by hand). A file people \
              edit is waited on while it changes; `E_CONFLICT` when it keeps changing or the \
              write started over too often (docs/locking.md § Files people edit).",
        params: &[
            Param::text("kind", Ty::Kind),
            Param::opt_bytes("data"),
            Param::value("facts", Ty::Object(&crate::edit::FACTS)),
        ],
        returns: Returns::json(Ty::Object(&crate::edit::WAIT)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let facts = a.input(2, &crate::edit::FACTS)?;
            Ok(Out::Json(crate::edit::edit_wait(
                a.text(0)?,
                a.opt_bytes(1),
                facts,
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "log_set_aside",
        doc: "The `W_SET_ASIDE` warning of a session log's repair that moved the refused \
              `lines` to `copy`.",
        params: &[
            Param::value("lines", Ty::List(&Ty::Whole(1))),
            Param::text("copy", Ty::Str),
        ],
        returns: Returns::json(Ty::Object(&ISSUE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let lines: Vec<u64> = a
                .get(0)
                .as_array()
                .map(|l| l.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            Ok(Out::Json(
                super::session_log::set_aside(&lines, a.text(1)?).to_value(),
            ))
        },
    },
]);
