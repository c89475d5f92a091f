//! The next step a status line suggests when the agents have set none and no command runs:
//! the fctry client's rules, first match wins, in the user's words (built, specced,
//! unspecced) and with section titles rather than aliases.

use super::project::Feature;
use super::summary::readiness;
use crate::Value;

/// Readiness labels of sections still to build.
const TO_BUILD: [&str; 3] = ["ready-to-build", "draft", "spec-ahead"];

/// What the project tells the rules besides its state.
pub(super) struct Known<'a> {
    /// There is a spec (`.fctry/spec.md`, or a spec version in the registry or the state).
    pub has_spec: bool,
    /// The foreman's processed findings in the inbox.
    pub findings: u64,
    /// The spec's table of contents.
    pub features: &'a [Feature<'a>],
}

/// The suggested next step.
pub(super) fn derive(state: &Value, known: &Known<'_>) -> String {
    if !known.has_spec {
        return "/fctry:init to create a spec".into();
    }
    let counts = readiness(state).unwrap_or_default();
    let score = state.get("scenarioScore");
    let number = |key: &str| score.and_then(|s| s.get(key)).and_then(Value::as_u64);
    let (satisfied, total) = (
        number("satisfied").unwrap_or(0),
        number("total").unwrap_or(0),
    );
    let untracked = state
        .get("untrackedChanges")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if untracked > 0 {
        return "/fctry:evolve to update spec with recent changes".into();
    }
    if known.findings > 0 {
        return format!("/fctry:ref to review {} overnight findings", known.findings);
    }
    if satisfied > 0 && satisfied >= total {
        return "All scenarios satisfied! /fctry:review to confirm".into();
    }
    if counts.specced > 0 || counts.evolved > 0 {
        let mut parts = Vec::new();
        if counts.evolved > 0 {
            parts.push(format!("{} evolved", counts.evolved));
        }
        if counts.specced > 0 {
            parts.push(format!("{} specced", counts.specced));
        }
        let hint = first_to_build(state, known.features)
            .map(|f| format!(" — {} is next", f.title))
            .unwrap_or_default();
        return format!(
            "/fctry:execute to build {} sections{hint}",
            parts.join(" + ")
        );
    }
    if total > 0 && satisfied < total {
        return "/fctry:execute to satisfy remaining scenarios".into();
    }
    if counts.unspecced > 0 {
        return format!(
            "/fctry:evolve to flesh out {} unspecced sections",
            counts.unspecced
        );
    }
    "/fctry:evolve to refine, or /fctry:execute to build".into()
}

/// A section number's `(major, minor)` for the build order (`2.10` after `2.9`; a missing or
/// odd part counts as 0).
fn order(number: &str) -> (u64, u64) {
    let mut parts = number.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// The first section still to build, by section number, among those the table of contents
/// names (`sectionReadiness`: alias → readiness label).
fn first_to_build<'f>(state: &Value, features: &'f [Feature<'f>]) -> Option<&'f Feature<'f>> {
    let sections = state.get("sectionReadiness").and_then(Value::as_object)?;
    let candidates: Vec<&Feature<'_>> = sections
        .iter()
        .filter(|(_, label)| label.as_str().is_some_and(|l| TO_BUILD.contains(&l)))
        .filter_map(|(alias, _)| {
            let alias = alias.trim_start_matches('#');
            features.iter().find(|f| f.alias == alias)
        })
        .collect();
    // The first of the lowest number: sections of the same number in the state's order.
    candidates.into_iter().min_by_key(|f| order(f.number))
}
