//! The arguments of a `statecore mcp` tool call, checked once for both servers (docs/mcp.md
//! § What an agent sees): their size against a document's limit, an object, no argument the
//! tool does not take, every required one given, and each value against the tool's input
//! schema (the JSON Schema the tool list gives, of the keywords xtask writes: `type`, `enum`,
//! `const`, `anyOf`, `$ref` into `$defs`, `properties`, `required`, `additionalProperties`,
//! `items`, `minimum`, `pattern` `\S`). A refusal is `E_ARGUMENT` (`E_LIMIT` for the size) at
//! the argument's pointer, its message naming the tool, the argument and what it must be.

use crate::error::{Code, Error, Result};
use crate::json::MAX_DOCUMENT_BYTES;
use crate::value::type_name;
use crate::{Map, Value};

/// How many `$ref`s one value may be checked through before the schema is taken as a loop.
const MAX_HOPS: u32 = 64;

/// The arguments `text` (JSON text's bytes) of the tool `tool` checked against its input
/// schema `schema`: the arguments, or the refusal.
pub fn check(tool: &str, schema: &Value, text: &[u8]) -> Result<Value> {
    if text.len() > MAX_DOCUMENT_BYTES {
        return Err(Error::new(
            Code::Limit,
            "",
            format!(
                "the arguments of {tool} are {} bytes, over the {MAX_DOCUMENT_BYTES}-byte limit \
                 of a document: pass a smaller value (a file's contents belong in the file)",
                text.len()
            ),
        )
        .with_detail("limit", "document_bytes")
        .with_detail("max", MAX_DOCUMENT_BYTES as u64)
        .with_detail("actual", text.len() as u64));
    }
    let args = crate::json::parse(text)?;
    let Value::Object(given) = &args else {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "the arguments of {tool} must be an object of named arguments, not {}",
                type_name(&args)
            ),
        ));
    };
    let empty = Map::new();
    let properties = match schema.get("properties") {
        Some(Value::Object(map)) => map,
        _ => &empty,
    };
    let defs = match schema.get("$defs") {
        Some(Value::Object(map)) => map,
        _ => &empty,
    };
    for key in given.keys() {
        if !properties.contains_key(key) {
            let takes: Vec<&str> = properties.keys().map(|k| k.as_str()).collect();
            return Err(Error::new(
                Code::Argument,
                pointer("", key),
                format!(
                    "{tool} has no argument {key:?} (it takes {})",
                    takes.join(", ")
                ),
            )
            .with_detail("argument", key.as_str()));
        }
    }
    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if given.get(key).is_none_or(|v| matches!(v, Value::Null)) {
                return Err(Error::new(
                    Code::Argument,
                    pointer("", key),
                    format!("{tool} needs the argument {key:?}"),
                )
                .with_detail("argument", key));
            }
        }
    }
    for (key, value) in given.iter() {
        // null is an argument left out (an optional one; a required one is refused above).
        if matches!(value, Value::Null) {
            continue;
        }
        let Some(property) = properties.get(key) else {
            continue;
        };
        let at = pointer("", key);
        if let Err((path, what)) = fits(value, property, defs, &at, 0) {
            let found = value_at(value, path.get(at.len()..).unwrap_or_default());
            let shown = if path == at {
                format!("the argument {key:?}")
            } else {
                format!("the argument {key:?} at {path}")
            };
            return Err(Error::new(
                Code::Argument,
                path.clone(),
                format!("{tool}: {shown} must be {what}, not {}", shown_value(found)),
            )
            .with_detail("argument", key.as_str()));
        }
    }
    Ok(args)
}

/// A value as a refusal's message names it: a short scalar as written, else its type.
fn shown_value(value: Option<&Value>) -> String {
    match value {
        None => "absent".to_owned(),
        Some(v @ (Value::Bool(_) | Value::Number(_))) => crate::json::serialize_compact(v),
        Some(v @ Value::String(text)) if text.chars().count() <= 40 => {
            crate::json::serialize_compact(v)
        }
        Some(other) => type_name(other).to_owned(),
    }
}

/// `base` with one more JSON Pointer token.
fn pointer(base: &str, token: &str) -> String {
    format!("{base}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// The value at the JSON Pointer `path` below `value`.
fn value_at<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    let mut at = value;
    for token in path.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        at = match at {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// `Ok` when `value` (at `at`) fits `schema`, else the pointer of the first misfit and what
/// the value there must be.
fn fits(
    value: &Value,
    schema: &Value,
    defs: &Map,
    at: &str,
    hops: u32,
) -> std::result::Result<(), (String, String)> {
    let Value::Object(schema) = schema else {
        return Ok(());
    };
    if let Some(Value::String(target)) = schema.get("$ref") {
        if hops >= MAX_HOPS {
            return Ok(());
        }
        let name = target.strip_prefix("#/$defs/").unwrap_or(target);
        return match defs.get(name) {
            Some(def) => fits(value, def, defs, at, hops.saturating_add(1)),
            None => Ok(()),
        };
    }
    if let Some(Value::Array(alternatives)) = schema.get("anyOf") {
        let mut misfits = Vec::new();
        for alternative in alternatives {
            match fits(value, alternative, defs, at, hops) {
                Ok(()) => return Ok(()),
                Err(misfit) => misfits.push(misfit),
            }
        }
        // The deepest misfit says most (a field of the object that was meant), else all.
        let deepest = misfits
            .iter()
            .filter(|(path, _)| path.len() > at.len())
            .max_by_key(|(path, _)| path.len());
        if let Some(misfit) = deepest {
            return Err(misfit.clone());
        }
        let whats: Vec<&str> = misfits.iter().map(|(_, what)| what.as_str()).collect();
        return Err((at.to_owned(), whats.join(" or ")));
    }
    if let Some(expected) = schema.get("const") {
        if value != expected {
            return Err((at.to_owned(), crate::json::serialize_compact(expected)));
        }
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        if !values.iter().any(|v| v == value) {
            let listed: Vec<String> = values.iter().map(crate::json::serialize_compact).collect();
            return Err((at.to_owned(), format!("one of {}", listed.join(", "))));
        }
    }
    if let Some(Value::String(ty)) = schema.get("type") {
        if !of_type(value, ty) {
            return Err((at.to_owned(), type_words(ty).to_owned()));
        }
    }
    if let (Some(minimum), Value::Number(n)) =
        (schema.get("minimum").and_then(Value::as_f64), value)
    {
        if n.as_f64().is_some_and(|n| n < minimum) {
            return Err((at.to_owned(), format!("a number of at least {minimum}")));
        }
    }
    if let (Some(Value::String(pattern)), Value::String(text)) = (schema.get("pattern"), value) {
        if pattern.as_str() == "\\S" && text.trim().is_empty() {
            return Err((
                at.to_owned(),
                "a string with a non-blank character".to_owned(),
            ));
        }
    }
    match value {
        Value::Object(map) => object_fits(map, schema, defs, at, hops),
        Value::Array(items) => match schema.get("items") {
            Some(item) => {
                for (i, v) in items.iter().enumerate() {
                    fits(v, item, defs, &pointer(at, &i.to_string()), hops)?;
                }
                Ok(())
            }
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// An object's fields against `properties`, `required` and `additionalProperties`.
fn object_fits(
    map: &Map,
    schema: &Map,
    defs: &Map,
    at: &str,
    hops: u32,
) -> std::result::Result<(), (String, String)> {
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => Some(p),
        _ => None,
    };
    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if !map.contains_key(key) {
                return Err((pointer(at, key), "given (a required field)".to_owned()));
            }
        }
    }
    for (key, v) in map.iter() {
        let here = pointer(at, key);
        match properties.and_then(|p| p.get(key)) {
            Some(property) => fits(v, property, defs, &here, hops)?,
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    return Err((here, "left out (not a field of this object)".to_owned()))
                }
                Some(extra @ Value::Object(_)) => fits(v, extra, defs, &here, hops)?,
                _ => {}
            },
        }
    }
    Ok(())
}

/// True when `value` is of the JSON Schema type `ty`.
fn of_type(value: &Value, ty: &str) -> bool {
    match (ty, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.as_i64().is_some()
                || n.as_u64().is_some()
                || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// A JSON Schema type in words.
fn type_words(ty: &str) -> &'static str {
    match ty {
        "null" => "null",
        "boolean" => "a boolean",
        "number" => "a number",
        "integer" => "an integer",
        "string" => "a string",
        "array" => "an array",
        "object" => "an object",
        _ => "of another type",
    }
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::json;

    fn schema() -> crate::Value {
        json!({
            "type": "object",
            "properties": {
                "dir": { "type": "string" },
                "count": { "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "null" }] },
                "workers": { "type": "array", "items": { "$ref": "#/$defs/W" } }
            },
            "required": ["workers"],
            "additionalProperties": false,
            "$defs": { "W": { "type": "object", "properties": { "name": { "type": "string", "pattern": "\\S" } }, "required": ["name"], "additionalProperties": false } }
        })
    }

    fn refused(text: &str) -> (String, String) {
        let e = check("t", &schema(), text.as_bytes()).err();
        e.map(|e| (e.code.as_str().to_owned(), e.path))
            .unwrap_or_default()
    }

    #[test]
    fn arguments_that_fit_are_given_back() {
        let args = check(
            "t",
            &schema(),
            br#"{"workers":[{"name":"a"}],"count":null}"#,
        );
        assert!(args.is_ok());
    }

    #[test]
    fn each_misfit_is_refused_at_its_pointer() {
        let arg = "E_ARGUMENT".to_owned();
        assert_eq!(refused("[]"), (arg.clone(), String::new()));
        assert_eq!(
            refused(r#"{"workers":[],"x":1}"#),
            (arg.clone(), "/x".into())
        );
        assert_eq!(refused(r#"{"dir":"."}"#), (arg.clone(), "/workers".into()));
        assert_eq!(
            refused(r#"{"workers":[],"dir":7}"#),
            (arg.clone(), "/dir".into())
        );
        assert_eq!(
            refused(r#"{"workers":[],"count":-1}"#),
            (arg.clone(), "/count".into())
        );
        assert_eq!(
            refused(r#"{"workers":[{"name":" "}]}"#),
            (arg.clone(), "/workers/0/name".into())
        );
        assert_eq!(
            refused(r#"{"workers":[{"name":"a","b":1}]}"#),
            (arg, "/workers/0/b".into())
        );
    }
}
