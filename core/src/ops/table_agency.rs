//! The table: the agency runner status contract, watchdog and run status (docs/agency.md).

use super::{Access, Module, Op, Out, Param, Returns, Write};
use crate::agency::shapes as s;
use crate::agency::{self as ag};
use crate::shape::common::REPORT;
use crate::shape::Ty;
use crate::{Map, Value};

const KIND: &str = "agency.runner_status";
const THRESHOLD: Param = Param::opt_value("threshold_ms", Ty::Nullable(&Ty::Whole(0)));

/// The agency operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Agency,
        method: "initial_runner_status",
        doc: "The seed's initial `runner_status.json` (status `working`), stamped with `now`.",
        params: &[Param::now()],
        returns: Returns::json(Ty::Object(&s::RUNNER_STATUS)),
        access: Access::Writes(Write {
            takes_document: false,
            helper: Some("write_initial_runner_status"),
            ..Write::document(KIND)
        }),
        web: false,
        run: |a| Ok(Out::Json(ag::initial_runner_status(a.get(0))?)),
    },
    Op {
        module: Module::Agency,
        method: "update_runner_status",
        doc: "A runner's milestone on the current document (null: none): `status` and \
              `summary` kept when left out, the details cleared, `updated_at` stamped; \
              `ValidationError` when the result is invalid.",
        params: &[
            Param::opt_value("current", s::RUNNER_STATUS_IN),
            Param::value("update", Ty::Object(&s::RUNNER_STATUS_UPDATE)),
            Param::now(),
        ],
        returns: Returns::json(Ty::Object(&s::RUNNER_STATUS)),
        access: Access::Writes(Write {
            helper: Some("write_runner_status"),
            ..Write::document(KIND)
        }),
        web: false,
        run: |a| {
            Ok(Out::Json(ag::update_runner_status(
                a.get(0),
                a.get(1),
                a.get(2),
            )?))
        },
    },
    Op {
        module: Module::Agency,
        method: "parse_runner_status",
        doc: "What a reader makes of the status file's bytes (none: no file): `{status, report}`.",
        params: &[Param::opt_bytes("data")],
        returns: Returns::json(Ty::Object(&s::RUNNER_STATUS_PARSE)),
        access: Access::Reads {
            kind: KIND,
            bytes: true,
            helper: Some("load_runner_status"),
        },
        web: true,
        run: |a| Ok(Out::Json(ag::parse_runner_status(a.opt_bytes(0)))),
    },
    Op {
        module: Module::Agency,
        method: "age",
        doc: "Milliseconds since the status's `updated_at` (0 when it is in the future).",
        params: &[
            Param::value("status", Ty::Object(&s::RUNNER_STATUS)),
            Param::now(),
        ],
        returns: Returns::json(Ty::Whole(0)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(ag::age(a.get(0), a.get(1))?.into())),
    },
    Op {
        module: Module::Agency,
        method: "check_stall",
        doc: "The stall watchdog: stalled when tmux runs and the status file is older than \
              the threshold (default 15 minutes, inclusive).",
        params: &[
            Param::value("signals", Ty::Object(&s::SIGNALS)),
            Param::now(),
            THRESHOLD,
        ],
        returns: Returns::json(Ty::Object(&s::STALL)),
        access: Access::Pure,
        web: true,
        run: |a| {
            Ok(Out::Json(
                ag::check_stall(a.get(0), a.get(1), a.get(2))?.to_value(),
            ))
        },
    },
    Op {
        module: Module::Agency,
        method: "build_snapshot",
        doc: "A run's snapshot from its files' bytes (none: missing) and the host's facts.",
        params: &[
            Param::opt_bytes("status_data"),
            Param::opt_bytes("meta_data"),
            Param::opt_value("facts", Ty::Nullable(&Ty::Object(&s::FACTS))),
            Param::now(),
            THRESHOLD,
        ],
        returns: Returns::json(Ty::Object(&s::SNAPSHOT)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let facts = match a.get(2) {
                Value::Null => Value::Object(Map::new()),
                other => other.clone(),
            };
            Ok(Out::Json(ag::build_snapshot(
                a.opt_bytes(0),
                a.opt_bytes(1),
                &facts,
                a.get(3),
                a.get(4),
            )?))
        },
    },
    Op {
        module: Module::Agency,
        method: "check_meta",
        doc: "Why a run's meta.json (its document; null: missing or unreadable) makes the run \
              `broken`, as agency decodes it: no `schema_version` or `created_at`, or a field \
              of another type. Valid: the run reads.",
        params: &[Param::opt_value("meta", Ty::Json)],
        returns: Returns::json(Ty::Object(&REPORT)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(ag::check_meta(a.get(0)).to_value())),
    },
    Op {
        module: Module::Agency,
        method: "derive",
        doc: "The 12-level run status of a snapshot: `{status, display, archived}`.",
        params: &[Param::value("snapshot", Ty::Object(&s::SNAPSHOT))],
        returns: Returns::json(Ty::Object(&s::DERIVED_STATUS)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(ag::derive(a.get(0))?.to_value())),
    },
    Op {
        module: Module::Agency,
        method: "derive_all",
        doc: "`derive` for a list of snapshots in one call (a whole table crosses once); a \
              refused snapshot's error has its index at the front of the path.",
        params: &[Param::value(
            "snapshots",
            Ty::List(&Ty::Object(&s::SNAPSHOT)),
        )],
        returns: Returns::json(Ty::List(&Ty::Object(&s::DERIVED_STATUS))),
        access: Access::Pure,
        web: true,
        run: |a| {
            let all = ag::derive_all(a.get(0))?;
            Ok(Out::Json(Value::Array(
                all.iter().map(ag::Derived::to_value).collect(),
            )))
        },
    },
    Op {
        module: Module::Agency,
        method: "derive_files",
        doc: "The run statuses of many runs from their files' bytes in one call: `data` holds \
              each run's meta.json then its runner_status.json, run after run; `runs` gives \
              per run `{meta, status}` (each file's length; null: missing) and the facts of \
              `build_snapshot`. A file whose bytes do not read is that run's `error`.",
        params: &[
            Param::bytes("data"),
            Param::value("runs", Ty::List(&Ty::Object(&s::FILE_RUN))),
            Param::now(),
            THRESHOLD,
        ],
        returns: Returns::json(Ty::List(&Ty::Object(&s::FILE_DERIVED))),
        access: Access::Pure,
        web: true,
        run: |a| {
            Ok(Out::Json(ag::derive_files(
                a.bytes(0)?,
                a.get(1),
                a.get(2),
                a.get(3),
            )?))
        },
    },
    Op {
        module: Module::Agency,
        method: "render_ls",
        doc: "The `ls` table (RUN_ID NAME STATUS SUMMARY PR).",
        params: &[Param::value("rows", Ty::List(&Ty::Object(&s::RUN_ROW)))],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(ag::render_ls(a.get(0))?)),
    },
    Op {
        module: Module::Agency,
        method: "render_show",
        doc: "The `show` output of one run with its `runner_status:` section.",
        params: &[Param::value("run", Ty::Object(&s::RUN_ROW)), Param::now()],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(ag::render_show(a.get(0), a.get(1))?)),
    },
    Op {
        module: Module::Agency,
        method: "protocol_document",
        doc: "The runner protocol document (`CLAUDE.md`).",
        params: &[],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |_| Ok(Out::Text(ag::PROTOCOL_DOCUMENT.to_owned())),
    },
]);
