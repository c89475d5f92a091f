//! The Hivemind workflow (seed 002): the kind `hivemind.state` (`workspace/state.json`), its
//! 15 states plus `blocked` as a machine on the core engine, the active agents per state, the
//! trigger files that drive it, and the notifications and follow-ups a host must carry out.
//! `docs/hivemind.md` lists every rule and every choice made where the seed is silent.

mod machine;
pub mod shapes;
mod triggers;
mod validate;
mod workflow;

pub use machine::{
    active_agents, context_message, hivemind_machine, modes, Mode, AGENTS, EVENTS, FOLLOW_UP_MS,
    STATES,
};
pub use triggers::on_file;
pub use validate::{default_state, validate_state};
pub use workflow::{fire, follow_up, Details, Outcome};

use crate::{Map, Value};

/// Each agent's mode in `state`: `{"lead": "active", "reviewer": "idle", ...}`; `E_ARGUMENT`
/// for an unknown state.
pub fn agents(state: &str) -> crate::error::Result<Value> {
    if !STATES.contains(&state) {
        return Err(crate::error::Error::new(
            crate::error::Code::Argument,
            "",
            format!(
                "{state:?} is not a hivemind state; states: {}",
                STATES.join(", ")
            ),
        ));
    }
    let mut map = Map::new();
    for (agent, mode) in AGENTS.iter().zip(modes(state)) {
        map.insert((*agent).into(), mode.name().into());
    }
    Ok(Value::Object(map))
}
