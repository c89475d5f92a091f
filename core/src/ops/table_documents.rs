//! The table: the kinds, files (load, prepare, update), logs, time and the machine engine.

use super::{Access, Args, Module, Op, Out, Param, Returns};
use crate::document;
use crate::document::Precondition;
use crate::error::Result;
use crate::machine::shapes as m;
use crate::machine::{events_value, Instance, Machine};
use crate::shape::common::{
    JSON_OBJECT, KIND_INFO, LIMITS, LOAD_RESULT, LOG, MERGE_OPTIONS, PREPARED, REPORT,
    UPDATE_RESULT,
};
use crate::shape::Ty;
use crate::{json, jsonl, kinds, time};
use crate::{Map, Value};

const KIND: Param = Param::text("kind", Ty::Kind);
const DOC: Param = Param::value("doc", Ty::Json);
const DEFINITION: Param = Param::value("definition", Ty::Object(&m::DEFINITION));
const CONTEXT: Param = Param::opt_value("context", Ty::Json);
const IF_MATCH: Param = Param::opt_text("if_match", Ty::Str);
const RESET: Param = Param::opt_value("reset", Ty::Bool);

/// The precondition of a write from its `if_match` and `reset` arguments.
fn precondition<'a>(a: &'a Args<'_>, if_match: usize) -> Result<Precondition<'a>> {
    Ok(Precondition {
        if_match: a.opt_text(if_match)?,
        reset: a.get(if_match.saturating_add(1)).as_bool().unwrap_or(false),
    })
}
const MERGE: Param = Param::options("options", &MERGE_OPTIONS);

/// Kinds, files, logs, time, the machine engine.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "kinds",
        doc: "Every document kind: `[{name, description}]`.",
        params: &[],
        returns: Returns::json(Ty::List(&Ty::Object(&KIND_INFO))),
        access: Access::Pure,
        web: true,
        run: |_| {
            let list = kinds::KINDS
                .iter()
                .map(|k| {
                    let mut m = Map::new();
                    m.insert("name".into(), k.name.into());
                    m.insert("description".into(), k.description.into());
                    Value::Object(m)
                })
                .collect();
            Ok(Out::Json(Value::Array(list)))
        },
    },
    Op {
        module: Module::Root,
        method: "schema",
        doc: "The JSON Schema (draft 2020-12) of a document kind: its fields, types, enums and \
              required fields (`validate` also checks the cross-field rules).",
        params: &[KIND],
        returns: Returns::json(JSON_OBJECT),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(crate::schema::schema(a.text(0)?)?)),
    },
    Op {
        module: Module::Root,
        method: "default_document",
        doc: "The document a reader gets for a missing file of this kind.",
        params: &[KIND],
        returns: Returns::json(Ty::KindDoc),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(kinds::default_document(a.text(0)?)?)),
    },
    Op {
        module: Module::Root,
        method: "limits",
        doc: "The documented limits: `{max_depth, max_document_bytes, max_string_bytes}`.",
        params: &[],
        returns: Returns::json(Ty::Object(&LIMITS)),
        access: Access::Pure,
        web: true,
        run: |_| {
            let mut m = Map::new();
            m.insert("max_depth".into(), (json::MAX_DEPTH as u64).into());
            m.insert(
                "max_document_bytes".into(),
                (json::MAX_DOCUMENT_BYTES as u64).into(),
            );
            m.insert(
                "max_string_bytes".into(),
                (json::MAX_STRING_BYTES as u64).into(),
            );
            Ok(Out::Json(Value::Object(m)))
        },
    },
    Op {
        module: Module::Root,
        method: "etag",
        doc: "The etag of a file's bytes: 32 hex digits.",
        params: &[Param::bytes("data")],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(json::etag(a.bytes(0)?))),
    },
    Op {
        module: Module::Root,
        method: "load_document",
        doc: "What a reader makes of a file's bytes (none: a missing file): the document (the \
              kind's default when missing or unparseable), its etag and its validation.",
        params: &[KIND, Param::opt_bytes("data")],
        returns: Returns::loaded(Ty::Apply(&LOAD_RESULT, &Ty::KindDoc)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::loaded(document::read(a.text(0)?, a.opt_bytes(1))?)),
    },
    Op {
        module: Module::Root,
        method: "prepare_document",
        doc: "Validates and serializes a document for writing (`ValidationError` when invalid).",
        params: &[KIND, DOC],
        returns: Returns::json(Ty::Object(&PREPARED)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let prepared = document::prepare(a.text(0)?, a.get(1))?;
            let mut m = Map::new();
            m.insert("text".into(), prepared.text.into());
            m.insert("etag".into(), prepared.etag.into());
            m.insert(
                "warnings".into(),
                crate::report::issues_value(&prepared.report.warnings),
            );
            Ok(Out::Json(Value::Object(m)))
        },
    },
    Op {
        module: Module::Root,
        method: "apply_update",
        doc: "The pure read-merge-validate step over a file's bytes (none: a missing file).",
        params: &[
            KIND,
            Param::opt_bytes("data"),
            Param::value("patch", Ty::Json),
            MERGE,
            IF_MATCH,
            RESET,
        ],
        returns: Returns::update(Ty::Apply(&UPDATE_RESULT, &Ty::KindDoc)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let options = super::file::merge_options(a.get(3))?;
            let updated = document::update_read(
                a.text(0)?,
                a.opt_bytes(1),
                a.get(2),
                &options,
                precondition(a, 4)?,
            )?;
            Ok(Out::updated(a.text(0)?, updated.into_parts()))
        },
    },
    Op {
        module: Module::Root,
        method: "finish_update",
        doc: "The update step for a document the host produced from the loaded one; the numbers \
              it did not change keep the file's text (`from_doubles`: every number came from a \
              double, as in JavaScript; a changed integer beyond 2^53 is then `E_PRECISION`).",
        params: &[
            KIND,
            Param::opt_bytes("data"),
            DOC,
            IF_MATCH,
            RESET,
            Param::opt_value("from_doubles", Ty::Bool),
        ],
        returns: Returns::update(Ty::Apply(&UPDATE_RESULT, &Ty::KindDoc)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let doc = a.take(2);
            let pre = precondition(a, 3)?;
            let from_doubles = a.opt_flag(5)?;
            let updated =
                document::finish_update(a.text(0)?, a.opt_bytes(1), doc, pre, from_doubles)?;
            Ok(Out::update(a.text(0)?, updated.into_value()))
        },
    },
    Op {
        module: Module::Root,
        method: "check_if_match",
        doc: "Raises `ConflictError` unless `if_match` is left out or equals `current`.",
        params: &[Param::opt_text("current", Ty::Str), IF_MATCH],
        returns: Returns::nothing(),
        access: Access::Pure,
        web: false,
        run: |a| {
            document::check_if_match(a.opt_text(0)?, a.opt_text(1)?)?;
            Ok(Out::Nothing)
        },
    },
    Op {
        module: Module::Root,
        method: "parse_log",
        doc: "Parses a JSONL log: `{records, torn, needs_newline}`.",
        params: &[Param::bytes("data")],
        returns: Returns::json(Ty::Object(&LOG)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(jsonl::parse_log(a.bytes(0)?)?.into_value())),
    },
    Op {
        module: Module::Root,
        method: "log_line",
        doc: "One JSONL line: compact JSON and `\\n`.",
        params: &[Param::value("value", Ty::Json)],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Text(jsonl::line(a.get(0))?)),
    },
    Op {
        module: Module::Root,
        method: "parse_timestamp",
        doc: "Epoch milliseconds of an RFC 3339 timestamp.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Int),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(time::parse_timestamp(a.text(0)?)?.into())),
    },
    Op {
        module: Module::Root,
        method: "format_timestamp",
        doc: "RFC 3339 UTC text with milliseconds of epoch milliseconds.",
        params: &[Param::int("millis")],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(time::format_millis_value(a.get(0))?)),
    },
    Op {
        module: Module::Root,
        method: "format_duration",
        doc: "A stall or elapsed time as every surface shows it: `45m`, `2h15m` under 48 \
              hours, `2d`, `282d15h` from 48 hours on (whole units, rounded down).",
        params: &[Param::value("ms", Ty::Number)],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(time::format_duration_value(a.get(0))?)),
    },
    Op {
        module: Module::Machine,
        method: "check",
        doc: "Checks a machine definition: a report (a malformed one raises `UsageError` \
              `E_MACHINE`).",
        params: &[DEFINITION],
        returns: Returns::json(Ty::Object(&REPORT)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(Machine::from_value(a.get(0))?.check().to_value())),
    },
    Op {
        module: Module::Machine,
        method: "events",
        doc: "The legal events from `state` given a context document: `[{event, to, auto}]`.",
        params: &[DEFINITION, Param::text("state", Ty::Str), CONTEXT],
        returns: Returns::json(Ty::List(&Ty::Object(&m::EVENT))),
        access: Access::Pure,
        web: true,
        run: |a| {
            let machine = Machine::from_value(a.get(0))?;
            Ok(Out::Json(events_value(
                &machine.events(a.text(1)?, a.get(2))?,
            )))
        },
    },
    Op {
        module: Module::Machine,
        method: "fire",
        doc: "Fires an event (`TransitionError` when it is not legal): `{state, previous, \
              changed, steps, scheduled}`.",
        params: &[
            DEFINITION,
            Param::value("instance", Ty::Alias(&m::INSTANCE)),
            Param::text("event", Ty::Str),
            CONTEXT,
        ],
        returns: Returns::json(Ty::Object(&m::FIRED)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let machine = Machine::from_value(a.get(0))?;
            let instance = match a.get(1) {
                Value::String(state) => Instance {
                    state: state.to_string(),
                    previous: None,
                },
                other => Instance::from_value(other)?,
            };
            Ok(Out::Json(
                machine.fire(&instance, a.text(2)?, a.get(3))?.to_value(),
            ))
        },
    },
    Op {
        module: Module::Machine,
        method: "diagram",
        doc: "The Mermaid `stateDiagram-v2` text of a machine.",
        params: &[DEFINITION],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(Machine::from_value(a.get(0))?.mermaid())),
    },
]);
