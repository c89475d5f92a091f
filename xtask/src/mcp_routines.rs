//! The MCP tools of the host routines (`statecore mcp`, docs/mcp.md): every routine of the
//! host-routine table marked `tool` (a hive session's creation, agency's init and run
//! snapshot, specify's artifacts, a log's read and repair) as a tool `<entry>_<name>`, its
//! arguments its parameters and options (a path below `dir`, a value), its output schema from
//! its result, and under `call` how each server's driver calls the library's routine.

use crate::mcp::{described, file_result, nullable, object, output_of, tool, DIR_DOC};
use crate::names::camel;
use statecore::kinds::KINDS;
use statecore::ops::host_api::{HostTy, HostType, Lang, Routine};
use statecore::ops::ROUTINES;
use statecore::shape::json_schema::type_schemas;
use statecore::shape::Ty;
use statecore::{json, Map, Value};

/// Options no tool takes: the lock's wait (milliseconds in JS, seconds in Python: one number
/// cannot mean the same on both servers) and a store (a host object).
const LEFT_OUT: [&str; 2] = ["timeout", "store"];

/// A tool argument of a routine.
struct Arg {
    name: &'static str,
    /// A path below `dir` (`file`, `dir`), or a value (`value`) of this type.
    what: &'static str,
    ty: Ty,
    required: bool,
    doc: &'static str,
}

/// The path or core type of a parameter's type (`None`: a host object, not an argument).
fn arg_type(t: &HostTy) -> Option<(&'static str, Ty, bool)> {
    match *t {
        HostTy::Path => Some(("file", Ty::Str, false)),
        HostTy::Dir => Some(("dir", Ty::Str, false)),
        HostTy::Core(ty) => Some(("value", ty, matches!(ty, Ty::Nullable(_) | Ty::Json))),
        HostTy::Nullable(inner) => arg_type(inner).map(|(what, ty, _)| (what, ty, true)),
        _ => None,
    }
}

/// The option fields of an options type (its base's shapes' too), less the left-out ones and
/// host objects: `(name, type, doc)`.
fn option_fields(t: &HostTy) -> Vec<(&'static str, Ty, &'static str)> {
    let mut out = Vec::new();
    let mut shapes = |shapes: &[&'static statecore::shape::Shape]| {
        for shape in shapes {
            for f in shape.fields {
                out.push((f.name, f.ty, f.doc));
            }
        }
    };
    let own: &[statecore::ops::host_api::HostField] = match *t {
        HostTy::Options(list) => {
            shapes(list);
            &[]
        }
        HostTy::Of(HostType { base, fields, .. }, _) => {
            if let Some(HostTy::Options(list)) = base {
                shapes(list);
            }
            fields
        }
        _ => &[],
    };
    for f in own {
        if let HostTy::Core(ty) = f.ty {
            out.push((f.name, ty, f.doc));
        }
    }
    out.retain(|(name, _, _)| !LEFT_OUT.contains(name));
    out
}

/// A routine's tool arguments (each name once, in the order the parameters give them) and
/// the JS call: per JS parameter `["v", name]` or `["o", [[name, jsName], ...]]` (an options
/// object of the arguments given).
fn arguments(r: &Routine) -> (Vec<Arg>, Vec<Value>) {
    let mut args: Vec<Arg> = Vec::new();
    let mut js = Vec::new();
    let mut add = |arg: Arg| {
        if !args.iter().any(|a| a.name == arg.name) {
            args.push(arg);
        }
    };
    for p in r.params {
        if let Some((what, ty, nullable)) = arg_type(&p.ty) {
            add(Arg {
                name: p.name,
                what,
                ty,
                required: !p.optional && !nullable,
                doc: match what {
                    "file" => "A file, relative to `dir`.",
                    "dir" => "A directory, relative to `dir`.",
                    _ => "",
                },
            });
            if p.lang != Lang::Py {
                js.push(json!(["v", p.name]));
            }
            continue;
        }
        let fields = option_fields(&p.ty);
        for (name, ty, doc) in &fields {
            add(Arg {
                name,
                what: "value",
                ty: *ty,
                required: false,
                doc,
            });
        }
        if p.lang != Lang::Py {
            let keys: Vec<Value> = fields
                .iter()
                .map(|(name, _, _)| json!([name, camel(name)]))
                .collect();
            js.push(json!(["o", keys]));
        }
    }
    (args, js)
}

/// The input schema: `dir`, then the arguments.
fn input(args: &[Arg]) -> Value {
    let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
    let (schemas, defs) = type_schemas(&tys);
    let mut properties = vec![(
        "dir".to_owned(),
        described(DIR_DOC, json!({ "type": "string" })),
    )];
    let mut required = Vec::new();
    for (a, schema) in args.iter().zip(schemas) {
        let takes_null = matches!(a.ty, Ty::Nullable(_) | Ty::Json | Ty::Null);
        let schema = if a.what == "value" {
            schema
        } else {
            json!({ "type": "string" })
        };
        let schema = if !a.required && !takes_null {
            nullable(schema)
        } else {
            schema
        };
        let schema = if a.doc.is_empty() {
            schema
        } else {
            described(a.doc, schema)
        };
        properties.push((a.name.to_owned(), schema));
        if a.required {
            required.push(a.name.to_owned());
        }
    }
    object(properties, required, defs)
}

/// The kind whose documents are of this type (a file result's document).
fn kind_of(t: &HostTy) -> Option<&'static str> {
    let HostTy::Core(Ty::Object(shape)) = *t else {
        return None;
    };
    KINDS
        .iter()
        .find(|k| matches!(k.root, Ty::Object(root) if std::ptr::eq(root, shape)))
        .map(|k| k.name)
}

/// The output schema of a routine's result, whether it is wrapped (`{value}`), and whether
/// its keys are camelCased (a host type's own fields, as the JS routine gives them).
fn output(t: &HostTy) -> (Value, bool, bool) {
    match *t {
        HostTy::Core(ty) => {
            let (schema, wrap) = output_of(&ty);
            (schema, wrap, false)
        }
        HostTy::Of(h, args) if matches!(h.name, "FileResult" | "LoggedResult") => {
            // A file result: its document named (its kind's schema), the operation's result.
            let doc = match args.first() {
                Some(HostTy::Core(Ty::Object(shape))) => Some(*shape),
                _ => None,
            };
            let kind = args.first().and_then(kind_of).unwrap_or("json");
            let result = match (args.get(1), doc) {
                (Some(HostTy::Core(ty @ Ty::Object(shape))), Some(doc)) => shape
                    .fields
                    .iter()
                    .find(|f| matches!(f.ty, Ty::Object(s) if std::ptr::eq(s, doc)))
                    .map(|f| (*ty, f.name)),
                _ => None,
            };
            let logged = h.name == "LoggedResult";
            (file_result(kind, result, None, logged), false, true)
        }
        HostTy::Of(h, _) => match h.alias {
            Some(alias) => output(&alias),
            None => {
                let mut properties = Vec::new();
                let mut required = Vec::new();
                let typed: Vec<(Ty, bool)> = h
                    .fields
                    .iter()
                    .map(|f| match f.ty {
                        HostTy::Core(ty) => (ty, false),
                        HostTy::Nullable(&HostTy::Core(ty)) => (ty, true),
                        _ => (Ty::Json, false),
                    })
                    .collect();
                let tys: Vec<Ty> = typed.iter().map(|(ty, _)| *ty).collect();
                let (schemas, defs) = type_schemas(&tys);
                for ((f, schema), (_, null)) in h.fields.iter().zip(schemas).zip(&typed) {
                    let schema = if *null { nullable(schema) } else { schema };
                    properties.push((camel(f.name), described(f.doc, schema)));
                    if f.required {
                        required.push(camel(f.name));
                    }
                }
                (object(properties, required, defs), false, true)
            }
        },
        HostTy::List(_) => {
            let value = json!({ "type": "array", "items": { "type": "object" } });
            let schema = object(
                vec![("value".to_owned(), value)],
                vec!["value".to_owned()],
                Map::new(),
            );
            (schema, true, false)
        }
        _ => (json!({ "type": "object" }), false, false),
    }
}

/// The tool's name: `<entry>_<name>`, or the host's own routine's name.
pub fn tool_name(r: &Routine) -> String {
    match r.entry {
        statecore::ops::host_api::Entry::Host => r.name.to_owned(),
        entry => format!("{}_{}", entry.name(), r.name),
    }
}

/// The tools of the routines marked `tool`, in table order.
pub fn routine_tools() -> Vec<Value> {
    ROUTINES
        .iter()
        .filter(|r| r.tool)
        .map(|r| {
            let (args, js) = arguments(r);
            let (output, wrap, camel_keys) = output(&r.returns);
            let paths: Vec<Value> = args
                .iter()
                .filter(|a| a.what != "value")
                .map(|a| json!([a.name, a.what]))
                .collect();
            let names: Vec<Value> = args.iter().map(|a| Value::from(a.name)).collect();
            let call = json!({
                "routine": r.name,
                "module": r.entry.name(),
                "js": camel(r.name),
                "paths": paths,
                "args": names,
                "jsArgs": js,
                "wrap": wrap,
                "camel": camel_keys
            });
            let description = format!(
                "{} Paths are relative to `dir`, below the server's directory.",
                r.doc
            );
            tool(&tool_name(r), &description, input(&args), output, call)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use statecore::Value;

    /// The keywords the core's `mcp_arguments` checks, and those it may pass over (a
    /// description; `format`: the operation checks a time itself).
    const CHECKED: [&str; 14] = [
        "type",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minimum",
        "pattern",
        "description",
        "format",
    ];

    fn walk(schema: &Value, bad: &mut Vec<String>) {
        let Value::Object(map) = schema else { return };
        for (key, value) in map.iter() {
            if !CHECKED.contains(&key.as_str()) {
                bad.push(key.to_string());
            }
            match (key.as_str(), value) {
                ("pattern", Value::String(p)) if p.as_str() != "\\S" => {
                    bad.push(format!("pattern {p}"))
                }
                ("properties" | "$defs", Value::Object(inner)) => {
                    for (_, v) in inner.iter() {
                        walk(v, bad);
                    }
                }
                ("anyOf", Value::Array(items)) => items.iter().for_each(|v| walk(v, bad)),
                ("items" | "additionalProperties", v) => walk(v, bad),
                _ => {}
            }
        }
    }

    #[test]
    fn the_input_schemas_use_only_what_the_core_checks() {
        let text = crate::mcp::tools_json();
        let list = statecore::json::parse_str(&text).expect("the list parses");
        let tools = list.get("tools").and_then(Value::as_array).expect("tools");
        let mut bad = Vec::new();
        for tool in tools {
            walk(tool.get("inputSchema").expect("inputSchema"), &mut bad);
        }
        assert!(
            bad.is_empty(),
            "keywords mcp_arguments does not check: {bad:?}"
        );
    }

    #[test]
    fn the_routines_an_agent_needs_are_tools() {
        let names: Vec<String> = super::routine_tools()
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
            .collect();
        for name in [
            "hive_create_session_dir",
            "hive_check_sessions",
            "agency_write_protocol_document",
            "agency_snapshot",
            "specify_apply_artifacts",
            "read_log",
            "repair_log",
        ] {
            assert!(
                names.iter().any(|n| n == name),
                "{name} is not a tool: {names:?}"
            );
        }
    }
}
