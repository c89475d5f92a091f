//! The table: documents' values (parse, canonical text, merges, set a value) and validation.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::document;
use crate::shape::common::{MERGE_OPTIONS, REPORT};
use crate::shape::Ty;
use crate::{json, kinds};

const KIND: Param = Param::text("kind", Ty::Kind);
const DOC: Param = Param::value("doc", Ty::Json);
const MERGE: Param = Param::options("options", &MERGE_OPTIONS);

/// Documents' values, merges, validation.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "parse",
        doc: "Parses JSON text (strict: duplicate keys, lone surrogates and limits are errors).",
        params: &[Param::bytes("data")],
        returns: Returns::json(Ty::Json),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(json::parse(a.bytes(0)?)?)),
    },
    Op {
        module: Module::Root,
        method: "canonical",
        doc: "Parses JSON text and returns its canonical text, numbers exact.",
        params: &[Param::bytes("data")],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Text(json::serialize(&json::parse(a.bytes(0)?)?))),
    },
    Op {
        module: Module::Root,
        method: "serialize",
        doc: "Canonical text of a document: 2-space indent, `\\n`, trailing newline.",
        params: &[Param::value("value", Ty::Json)],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        // The value is held to the documents' limits when the call binds it (`ops::call`).
        run: |a| Ok(Out::Text(json::serialize(a.get(0)))),
    },
    Op {
        module: Module::Root,
        method: "merge",
        doc: "Merges `patch` into `doc` (deep merge by default; the inputs are not changed).",
        params: &[DOC, Param::value("patch", Ty::Json), MERGE],
        returns: Returns::json(Ty::Json),
        access: Access::Pure,
        web: true,
        run: |a| {
            let options = super::file::merge_options(a.get(2))?;
            // Both are held to the documents' limits when the call binds them (`ops::call`);
            // a merge makes nothing deeper than the deeper of the two.
            let doc = a.take(0);
            Ok(Out::Json(crate::merge::merge_owned(
                doc,
                a.get(1),
                &options,
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "set_value",
        doc: "`doc` with `value` at the JSON pointer `pointer` (a missing member on the way is \
              created as an object; an array item is replaced, `-` or its length appends; \
              the inputs are not changed). A file update names it to set one value.",
        params: &[
            DOC,
            Param::text("pointer", Ty::Str),
            Param::value("value", Ty::Json),
        ],
        returns: Returns::json(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let mut doc = a.take(0);
            // `value` was held to the limits when the call bound it; the document it goes
            // into may grow deeper.
            let value = a.take(2);
            doc.set_pointer(a.text(1)?, value)?;
            json::check_limits(&doc)?;
            Ok(Out::Json(doc))
        },
    },
    Op {
        module: Module::Root,
        method: "merge_text",
        doc: "`merge` over JSON text, returning canonical text (numbers exact).",
        params: &[Param::bytes("doc"), Param::bytes("patch"), MERGE],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| {
            let options = super::file::merge_options(a.get(2))?;
            let doc = json::parse(a.bytes(0)?)?;
            let patch = json::parse(a.bytes(1)?)?;
            let merged = crate::merge::merge_owned(doc, &patch, &options)?;
            json::check_limits(&merged)?;
            Ok(Out::Text(json::serialize(&merged)))
        },
    },
    Op {
        module: Module::Root,
        method: "validate",
        doc: "Validates a document of a kind; problems are data (a report), not exceptions.",
        params: &[KIND, DOC],
        returns: Returns::json(Ty::Object(&REPORT)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(kinds::validate(a.text(0)?, a.get(1))?.to_value())),
    },
    Op {
        module: Module::Root,
        method: "validate_text",
        doc: "`validate` over a file's text: JSON, or index.md for `specify.index` (text that \
              does not parse raises `ParseError`).",
        params: &[KIND, Param::bytes("data")],
        returns: Returns::json(Ty::Object(&REPORT)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let doc = document::read_bytes(a.text(0)?, a.bytes(1)?)?;
            Ok(Out::Json(kinds::validate(a.text(0)?, &doc)?.to_value()))
        },
    },
]);
