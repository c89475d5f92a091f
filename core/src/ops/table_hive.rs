//! The table: the hive session protocol (docs/hive.md).

use super::{Access, Module, Op, Out, Param, Returns, Write};
use crate::error::{Code, Error};
use crate::hive::op_shapes as o;
use crate::hive::shapes as s;
use crate::machine::shapes::DEFINITION;
use crate::machine::Machine;
use crate::shape::Ty;

const STATE: Param = Param::value("state", s::STATE_IN);
const STEP: Returns = Returns::json(Ty::Object(&s::STEP));
const WORKER: Param = Param::text("worker", Ty::Line);

/// A step: the new state is the result's `state`; on a session directory the step also
/// appends the result's `event` to `EVENTS.jsonl` (`ops::update_logged`).
const STEP_WRITE: Access = Access::Writes(Write {
    kind: "hive.state",
    takes_document: true,
    document_at: Some("state"),
    helper: None,
    extra: None,
});

/// Runs a step of the form `(state, worker, now)`.
fn worker_step(
    a: &mut super::Args<'_>,
    step: fn(crate::Value, &str, &crate::Value) -> crate::Result<crate::Value>,
) -> crate::Result<Out> {
    let worker = a.text(1)?.to_owned();
    let state = a.take(0);
    Ok(Out::Json(step(state, &worker, a.get(2))?))
}

/// The hive operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Hive,
        method: "machine",
        doc: "The session phases as a machine definition (for `machine.*`).",
        params: &[],
        returns: Returns::json(Ty::Object(&DEFINITION)),
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(crate::hive::hive_machine())),
    },
    Op {
        module: Module::Hive,
        method: "diagram",
        doc: "The Mermaid `stateDiagram-v2` text of the session phases.",
        params: &[],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |_| {
            let machine = Machine::from_value(&crate::hive::hive_machine())?;
            Ok(Out::Text(machine.mermaid()))
        },
    },
    Op {
        module: Module::Hive,
        method: "create_session",
        doc: "A new session's STATE.json (the full v2 structure, `initializing`) and its \
              `session_created` event line.",
        params: &[
            Param::text("session_id", Ty::Line),
            Param::text("task", Ty::Str),
            Param::now(),
        ],
        returns: STEP,
        access: Access::Pure,
        web: false,
        run: |a| {
            let step = crate::hive::create_session(a.text(0)?, a.text(1)?, a.get(2))?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "check_session_id",
        doc: "Raises `E_ARGUMENT` unless the id can name a session's directory: not blank, one \
              path component (no `/`, `\\`, NUL or control character; not `.` or `..`).",
        params: &[Param::text("session_id", Ty::Str)],
        returns: Returns::nothing(),
        access: Access::Pure,
        web: true,
        run: |a| {
            crate::hive::check_session_id(a.text(0)?)?;
            Ok(Out::Nothing)
        },
    },
    Op {
        module: Module::Hive,
        method: "update_state",
        doc: "Merges `updates` into the state (`deep` by default, lists replaced; `shallow`: \
              top level), checks a phase change on the machine, sets `updated_at` and \
              `last_heartbeat`, validates; returns it with its `state_updated` event line \
              (`agent`: who, `queen` by default).",
        params: &[
            STATE,
            Param::value("updates", Ty::Map(&Ty::Json)),
            Param::opt_text("strategy", Ty::Enum(&s::STRATEGY)),
            Param::now(),
            Param::opt_text("agent", Ty::Str),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let strategy = a.opt_text(2)?.map(str::to_owned);
            let agent = a.opt_text(4)?.map(str::to_owned);
            let state = a.take(0);
            let step = crate::hive::update_state(
                state,
                a.get(1),
                strategy.as_deref(),
                a.get(3),
                agent.as_deref(),
            )?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "change_phase",
        doc: "Moves the session to the next phase (or to `failed`), stamping its \
              `phase_transitions` time; a skip or a move back is `E_TRANSITION`. Returns the \
              state and its `phase_changed` event line.",
        params: &[
            STATE,
            Param::text("phase", Ty::Enum(&s::PHASE)),
            Param::now(),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let phase = a.text(1)?.to_owned();
            let state = a.take(0);
            Ok(Out::Json(crate::hive::change_phase(
                state,
                &phase,
                a.get(2),
            )?))
        },
    },
    Op {
        module: Module::Hive,
        method: "validate_worker_state",
        doc: "The seed's four checks of a worker state, by name, each with its problems and \
              their paths; never fails on a missing field.",
        params: &[Param::value("worker", Ty::Json)],
        returns: Returns::json(Ty::Object(&s::WORKER_VALIDATION)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(crate::hive::validate_worker_state(a.get(0)))),
    },
    Op {
        module: Module::Hive,
        method: "check_worker_health",
        doc: "The active workers to flag at `now`: no heartbeat for `timeout_ms` or longer \
              (default 5 minutes, inclusive), a heartbeat in the future (clock skew), none, \
              or an unreadable one.",
        params: &[
            STATE,
            Param::now(),
            Param::opt_value("timeout_ms", Ty::Nullable(&Ty::Whole(0))),
        ],
        returns: Returns::json(Ty::Object(&s::HEALTH)),
        access: Access::Reads {
            kind: "hive.state",
            bytes: false,
            helper: None,
        },
        web: true,
        run: |a| {
            let timeout = match a.get(2) {
                crate::Value::Null => None,
                other => Some(other.as_u64().ok_or_else(|| {
                    Error::new(
                        Code::Argument,
                        "",
                        "timeout_ms must be a whole number of milliseconds",
                    )
                    .with_detail("argument", "timeout_ms")
                })?),
            };
            Ok(Out::Json(crate::hive::check_worker_health(
                a.get(0),
                a.get(1),
                timeout,
            )?))
        },
    },
    Op {
        module: Module::Hive,
        method: "apply_event",
        doc: "Applies any event line (a `hive.event`) as a replay would: a milestone's effect, \
              a state update, a phase change, or for another type only the stamps and \
              counters. Returns the state and the line.",
        params: &[STATE, Param::value("event", Ty::Object(&s::EVENT))],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let state = a.take(0);
            let event = a.take(1);
            Ok(Out::Json(crate::hive::apply_event(state, event)?))
        },
    },
    Op {
        module: Module::Hive,
        method: "plan_workers",
        doc: "The queen plans workers (`[{name, task, focus_areas}]`): each is added to \
              `workers_planned` with a planned worker state; `rationale` becomes the queen's \
              `worker_selection_rationale`. Event `workers_planned`.",
        params: &[
            STATE,
            Param::value("workers", Ty::List(&Ty::Object(&o::WORKER_PLAN))),
            Param::opt_text("rationale", Ty::Str),
            Param::now(),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let rationale = a.opt_text(2)?.map(str::to_owned);
            let state = a.take(0);
            let step = crate::hive::plan_workers(state, a.get(1), rationale.as_deref(), a.get(3))?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "record_spawn_attempt",
        doc: "The queen tries to spawn a planned worker: status `spawning`, its \
              `spawn_attempts` count up by one. Event `spawn_attempted`.",
        params: &[STATE, WORKER, Param::now()],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| worker_step(a, crate::hive::record_spawn_attempt),
    },
    Op {
        module: Module::Hive,
        method: "spawn_worker",
        doc: "A worker started: status `active`, `spawned_at`, listed as spawned and active, \
              `startup_logged`. A worker no plan announced is planned first; an active one \
              is spawned again (its stamps only); a failed one is respawned; a completed one \
              is refused. Event `worker_spawned` by the worker.",
        params: &[STATE, WORKER, Param::now()],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| worker_step(a, crate::hive::spawn_worker),
    },
    Op {
        module: Module::Hive,
        method: "heartbeat",
        doc: "An active worker is alive: its `last_heartbeat`. Event `worker_heartbeat` by the \
              worker.",
        params: &[STATE, WORKER, Param::now()],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| worker_step(a, crate::hive::heartbeat),
    },
    Op {
        module: Module::Hive,
        method: "record_progress",
        doc: "An active worker's progress: the `metrics` and `protocol_compliance` fields \
              given are set, with its `last_update` and `last_heartbeat`. Event \
              `worker_progress`.",
        params: &[
            STATE,
            WORKER,
            Param::value("progress", Ty::Object(&o::PROGRESS)),
            Param::now(),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let worker = a.text(1)?.to_owned();
            let state = a.take(0);
            let step = crate::hive::record_progress(state, &worker, a.get(2), a.get(3))?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "complete_worker",
        doc: "An active worker finished with its `outputs` (merged into its outputs; one must \
              hold something) and optional `metrics`: status `completed`, moved from active \
              to completed, `completion_logged`, its time worked. Event `worker_completed`.",
        params: &[
            STATE,
            WORKER,
            Param::value("outputs", Ty::Object(&s::OUTPUTS)),
            Param::opt_value("metrics", Ty::Object(&s::WORKER_METRICS)),
            Param::now(),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let worker = a.text(1)?.to_owned();
            let state = a.take(0);
            let metrics = Some(a.get(3)).filter(|m| !m.is_null());
            let step = crate::hive::complete_worker(state, &worker, a.get(2), metrics, a.get(4))?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "fail_worker",
        doc: "A worker failed with `error` (a message, or `{message, ...}`): status `failed` \
              with its `error`, moved from active to failed (a worker failed already keeps its \
              first error; a completed one is refused). Event `worker_failed` by `agent` (the \
              worker by default; a queen or monitor passes its name).",
        params: &[
            STATE,
            WORKER,
            Param::value("error", o::FAILURE),
            Param::now(),
            Param::opt_text("agent", Ty::Str),
        ],
        returns: STEP,
        access: STEP_WRITE,
        web: false,
        run: |a| {
            let worker = a.text(1)?.to_owned();
            let agent = a.opt_text(4)?.map(str::to_owned);
            let state = a.take(0);
            let step =
                crate::hive::fail_worker(state, &worker, a.get(2), a.get(3), agent.as_deref())?;
            Ok(Out::Json(step))
        },
    },
    Op {
        module: Module::Hive,
        method: "recover_state",
        doc: "Rebuilds a session's state from its `EVENTS.jsonl` bytes: every line applied in \
              file order, a repeated line once, a torn last line dropped and reported; a bad \
              line stops it with its line number unless `skip_bad_lines`.",
        params: &[
            Param::bytes("log"),
            Param::text("session_id", Ty::Line),
            Param::options("options", &o::RECOVER_OPTIONS),
        ],
        returns: Returns::json(Ty::Object(&o::RECOVERED)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let skip = a
                .options(2)?
                .get("skip_bad_lines")
                .and_then(crate::Value::as_bool)
                .unwrap_or(false);
            Ok(Out::Json(crate::hive::recover_state(
                a.bytes(0)?,
                a.text(1)?,
                skip,
            )?))
        },
    },
]);
