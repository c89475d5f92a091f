//! JSON Schema (draft 2020-12) of a document kind, written from its [`Shape`]s.
//!
//! The schema states structure: fields, types, enum values, required fields, timestamps
//! (`format: "date-time"`). Cross-field rules are the validator's alone. Optional fields of a
//! document also accept `null` (`null` ≡ absent); unknown fields are allowed (they are kept).
//! The output compiles under strict ajv (no union `type` arrays, no unknown formats or
//! keywords) and under Python `jsonschema` with format checking.

use super::{Alias, Enum, Field, Role, Shape, Ty};
use crate::{json, Map, Value};

/// The base of every schema's `$id`: the schemas ship in the npm package under `schemas/`.
pub const ID_BASE: &str = "https://unpkg.com/statecore@";

/// The JSON Schema of a document kind whose documents have type `root`.
pub fn document_schema(kind: &str, description: &str, root: &Ty) -> Value {
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    out.insert(
        "$id".into(),
        format!("{ID_BASE}{}/schemas/{kind}.json", env!("CARGO_PKG_VERSION")).into(),
    );
    out.insert("title".into(), kind.into());
    out.insert("description".into(), description.into());
    // The root shape is inlined; everything it uses goes to `$defs`.
    let body = match root {
        Ty::Object(shape) => object(shape),
        other => of(other),
    };
    if let Value::Object(body) = body {
        for (key, value) in body {
            if key != "description" {
                out.insert(key, value);
            }
        }
    }
    let named = super::reachable(&[*root]);
    let mut defs = Map::new();
    for shape in &named.shapes {
        if !matches!(root, Ty::Object(r) if std::ptr::eq(*r, *shape)) {
            defs.insert(shape.name.into(), object(shape));
        }
    }
    for e in &named.enums {
        defs.insert(e.name.into(), enumeration(e));
    }
    for alias in &named.aliases {
        defs.insert(alias.name.into(), aliased(alias));
    }
    if !defs.is_empty() {
        out.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(out)
}

fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

fn enumeration(e: &Enum) -> Value {
    json!({ "description": e.doc, "type": "string", "enum": e.values })
}

fn aliased(alias: &Alias) -> Value {
    let mut schema = of(&alias.ty);
    if let Value::Object(map) = &mut schema {
        map.insert("description".into(), alias.doc.into());
    }
    schema
}

/// The schema of a shape: its fields as `properties`, `required`, and for an exact shape no
/// other fields. Variant fields are added under `if`/`then`.
fn object(shape: &Shape) -> Value {
    let mut out = Map::new();
    out.insert("description".into(), shape.doc.into());
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), properties(shape.fields, shape.role));
    let needed = required(shape.fields);
    if !needed.is_empty() {
        out.insert("required".into(), needed.into());
    }
    if shape.role == Role::Exact {
        out.insert("additionalProperties".into(), false.into());
    }
    if !shape.variants.is_empty() {
        let rules: Vec<Value> = shape
            .variants
            .iter()
            .map(|variant| {
                let mut then = Map::new();
                then.insert("properties".into(), properties(variant.fields, shape.role));
                let needed = required(variant.fields);
                if !needed.is_empty() {
                    then.insert("required".into(), needed.into());
                }
                json!({
                    "if": {
                        "properties": { variant.field: { "enum": variant.values } },
                        "required": [variant.field]
                    },
                    "then": Value::Object(then)
                })
            })
            .collect();
        out.insert("allOf".into(), rules.into());
    }
    Value::Object(out)
}

fn properties(fields: &[Field], role: Role) -> Value {
    let mut props = Map::new();
    for field in fields {
        let mut schema = of(&field.ty);
        // Documents: an optional field may be `null` (it reads as absent).
        if role != Role::Exact && !field.required && !accepts_null(&field.ty) {
            schema = json!({ "anyOf": [schema, { "type": "null" }] });
        }
        let mut described = Map::new();
        described.insert("description".into(), field.doc.into());
        if let Value::Object(map) = schema {
            described.extend(map);
        }
        props.insert(field.name.into(), Value::Object(described));
    }
    Value::Object(props)
}

fn required(fields: &[Field]) -> Vec<&'static str> {
    fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect()
}

fn accepts_null(ty: &Ty) -> bool {
    match ty {
        Ty::Json | Ty::Null | Ty::Nullable(_) => true,
        Ty::Union(items) => items.iter().any(accepts_null),
        Ty::Alias(alias) => accepts_null(&alias.ty),
        _ => false,
    }
}

/// The schema of a type (objects and enums by reference to `$defs`).
fn of(ty: &Ty) -> Value {
    match *ty {
        Ty::Json | Ty::Param | Ty::KindDoc => json!({}),
        Ty::Str | Ty::Kind => json!({ "type": "string" }),
        Ty::Line => json!({ "type": "string", "pattern": "\\S" }),
        Ty::Timestamp => json!({ "type": "string", "format": "date-time" }),
        Ty::Bool => json!({ "type": "boolean" }),
        Ty::Whole(min) => json!({ "type": "integer", "minimum": min }),
        Ty::Int => json!({ "type": "integer" }),
        Ty::Number => json!({ "type": "number" }),
        Ty::Null => json!({ "type": "null" }),
        Ty::Lit(value) => json!({ "const": value }),
        Ty::Enum(e) => reference(e.name),
        Ty::Object(shape) | Ty::Apply(shape, _) => reference(shape.name),
        Ty::Alias(alias) => reference(alias.name),
        Ty::List(item) => json!({ "type": "array", "items": of(item) }),
        Ty::Map(item) => json!({ "type": "object", "additionalProperties": of(item) }),
        Ty::Nullable(inner) => json!({ "anyOf": [of(inner), { "type": "null" }] }),
        Ty::Union(items) => json!({ "anyOf": items.iter().map(of).collect::<Vec<_>>() }),
    }
}

/// The schemas of several types sharing one `$defs` (every shape, enum and alias they use),
/// for a schema that is not a document's: an MCP tool's input and output (docs/mcp.md).
pub fn type_schemas(types: &[Ty]) -> (Vec<Value>, Map) {
    let named = super::reachable(types);
    let mut defs = Map::new();
    for shape in &named.shapes {
        defs.insert(shape.name.into(), object(shape));
    }
    for e in &named.enums {
        defs.insert(e.name.into(), enumeration(e));
    }
    for alias in &named.aliases {
        defs.insert(alias.name.into(), aliased(alias));
    }
    (types.iter().map(of).collect(), defs)
}

/// The schema of an object type written out whole (not as a `$ref`): a shape's own schema,
/// `None` for any other type. An MCP tool's output schema must be an object at its root.
pub fn object_schema(ty: &Ty) -> Option<Value> {
    match *ty {
        Ty::Object(shape) | Ty::Apply(shape, _) => Some(object(shape)),
        Ty::Alias(alias) => object_schema(&alias.ty),
        _ => None,
    }
}
