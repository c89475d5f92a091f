//! Trigger files (seed 002, "Trigger Files"): a file created or changed under `workspace/`
//! mapped to the transitions it causes in the current state, with the explicit markers read
//! from two files' contents (docs/hivemind.md):
//!
//! - `checkpoint-approved.md` says what the approval means with one line `Decision: continue`
//!   (more work), `Decision: complete` (all done) or `Decision: friction` (friction exists);
//! - `plan.md` may say how many checkpoints the plan has with a line `Checkpoints: N`.

use super::workflow::{current, document, fire_all, legal, Details, Outcome};
use crate::error::Result;
use crate::report::Issue;
use crate::Value;

/// The states in which friction is already being handled: friction files do not count there.
const FRICTION_STATES: [&str; 3] = ["friction_logged", "friction_sync", "friction_resolution"];

/// The three meanings of an approved checkpoint and their events.
const DECISIONS: [(&str, &[&str]); 3] = [
    ("continue", &["approve_continue"]),
    ("complete", &["approve_complete"]),
    ("friction", &["approve_friction"]),
];

/// The file the Hivemind watcher keeps the state in, in `workspace/`.
const STATE_FILE: &str = "state.json";

/// Whether the watcher leaves the file at `path` (`/` or `\` separators) alone, never reading
/// it: `state.json` and the files its writers leave next to it (its lock, the lock's temp files
/// and break markers, atomic-write temp files, `.corrupt-` copies), so that the watcher's own
/// writes, and those of any process writing the state, trigger nothing.
pub fn ignores_file(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name == STATE_FILE || crate::lock::written_beside(STATE_FILE, name)
}

/// A file `relative_path` (relative to the project: `workspace/...`; `\` separators accepted)
/// was created or changed, holding `content` (`null` when it could not be read): the
/// transition(s) it causes from the document's state. Files that trigger nothing in this
/// state are `ignored` with the reason; `workspace/state.json` itself never triggers.
pub fn on_file(state: Value, relative_path: &str, content: &Value, now: &Value) -> Result<Outcome> {
    let map = document(state)?;
    let path = relative_path.replace('\\', "/");
    let path = path.trim_start_matches("./");
    let Some(name) = path.strip_prefix("workspace/") else {
        return Ok(Outcome::ignored(
            map,
            format!("{path} is not under workspace/"),
        ));
    };
    if !name.ends_with(".md") {
        return Ok(Outcome::ignored(
            map,
            format!("{path} is not a trigger file (.md)"),
        ));
    }
    let text = content.as_str().unwrap_or_default();
    let state_name = current(&map)?;
    let here = state_name.as_str();
    let mut details = Details::new();
    let mut problems = Vec::new();
    // The order matters: friction-resolution.md before the friction/ rule (seed README).
    let events: &[&str] = match (name, here) {
        ("friction-resolution.md", "friction_resolution") => &["friction_resolved"],
        ("friction-resolution.md", "friction_sync") => &["start_resolution", "friction_resolved"],
        (friction, state) if friction.starts_with("friction/") => {
            if FRICTION_STATES.contains(&state) {
                return Ok(Outcome::ignored(
                    map,
                    format!("{path}: friction is already being handled in state {state:?}"),
                ));
            }
            &["friction_found"]
        }
        ("plan.md", "planning" | "plan_revision") => {
            if let Some(total) = checkpoints(text, &mut problems) {
                details.insert("total_checkpoints".into(), total.into());
            }
            if here == "planning" {
                &["plan_written"]
            } else {
                &["plan_updated"]
            }
        }
        ("plan-approved.md", "plan_review") => &["plan_approved"],
        ("plan-feedback.md", "plan_review") => &["plan_feedback"],
        ("checkpoint.md", "executing") => &["checkpoint_reached"],
        ("checkpoint.md", "checkpoint_fix") => &["fixes_applied"],
        ("checkpoint-approved.md", "checkpoint_review") => match decision(text, &mut problems) {
            Some(events) => events,
            None => {
                let mut outcome = Outcome::ignored(
                    map,
                    format!("{path} has no valid decision line; nothing changes"),
                );
                outcome
                    .notifications
                    .push(("reviewer".into(), DECISION_HELP.into()));
                outcome.problems = problems;
                return Ok(outcome);
            }
        },
        ("checkpoint-issues.md", "checkpoint_review") => &["checkpoint_issues"],
        ("blocked.md", _) => &["block"],
        ("user-input.md", "blocked") => &["user_input"],
        _ => {
            return Ok(Outcome::ignored(
                map,
                format!("{path} triggers nothing in state {here:?}"),
            ))
        }
    };
    let first = events.first().copied().unwrap_or_default();
    if !legal(&map)?.iter().any(|e| e == first) {
        return Ok(Outcome::ignored(
            map,
            format!("{path} triggers nothing in state {here:?}"),
        ));
    }
    let mut outcome = fire_all(map, events, now, &details)?;
    outcome.problems = problems;
    Ok(outcome)
}

const DECISION_HELP: &str = "[HIVEMIND] checkpoint-approved.md needs one decision line: \"Decision: continue\" (more work), \"Decision: complete\" (all done) or \"Decision: friction\" (friction to resolve first).";

/// The values of the marker lines `Key: value` (key case-insensitive, Markdown emphasis and
/// list or quote marks around them ignored), lowercased.
fn marker_values(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches(['#', '-', '>', ' ']);
            let (name, value) = line.split_once(':')?;
            let name = name.trim().trim_matches(['*', '_', '`']).trim();
            if !name.eq_ignore_ascii_case(key) {
                return None;
            }
            let value = value.trim().trim_matches(['*', '_', '`', ' ']);
            Some(value.trim_end_matches('.').trim().to_ascii_lowercase())
        })
        .collect()
}

fn problem(problems: &mut Vec<Issue>, code: &str, message: String) {
    problems.push(Issue {
        code: code.into(),
        path: String::new(),
        message,
    });
}

/// The approval's event from its `Decision:` line(s); a problem when there is none, or an
/// unknown or conflicting one.
fn decision(text: &str, problems: &mut Vec<Issue>) -> Option<&'static [&'static str]> {
    let values = marker_values(text, "decision");
    let Some(first) = values.first() else {
        problem(
            problems,
            "W_DECISION_MISSING",
            "checkpoint-approved.md has no \"Decision: continue | complete | friction\" line"
                .into(),
        );
        return None;
    };
    let known = DECISIONS.iter().find(|(name, _)| name == first);
    match known {
        Some((_, events)) if values.iter().all(|v| v == first) => Some(events),
        _ => {
            problem(
                problems,
                "W_DECISION_INVALID",
                format!(
                    "checkpoint-approved.md decides {values:?}; write exactly one of continue, complete, friction"
                ),
            );
            None
        }
    }
}

/// The plan's `Checkpoints: N` (a whole number ≥ 1), if it says; a problem when the line is
/// there but unusable.
fn checkpoints(text: &str, problems: &mut Vec<Issue>) -> Option<u64> {
    let values = marker_values(text, "checkpoints");
    let first = values.first()?;
    match first.parse::<u64>() {
        Ok(n) if n >= 1 && values.iter().all(|v| v == first) => Some(n),
        _ => {
            problem(
                problems,
                "W_CHECKPOINTS_INVALID",
                format!(
                    "plan.md says Checkpoints: {values:?}; write one whole number ≥ 1 (the total is left as it was)"
                ),
            );
            None
        }
    }
}
