//! JSON Schema (draft 2020-12) of each document kind.
//!
//! The schemas are generated with schemars from the Rust types of each protocol module
//! (feature `schema`, e.g. `fctry::schema`), committed in `core/schemas/<kind>.json`, and
//! embedded in the core, so `schema(kind)` costs no generator code in the wasm module.
//! `core/tests/schema.rs` regenerates them and fails when a committed file is stale
//! (`STATECORE_WRITE_SCHEMAS=1 cargo test -p statecore --features schema --test schema`
//! rewrites them). A schema describes structure only: fields, types, enums, required fields.
//! Cross-field rules are the validator's (`validate`), which reports them with their codes.

use crate::error::{Code, Error, Result};
use crate::kinds::kind;
use serde_json::Value;

/// The JSON Schema of a kind, parsed from the embedded text. `E_KIND` for an unknown kind or a
/// kind without a schema yet.
pub fn schema(name: &str) -> Result<Value> {
    let text = kind(name)?.schema.ok_or_else(|| {
        Error::new(
            Code::Kind,
            "",
            format!("the kind {name:?} has no JSON Schema yet; validate it with validate()"),
        )
        .with_detail("kind", name)
    })?;
    crate::json::parse(text.as_bytes())
}

#[cfg(feature = "schema")]
pub use generate::{generate, root};

/// The values a generated schema allows for `$defs[name]`: the `const` of each `oneOf`
/// variant, or its `enum` list (a non-string value shows as its JSON text; none: empty).
/// Tests compare them with the validators' lists.
#[cfg(all(test, feature = "schema"))]
pub(crate) fn enum_values(root: &Value, name: &str) -> Vec<String> {
    let def = root.get("$defs").and_then(|d| d.get(name));
    let listed = |key: &str| def.and_then(|d| d.get(key)).and_then(Value::as_array);
    let values: Vec<&Value> = match (listed("oneOf"), listed("enum")) {
        (Some(variants), _) => variants.iter().filter_map(|v| v.get("const")).collect(),
        (None, Some(values)) => values.iter().collect(),
        (None, None) => Vec::new(),
    };
    values
        .into_iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .collect()
}

#[cfg(feature = "schema")]
mod generate {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    // Never built: only schemars reads it.
    /// Any JSON object (the `json` kind has no protocol rules).
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    #[schemars(title = "json")]
    struct JsonObject(Map<String, Value>);

    /// The root schema of `T` with the draft 2020-12 settings every kind uses.
    pub fn root<T: JsonSchema>() -> Value {
        schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<T>()
            .to_value()
    }

    /// The schema of `kind` generated from its Rust types (`None`: the kind has none yet).
    pub fn generate(kind: &str) -> Option<Value> {
        match kind {
            "json" => Some(root::<JsonObject>()),
            "hivemind.state" => Some(root::<crate::hivemind::schema::State>()),
            _ => crate::fctry::schema::generate(kind),
        }
    }
}
