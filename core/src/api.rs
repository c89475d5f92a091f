//! The functions every binding exposes, over JSON values: documents in, documents out.
//! Bindings convert host values to [`Value`] and back and map [`Error`] to host exceptions;
//! nothing else. Names and argument order are the same in every language (ARCHITECTURE §2).

use crate::error::{Code, Error, Result};
use crate::machine::{events_value, Instance, Machine};
use crate::merge::MergeOptions;
use crate::{document, json, jsonl, kinds, time};
use serde_json::{Map, Value};

/// Parses JSON text (strict, limited, duplicate keys rejected).
pub fn parse(bytes: &[u8]) -> Result<Value> {
    json::parse(bytes)
}

/// Parses JSON text and returns its canonical text: numbers keep their exact text, so this
/// is the lossless path for hosts whose numbers are doubles.
pub fn canonical(bytes: &[u8]) -> Result<String> {
    Ok(json::serialize(&json::parse(bytes)?))
}

/// Canonical text of a document (checks the limits first).
pub fn serialize(value: &Value) -> Result<String> {
    json::check_limits(value)?;
    Ok(json::serialize(value))
}

/// Merges `patch` into `doc` (consumed: bindings own their converted values); `options` as
/// in [`MergeOptions::from_value`].
pub fn merge(doc: Value, patch: &Value, options: &Value) -> Result<Value> {
    json::check_limits(&doc)?;
    json::check_limits(patch)?;
    crate::merge::merge_owned(doc, patch, &MergeOptions::from_value(options)?)
}

/// Validates a document of a kind: `{valid, errors, warnings}`.
pub fn validate(kind: &str, doc: &Value) -> Result<Value> {
    Ok(kinds::validate(kind, doc)?.to_value())
}

/// The JSON Schema (draft 2020-12) of a document kind (`E_KIND`: unknown, or none yet).
pub fn schema(kind: &str) -> Result<Value> {
    crate::schema::schema(kind)
}

/// `[{name, description}]` for every document kind.
pub fn kinds() -> Value {
    Value::Array(
        kinds::KINDS
            .iter()
            .map(|k| {
                let mut m = Map::new();
                m.insert("name".into(), k.name.into());
                m.insert("description".into(), k.description.into());
                Value::Object(m)
            })
            .collect(),
    )
}

/// The document a reader gets for a missing file of this kind.
pub fn default_document(kind: &str) -> Result<Value> {
    kinds::default_document(kind)
}

/// The documented limits: `{max_depth, max_document_bytes, max_string_bytes}`.
pub fn limits() -> Value {
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
    Value::Object(m)
}

/// The etag of a file's bytes.
pub fn etag(bytes: &[u8]) -> String {
    json::etag(bytes)
}

/// What a reader makes of a file's bytes (`None` = missing).
pub fn load_document(kind: &str, bytes: Option<&[u8]>) -> Result<Value> {
    Ok(document::load(kind, bytes)?.into_value())
}

/// Validates and serializes a document for writing: `{text, etag, warnings}` or `E_INVALID`.
pub fn prepare_document(kind: &str, doc: &Value) -> Result<Value> {
    let prepared = document::prepare(kind, doc)?;
    let mut m = Map::new();
    m.insert("text".into(), prepared.text.into());
    m.insert("etag".into(), prepared.etag.into());
    m.insert(
        "warnings".into(),
        crate::report::issues_value(&prepared.report.warnings),
    );
    Ok(Value::Object(m))
}

/// The pure update step: `{document, text, etag, changed, corrupt, warnings}`.
pub fn apply_update(
    kind: &str,
    bytes: Option<&[u8]>,
    patch: &Value,
    options: &Value,
    if_match: Option<&str>,
) -> Result<Value> {
    let options = MergeOptions::from_value(options)?;
    Ok(document::update(kind, bytes, patch, &options, if_match)?.into_value())
}

/// The update step for a document a host function produced from the loaded one.
pub fn finish_update(
    kind: &str,
    bytes: Option<&[u8]>,
    doc: &Value,
    if_match: Option<&str>,
) -> Result<Value> {
    Ok(document::finish_update(kind, bytes, doc.clone(), if_match)?.into_value())
}

/// `E_CONFLICT` unless `if_match` is absent or equals `current`.
pub fn check_if_match(current: Option<&str>, if_match: Option<&str>) -> Result<()> {
    document::check_if_match(current, if_match)
}

/// Parses a JSONL log: `{records, torn, needs_newline}`.
pub fn parse_log(bytes: &[u8]) -> Result<Value> {
    Ok(jsonl::parse_log(bytes)?.into_value())
}

/// One JSONL line (compact JSON + `\n`).
pub fn log_line(value: &Value) -> Result<String> {
    jsonl::line(value)
}

/// Parses an RFC 3339 timestamp into epoch milliseconds.
pub fn parse_timestamp(text: &str) -> Result<i64> {
    time::parse_timestamp(text)
}

/// Formats epoch milliseconds as RFC 3339 UTC with milliseconds.
pub fn format_timestamp(millis: i64) -> Result<String> {
    time::format_timestamp(millis)
}

/// Checks a machine definition: `{valid, errors, warnings}` (a malformed one is `E_MACHINE`).
pub fn machine_check(definition: &Value) -> Result<Value> {
    Ok(Machine::from_value(definition)?.check().to_value())
}

/// The legal events from `state`: `[{event, to, auto}]`.
pub fn machine_events(definition: &Value, state: &str, context: &Value) -> Result<Value> {
    Ok(events_value(
        &Machine::from_value(definition)?.events(state, context)?,
    ))
}

/// Fires an event: `{state, previous, changed, steps, scheduled}`.
pub fn machine_fire(
    definition: &Value,
    instance: &Value,
    event: &str,
    context: &Value,
) -> Result<Value> {
    let machine = Machine::from_value(definition)?;
    let instance = match instance {
        Value::String(state) => Instance {
            state: state.clone(),
            previous: None,
        },
        other => Instance::from_value(other)?,
    };
    Ok(machine.fire(&instance, event, context)?.to_value())
}

/// The Mermaid `stateDiagram-v2` of a machine.
pub fn machine_diagram(definition: &Value) -> Result<String> {
    Ok(Machine::from_value(definition)?.mermaid())
}

/// `E_VALUE` for a host value that is not JSON; bindings use it for NaN, cycles, etc.
pub fn value_error(path: &str, message: impl Into<String>) -> Error {
    Error::new(Code::Value, path, message)
}

/// fctry step 0: `currentCommand` set; `completedSteps`, `agentOutputs`, `workflowStep` cleared.
pub fn fctry_start_command(state: Value, command: &str, now: &Value) -> Result<Value> {
    crate::fctry::start_command(state, command, now)
}

/// fctry: an agent starts its step (`workflowStep`).
pub fn fctry_start_step(state: Value, step: &str, now: &Value) -> Result<Value> {
    crate::fctry::start_step(state, step, now)
}

/// fctry: an agent completes its step (appended once; its output stored when not null).
pub fn fctry_complete_step(state: Value, step: &str, output: &Value, now: &Value) -> Result<Value> {
    crate::fctry::complete_step(state, step, output, now)
}

/// fctry: `{ok, agent, command, missing, message, options}` for an agent's prerequisites.
pub fn fctry_check_prerequisites(
    state: &Value,
    agent: &str,
    command: Option<&str>,
) -> Result<Value> {
    Ok(crate::fctry::check_prerequisites(state, agent, command)?.to_value())
}

/// fctry: records that the user skipped an agent's missing prerequisites.
pub fn fctry_skip_prerequisites(
    state: Value,
    agent: &str,
    command: Option<&str>,
    now: &Value,
) -> Result<Value> {
    crate::fctry::skip_prerequisites(state, agent, command, now)
}

/// fctry: adds an untracked change, de-duplicated by file.
pub fn fctry_add_untracked_change(state: Value, change: &Value, now: &Value) -> Result<Value> {
    crate::fctry::add_untracked_change(state, change, now)
}

/// fctry: clears the untracked changes of these sections (`null`: all of them).
pub fn fctry_clear_untracked_changes(state: Value, sections: &Value, now: &Value) -> Result<Value> {
    let sections = match sections {
        Value::Null => None,
        Value::Array(items) => Some(
            items
                .iter()
                .map(|s| {
                    s.as_str().map(str::to_owned).ok_or_else(|| {
                        Error::new(
                            Code::Argument,
                            "/sections",
                            "sections must be a list of section aliases",
                        )
                    })
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        _ => {
            return Err(Error::new(
                Code::Argument,
                "/sections",
                "sections must be a list of section aliases, or null for all",
            ))
        }
    };
    crate::fctry::clear_untracked_changes(state, sections.as_deref(), now)
}

/// fctry: the inbox item lifecycle as a machine definition (for `machine_*` and diagrams).
pub fn fctry_inbox_machine() -> Value {
    crate::fctry::inbox_machine()
}

/// fctry: adds an inbox item first (`random`: 6 lowercase base36 characters from the host).
pub fn fctry_inbox_add(
    inbox: Value,
    kind: &str,
    content: &str,
    now: &Value,
    random: &str,
) -> Result<Value> {
    crate::fctry::inbox_add(inbox, kind, content, now, random)
}

/// fctry: moves one inbox item through its lifecycle.
pub fn fctry_inbox_transition(inbox: Value, id: &str, event: &str) -> Result<Value> {
    crate::fctry::inbox_transition(inbox, id, event)
}

/// fctry: removes an inbox item (absent: unchanged).
pub fn fctry_inbox_dismiss(inbox: Value, id: &str) -> Result<Value> {
    crate::fctry::inbox_dismiss(inbox, id)
}

/// fctry: applies an event to every pending or processed item it is legal for.
pub fn fctry_inbox_batch(inbox: Value, event: &str) -> Result<Value> {
    crate::fctry::inbox_batch(inbox, event)
}

/// fctry: the chunk lifecycle as a machine definition.
pub fn fctry_chunk_machine() -> Value {
    crate::fctry::chunk_machine()
}

/// fctry: the build run lifecycle as a machine definition.
pub fn fctry_run_machine() -> Value {
    crate::fctry::run_machine()
}

/// fctry: creates a build run from an approved plan.
pub fn fctry_create_build_run(state: Value, plan: &Value, now: &Value) -> Result<Value> {
    crate::fctry::create_build_run(state, plan, now)
}

/// fctry: a chunk event (`start`, `complete`, `fail`).
pub fn fctry_chunk_event(state: Value, id: u64, event: &str, now: &Value) -> Result<Value> {
    crate::fctry::chunk_event(state, id, event, now)
}

/// fctry: planned chunks whose dependencies all completed.
pub fn fctry_ready_chunks(state: &Value) -> Value {
    Value::from(crate::fctry::ready_chunks(state))
}

/// fctry: `{layers, unplaced}` of the chunk DAG.
pub fn fctry_dag_layers(state: &Value) -> Value {
    crate::fctry::dag_layers(state)
}

/// fctry: pauses a running build with its pending question.
pub fn fctry_pause_build_run(state: Value, question: &Value, now: &Value) -> Result<Value> {
    crate::fctry::pause_build_run(state, question, now)
}

/// fctry: resumes a paused build.
pub fn fctry_resume_build_run(state: Value, now: &Value) -> Result<Value> {
    crate::fctry::resume_build_run(state, now)
}

/// fctry: finishes a build whose chunks are all done.
pub fn fctry_finish_build_run(state: Value, now: &Value) -> Result<Value> {
    crate::fctry::finish_build_run(state, now)
}

/// fctry: the resume plan `{offer, completed, remaining, next, changed, options}`.
pub fn fctry_resume_plan(state: &Value, current_spec_version: Option<&str>) -> Value {
    crate::fctry::resume_plan(state, current_spec_version)
}

/// fctry: what a status line shows, from any state (see `fctry::status_line`).
pub fn fctry_status_line(state: &Value) -> Value {
    crate::fctry::status_line(state)
}

/// fctry: one line of text from a status line summary; `options`: `{color: bool}`.
pub fn fctry_render_status_line(summary: &Value, options: &Value) -> String {
    crate::fctry::render_status_line(summary, options)
}

/// fctry: the rendered status line straight from the state file's bytes (`None` = no file); a
/// missing or unparseable file reads as `{}` (the status line's rule). One call per prompt.
pub fn fctry_status_line_text(bytes: Option<&[u8]>, options: &Value) -> String {
    let state = bytes
        .and_then(|b| json::parse(b).ok())
        .unwrap_or_else(|| Value::Object(Map::new()));
    crate::fctry::render_status_line(&crate::fctry::status_line(&state), options)
}

/// fctry: event lists merged oldest first, `{events, invalid}`.
pub fn fctry_activity_feed(sources: &Value) -> Value {
    crate::fctry::activity_feed(sources)
}

/// fctry: the context health indicator `{isolation, lastCheckpoint}`.
pub fn fctry_context_health(state: &Value, events: &Value) -> Value {
    crate::fctry::context_health(state, events)
}

/// hivemind: the workflow as a machine definition (for `machine_*`).
pub fn hivemind_machine() -> Value {
    crate::hivemind::hivemind_machine()
}

/// hivemind: the Mermaid state diagram of the workflow.
pub fn hivemind_diagram() -> Result<String> {
    Ok(Machine::from_value(&crate::hivemind::hivemind_machine())?.mermaid())
}

/// hivemind: each agent's mode (`active`, `reading`, `idle`) in a state.
pub fn hivemind_agents(state: &str) -> Result<Value> {
    crate::hivemind::agents(state)
}

/// hivemind: the context message agents get on entering a state (`null`: none).
pub fn hivemind_context_message(state: &str) -> Value {
    crate::hivemind::context_message(state).map_or(Value::Null, Value::from)
}

/// hivemind: fires a host event on `state.json`'s document (`null`: a missing file):
/// `{state, changed, transitions, notifications, scheduled, ignored, problems}`.
pub fn hivemind_fire(state: Value, event: &str, now: &Value, details: &Value) -> Result<Value> {
    Ok(crate::hivemind::fire(state, event, now, details)?.to_value())
}

/// hivemind: fires a scheduled automatic follow-up if it still applies.
pub fn hivemind_follow_up(state: Value, event: &str, now: &Value) -> Result<Value> {
    Ok(crate::hivemind::follow_up(state, event, now)?.to_value())
}

/// hivemind: what a created or changed file under `workspace/` does in the current state.
pub fn hivemind_on_file(state: Value, path: &str, content: &Value, now: &Value) -> Result<Value> {
    Ok(crate::hivemind::on_file(state, path, content, now)?.to_value())
}

/// agency: the seed's initial `runner_status.json`, stamped with `now`.
pub fn agency_initial_runner_status(now: &Value) -> Result<Value> {
    crate::agency::initial_runner_status(now)
}

/// agency: a runner's milestone write applied to the current status document.
pub fn agency_update_runner_status(current: &Value, update: &Value, now: &Value) -> Result<Value> {
    crate::agency::update_runner_status(current, update, now)
}

/// agency: what a reader makes of the status file's bytes: `{status, report}`.
pub fn agency_parse_runner_status(bytes: Option<&[u8]>) -> Value {
    crate::agency::parse_runner_status(bytes)
}

/// agency: milliseconds since the status's `updated_at`.
pub fn agency_age(status: &Value, now: &Value) -> Result<i64> {
    crate::agency::age(status, now)
}

/// agency: the stall watchdog: `{is_stalled, stalled_duration?}`.
pub fn agency_check_stall(signals: &Value, now: &Value, threshold_ms: &Value) -> Result<Value> {
    Ok(crate::agency::check_stall(signals, now, threshold_ms)?.to_value())
}

/// agency: the snapshot of a run from its files' bytes and the host's facts.
pub fn agency_build_snapshot(
    status_bytes: Option<&[u8]>,
    meta_bytes: Option<&[u8]>,
    facts: &Value,
    now: &Value,
    threshold_ms: &Value,
) -> Result<Value> {
    crate::agency::build_snapshot(status_bytes, meta_bytes, facts, now, threshold_ms)
}

/// agency: the run status of a snapshot: `{status, display, archived, stalled_duration?}`.
pub fn agency_derive(snapshot: &Value) -> Result<Value> {
    Ok(crate::agency::derive(snapshot)?.to_value())
}

/// agency: the `ls` table of runs.
pub fn agency_render_ls(rows: &Value) -> Result<String> {
    crate::agency::render_ls(rows)
}

/// agency: the `show` output of one run, relative to `now`.
pub fn agency_render_show(run: &Value, now: &Value) -> Result<String> {
    crate::agency::render_show(run, now)
}

/// agency: the runner protocol document (`CLAUDE.md`).
pub fn agency_protocol_document() -> String {
    crate::agency::PROTOCOL_DOCUMENT.to_owned()
}
