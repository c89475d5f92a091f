//! Build runs (`buildRun`, seed 000 "Build Run Schema" and "Resume protocol"): creating a run
//! from a plan, the chunk lifecycle on the machine engine ([`chunk_machine`]) with retries up to
//! `maxRetries`, blocking the dependents of a failed chunk, ready chunks, DAG layers for
//! drawing, `chunkProgress` derived from chunk statuses, pause/resume and finishing, and the
//! resume plan offered after an interruption.

use super::validate::{dependency_problems, DependencyProblem};
use crate::error::{Code, Error, Result};
use crate::machine::Machine;
use crate::time::normalize_now;
use crate::{json, Map, Value};

/// Retries of a failing chunk when the plan does not say (`maxRetries`).
pub const DEFAULT_MAX_RETRIES: u64 = 3;

/// The chunk lifecycle. The context of a transition is `{"retriesLeft": n}`.
pub fn chunk_machine() -> Value {
    crate::machine::definition(CHUNK_MACHINE)
}

const CHUNK_MACHINE: &str = r#"{
        "name": "fctry_chunk",
        "initial": "planned",
        "states": [
            {"name": "planned"},
            {"name": "active"},
            {"name": "retrying", "description": "failed, being tried again"},
            {"name": "completed", "terminal": true},
            {"name": "failed", "description": "out of retries", "terminal": true},
            {"name": "blocked", "description": "a chunk it depends on failed", "terminal": true}
        ],
        "transitions": [
            {"from": ["planned"], "event": "start", "to": "active"},
            {"from": ["active", "retrying"], "event": "complete", "to": "completed"},
            {"from": ["active", "retrying"], "event": "fail", "to": "retrying",
             "guard": {"path": "/retriesLeft", "op": "gt", "value": 0}},
            {"from": ["active", "retrying"], "event": "fail", "to": "failed"},
            {"from": ["planned"], "event": "block", "to": "blocked"}
        ]
    }"#;

/// The build run lifecycle: `running ⇄ paused`, then `completed` or `partial`.
pub fn run_machine() -> Value {
    crate::machine::definition(RUN_MACHINE)
}

const RUN_MACHINE: &str = r#"{
        "name": "fctry_build_run",
        "initial": "running",
        "states": [
            {"name": "running"},
            {"name": "paused", "description": "waiting for the user (pendingQuestion)"},
            {"name": "completed", "terminal": true},
            {"name": "partial", "description": "ended with failed chunks", "terminal": true}
        ],
        "transitions": [
            {"from": ["running"], "event": "pause", "to": "paused"},
            {"from": ["paused"], "event": "resume", "to": "running"},
            {"from": ["running"], "event": "complete", "to": "completed"},
            {"from": ["running"], "event": "end_partial", "to": "partial"}
        ]
    }"#;

fn argument(path: &str, message: String) -> Error {
    Error::new(Code::Argument, path, message)
}

type Object = Map;

fn state_object(state: Value) -> Result<Object> {
    match state {
        Value::Null => Ok(Map::new()),
        Value::Object(map) => Ok(map),
        _ => Err(argument("", "the fctry state must be an object".into())),
    }
}

fn run_of(map: &mut Object) -> Result<&mut Object> {
    map.get_mut("buildRun")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| argument("/buildRun", "there is no build run in the state".into()))
}

fn chunks_of(run: &Object) -> &[Value] {
    run.get("chunks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn id_of(chunk: &Value) -> Option<u64> {
    chunk.get("id").and_then(Value::as_u64)
}

fn status_of(chunk: &Value) -> &str {
    chunk
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("planned")
}

fn deps_of(chunk: &Value) -> Vec<u64> {
    chunk
        .get("dependsOn")
        .and_then(Value::as_array)
        .map(|deps| deps.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

fn max_retries(run: &Object) -> u64 {
    run.get("maxRetries")
        .or_else(|| run.get("plan").and_then(|p| p.get("maxRetries")))
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_MAX_RETRIES)
}

/// `E_ARGUMENT` for the first unknown dependency or cycle of a plan's chunks (the same rule
/// the validator applies to a build run).
fn check_dependencies(chunks: &[Value]) -> Result<()> {
    let chunks: Vec<&Value> = chunks.iter().collect();
    for problem in dependency_problems(&chunks) {
        let path = match &problem {
            DependencyProblem::Unknown { chunk, .. } => format!("/plan/chunks/{chunk}/dependsOn"),
            DependencyProblem::Cycle(_) => "/plan/chunks".to_owned(),
            // Items that are not ids are left to the validator, which refuses the write.
            DependencyProblem::NotAList { .. } | DependencyProblem::NotAnId { .. } => continue,
        };
        return Err(argument(&path, problem.message(&chunks)));
    }
    Ok(())
}

/// `chunkProgress` from the chunk statuses: `current` = completed chunks, `total` = chunks.
fn progress(chunks: &[Value]) -> Value {
    let completed = chunks
        .iter()
        .filter(|c| status_of(c) == "completed")
        .count();
    json!({"current": completed, "total": chunks.len()})
}

/// Creates a build run from an approved plan: `{chunks: [{id, name, sections, scenarios,
/// dependsOn}], priorities, prioritySource, specVersion, maxRetries, convergencePhase}`.
/// `runId` is `run-{now ms}`; every chunk starts `planned`; `chunkProgress` is derived. A
/// plan with unknown dependencies or a cycle is refused (`E_ARGUMENT`). It replaces any
/// earlier run (the seed's "Start fresh").
pub fn create_build_run(state: Value, plan: &Value, now: &Value) -> Result<Value> {
    let (timestamp, millis) = normalize_now(now)?;
    let plan = plan
        .as_object()
        .ok_or_else(|| argument("/plan", "the plan must be an object".into()))?;
    let chunks: Vec<Value> = plan
        .get("chunks")
        .and_then(Value::as_array)
        .ok_or_else(|| argument("/plan/chunks", "the plan needs a list of chunks".into()))?
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let id = id_of(chunk).filter(|id| *id >= 1).ok_or_else(|| {
                argument(
                    &format!("/plan/chunks/{i}/id"),
                    "each chunk needs an id (a whole number ≥ 1)".into(),
                )
            })?;
            let mut out = Map::new();
            out.insert("id".into(), id.into());
            for key in ["name", "sections", "scenarios"] {
                if let Some(v) = chunk.get(key) {
                    out.insert(key.into(), v.clone());
                }
            }
            out.insert("status".into(), "planned".into());
            out.insert(
                "dependsOn".into(),
                chunk.get("dependsOn").cloned().unwrap_or_else(|| json!([])),
            );
            Ok(Value::Object(out))
        })
        .collect::<Result<_>>()?;
    for (i, chunk) in chunks.iter().enumerate() {
        if chunks.iter().take(i).any(|c| id_of(c) == id_of(chunk)) {
            return Err(argument(
                &format!("/plan/chunks/{i}/id"),
                "chunk ids must be unique".into(),
            ));
        }
    }
    check_dependencies(&chunks)?;
    let mut plan_out = Map::new();
    plan_out.insert("totalChunks".into(), chunks.len().into());
    for key in ["priorities", "prioritySource", "specVersion", "maxRetries"] {
        if let Some(v) = plan.get(key) {
            plan_out.insert(key.into(), v.clone());
        }
    }
    let mut run = Map::new();
    run.insert("runId".into(), format!("run-{millis}").into());
    run.insert("status".into(), "running".into());
    run.insert("startedAt".into(), timestamp.clone().into());
    run.insert("plan".into(), Value::Object(plan_out));
    let chunk_progress = progress(&chunks);
    run.insert("chunks".into(), Value::Array(chunks));
    if let Some(phase) = plan.get("convergencePhase") {
        run.insert("convergencePhase".into(), phase.clone());
    }
    let mut map = state_object(state)?;
    map.insert("buildRun".into(), Value::Object(run));
    map.insert("chunkProgress".into(), chunk_progress);
    map.insert("lastUpdated".into(), timestamp.into());
    Ok(Value::Object(map))
}

/// A chunk event: `start` (attempt 1, `startedAt`), `complete` (`completedAt`,
/// `specVersionAtBuild` from the plan if not set, `lastCheckpoint`), `fail` (`retrying` with
/// the next attempt while fewer than `maxRetries` retries were used, else `failed` with `failedAt` and every planned chunk that
/// depends on it, directly or not, `blocked`). `chunkProgress` is derived again.
pub fn chunk_event(state: Value, id: u64, event: &str, now: &Value) -> Result<Value> {
    let (timestamp, _) = normalize_now(now)?;
    let machine = Machine::from_value(&chunk_machine())?;
    let mut map = state_object(state)?;
    let spec_version = map
        .get("buildRun")
        .and_then(|r| r.get("plan"))
        .and_then(|p| p.get("specVersion"))
        .cloned();
    let run = run_of(&mut map)?;
    let retries = max_retries(run);
    let chunks = run
        .get_mut("chunks")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| argument("/buildRun/chunks", "the build run has no chunks".into()))?;
    let index = chunks
        .iter()
        .position(|c| id_of(c) == Some(id))
        .ok_or_else(|| argument("/id", format!("no chunk has id {id}")))?;
    let Some(chunk) = chunks.get_mut(index).and_then(Value::as_object_mut) else {
        return Err(argument("/id", format!("chunk {id} is not an object")));
    };
    let attempt = chunk.get("attempt").and_then(Value::as_u64).unwrap_or(0);
    // Attempt n has used n - 1 retries; up to `maxRetries` retries (1 + maxRetries attempts).
    let used = attempt.max(1).saturating_sub(1);
    let context = json!({"retriesLeft": retries.saturating_sub(used)});
    let path = format!("/buildRun/chunks/{index}/status");
    let new_status = machine.fire_field(chunk, "status", "planned", event, &context, &path)?;
    match new_status.as_str() {
        "active" => {
            chunk.insert("attempt".into(), 1.into());
            chunk.insert("startedAt".into(), timestamp.clone().into());
        }
        "retrying" => {
            chunk.insert("attempt".into(), attempt.max(1).saturating_add(1).into());
        }
        "completed" => {
            chunk.insert("completedAt".into(), timestamp.clone().into());
            if let (None, Some(version)) = (chunk.get("specVersionAtBuild"), spec_version) {
                chunk.insert("specVersionAtBuild".into(), version);
            }
        }
        "failed" => {
            chunk.insert("failedAt".into(), timestamp.clone().into());
        }
        _ => {}
    }
    if new_status == "failed" {
        block_dependents(chunks, index);
    }
    let chunk_progress = progress(chunks);
    if new_status == "completed" {
        run.insert("lastCheckpoint".into(), timestamp.clone().into());
    }
    map.insert("chunkProgress".into(), chunk_progress);
    map.insert("lastUpdated".into(), timestamp.into());
    Ok(Value::Object(map))
}

/// Every planned chunk that depends on chunk `failed` (directly or through others) → blocked.
fn block_dependents(chunks: &mut [Value], failed: usize) {
    let ids: Vec<Option<u64>> = chunks.iter().map(id_of).collect();
    let mut blocked = vec![failed];
    let mut i = 0;
    while let Some(&current) = blocked.get(i) {
        let current_id = ids.get(current).copied().flatten();
        for (j, chunk) in chunks.iter().enumerate() {
            if !blocked.contains(&j) && current_id.is_some_and(|id| deps_of(chunk).contains(&id)) {
                blocked.push(j);
            }
        }
        i = i.saturating_add(1);
    }
    for &j in blocked.iter().skip(1) {
        if let Some(chunk) = chunks.get_mut(j).and_then(Value::as_object_mut) {
            if chunk
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or("planned")
                == "planned"
            {
                chunk.insert("status".into(), "blocked".into());
            }
        }
    }
}

/// Planned chunks whose dependencies have all completed, in plan order.
pub fn ready_chunks(state: &Value) -> Vec<u64> {
    let Some(run) = state.get("buildRun").and_then(Value::as_object) else {
        return Vec::new();
    };
    let chunks = chunks_of(run);
    let completed: Vec<u64> = chunks
        .iter()
        .filter(|c| status_of(c) == "completed")
        .filter_map(id_of)
        .collect();
    chunks
        .iter()
        .filter(|c| status_of(c) == "planned" && deps_of(c).iter().all(|d| completed.contains(d)))
        .filter_map(id_of)
        .collect()
}

/// The chunks in layers for drawing the DAG: layer 0 has no dependencies, layer n depends on
/// earlier layers only. `{layers: [[id]], unplaced: [id]}`: chunks in a cycle or depending on
/// an unknown id cannot be placed and are listed apart (never an endless loop).
pub fn dag_layers(state: &Value) -> Value {
    let chunks = state
        .get("buildRun")
        .and_then(Value::as_object)
        .map_or(&[][..], chunks_of);
    let ids: Vec<Option<u64>> = chunks.iter().map(id_of).collect();
    let mut placed: Vec<Option<u64>> = Vec::new();
    let mut layers: Vec<Value> = Vec::new();
    for _ in 0..chunks.len() {
        let layer: Vec<u64> = chunks
            .iter()
            .filter(|c| !placed.contains(&id_of(c)) && id_of(c).is_some())
            .filter(|c| deps_of(c).iter().all(|d| placed.contains(&Some(*d))))
            .filter_map(id_of)
            .collect();
        if layer.is_empty() {
            break;
        }
        placed.extend(layer.iter().map(|id| Some(*id)));
        layers.push(json!(layer));
    }
    let unplaced: Vec<u64> = ids
        .iter()
        .flatten()
        .copied()
        .filter(|id| !placed.contains(&Some(*id)))
        .collect();
    json!({"layers": layers, "unplaced": unplaced})
}

fn fire_run(map: &mut Object, event: &str) -> Result<()> {
    let machine = Machine::from_value(&run_machine())?;
    let run = run_of(map)?;
    machine.fire_field(
        run,
        "status",
        "running",
        event,
        &Value::Null,
        "/buildRun/status",
    )?;
    Ok(())
}

/// Pauses a running build with the question it waits on (`pendingQuestion`).
pub fn pause_build_run(state: Value, question: &Value, now: &Value) -> Result<Value> {
    let (timestamp, _) = normalize_now(now)?;
    let mut map = state_object(state)?;
    fire_run(&mut map, "pause")?;
    run_of(&mut map)?.insert("pendingQuestion".into(), question.clone());
    map.insert("lastUpdated".into(), timestamp.into());
    Ok(Value::Object(map))
}

/// Resumes a paused build; `pendingQuestion` is cleared (kept as `null`).
pub fn resume_build_run(state: Value, now: &Value) -> Result<Value> {
    let (timestamp, _) = normalize_now(now)?;
    let mut map = state_object(state)?;
    fire_run(&mut map, "resume")?;
    run_of(&mut map)?.insert("pendingQuestion".into(), Value::Null);
    map.insert("lastUpdated".into(), timestamp.into());
    Ok(Value::Object(map))
}

/// Ends a build whose chunks are all done: every chunk completed → `buildRun` and
/// `chunkProgress` cleared (`null`, the seed's rule); some failed or blocked → `status:
/// "partial"` with `completedAt` (kept so the user can `/fctry:evolve` the affected sections)
/// and `chunkProgress` cleared. Chunks still planned, active or retrying → `E_ARGUMENT`.
pub fn finish_build_run(state: Value, now: &Value) -> Result<Value> {
    let (timestamp, _) = normalize_now(now)?;
    let mut map = state_object(state)?;
    let run = run_of(&mut map)?;
    let chunks = chunks_of(run);
    let open: Vec<String> = chunks
        .iter()
        .filter(|c| matches!(status_of(c), "planned" | "active" | "retrying"))
        .filter_map(id_of)
        .map(|id| id.to_string())
        .collect();
    if !open.is_empty() {
        return Err(argument(
            "/buildRun/chunks",
            format!(
                "the build cannot finish: chunks {} are not done",
                open.join(", ")
            ),
        ));
    }
    let all_completed = chunks.iter().all(|c| status_of(c) == "completed");
    if all_completed {
        fire_run(&mut map, "complete")?;
        map.insert("buildRun".into(), Value::Null);
    } else {
        fire_run(&mut map, "end_partial")?;
        run_of(&mut map)?.insert("completedAt".into(), timestamp.clone().into());
    }
    map.insert("chunkProgress".into(), Value::Null);
    map.insert("lastUpdated".into(), timestamp.into());
    Ok(Value::Object(map))
}

/// The resume protocol: `{offer, completed, remaining, next, changed, options}`. A resume is
/// offered when the run is `running` and at least one chunk completed. `changed` lists every
/// completed chunk built against another spec version than `current_spec_version`, to rebuild
/// or keep.
pub fn resume_plan(state: &Value, current_spec_version: Option<&str>) -> Value {
    let Some(run) = state.get("buildRun").and_then(Value::as_object) else {
        return json!({"offer": false, "completed": [], "remaining": [], "next": [], "changed": [], "options": []});
    };
    let chunks = chunks_of(run);
    let completed: Vec<u64> = chunks
        .iter()
        .filter(|c| status_of(c) == "completed")
        .filter_map(id_of)
        .collect();
    let remaining: Vec<u64> = chunks
        .iter()
        .filter(|c| status_of(c) != "completed")
        .filter_map(id_of)
        .collect();
    let offer =
        run.get("status").and_then(Value::as_str) == Some("running") && !completed.is_empty();
    let changed: Vec<Value> = match current_spec_version {
        None => Vec::new(),
        Some(current) => chunks
            .iter()
            .filter(|c| status_of(c) == "completed")
            .filter(|c| c.get("specVersionAtBuild").and_then(Value::as_str).is_some_and(|v| v != current))
            .map(|c| {
                json!({
                    "id": c.get("id").cloned().unwrap_or(Value::Null),
                    "name": c.get("name").cloned().unwrap_or(Value::Null),
                    "specVersionAtBuild": c.get("specVersionAtBuild").cloned().unwrap_or(Value::Null),
                    "sections": c.get("sections").cloned().unwrap_or_else(|| json!([])),
                })
            })
            .collect(),
    };
    let options: Vec<&str> = if offer {
        vec![
            "(1) Resume from next pending chunk",
            "(2) Start fresh",
            "(3) Cancel",
        ]
    } else {
        Vec::new()
    };
    json!({
        "offer": offer,
        "completed": completed,
        "remaining": remaining,
        "next": ready_chunks(state),
        "changed": changed,
        "options": options,
    })
}
