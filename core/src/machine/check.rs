//! Checking a definition beyond parsing: unreachable states and dead ends are warnings.

use super::{Machine, PREVIOUS};
use crate::report::Report;

impl Machine {
    /// States reachable from `initial` (through `$previous` too).
    fn reachable(&self) -> Vec<&str> {
        let mut seen: Vec<&str> = vec![self.initial.as_str()];
        let mut i = 0;
        while let Some(state) = seen.get(i).copied() {
            for t in &self.transitions {
                if Self::from_matches(t, state)
                    && t.to != PREVIOUS
                    && !seen.contains(&t.to.as_str())
                {
                    seen.push(&t.to);
                }
            }
            i = i.saturating_add(1);
        }
        seen
    }

    /// Checks the definition's shape beyond parsing: unreachable states and states with no
    /// way out that are not marked terminal are warnings.
    pub fn check(&self) -> Report {
        let mut report = Report::default();
        let reachable = self.reachable();
        for (i, state) in self.states.iter().enumerate() {
            if !reachable.contains(&state.name.as_str()) {
                report.warn(
                    "W_UNREACHABLE_STATE",
                    format!("/states/{i}"),
                    format!(
                        "state {:?} cannot be reached from {:?}",
                        state.name, self.initial
                    ),
                );
            }
            let has_exit = self
                .transitions
                .iter()
                .any(|t| Self::from_matches(t, &state.name));
            if !has_exit && !state.terminal {
                report.warn(
                    "W_DEAD_END_STATE",
                    format!("/states/{i}"),
                    format!(
                        "state {:?} has no way out; mark it terminal if that is meant",
                        state.name
                    ),
                );
            }
        }
        report
    }
}
