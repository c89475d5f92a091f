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
pub use triggers::{ignores_file, on_file};
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

/// What `state` is, for people (`"Workers building"`); `None` for an unknown state.
pub fn describe(state: &str) -> Option<&'static str> {
    machine::built()
        .ok()?
        .states
        .iter()
        .find(|s| s.name == state)
        .and_then(|s| s.description.as_deref())
}

/// The events that lead out of `state` and are not automatic follow-ups, with where each
/// leads (`$previous` for `resume` and `user_input`), in the machine's order.
pub fn next_events(state: &str) -> crate::error::Result<Vec<(String, String)>> {
    Ok(machine::built()?
        .events(state, &Value::Null)?
        .into_iter()
        .filter(|e| !e.auto)
        .map(|e| (e.event, e.to))
        .collect())
}
