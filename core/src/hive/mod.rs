//! The hive session protocol (seed 003, STATE.json v2): the kinds `hive.state`
//! (`<sessions>/<session_id>/STATE.json`), `hive.worker` and `hive.event` (an `EVENTS.jsonl`
//! line), the phases as a machine on the core engine, the session's steps (each an event line
//! applied to the state), the worker checks and the health check. `docs/hive.md` lists every
//! rule and every choice made where the seed is silent.

mod health;
mod phases;
mod session;
pub mod shapes;
mod validate;

pub use health::{check_worker_health, HEARTBEAT_TIMEOUT_MS, SKEW_TOLERANCE_MS};
pub use phases::{hive_machine, PHASES};
pub use session::{change_phase, create_session, update_state, QUEEN};
pub use validate::{validate_event, validate_state, validate_worker, validate_worker_state};
