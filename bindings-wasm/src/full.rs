//! The whole API (feature `full`): one exported function per `statecore::api` function.

use crate::{arg, object_out, text_out, throw};
use statecore::{api, Error};
use wasm_bindgen::prelude::*;

/// Parses JSON bytes into a document (object API).
#[wasm_bindgen]
pub fn parse(bytes: &[u8]) -> Result<String, JsValue> {
    object_out(api::parse(bytes))
}

/// Parses JSON bytes and returns the canonical text, numbers exact (text API).
#[wasm_bindgen]
pub fn canonical(bytes: &[u8]) -> Result<String, JsValue> {
    text_out(api::canonical(bytes))
}

/// Canonical text of a document given as JSON text.
#[wasm_bindgen]
pub fn serialize(value: &str) -> Result<String, JsValue> {
    text_out(api::serialize(&arg(value)?))
}

/// Merges a patch into a document; `options` is JSON text (`null` for the defaults).
#[wasm_bindgen]
pub fn merge(doc: &str, patch: &str, options: &str) -> Result<String, JsValue> {
    object_out(api::merge(arg(doc)?, &arg(patch)?, &arg(options)?))
}

/// `merge` over JSON bytes, returning canonical text with exact numbers (text API).
#[wasm_bindgen]
pub fn merge_text(doc: &[u8], patch: &[u8], options: &str) -> Result<String, JsValue> {
    let doc = api::parse(doc).map_err(throw)?;
    let patch = api::parse(patch).map_err(throw)?;
    let merged = api::merge(doc, &patch, &arg(options)?).map_err(throw)?;
    text_out(api::serialize(&merged))
}

/// Validates a document of a kind: `{valid, errors, warnings}`.
#[wasm_bindgen]
pub fn validate(kind: &str, doc: &str) -> Result<String, JsValue> {
    object_out(api::validate(kind, &arg(doc)?))
}

/// `validate` over a file's JSON bytes.
#[wasm_bindgen]
pub fn validate_text(kind: &str, bytes: &[u8]) -> Result<String, JsValue> {
    let doc = api::parse(bytes).map_err(throw)?;
    object_out(api::validate(kind, &doc))
}

/// `[{name, description}]` for every document kind.
#[wasm_bindgen]
pub fn kinds() -> Result<String, JsValue> {
    object_out(Ok(api::kinds()))
}

/// The JSON Schema (draft 2020-12) of a document kind.
#[wasm_bindgen]
pub fn schema(kind: &str) -> Result<String, JsValue> {
    object_out(api::schema(kind))
}

/// The document a reader gets for a missing file of this kind.
#[wasm_bindgen]
pub fn default_document(kind: &str) -> Result<String, JsValue> {
    object_out(api::default_document(kind))
}

/// `{max_depth, max_document_bytes, max_string_bytes}`.
#[wasm_bindgen]
pub fn limits() -> Result<String, JsValue> {
    object_out(Ok(api::limits()))
}

/// The etag (32 hex digits) of a file's bytes.
#[wasm_bindgen]
pub fn etag(bytes: &[u8]) -> String {
    api::etag(bytes)
}

/// What a reader makes of a file's bytes (`None` = missing file).
#[wasm_bindgen]
pub fn load_document(kind: &str, bytes: Option<Vec<u8>>) -> Result<String, JsValue> {
    object_out(api::load_document(kind, bytes.as_deref()))
}

/// Validates and serializes a document for writing: `{text, etag, warnings}`.
#[wasm_bindgen]
pub fn prepare_document(kind: &str, doc: &str) -> Result<String, JsValue> {
    object_out(api::prepare_document(kind, &arg(doc)?))
}

/// The pure update step: `{document, text, etag, changed, corrupt, warnings}`.
#[wasm_bindgen]
pub fn apply_update(
    kind: &str,
    bytes: Option<Vec<u8>>,
    patch: &str,
    options: &str,
    if_match: Option<String>,
) -> Result<String, JsValue> {
    object_out(api::apply_update(
        kind,
        bytes.as_deref(),
        &arg(patch)?,
        &arg(options)?,
        if_match.as_deref(),
    ))
}

/// The update step for a document the host produced from the loaded one.
#[wasm_bindgen]
pub fn finish_update(
    kind: &str,
    bytes: Option<Vec<u8>>,
    doc: &str,
    if_match: Option<String>,
) -> Result<String, JsValue> {
    object_out(api::finish_update(
        kind,
        bytes.as_deref(),
        &arg(doc)?,
        if_match.as_deref(),
    ))
}

/// Throws `E_CONFLICT` unless `if_match` is absent or equals `current`.
#[wasm_bindgen]
pub fn check_if_match(current: Option<String>, if_match: Option<String>) -> Result<(), JsValue> {
    api::check_if_match(current.as_deref(), if_match.as_deref()).map_err(throw)
}

/// Parses a JSONL log: `{records, torn, needs_newline}`.
#[wasm_bindgen]
pub fn parse_log(bytes: &[u8]) -> Result<String, JsValue> {
    object_out(api::parse_log(bytes))
}

/// One JSONL line (compact JSON + `\n`) of a value given as JSON text.
#[wasm_bindgen]
pub fn log_line(value: &str) -> Result<String, JsValue> {
    text_out(api::log_line(&arg(value)?))
}

/// Epoch milliseconds of an RFC 3339 timestamp. Every supported instant is within ±2^53 ms,
/// so the `f64` is exact.
#[wasm_bindgen]
pub fn parse_timestamp(text: &str) -> Result<f64, JsValue> {
    api::parse_timestamp(text)
        .map(|millis| millis as f64)
        .map_err(throw)
}

/// RFC 3339 UTC text of epoch milliseconds. The JS number must be a whole number
/// (`E_VALUE` otherwise); one beyond the `i64` range saturates and the core reports it as
/// out of range.
#[wasm_bindgen]
pub fn format_timestamp(millis: f64) -> Result<String, JsValue> {
    if !millis.is_finite() || millis.fract() != 0.0 {
        return Err(throw(api::value_error(
            "",
            format!("{millis} is not a whole number of epoch milliseconds"),
        )));
    }
    text_out(api::format_timestamp(millis as i64))
}

/// Checks a machine definition: `{valid, errors, warnings}`.
#[wasm_bindgen]
pub fn machine_check(definition: &str) -> Result<String, JsValue> {
    object_out(api::machine_check(&arg(definition)?))
}

/// The legal events from `state`: `[{event, to, auto}]`.
#[wasm_bindgen]
pub fn machine_events(definition: &str, state: &str, context: &str) -> Result<String, JsValue> {
    object_out(api::machine_events(
        &arg(definition)?,
        state,
        &arg(context)?,
    ))
}

/// Fires an event: `{state, previous, changed, steps, scheduled}`.
#[wasm_bindgen]
pub fn machine_fire(
    definition: &str,
    instance: &str,
    event: &str,
    context: &str,
) -> Result<String, JsValue> {
    object_out(api::machine_fire(
        &arg(definition)?,
        &arg(instance)?,
        event,
        &arg(context)?,
    ))
}

/// The Mermaid `stateDiagram-v2` text of a machine.
#[wasm_bindgen]
pub fn machine_diagram(definition: &str) -> Result<String, JsValue> {
    text_out(api::machine_diagram(&arg(definition)?))
}

/// fctry step 0 (`now` is JSON text: an RFC 3339 string or epoch milliseconds).
#[wasm_bindgen]
pub fn fctry_start_command(state: &str, command: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_start_command(arg(state)?, command, &arg(now)?))
}

/// fctry: an agent starts its step.
#[wasm_bindgen]
pub fn fctry_start_step(state: &str, step: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_start_step(arg(state)?, step, &arg(now)?))
}

/// fctry: an agent completes its step (`output` is JSON text, `null` for none).
#[wasm_bindgen]
pub fn fctry_complete_step(
    state: &str,
    step: &str,
    output: &str,
    now: &str,
) -> Result<String, JsValue> {
    object_out(api::fctry_complete_step(
        arg(state)?,
        step,
        &arg(output)?,
        &arg(now)?,
    ))
}

/// fctry: an agent's prerequisites, `{ok, agent, command, missing, message, options}`.
#[wasm_bindgen]
pub fn fctry_check_prerequisites(
    state: &str,
    agent: &str,
    command: Option<String>,
) -> Result<String, JsValue> {
    object_out(api::fctry_check_prerequisites(
        &arg(state)?,
        agent,
        command.as_deref(),
    ))
}

/// fctry: records a skip of an agent's missing prerequisites.
#[wasm_bindgen]
pub fn fctry_skip_prerequisites(
    state: &str,
    agent: &str,
    command: Option<String>,
    now: &str,
) -> Result<String, JsValue> {
    object_out(api::fctry_skip_prerequisites(
        arg(state)?,
        agent,
        command.as_deref(),
        &arg(now)?,
    ))
}

/// fctry: adds an untracked change (JSON text), de-duplicated by file.
#[wasm_bindgen]
pub fn fctry_add_untracked_change(state: &str, change: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_add_untracked_change(
        arg(state)?,
        &arg(change)?,
        &arg(now)?,
    ))
}

/// fctry: clears untracked changes of the sections (JSON list, or `null` for all).
#[wasm_bindgen]
pub fn fctry_clear_untracked_changes(
    state: &str,
    sections: &str,
    now: &str,
) -> Result<String, JsValue> {
    object_out(api::fctry_clear_untracked_changes(
        arg(state)?,
        &arg(sections)?,
        &arg(now)?,
    ))
}

/// fctry: the inbox item lifecycle as a machine definition.
#[wasm_bindgen]
pub fn fctry_inbox_machine() -> Result<String, JsValue> {
    object_out(Ok(api::fctry_inbox_machine()))
}

/// fctry: adds an inbox item first (`now` JSON text; `random` 6 base36 characters).
#[wasm_bindgen]
pub fn fctry_inbox_add(
    inbox: &str,
    kind: &str,
    content: &str,
    now: &str,
    random: &str,
) -> Result<String, JsValue> {
    object_out(api::fctry_inbox_add(
        arg(inbox)?,
        kind,
        content,
        &arg(now)?,
        random,
    ))
}

/// fctry: moves one inbox item through its lifecycle.
#[wasm_bindgen]
pub fn fctry_inbox_transition(inbox: &str, id: &str, event: &str) -> Result<String, JsValue> {
    object_out(api::fctry_inbox_transition(arg(inbox)?, id, event))
}

/// fctry: removes an inbox item.
#[wasm_bindgen]
pub fn fctry_inbox_dismiss(inbox: &str, id: &str) -> Result<String, JsValue> {
    object_out(api::fctry_inbox_dismiss(arg(inbox)?, id))
}

/// fctry: applies an event to every pending or processed item it is legal for.
#[wasm_bindgen]
pub fn fctry_inbox_batch(inbox: &str, event: &str) -> Result<String, JsValue> {
    object_out(api::fctry_inbox_batch(arg(inbox)?, event))
}

/// fctry: the chunk lifecycle as a machine definition.
#[wasm_bindgen]
pub fn fctry_chunk_machine() -> Result<String, JsValue> {
    object_out(Ok(api::fctry_chunk_machine()))
}

/// fctry: the build run lifecycle as a machine definition.
#[wasm_bindgen]
pub fn fctry_run_machine() -> Result<String, JsValue> {
    object_out(Ok(api::fctry_run_machine()))
}

/// fctry: creates a build run from an approved plan (JSON text).
#[wasm_bindgen]
pub fn fctry_create_build_run(state: &str, plan: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_create_build_run(
        arg(state)?,
        &arg(plan)?,
        &arg(now)?,
    ))
}

/// fctry: a chunk event (`start`, `complete`, `fail`); `id` is the chunk id.
#[wasm_bindgen]
pub fn fctry_chunk_event(state: &str, id: f64, event: &str, now: &str) -> Result<String, JsValue> {
    let id = chunk_id(id)?;
    object_out(api::fctry_chunk_event(arg(state)?, id, event, &arg(now)?))
}

/// A chunk id from JS: a whole number ≥ 0 (the core says which chunk does not exist).
fn chunk_id(id: f64) -> Result<u64, JsValue> {
    if id.is_finite() && id >= 0.0 && id.fract() == 0.0 && id <= 9_007_199_254_740_991.0 {
        Ok(id as u64)
    } else {
        Err(throw(Error::new(
            statecore::Code::Argument,
            "/id",
            "a chunk id must be a whole number",
        )))
    }
}

/// fctry: planned chunks whose dependencies all completed.
#[wasm_bindgen]
pub fn fctry_ready_chunks(state: &str) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_ready_chunks(&arg(state)?)))
}

/// fctry: `{layers, unplaced}` of the chunk DAG.
#[wasm_bindgen]
pub fn fctry_dag_layers(state: &str) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_dag_layers(&arg(state)?)))
}

/// fctry: pauses a running build with its pending question (JSON text).
#[wasm_bindgen]
pub fn fctry_pause_build_run(state: &str, question: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_pause_build_run(
        arg(state)?,
        &arg(question)?,
        &arg(now)?,
    ))
}

/// fctry: resumes a paused build.
#[wasm_bindgen]
pub fn fctry_resume_build_run(state: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_resume_build_run(arg(state)?, &arg(now)?))
}

/// fctry: finishes a build whose chunks are all done.
#[wasm_bindgen]
pub fn fctry_finish_build_run(state: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::fctry_finish_build_run(arg(state)?, &arg(now)?))
}

/// fctry: the resume plan.
#[wasm_bindgen]
pub fn fctry_resume_plan(
    state: &str,
    current_spec_version: Option<String>,
) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_resume_plan(
        &arg(state)?,
        current_spec_version.as_deref(),
    )))
}

/// fctry: the status line summary of a state.
#[wasm_bindgen]
pub fn fctry_status_line(state: &str) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_status_line(&arg(state)?)))
}

/// fctry: one line of text from a summary; `options` is JSON text (`{color}`).
#[wasm_bindgen]
pub fn fctry_render_status_line(summary: &str, options: &str) -> Result<String, JsValue> {
    Ok(api::fctry_render_status_line(
        &arg(summary)?,
        &arg(options)?,
    ))
}

/// fctry: event lists (JSON text of a list of lists) merged oldest first.
#[wasm_bindgen]
pub fn fctry_activity_feed(sources: &str) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_activity_feed(&arg(sources)?)))
}

/// fctry: the context health indicator.
#[wasm_bindgen]
pub fn fctry_context_health(state: &str, events: &str) -> Result<String, JsValue> {
    object_out(Ok(api::fctry_context_health(&arg(state)?, &arg(events)?)))
}

/// hivemind: the workflow as a machine definition.
#[wasm_bindgen]
pub fn hivemind_machine() -> Result<String, JsValue> {
    object_out(Ok(api::hivemind_machine()))
}

/// hivemind: the Mermaid state diagram of the workflow.
#[wasm_bindgen]
pub fn hivemind_diagram() -> Result<String, JsValue> {
    text_out(api::hivemind_diagram())
}

/// hivemind: each agent's mode in a state.
#[wasm_bindgen]
pub fn hivemind_agents(state: &str) -> Result<String, JsValue> {
    object_out(api::hivemind_agents(state))
}

/// hivemind: the context message of a state (JSON text: a string or `null`).
#[wasm_bindgen]
pub fn hivemind_context_message(state: &str) -> Result<String, JsValue> {
    object_out(Ok(api::hivemind_context_message(state)))
}

/// hivemind: fires a host event (`state`, `now`, `details` are JSON text).
#[wasm_bindgen]
pub fn hivemind_fire(
    state: &str,
    event: &str,
    now: &str,
    details: &str,
) -> Result<String, JsValue> {
    object_out(api::hivemind_fire(
        arg(state)?,
        event,
        &arg(now)?,
        &arg(details)?,
    ))
}

/// hivemind: fires a scheduled follow-up if it still applies.
#[wasm_bindgen]
pub fn hivemind_follow_up(state: &str, event: &str, now: &str) -> Result<String, JsValue> {
    object_out(api::hivemind_follow_up(arg(state)?, event, &arg(now)?))
}

/// hivemind: what a created or changed file under `workspace/` does (`content` is JSON text:
/// the file's text or `null`).
#[wasm_bindgen]
pub fn hivemind_on_file(
    state: &str,
    path: &str,
    content: &str,
    now: &str,
) -> Result<String, JsValue> {
    object_out(api::hivemind_on_file(
        arg(state)?,
        path,
        &arg(content)?,
        &arg(now)?,
    ))
}

/// agency: the initial runner status (`now` is JSON text: an RFC 3339 string or epoch ms).
#[wasm_bindgen]
pub fn agency_initial_runner_status(now: &str) -> Result<String, JsValue> {
    object_out(api::agency_initial_runner_status(&arg(now)?))
}

/// agency: a runner's milestone update applied to the current status (JSON text arguments).
#[wasm_bindgen]
pub fn agency_update_runner_status(
    current: &str,
    update: &str,
    now: &str,
) -> Result<String, JsValue> {
    object_out(api::agency_update_runner_status(
        &arg(current)?,
        &arg(update)?,
        &arg(now)?,
    ))
}

/// agency: what a reader makes of the status file's bytes (`None`: no file).
#[wasm_bindgen]
pub fn agency_parse_runner_status(bytes: Option<Vec<u8>>) -> Result<String, JsValue> {
    object_out(Ok(api::agency_parse_runner_status(bytes.as_deref())))
}

/// agency: milliseconds since the status's `updated_at` (exact in an `f64`).
#[wasm_bindgen]
pub fn agency_age(status: &str, now: &str) -> Result<f64, JsValue> {
    api::agency_age(&arg(status)?, &arg(now)?)
        .map(|millis| millis as f64)
        .map_err(throw)
}

/// agency: the stall watchdog (`threshold_ms` is JSON text: `null` or a number).
#[wasm_bindgen]
pub fn agency_check_stall(signals: &str, now: &str, threshold_ms: &str) -> Result<String, JsValue> {
    object_out(api::agency_check_stall(
        &arg(signals)?,
        &arg(now)?,
        &arg(threshold_ms)?,
    ))
}

/// agency: a run's snapshot from its files' bytes and the host's facts (JSON text).
#[wasm_bindgen]
pub fn agency_build_snapshot(
    status_bytes: Option<Vec<u8>>,
    meta_bytes: Option<Vec<u8>>,
    facts: &str,
    now: &str,
    threshold_ms: &str,
) -> Result<String, JsValue> {
    object_out(api::agency_build_snapshot(
        status_bytes.as_deref(),
        meta_bytes.as_deref(),
        &arg(facts)?,
        &arg(now)?,
        &arg(threshold_ms)?,
    ))
}

/// agency: the run status of a snapshot.
#[wasm_bindgen]
pub fn agency_derive(snapshot: &str) -> Result<String, JsValue> {
    object_out(api::agency_derive(&arg(snapshot)?))
}

/// agency: the `ls` table of runs.
#[wasm_bindgen]
pub fn agency_render_ls(rows: &str) -> Result<String, JsValue> {
    text_out(api::agency_render_ls(&arg(rows)?))
}

/// agency: the `show` output of one run.
#[wasm_bindgen]
pub fn agency_render_show(run: &str, now: &str) -> Result<String, JsValue> {
    text_out(api::agency_render_show(&arg(run)?, &arg(now)?))
}

/// agency: the runner protocol document (`CLAUDE.md`).
#[wasm_bindgen]
pub fn agency_protocol_document() -> String {
    api::agency_protocol_document()
}
