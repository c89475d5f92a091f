//! The MCP tools (`statecore mcp`, docs/mcp.md): one JSON file, the same in both packages
//! (`npm/lib/generated/mcp-tools.json`, `python/statecore/_generated/mcp_tools.json`), listing every
//! protocol helper of the table as a tool `<protocol>_<helper>` plus the generic `validate`,
//! `show`, `update` and `log_append`: its name, description, input and output JSON Schemas
//! (written from the shapes), and under `call` how a server's generic driver runs it.

use crate::helpers::{helpers, Helper};
use crate::names::{camel, modules};
use statecore::ops::{Kind, Param};
use statecore::shape::json_schema::{object_schema, type_schemas};
use statecore::shape::Ty;
use statecore::{json, Map, Value};
use statecore_cli::TABLE;

pub(crate) const DIR_DOC: &str =
    "The project directory, relative to the server's directory (default \".\"); \
                       absolute paths, `..`, links and special files are refused.";

/// How the driver passes a parameter (the letters of `npm/lib/generated/generated.mjs`'s `OPS`).
fn letter(kind: Kind) -> &'static str {
    match kind {
        Kind::Value => "v",
        Kind::Text => "t",
        Kind::Bytes => "b",
        Kind::Int => "i",
        Kind::Now => "n",
        Kind::Random => "r",
        Kind::Options(_) => "o",
    }
}

/// A property's schema with its description first.
pub(crate) fn described(doc: &str, schema: Value) -> Value {
    let mut out = Map::new();
    out.insert("description".into(), doc.into());
    if let Value::Object(map) = schema {
        for (key, value) in map {
            out.insert(key, value);
        }
    }
    Value::Object(out)
}

/// A schema that also takes null.
pub(crate) fn nullable(schema: Value) -> Value {
    json!({ "anyOf": [schema, { "type": "null" }] })
}

/// An object schema of `properties` (in order), `required` and `$defs`.
pub(crate) fn object(properties: Vec<(String, Value)>, required: Vec<String>, defs: Map) -> Value {
    let mut props = Map::new();
    for (name, schema) in properties {
        props.insert(name.into(), schema);
    }
    let mut out = Map::new();
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        let required: Vec<Value> = required.into_iter().map(Value::from).collect();
        out.insert("required".into(), required.into());
    }
    out.insert("additionalProperties".into(), false.into());
    if !defs.is_empty() {
        out.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(out)
}

fn param_doc(kind: Kind) -> &'static str {
    match kind {
        Kind::Now => "The time (RFC 3339 text or epoch milliseconds); default: the server's clock.",
        Kind::Random => "An explicit 6-character base36 id suffix; default: random.",
        _ => "",
    }
}

/// The parameters an agent gives a helper's tool (a reader's `now` too: a read whose answer
/// depends on the time takes it, as the library's readers do).
fn given(h: &Helper) -> Vec<&'static Param> {
    h.params().iter().collect()
}

/// The input schema of a helper: `dir`, then the operation's parameters.
fn input(h: &Helper) -> Value {
    let params = given(h);
    let tys: Vec<Ty> = params.iter().map(|p| p.ty).collect();
    let (schemas, defs) = type_schemas(&tys);
    let mut properties = vec![(
        "dir".to_owned(),
        described(DIR_DOC, json!({ "type": "string" })),
    )];
    let mut required = Vec::new();
    for (p, schema) in params.iter().zip(schemas) {
        let takes_null = matches!(p.ty, Ty::Nullable(_) | Ty::Json | Ty::Null);
        let schema = if p.optional && !takes_null {
            nullable(schema)
        } else {
            schema
        };
        let doc = param_doc(p.kind);
        let schema = if doc.is_empty() {
            schema
        } else {
            described(doc, schema)
        };
        properties.push((p.name.to_owned(), schema));
        if !p.optional {
            required.push(p.name.to_owned());
        }
    }
    object(properties, required, defs)
}

/// A value's output schema: an object type as it is, anything else as `{value}` (an MCP
/// tool's structured result is an object). The flag: whether it is wrapped.
pub(crate) fn output_of(ty: &Ty) -> (Value, bool) {
    let (_, defs) = type_schemas(&[*ty]);
    if let Some(Value::Object(mut schema)) = object_schema(ty) {
        if !defs.is_empty() {
            schema.insert("$defs".into(), Value::Object(defs));
        }
        return (Value::Object(schema), false);
    }
    let (schemas, defs) = type_schemas(&[*ty]);
    let value = schemas.into_iter().next().unwrap_or_else(|| json!({}));
    (
        object(
            vec![("value".to_owned(), value)],
            vec!["value".to_owned()],
            defs,
        ),
        true,
    )
}

/// The operation's own result with its field holding the new document (`document_at`) named
/// rather than spelt out (the same document is the result's `document`), and the `$defs` it
/// uses.
fn result_schema(ty: &Ty, document_at: &str) -> (Value, Map) {
    let Some(shape) = (match *ty {
        Ty::Object(shape) | Ty::Apply(shape, _) => Some(shape),
        _ => None,
    }) else {
        let (schemas, defs) = type_schemas(&[*ty]);
        return (
            schemas.into_iter().next().unwrap_or_else(|| json!({})),
            defs,
        );
    };
    let others: Vec<Ty> = shape
        .fields
        .iter()
        .chain(shape.variants.iter().flat_map(|v| v.fields.iter()))
        .filter(|f| f.name != document_at)
        .map(|f| f.ty)
        .collect();
    let (_, defs) = type_schemas(&others);
    let mut schema = object_schema(ty).unwrap_or_else(|| json!({}));
    if let Value::Object(map) = &mut schema {
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            props.insert(
                document_at.into(),
                json!({ "description": "The new document (the same as `document`)." }),
            );
        }
    }
    (schema, defs)
}

/// What a locked update gives (the hosts' `FileResult`, keys as in JSON documents): the
/// document (named, not spelt out: its kind's schema is `schemas/<kind>.json`, and a whole
/// document schema in every writer's output would make the tool list half a megabyte), and
/// the operation's own result (`document_at`: its field holding the document) and extra
/// field when it has them.
pub(crate) fn file_result(
    kind: &str,
    result: Option<(Ty, &str)>,
    extra: Option<(&str, Ty)>,
    logged: bool,
) -> Value {
    let issues = json!({ "type": "array", "items": { "type": "object" } });
    let mut properties = vec![
        (
            "document".to_owned(),
            described(
                &format!(
                    "The document now in the file (a `{kind}`: its JSON Schema is the package's `schemas/{kind}.json`)."
                ),
                json!({}),
            ),
        ),
        (
            "etag".to_owned(),
            described(
                "Its etag (for `if_match`); null when there is no file.",
                nullable(json!({ "type": "string" })),
            ),
        ),
        (
            "changed".to_owned(),
            described("False when nothing was written.", json!({ "type": "boolean" })),
        ),
        (
            "warnings".to_owned(),
            described("Warnings (unparseable old file, validation warnings).", issues),
        ),
        (
            "corruptCopy".to_owned(),
            described(
                "The copy of unparseable old bytes, or null.",
                nullable(json!({ "type": "string" })),
            ),
        ),
    ];
    let required: Vec<String> = properties.iter().map(|(name, _)| name.clone()).collect();
    let mut defs = Map::new();
    if let Some((ty, document_at)) = result {
        let (schema, more) = result_schema(&ty, document_at);
        defs.extend(more);
        properties.push((
            "result".to_owned(),
            described("The operation's own result.", schema),
        ));
    }
    if let Some((name, ty)) = extra {
        let (schemas, more) = type_schemas(&[ty]);
        defs.extend(more);
        properties.push((
            name.to_owned(),
            schemas.into_iter().next().unwrap_or_else(|| json!({})),
        ));
    }
    if logged {
        properties.push((
            "recovered".to_owned(),
            described(
                "What a replay of the event log met, or null.",
                nullable(json!({ "type": "object" })),
            ),
        ));
    }
    object(properties, required, defs)
}

/// A tool: its name, description, schemas and the driver's `call`.
pub(crate) fn tool(
    name: &str,
    description: &str,
    input: Value,
    output: Value,
    call: Value,
) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": input,
        "outputSchema": output,
        "call": call
    })
}

/// The tool of a protocol helper.
fn helper_tool(module: &str, h: &Helper) -> Value {
    let file = format!("`{}`", h.file.file.path.join("/"));
    let (output, wrap, mode, description) = match h.write {
        Some(write) => {
            let doc = h.file.kind.name;
            let result = write.document_at.map(|at| (h.op.returns.ty, at));
            let extra = write.extra.map(|(name, _, ty)| (name, ty));
            let output = file_result(doc, result, extra, h.file.file.log.is_some());
            let description = format!(
                "{} On the project's {file}: one locked, atomic, validated update.",
                h.op.doc
            );
            (output, false, "write", description)
        }
        None => {
            let (output, wrap) = output_of(&h.op.returns.ty);
            let mode = if h.bytes { "bytes" } else { "read" };
            (
                output,
                wrap,
                mode,
                format!("{} Reads the project's {file}.", h.op.doc),
            )
        }
    };
    let params: Vec<Value> = h
        .params()
        .iter()
        .map(|p| json!([p.name, camel(p.name), letter(p.kind)]))
        .collect();
    let call = json!({
        "module": module,
        "helper": h.name.as_str(),
        "js": camel(&h.name),
        "mode": mode,
        "file": h.file.file.path.to_vec(),
        "log": h.file.file.log.map(|l| l.name),
        "params": params,
        "wrap": wrap
    });
    tool(
        &format!("{module}_{}", h.name),
        &description,
        input(h),
        output,
        call,
    )
}

fn op_ty(name: &str) -> Ty {
    TABLE.find(name).map_or(Ty::Json, |op| op.returns.ty)
}

/// The generic tools: `validate`, `show`, `update`, `log_append`, each on a file below DIR.
fn generic_tools() -> Vec<Value> {
    let kinds: Vec<Value> = statecore::kinds::KINDS
        .iter()
        .map(|k| Value::from(k.name))
        .collect();
    let dir = || described(DIR_DOC, json!({ "type": "string" }));
    let path = || {
        described(
            "The file, relative to `dir`.",
            json!({ "type": "string", "pattern": "\\S" }),
        )
    };
    let kind = || {
        described(
            "The document kind (statecore's `kinds`); default: the kind the file's name gives.",
            json!({ "type": "string", "enum": kinds.clone() }),
        )
    };
    let (report, _) = output_of(&op_ty("validate_text"));
    let (loaded, _) = output_of(&op_ty("load_document"));
    let update_result = file_result("json", None, None, false);
    let issues = json!({ "type": "array", "items": { "type": "object" } });
    let appended = object(
        vec![
            ("warnings".to_owned(), issues),
            (
                "corruptCopy".to_owned(),
                nullable(json!({ "type": "string" })),
            ),
        ],
        vec!["warnings".to_owned(), "corruptCopy".to_owned()],
        Map::new(),
    );
    let req = |names: &[&str]| names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        tool(
            "validate",
            "Validates a file as a document of a kind; its problems are the result (a report), not an error.",
            object(
                vec![("dir".into(), dir()), ("path".into(), path()), ("kind".into(), kind())],
                req(&["path"]),
                Map::new(),
            ),
            report,
            json!({ "generic": "validate" }),
        ),
        tool(
            "show",
            "A file's document as statecore reads it (the kind's default when missing), its etag and its validation.",
            object(
                vec![("dir".into(), dir()), ("path".into(), path()), ("kind".into(), kind())],
                req(&["path"]),
                Map::new(),
            ),
            loaded,
            json!({ "generic": "show" }),
        ),
        tool(
            "update",
            "Merges a JSON merge patch into a file under its lock (read, merged the kind's way, validated, written atomically); `if_match` makes it a compare-and-swap on the etag.",
            object(
                vec![
                    ("dir".into(), dir()),
                    ("path".into(), path()),
                    ("kind".into(), kind()),
                    ("patch".into(), described("The merge patch (RFC 7396).", json!({}))),
                    (
                        "if_match".into(),
                        described(
                            "The etag the file must have (from `show` or an earlier write).",
                            nullable(json!({ "type": "string" })),
                        ),
                    ),
                ],
                req(&["path", "patch"]),
                Map::new(),
            ),
            update_result,
            json!({ "generic": "update" }),
        ),
        tool(
            "log_append",
            "Appends one record (a JSON object) to a JSONL log under its lock, in one write; a torn last line is repaired first.",
            object(
                vec![
                    ("dir".into(), dir()),
                    ("path".into(), path()),
                    ("record".into(), described("The record.", json!({ "type": "object" }))),
                ],
                req(&["path", "record"]),
                Map::new(),
            ),
            appended,
            json!({ "generic": "log_append" }),
        ),
    ]
}

/// `mcp-tools.json`: every tool, the protocol helpers first in table order, one tool a line
/// (the file stays a few dozen lines, each tool whole on its own line in a diff).
pub fn tools_json() -> String {
    let mut tools: Vec<Value> = Vec::new();
    for module in modules() {
        for h in helpers(module) {
            tools.push(helper_tool(module.name(), &h));
        }
    }
    tools.extend(crate::mcp_routines::routine_tools());
    tools.extend(generic_tools());
    let lines: Vec<String> = tools
        .iter()
        .map(statecore::json::serialize_compact)
        .collect();
    format!("{{\"tools\": [\n{}\n]}}\n", lines.join(",\n"))
}

const BEGIN: &str = "<!-- tools:begin (generated by `cargo run -p xtask -- codegen`) -->\n";
const END: &str = "<!-- tools:end -->";

/// `docs/mcp.md` with its table of the tools (between its markers) written from the list.
pub fn mcp_md(existing: &str) -> Result<String, String> {
    let start = existing
        .find(BEGIN)
        .ok_or("docs/mcp.md: the tools:begin marker is missing")?;
    let end = existing
        .find(END)
        .ok_or("docs/mcp.md: the tools:end marker is missing")?;
    let mut table = String::from("| Tool | File | What it does |\n|---|---|---|\n");
    for module in modules() {
        for h in helpers(module) {
            let what = if h.write.is_some() { "writes" } else { "reads" };
            let _ = std::fmt::Write::write_fmt(
                &mut table,
                format_args!(
                    "| `{}_{}` | {what} `{}` | {} |\n",
                    module.name(),
                    h.name,
                    h.file.file.path.join("/"),
                    h.op.doc.replace('|', "\\|").replace('\n', " ")
                ),
            );
        }
    }
    for r in statecore::ops::ROUTINES.iter().filter(|r| r.tool) {
        let paths: Vec<String> = r
            .params
            .iter()
            .filter(|p| {
                matches!(
                    p.ty,
                    statecore::ops::host_api::HostTy::Path
                        | statecore::ops::host_api::HostTy::Dir
                        | statecore::ops::host_api::HostTy::Nullable(
                            statecore::ops::host_api::HostTy::Dir
                        )
                )
            })
            .map(|p| format!("`{}`", p.name))
            .collect();
        let _ = std::fmt::Write::write_fmt(
            &mut table,
            format_args!(
                "| `{}` | {} | {} |\n",
                crate::mcp_routines::tool_name(r),
                paths.join(", "),
                r.doc.replace('|', "\\|").replace('\n', " ")
            ),
        );
    }
    for (name, what) in [
        (
            "validate",
            "Checks a file as its kind: the report (`valid`, `errors`, `warnings`).",
        ),
        (
            "show",
            "A file's document as statecore reads it, its etag and its validation.",
        ),
        (
            "update",
            "Merges a merge patch into a file under its lock (`if_match`: compare-and-swap).",
        ),
        (
            "log_append",
            "Appends one record to a JSONL log under its lock.",
        ),
    ] {
        let _ = std::fmt::Write::write_fmt(
            &mut table,
            format_args!("| `{name}` | `path` | {what} |\n"),
        );
    }
    let head = existing
        .get(..start.saturating_add(BEGIN.len()))
        .unwrap_or_default();
    let tail = existing.get(end..).unwrap_or_default();
    Ok(format!("{head}{table}{tail}"))
}
