//! The fctry documents as Rust types, for JSON Schema generation (feature `schema`, schemars).
//!
//! These types describe the structure the validators in `validate.rs` check: the fields, their
//! types and enum values, and which fields are required. Every field is optional unless the
//! seed requires it, and `null` is accepted wherever a field is optional (`null` ≡ absent).
//! Unknown fields are allowed (the validators warn about them; they are never errors).
//! Cross-field rules (section pairs, ranges, dependencies, per-status fields) are not part of
//! the schema. The generated schemas are committed in `core/schemas/` and embedded in the core;
//! `core/tests/schema.rs` regenerates them and fails when they are stale, and a unit test below
//! checks the field lists and enums against the validator's.

// The types are never built: they exist only to describe the documents to schemars.
#![allow(dead_code)]

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;
use std::borrow::Cow;

/// An RFC 3339 timestamp with a time zone, like `2026-02-17T04:00:00Z`.
#[derive(JsonSchema)]
#[schemars(extend("format" = "date-time"))]
pub struct Timestamp(String);

/// `.fctry/state.json`: the status state every fctry agent reads and writes.
#[derive(JsonSchema)]
#[schemars(title = "fctry.state", rename_all = "camelCase")]
pub struct State {
    /// The spec section being worked on (alias, with or without `#`).
    active_section: Option<String>,
    /// The section's number, like `2.2`; set together with `activeSection`.
    active_section_number: Option<String>,
    /// The command in progress.
    current_command: Option<Command>,
    /// The agent step in progress.
    workflow_step: Option<Step>,
    /// Steps completed in the current command, in order.
    completed_steps: Option<Vec<String>>,
    /// What the user should do next, for people.
    next_step: Option<String>,
    /// Satisfied scenarios out of the total.
    scenario_score: Option<ScenarioScore>,
    /// Build progress: the legacy `{current, total}` or extended `{current, total, chunks}`.
    chunk_progress: Option<ChunkProgress>,
    /// Section counts by readiness (whole numbers ≥ 0); other values are metadata.
    readiness_summary: Option<ReadinessSummary>,
    /// File writes made outside fctry commands.
    untracked_changes: Option<Vec<UntrackedChange>>,
    /// The spec version.
    spec_version: Option<String>,
    /// Each agent's output of the current command, by agent.
    agent_outputs: Option<std::collections::BTreeMap<String, AgentOutput>>,
    /// When the state was last written.
    last_updated: Option<Timestamp>,
    /// The build run in progress (or ended `partial`).
    build_run: Option<BuildRun>,
    /// Prerequisite checks the user chose to skip.
    skipped_prerequisites: Option<Vec<SkippedPrerequisite>>,
}

/// Commands that start a workflow.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum Command {
    /// `/fctry:init`
    Init,
    /// `/fctry:evolve`
    Evolve,
    /// `/fctry:ref`
    Ref,
    /// `/fctry:review`
    Review,
    /// `/fctry:execute`
    Execute,
}

/// Agent steps.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum Step {
    /// State Owner's scan.
    StateOwnerScan,
    /// Interviewer.
    Interviewer,
    /// Researcher.
    Researcher,
    /// Visual Translator.
    VisualTranslator,
    /// Scenario Crafter.
    ScenarioCrafter,
    /// Spec Writer.
    SpecWriter,
    /// Executor planning.
    ExecutorPlan,
    /// Executor building.
    ExecutorBuild,
}

/// `{satisfied, total}` with `satisfied ≤ total`.
#[derive(JsonSchema)]
pub struct ScenarioScore {
    /// Satisfied scenarios.
    satisfied: Option<u64>,
    /// All scenarios.
    total: Option<u64>,
}

/// `{current, total}` (legacy) or `{current, total, chunks}` (extended).
#[derive(JsonSchema)]
pub struct ChunkProgress {
    /// Chunks done.
    current: Option<u64>,
    /// All chunks.
    total: Option<u64>,
    /// Each chunk's status (extended form).
    chunks: Option<Vec<ChunkSummary>>,
}

/// One chunk in the extended `chunkProgress`.
#[derive(JsonSchema)]
pub struct ChunkSummary {
    /// The chunk id (≥ 1).
    #[schemars(range(min = 1))]
    id: Option<u64>,
    /// The chunk's name.
    name: Option<String>,
    /// The chunk's status.
    status: Option<ChunkStatus>,
}

/// Section counts by readiness; values that are not numbers (a scan date, ...) are metadata.
pub struct ReadinessSummary;

impl JsonSchema for ReadinessSummary {
    fn schema_name() -> Cow<'static, str> {
        "ReadinessSummary".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Section counts by readiness (whole numbers ≥ 0); other values are metadata.",
            "type": "object",
            "additionalProperties": {
                "if": {"type": "number"},
                "then": {"type": "integer", "minimum": 0}
            }
        })
    }
}

/// A file write made outside fctry commands.
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub struct UntrackedChange {
    /// The file written (the key: one entry per file).
    file: String,
    /// The section alias it belongs to.
    section: Option<String>,
    /// The section's number.
    section_number: Option<String>,
    /// When it was written.
    timestamp: Option<Timestamp>,
}

/// An agent's output.
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub struct AgentOutput {
    /// What the agent found or did.
    summary: String,
    /// Files and spec sections relevant to it.
    relevance_manifest: Option<Vec<String>>,
}

/// A prerequisite check the user chose to skip.
#[derive(JsonSchema)]
pub struct SkippedPrerequisite {
    /// The agent that ran anyway.
    agent: Option<String>,
    /// The command it ran in.
    command: Option<String>,
    /// The unmet requirements.
    missing: Option<Vec<String>>,
    /// When the user chose to skip.
    timestamp: Option<Timestamp>,
}

/// The build run (`buildRun`).
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub struct BuildRun {
    /// `run-{epoch ms}`.
    run_id: Option<String>,
    /// The run's status.
    status: Option<RunStatus>,
    /// When the run started.
    started_at: Option<Timestamp>,
    /// The approved plan.
    plan: Option<Plan>,
    /// The chunks, in plan order.
    chunks: Option<Vec<Chunk>>,
    /// The convergence phase being built.
    convergence_phase: Option<String>,
    /// When the last chunk completed.
    last_checkpoint: Option<Timestamp>,
    /// What a paused run waits for (any JSON value).
    pending_question: Option<Value>,
    /// When a `partial` run ended.
    completed_at: Option<Timestamp>,
    /// Retries per chunk (default 3).
    max_retries: Option<u64>,
}

/// Build run statuses.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum RunStatus {
    /// Building.
    Running,
    /// Every chunk completed.
    Completed,
    /// Ended with failed or blocked chunks.
    Partial,
    /// Waiting on `pendingQuestion`.
    Paused,
}

/// The approved build plan.
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub struct Plan {
    /// Number of chunks.
    total_chunks: Option<u64>,
    /// Build priorities, most important first.
    priorities: Option<Vec<String>>,
    /// Where the priorities came from.
    priority_source: Option<PrioritySource>,
    /// The spec version the plan was made from.
    spec_version: Option<String>,
    /// Retries per chunk.
    max_retries: Option<u64>,
}

/// Where build priorities came from.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum PrioritySource {
    /// The user's global settings.
    Global,
    /// The project's settings.
    Project,
    /// Asked for in the prompt.
    UserPrompt,
}

/// One build chunk.
#[derive(JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub struct Chunk {
    /// The chunk id (≥ 1, unique in the run).
    #[schemars(range(min = 1))]
    id: u64,
    /// The chunk's name.
    name: Option<String>,
    /// The chunk's status.
    status: Option<ChunkStatus>,
    /// Spec sections it builds.
    sections: Option<Vec<String>>,
    /// Scenarios it satisfies.
    scenarios: Option<Vec<String>>,
    /// Ids of the chunks it needs first.
    depends_on: Option<Vec<u64>>,
    /// The spec version it was built against.
    spec_version_at_build: Option<String>,
    /// The current attempt (≥ 1).
    #[schemars(range(min = 1))]
    attempt: Option<u64>,
    /// When the current attempt started.
    started_at: Option<Timestamp>,
    /// When it completed.
    completed_at: Option<Timestamp>,
    /// When it was abandoned.
    failed_at: Option<Timestamp>,
    /// The last failure.
    error: Option<String>,
}

/// Chunk statuses.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum ChunkStatus {
    /// Not started.
    Planned,
    /// Being built.
    Active,
    /// Failed, being retried.
    Retrying,
    /// Built.
    Completed,
    /// Out of retries.
    Failed,
    /// Depends on a failed chunk.
    Blocked,
}

/// `.fctry/inbox.json`: the inbox items, newest first.
#[derive(JsonSchema)]
#[schemars(title = "fctry.inbox")]
pub struct Inbox(Vec<InboxItem>);

/// One inbox item.
#[derive(JsonSchema)]
pub struct InboxItem {
    /// `inbox-{epoch ms}-{6 base36}`.
    id: String,
    /// What kind of input it is.
    r#type: InboxType,
    /// The user's text.
    content: String,
    /// When it was added.
    timestamp: Timestamp,
    /// Where it is in its lifecycle.
    status: InboxStatus,
    /// Why processing failed.
    error: Option<String>,
}

/// Inbox item types.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum InboxType {
    /// A change to the spec.
    Evolve,
    /// A reference to study.
    Reference,
    /// A new feature.
    Feature,
}

/// Inbox item statuses.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum InboxStatus {
    /// Waiting.
    Pending,
    /// Being processed.
    Processing,
    /// Processed.
    Processed,
    /// Processing failed.
    Error,
    /// Folded into the spec.
    Incorporated,
}

/// One fctry build, verification or context lifecycle event.
pub struct Event;

/// The fields every event has.
#[derive(JsonSchema)]
#[schemars(title = "fctry.event")]
struct EventFields {
    /// The event kind; verification and context kinds have the fields below.
    kind: String,
    /// When it happened.
    timestamp: Timestamp,
    /// The chunk it concerns.
    chunk: Option<String>,
    /// What happened, for people.
    summary: Option<String>,
}

/// The fields of `chunk-verified` and `verification-failed` events.
#[derive(JsonSchema)]
struct VerificationFields {
    /// The checks run.
    checks: Option<Vec<Check>>,
    /// How thoroughly it verified.
    mode: Option<VerificationMode>,
    /// A screenshot's path.
    screenshot: Option<String>,
}

/// One verification check.
#[derive(JsonSchema)]
struct Check {
    /// The check's name.
    name: String,
    /// Its result.
    result: CheckResult,
    /// Whether it passed only on a retry.
    retried: Option<bool>,
}

/// A check's result.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
enum CheckResult {
    /// Passed.
    Pass,
    /// Failed.
    Fail,
}

/// Verification modes.
#[derive(JsonSchema)]
#[schemars(rename_all = "kebab-case")]
enum VerificationMode {
    /// Every check.
    Full,
    /// Fewer checks.
    Reduced,
    /// The least.
    Minimal,
}

/// The fields of context lifecycle events.
#[derive(JsonSchema)]
struct ContextFields {
    /// The isolation mode (`context-boundary`).
    isolation: Option<String>,
}

fn kinds_schema(kinds: &[&str]) -> Value {
    serde_json::json!({"properties": {"kind": {"enum": kinds}}, "required": ["kind"]})
}

impl JsonSchema for Event {
    fn schema_name() -> Cow<'static, str> {
        "Event".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = EventFields::json_schema(generator);
        let verification = generator.subschema_for::<VerificationFields>();
        let context = generator.subschema_for::<ContextFields>();
        schema.insert(
            "allOf".into(),
            serde_json::json!([
                {"if": kinds_schema(&super::VERIFICATION_KINDS), "then": verification},
                {"if": kinds_schema(&super::CONTEXT_KINDS), "then": context},
            ]),
        );
        schema
    }
}

/// The JSON Schema (draft 2020-12) of a fctry kind, generated from the types above.
pub fn generate(kind: &str) -> Option<Value> {
    match kind {
        "fctry.state" => Some(crate::schema::root::<State>()),
        "fctry.inbox" => Some(crate::schema::root::<Inbox>()),
        "fctry.event" => Some(crate::schema::root::<Event>()),
        _ => None,
    }
}

/// The property names an object schema declares (following a `$ref` into `$defs`).
#[cfg(test)]
fn properties(root: &Value, schema: &Value) -> Vec<String> {
    let target = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix("#/$defs/")
            .and_then(|name| root.get("$defs").and_then(|d| d.get(name)))
            .unwrap_or(schema),
        None => schema,
    };
    target
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn enum_values(root: &Value, name: &str) -> Vec<String> {
        crate::schema::enum_values(root, name)
    }

    /// `$defs[name]` of a schema (`null` when absent).
    fn def<'a>(root: &'a Value, name: &str) -> &'a Value {
        root.get("$defs")
            .and_then(|d| d.get(name))
            .unwrap_or(&Value::Null)
    }

    #[test]
    fn field_lists_and_enums_match_the_validators() {
        use super::super::validate as v;
        let state = generate("fctry.state").unwrap_or_default();
        assert_eq!(properties(&state, &state), strings(&v::STATE_FIELDS));
        assert_eq!(
            properties(&state, def(&state, "BuildRun")),
            strings(&v::RUN_FIELDS)
        );
        assert_eq!(
            properties(&state, def(&state, "Plan")),
            strings(&v::PLAN_FIELDS)
        );
        assert_eq!(
            properties(&state, def(&state, "Chunk")),
            strings(&v::CHUNK_FIELDS)
        );
        assert_eq!(enum_values(&state, "Command"), strings(&v::COMMANDS));
        assert_eq!(enum_values(&state, "Step"), strings(&v::STEPS));
        assert_eq!(enum_values(&state, "RunStatus"), strings(&v::RUN_STATUSES));
        assert_eq!(
            enum_values(&state, "ChunkStatus"),
            strings(&v::CHUNK_STATUSES)
        );
        assert_eq!(
            enum_values(&state, "PrioritySource"),
            strings(&v::PRIORITY_SOURCES)
        );
        let inbox = generate("fctry.inbox").unwrap_or_default();
        assert_eq!(enum_values(&inbox, "InboxType"), strings(&v::INBOX_TYPES));
        assert_eq!(
            enum_values(&inbox, "InboxStatus"),
            strings(&v::INBOX_STATUSES)
        );
        assert_eq!(
            properties(&inbox, def(&inbox, "InboxItem")),
            strings(&v::INBOX_ITEM_FIELDS)
        );
    }

    #[test]
    fn unknown_kinds_have_no_generated_schema() {
        assert!(generate("fctry.nope").is_none());
    }
}
