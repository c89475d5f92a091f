//! The worker milestones of the seed's "Required Update Points" as events: what each event
//! does to the state when it is applied (by a step or by a replay), and the checks that
//! refuse an event that does not fit the worker's status (docs/hive.md § Events).

use super::clock::Now;
use super::event::{Event, Fields};
use super::lines;
use super::phases::{set, with_object};
use super::progress::{object_field, pairs_map, PROGRESS_FIELDS};
use super::shapes::{COMPLIANCE, WORKER_METRICS};
use super::state::{add, advance, Stamp, State};
use super::template::{object, planned_worker};
use crate::error::{child_path, Code, Error, Result};
use crate::report::Report;
use crate::shape::{Check, Shape, Ty};
use crate::time::parse_timestamp;
use crate::{Map, Str, Value};

/// The worker events: type, what it needs of the worker, what it does.
pub const WORKER_EVENTS: [&str; 7] = [
    "workers_planned",
    "spawn_attempted",
    "worker_spawned",
    "worker_heartbeat",
    "worker_progress",
    "worker_completed",
    "worker_failed",
];

/// Applies a worker event of type `kind` (other types change nothing here) and returns the
/// worker whose state it set from the event's values, to be checked (a spawn attempt, a
/// spawn and a heartbeat set only statuses, names and stamps the event was checked for; a
/// progress's values are checked against their shapes here). `E_ARGUMENT` when the event does not fit: an unknown worker,
/// a worker planned twice, a spawn of a worker already spawned, a heartbeat, progress or
/// completion of a worker that is not active, a failure of one that completed.
pub(super) fn apply<S: State, E: Event + ?Sized>(
    state: &mut S,
    kind: &str,
    line: &E,
    at: &Now<'_>,
) -> Result<Option<Str>> {
    let now = line.timestamp();
    if kind == "workers_planned" {
        plan(state.tree(), line.details())?;
        return Ok(None);
    }
    if !WORKER_EVENTS.contains(&kind) {
        return Ok(None);
    }
    // Borrowed from the line (no copy of the name per event).
    let name = line.worker();
    if matches!(kind, "worker_spawned" | "worker_failed") && !known(state.tree(), name) {
        announce(state.tree(), name, lines::spawned_task(line.details()))?;
    }
    let status = state.worker_status(name).ok_or_else(|| unknown(name))?;
    match kind {
        "spawn_attempted" => {
            let state = state.tree();
            refuse_if(spawned(state, name), name, kind, "was spawned already")?;
            let attempt = line.details().get("attempt").and_then(Value::as_u64);
            with_object(state, "coordination_status", |c| {
                with_object(c, "spawn_attempts", |attempts| match attempt {
                    Some(n) => {
                        attempts.insert(name.into(), n.into());
                    }
                    None => add(attempts, name, 1),
                });
            });
            with_worker(state, name, |w| {
                w.insert("status".into(), "spawning".into());
            });
        }
        "worker_spawned" => spawn(state.tree(), name, &status, now)?,
        "worker_heartbeat" => {
            active(&status, name, kind)?;
            state.advance(Stamp::WorkerHeartbeat(name), at);
        }
        "worker_progress" => {
            active(&status, name, kind)?;
            // `details` not an object (another writer's note): no fields, only the stamps.
            let fields = match line.progress()? {
                Some(fields) => progress_fields(fields)?,
                None => Fields::default(),
            };
            check_fields(name, &fields)?;
            for (field, values) in PROGRESS_FIELDS.into_iter().zip(fields) {
                if !values.is_empty() {
                    state.extend_worker(name, field, values);
                }
            }
            state.advance(Stamp::WorkerUpdate(name), at);
            state.advance(Stamp::WorkerHeartbeat(name), at);
        }
        "worker_completed" => {
            active(&status, name, kind)?;
            let details = line.details();
            let outputs = lines::completion_outputs(details).ok_or_else(|| {
                argument(
                    "/details/outputs",
                    "outputs must be an object, a list of artifacts or the notes (a string)",
                )
            })?;
            let metrics = object_field(details, "metrics", false)?;
            let state = state.tree();
            with_worker(state, name, |w| complete(w, outputs, metrics, now));
            remove(state, "workers_active", name);
            push(state, "workers_completed", name);
        }
        "worker_failed" => {
            refuse_if(
                status == "completed",
                name,
                kind,
                "completed already: a completed worker does not fail (the session can)",
            )?;
            let error = failure(lines::failure_error(line.details()).as_ref(), now)?;
            let state = state.tree();
            if status == "failed" {
                // A repeated failure (the worker's own and the queen's): the first stands.
                with_worker(state, name, |w| advance(w, "last_update", now));
                return Ok(Some(Str::from(name)));
            }
            with_worker(state, name, |w| {
                w.insert("status".into(), "failed".into());
                w.insert("error".into(), error);
                advance(w, "last_update", now);
            });
            if listed(state, "workers_active", name) {
                remove(state, "workers_active", name);
                push(state, "workers_failed", name);
            }
        }
        _ => {}
    }
    let checked = matches!(
        kind,
        "spawn_attempted" | "worker_spawned" | "worker_heartbeat" | "worker_progress"
    );
    Ok((!checked).then(|| Str::from(name)))
}

/// `worker_spawned` of the worker `name` (its `status`): a planned or spawning worker is
/// spawned; an active one was spawned already (a repeated line: the queen's and the worker's
/// own), which changes only its stamps; a failed one is respawned (active again, its new
/// `spawned_at`, out of `workers_failed`, its `error` dropped: the log keeps it); a
/// completed one is refused.
fn spawn(state: &mut Map, name: &str, status: &str, now: &str) -> Result<()> {
    let kind = "worker_spawned";
    refuse_if(
        status == "completed",
        name,
        kind,
        "completed already: a completed worker is not spawned again",
    )?;
    let again = status == "active";
    with_worker(state, name, |w| {
        if !again {
            w.insert("status".into(), "active".into());
            w.shift_remove("error");
            let first = w.get("spawned_at").is_none_or(Value::is_null);
            if first {
                w.insert("spawned_at".into(), now.into());
            } else {
                advance(w, "spawned_at", now);
            }
        }
        advance(w, "last_update", now);
        advance(w, "last_heartbeat", now);
        set(w, "protocol_compliance", "startup_logged", true.into());
    });
    remove(state, "workers_failed", name);
    push(state, "workers_planned", name);
    push(state, "workers_spawned", name);
    push(state, "workers_active", name);
    Ok(())
}

/// True when `worker_states` has the worker `name`.
fn known(state: &Map, name: &str) -> bool {
    state
        .get("worker_states")
        .and_then(|w| w.get(name))
        .is_some()
}

/// A worker no `workers_planned` line announced, named by a spawn or a failure (the original
/// appended every spawned agent): planned with the template's worker and `task`. Its name
/// is a non-empty line.
fn announce(state: &mut Map, name: &str, task: Value) -> Result<()> {
    if name.trim().is_empty() || name.contains(['\n', '\r']) {
        return Err(argument(
            "/agent",
            "the worker of the line (details.worker, else its agent) must be a non-empty line",
        ));
    }
    with_object(state, "worker_states", |w| {
        w.insert(name.into(), planned_worker(task, Value::Array(Vec::new())))
    });
    push(state, "workers_planned", name);
    Ok(())
}

/// `workers_planned`: each worker of `details.workers` (`{name, task, focus_areas}`) added to
/// `workers_planned` with the template's worker state; `details.rationale`, when given, is
/// the queen's `worker_selection_rationale`.
fn plan(state: &mut Map, details: &Value) -> Result<()> {
    let workers = match details.get("workers") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => {
            return Err(argument(
                "/details/workers",
                "plan_workers needs a non-empty list of workers {name, task, focus_areas}",
            ))
        }
    };
    let mut names: Vec<&str> = Vec::new();
    for (i, worker) in workers.iter().enumerate() {
        let at = format!("/details/workers/{i}");
        let name = worker
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty() && !n.contains(['\n', '\r']))
            .ok_or_else(|| argument(&at, "each worker needs a name: a non-empty line"))?;
        let known = state
            .get("worker_states")
            .and_then(|w| w.get(name))
            .is_some();
        if names.contains(&name) || known || listed(state, "workers_planned", name) {
            return Err(argument(
                &at,
                &format!("worker {name:?} is planned already"),
            ));
        }
        if !worker.get("task").is_some_and(Value::is_string) {
            return Err(argument(
                &at,
                &format!("worker {name:?} needs a task (a string)"),
            ));
        }
        let focus = worker.get("focus_areas").cloned().unwrap_or_default();
        if !matches!(&focus, Value::Null | Value::Array(_)) {
            return Err(argument(&at, "focus_areas must be a list of strings"));
        }
        names.push(name);
    }
    for worker in workers {
        let name = worker.get("name").and_then(Value::as_str).unwrap_or("");
        let task = worker.get("task").cloned().unwrap_or_default();
        let focus = match worker.get("focus_areas") {
            Some(Value::Array(items)) => Value::Array(items.clone()),
            _ => Value::Array(Vec::new()),
        };
        with_object(state, "worker_states", |w| {
            w.insert(name.into(), planned_worker(task, focus))
        });
        push(state, "workers_planned", name);
    }
    if let Some(rationale) = details.get("rationale").filter(|r| !r.is_null()) {
        if !rationale.is_string() {
            return Err(argument("/details/rationale", "rationale must be a string"));
        }
        set(
            state,
            "queen_decisions",
            "worker_selection_rationale",
            rationale.clone(),
        );
    }
    Ok(())
}

/// A completion: the outputs and metrics given merged into the worker's, its time worked
/// (from `spawned_at`, unless given), `completion_logged`, status `completed`.
fn complete(worker: &mut Map, outputs: Map, metrics: Map, now: &str) {
    let worked = worker
        .get("spawned_at")
        .and_then(Value::as_str)
        .and_then(|t| parse_timestamp(t).ok())
        .zip(parse_timestamp(now).ok())
        .map(|(from, to)| seconds(to.saturating_sub(from).max(0)));
    let given_duration = metrics.contains_key("duration_seconds");
    with_object(worker, "outputs", |o| o.extend(outputs));
    with_object(worker, "metrics", |m| {
        m.extend(metrics);
        if let (false, Some(worked)) = (given_duration, worked) {
            m.insert("duration_seconds".into(), worked);
        }
    });
    set(
        worker,
        "protocol_compliance",
        "completion_logged",
        true.into(),
    );
    worker.insert("status".into(), "completed".into());
    advance(worker, "last_update", now);
    advance(worker, "last_heartbeat", now);
}

/// Milliseconds as seconds: a whole number when they are whole, else with its fraction.
fn seconds(millis: i64) -> Value {
    if millis % 1000 == 0 {
        Value::from(millis / 1000)
    } else {
        Value::from(millis as f64 / 1000.0)
    }
}

/// A failure's `error`: `{message, at, ...}` from a message or an object with one.
fn failure(error: Option<&Value>, now: &str) -> Result<Value> {
    let mut map = match error {
        Some(Value::String(message)) => {
            let mut map = Map::new();
            map.insert("message".into(), Value::String(message.clone()));
            map
        }
        Some(Value::Object(map)) if map.get("message").is_some_and(Value::is_string) => map.clone(),
        _ => {
            return Err(argument(
                "/details/error",
                "a failure needs its error: a message, or an object with a message",
            ))
        }
    };
    if map
        .get("message")
        .and_then(Value::as_str)
        .is_none_or(|m| m.trim().is_empty())
    {
        return Err(argument(
            "/details/error/message",
            "the error message is empty",
        ));
    }
    if let Some(Value::String(message)) = map.get_mut("message") {
        if message.contains(['\n', '\r']) {
            let line = message.replace(['\r', '\n'], " ");
            *message = line.into();
        }
    }
    if !map.contains_key("at") {
        map.insert("at".into(), now.into());
    }
    Ok(Value::Object(map))
}

/// A progress event's fields: `metrics` and `protocol_compliance` objects (at least one not
/// empty); `metrics.events_logged` is counted from the log and cannot be set.
fn progress_fields(fields: Fields<'_>) -> Result<Fields<'_>> {
    let [metrics, _] = &fields;
    if metrics.iter().any(|(k, _)| *k == "events_logged") {
        return Err(argument(
            "/details/metrics/events_logged",
            "events_logged counts the worker's event lines: it is not set by progress",
        ));
    }
    if fields.iter().all(Vec::is_empty) {
        return Err(argument(
            "/details",
            "progress needs metrics or protocol_compliance (an object of fields to set)",
        ));
    }
    Ok(fields)
}

/// `E_INVALID` unless the values a progress sets have their fields' types (the shapes of a
/// worker's `metrics` and `protocol_compliance`), with their paths in the worker.
fn check_fields(name: &str, fields: &Fields<'_>) -> Result<()> {
    let each = || PROGRESS_FIELDS.into_iter().zip(fields.iter());
    if each().all(|(field, values)| plainly_valid(values, shape_of(field))) {
        return Ok(());
    }
    // The shape's whole check: the verdict and the errors with their paths.
    let mut report = Report::default();
    let worker = child_path("/worker_states", name);
    for (field, values) in each().filter(|(_, v)| !v.is_empty()) {
        let at = child_path(&worker, field);
        // Checked as a tree's value (made on this path only: values that do not plainly
        // pass), so that the shape's check has one instance, for `&Value`, in the browser's
        // module (docs/performance.md § wasm size).
        let values = Value::Object(pairs_map(values));
        crate::shape::check::fields_json(&mut report, &values, shape_of(field), &at);
    }
    if report.valid() {
        return Ok(());
    }
    Err(crate::report::invalid_error("hive.state", &report))
}

/// The shape of a progress's field (`metrics` or `protocol_compliance`).
fn shape_of(field: &str) -> &'static Shape {
    if field == "metrics" {
        &WORKER_METRICS
    } else {
        &COMPLIANCE
    }
}

/// True when each of `values` names a field of `shape` (no field of which is required) and has
/// its type, by the shape's own check of a value (`value_of`): then the shape's whole check of
/// `values` is valid too, and is not run (it looks for every field of the shape and writes a
/// path for each value). `false` decides nothing: the whole check does.
fn plainly_valid(values: &[(&str, Value)], shape: &Shape) -> bool {
    !shape.fields.iter().any(|f| f.required)
        && values.iter().all(|(key, value)| {
            let key = key.as_bytes();
            let field = shape.fields.iter().find(|f| {
                f.name.len() == key.len() && crate::value::same_bytes(f.name.as_bytes(), key)
            });
            field.is_some_and(|field| {
                // A progress's usual values decided as `value_of` decides them, without a
                // report: a boolean of a boolean field, a whole number of a whole one.
                let plain = match (&field.ty, value) {
                    (Ty::Bool, Value::Bool(_)) => true,
                    (Ty::Whole(min), Value::Number(n)) => n.as_u64().is_some_and(|n| n >= *min),
                    _ => false,
                };
                if field.check == Check::ByRule || plain {
                    return field.check != Check::ByRule;
                }
                let mut report = Report::default();
                crate::shape::check::value_of(&mut report, value, &field.ty, "", field.name);
                report.valid()
            })
        })
}

/// `E_ARGUMENT` for the unknown worker `name`.
fn unknown(name: &str) -> Error {
    argument(
        &child_path("/worker_states", name),
        &format!("there is no worker {name:?}: plan it first (plan_workers)"),
    )
    .with_detail("worker", name)
}

/// `E_ARGUMENT` unless the worker is active.
fn active(status: &str, name: &str, kind: &str) -> Result<()> {
    if status == "active" {
        return Ok(());
    }
    refuse_if(true, name, kind, &format!("is {status}, not active"))
}

/// `E_ARGUMENT` for the event `kind` of worker `name` when `refused`, saying why.
fn refuse_if(refused: bool, name: &str, kind: &str, why: &str) -> Result<()> {
    if !refused {
        return Ok(());
    }
    Err(argument(
        &child_path("/worker_states", name),
        &format!("{kind} refused: worker {name:?} {why}"),
    )
    .with_detail("worker", name))
}

fn argument(path: &str, message: &str) -> Error {
    Error::new(Code::Argument, path, message)
}

/// True when `name` is in `coordination_status[list]`.
fn listed(state: &Map, list: &str, name: &str) -> bool {
    state
        .get("coordination_status")
        .and_then(|c| c.get(list))
        .and_then(Value::as_array)
        .is_some_and(|items| items.iter().any(|v| v.as_str() == Some(name)))
}

fn spawned(state: &Map, name: &str) -> bool {
    listed(state, "workers_spawned", name)
}

/// Adds `name` to `coordination_status[list]` unless it is there.
fn push(state: &mut Map, list: &str, name: &str) {
    if listed(state, list, name) {
        return;
    }
    with_object(state, "coordination_status", |c| {
        match c.get_mut(list) {
            Some(Value::Array(items)) => items.push(name.into()),
            _ => {
                c.insert(list.into(), Value::Array(vec![name.into()]));
            }
        };
    });
}

/// Removes `name` from `coordination_status[list]`.
fn remove(state: &mut Map, list: &str, name: &str) {
    with_object(state, "coordination_status", |c| {
        if let Some(Value::Array(items)) = c.get_mut(list) {
            items.retain(|v| v.as_str() != Some(name));
        }
    });
}

/// Runs `f` on the worker `name` (it exists: [`status_of`] found it).
fn with_worker(state: &mut Map, name: &str, f: impl FnOnce(&mut Map)) {
    with_object(state, "worker_states", |workers| {
        with_object(workers, name, f);
    });
}

/// An event's `details` for a worker step: `{worker, ...fields}`.
pub(super) fn details(worker: &str, fields: Vec<(&str, Value)>) -> Value {
    let mut pairs = vec![("worker", Value::from(worker))];
    pairs.extend(fields);
    object(pairs)
}
