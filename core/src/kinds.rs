//! Document kinds: the registry mapping a kind name to its validation and default document.
//! Each protocol module registers its kinds here, in one table.

use crate::error::{Code, Error, Result};
use crate::report::Report;
use serde_json::{Map, Value};

/// A document kind: its name, what a reader gets for a missing file, and its rules.
pub struct Kind {
    /// The kind's name (`"agency.runner_status"`).
    pub name: &'static str,
    /// What the kind's file holds, for people.
    pub description: &'static str,
    /// The document a reader gets when the file is missing (or unparseable).
    pub default: fn() -> Value,
    /// The validation rules.
    pub validate: fn(&Value) -> Report,
    /// The kind's JSON Schema text (`core/schemas/<kind>.json`, generated; see `schema`).
    pub schema: Option<&'static str>,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn null() -> Value {
    Value::Null
}

fn empty_list() -> Value {
    Value::Array(Vec::new())
}

fn validate_json_object(doc: &Value) -> Report {
    let mut report = Report::default();
    if !doc.is_object() {
        report.error(
            "E_TYPE",
            "",
            format!(
                "a state document must be a JSON object, not {}",
                crate::merge::type_name(doc)
            ),
        );
    }
    report
}

/// Every kind statecore knows.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "json",
        description: "any JSON object (no protocol rules); missing file = {}",
        default: empty_object,
        validate: validate_json_object,
        schema: Some(include_str!("../schemas/json.json")),
    },
    Kind {
        name: "agency.runner_status",
        description: ".agency/state/runner_status.json; missing file = null (no status)",
        default: null,
        validate: crate::agency::validate_runner_status,
        schema: None,
    },
    Kind {
        name: "fctry.state",
        description: ".fctry/state.json; missing or unparseable file = {}",
        default: empty_object,
        validate: crate::fctry::validate_state,
        schema: Some(include_str!("../schemas/fctry.state.json")),
    },
    Kind {
        name: "fctry.inbox",
        description: ".fctry/inbox.json, newest item first; missing file = []",
        default: empty_list,
        validate: crate::fctry::validate_inbox,
        schema: Some(include_str!("../schemas/fctry.inbox.json")),
    },
    Kind {
        name: "fctry.event",
        description: "one fctry build, verification or context lifecycle event",
        default: empty_object,
        validate: crate::fctry::validate_event,
        schema: Some(include_str!("../schemas/fctry.event.json")),
    },
    Kind {
        name: "hivemind.state",
        description: "workspace/state.json of a Hivemind project; missing file = the idle state",
        default: crate::hivemind::default_state,
        validate: crate::hivemind::validate_state,
        schema: Some(include_str!("../schemas/hivemind.state.json")),
    },
];

/// Looks a kind up by name; `E_KIND` lists the known ones.
pub fn kind(name: &str) -> Result<&'static Kind> {
    KINDS.iter().find(|k| k.name == name).ok_or_else(|| {
        let known: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
        Error::new(
            Code::Kind,
            "",
            format!(
                "unknown document kind {name:?}; known kinds: {}",
                known.join(", ")
            ),
        )
        .with_detail("kind", name)
        .with_detail("known", known)
    })
}

/// Validates a document of the given kind.
pub fn validate(name: &str, doc: &Value) -> Result<Report> {
    Ok((kind(name)?.validate)(doc))
}

/// The document a reader gets for a missing file of this kind.
pub fn default_document(name: &str) -> Result<Value> {
    Ok((kind(name)?.default)())
}

/// The names of all kinds.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}
