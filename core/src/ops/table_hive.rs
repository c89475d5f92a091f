//! The table: the hive session protocol (docs/hive.md).

use super::{Access, Module, Op, Out, Param, Returns};
use crate::error::{Code, Error};
use crate::hive::shapes as s;
use crate::machine::shapes::DEFINITION;
use crate::machine::Machine;
use crate::shape::Ty;

const STATE: Param = Param::value("state", s::STATE_IN);
const STEP: Returns = Returns::json(Ty::Object(&s::STEP));

/// The hive operations.
pub(super) static OPS: &[Op] = &[
    Op {
        module: Module::Hive,
        method: "machine",
        doc: "The session phases as a machine definition (for `machine.*`).",
        params: &[],
        returns: Returns::json(Ty::Object(&DEFINITION)),
        access: Access::Pure,
        run: |_| Ok(Out::Json(crate::hive::hive_machine())),
    },
    Op {
        module: Module::Hive,
        method: "diagram",
        doc: "The Mermaid `stateDiagram-v2` text of the session phases.",
        params: &[],
        returns: Returns::text(),
        access: Access::Pure,
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
        run: |a| {
            let step = crate::hive::create_session(a.text(0)?, a.text(1)?, a.get(2))?;
            Ok(Out::Json(step))
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
        access: Access::Pure,
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
        access: Access::Pure,
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
        access: Access::Pure,
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
];
