//! The hive session protocol (seed 003, STATE.json v2): the kinds `hive.state`
//! (`<sessions>/<session_id>/STATE.json`), `hive.worker` and `hive.event` (an `EVENTS.jsonl`
//! line), the phases as a machine on the core engine, the session's steps and the worker
//! milestones (each an event line applied to the state), the recovery of a state from its
//! log, the worker checks and the health check. `docs/hive.md` lists every rule and every
//! choice made where the seed is silent.

mod clock;
mod event;
mod fold;
mod health;
mod ids;
mod lines;
pub mod op_shapes;
mod phases;
mod progress;
mod replay;
mod session;
pub mod shapes;
mod state;
mod template;
// The replay's typed session: the browser's modules (without `full`) fold into the tree.
#[cfg(feature = "full")]
mod typed;
mod validate;
mod window;
mod workers;

pub use health::{check_worker_health, HEARTBEAT_TIMEOUT_MS, SKEW_TOLERANCE_MS};
pub use phases::{hive_machine, PHASES};
pub use progress::PROGRESS_FIELDS;
pub use replay::{recover_state, replay_part, Replay, ReplayStep, CARRY_VERSION};
pub use session::{
    apply_event, change_phase, check_session_id, complete_worker, create_session, fail_worker,
    heartbeat, plan_workers, record_progress, record_spawn_attempt, spawn_worker, update_state,
    QUEEN,
};
pub use validate::{validate_event, validate_state, validate_worker, validate_worker_state};
pub use window::DUPLICATE_WINDOW;
pub use workers::WORKER_EVENTS;
