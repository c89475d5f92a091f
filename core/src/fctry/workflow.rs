//! The fctry workflow operations (seed 000, "Workflow Enforcement", "Writing Workflow State",
//! "Write Semantics"): command start, agent steps, prerequisite checks with the seed's numbered
//! "Workflow error" text, recorded skips, and untracked changes. Each operation is a
//! read-modify-write over the state expressed with the merge engine (shallow merge, per-path
//! rules, `lastUpdated` stamped from the host's `now`), so it never clobbers other fields.

use super::words::{AGENTS, COMMANDS, STEPS};
use crate::error::{Code, Error, Result};
use crate::merge::{merge_owned, MergeOptions, Mode, Rule, Stamp, Strategy};
use crate::time::normalize_now;
use crate::{json, Map, Value};

fn argument(path: &str, message: String) -> Error {
    Error::new(Code::Argument, path, message)
}

fn check_in(value: &str, allowed: &[&str], what: &str) -> Result<()> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(argument(
            "",
            format!(
                "unknown {what} {value:?}; use one of {}",
                allowed.join(", ")
            ),
        ))
    }
}

/// A shallow read-modify-write of `patch` into `state`, with `rules`, stamping `lastUpdated`.
fn write(state: Value, patch: Value, rules: Vec<Rule>, now: &Value) -> Result<Value> {
    let (now, _) = normalize_now(now)?;
    let options = MergeOptions {
        strategy: Strategy::Shallow,
        rules,
        stamp: Some(Stamp {
            field: "lastUpdated".into(),
            now,
        }),
    };
    merge_owned(state, &patch, &options)
}

fn rule(path: &str, mode: Mode) -> Rule {
    Rule {
        path: path
            .trim_start_matches('/')
            .split('/')
            .map(str::to_owned)
            .collect(),
        mode,
    }
}

/// Step 0 of every command: sets `currentCommand`, clears `completedSteps`, `agentOutputs`,
/// `workflowStep` and the skips recorded for the previous command.
pub fn start_command(state: Value, command: &str, now: &Value) -> Result<Value> {
    check_in(command, &COMMANDS, "command")?;
    let patch = json!({
        "currentCommand": command,
        "workflowStep": null,
        "completedSteps": [],
        "agentOutputs": {},
        "skippedPrerequisites": [],
    });
    write(state, patch, Vec::new(), now)
}

/// An agent starts: `workflowStep` is set to its step.
pub fn start_step(state: Value, step: &str, now: &Value) -> Result<Value> {
    check_in(step, &STEPS, "workflow step")?;
    write(state, json!({ "workflowStep": step }), Vec::new(), now)
}

/// An agent completes: its step is appended to `completedSteps` (once), `workflowStep` is
/// cleared if it still names this step (a parallel agent's step is left alone), and its
/// `agentOutputs` entry is stored when `output` is not null (replacing an older one).
pub fn complete_step(state: Value, step: &str, output: &Value, now: &Value) -> Result<Value> {
    check_in(step, &STEPS, "workflow step")?;
    if !output.is_null() && !output.is_object() {
        return Err(argument(
            "/output",
            "an agent output must be an object with at least a summary".into(),
        ));
    }
    let mut patch = Map::new();
    patch.insert("completedSteps".into(), json!([step]));
    if state.get("workflowStep").and_then(Value::as_str) == Some(step) {
        patch.insert("workflowStep".into(), Value::Null);
    }
    let rules = vec![rule("/completedSteps", Mode::Append)];
    if !output.is_null() {
        // The other agents' entries are kept; this agent's entry is replaced whole.
        let mut outputs = match state.get("agentOutputs") {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        outputs.insert(step.into(), output.clone());
        patch.insert("agentOutputs".into(), Value::Object(outputs));
    }
    write(state, Value::Object(patch), rules, now)
}

/// What [`check_prerequisites`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prerequisites {
    /// The agent checked.
    pub agent: String,
    /// The command it runs under, if given.
    pub command: Option<String>,
    /// Unmet requirements: each inner list is satisfied by any one of its steps.
    pub missing: Vec<Vec<&'static str>>,
}

impl Prerequisites {
    /// True when nothing is missing.
    pub fn ok(&self) -> bool {
        self.missing.is_empty()
    }

    /// The seed's numbered "Workflow error" text, or `None` when nothing is missing.
    pub fn message(&self) -> Option<String> {
        if self.ok() {
            return None;
        }
        let mut lines = vec![format!(
            "Workflow error: {} must run before {} can proceed.",
            self.describe(display_step),
            display_agent(&self.agent)
        )];
        lines.extend(self.options());
        Some(lines.join("\n"))
    }

    /// The three numbered choices the user gets.
    pub fn options(&self) -> Vec<String> {
        if self.ok() {
            return Vec::new();
        }
        vec![
            format!("(1) Run {} now (recommended)", self.describe(run_step)),
            "(2) Skip (not recommended — may produce inaccurate results)".to_owned(),
            "(3) Abort this command".to_owned(),
        ]
    }

    fn describe(&self, name: fn(&str) -> &'static str) -> String {
        self.missing
            .iter()
            .map(|group| {
                group
                    .iter()
                    .map(|s| name(s))
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// `{ok, agent, command, missing, message, options}`.
    pub fn to_value(&self) -> Value {
        json!({
            "ok": self.ok(),
            "agent": self.agent,
            "command": self.command,
            "missing": self.missing,
            "message": self.message(),
            "options": self.options(),
        })
    }
}

fn display_step(step: &str) -> &'static str {
    match step {
        "state-owner-scan" => "State Owner",
        "interviewer" => "Interviewer",
        "researcher" => "Researcher",
        "visual-translator" => "Visual Translator",
        "scenario-crafter" => "Scenario Crafter",
        "spec-writer" => "Spec Writer",
        "executor-plan" => "Executor (plan)",
        _ => "Executor (build)",
    }
}

/// The seed says "Run State Owner scan now"; other steps are run by their agent's name.
fn run_step(step: &str) -> &'static str {
    if step == "state-owner-scan" {
        "State Owner scan"
    } else {
        display_step(step)
    }
}

fn display_agent(agent: &str) -> &'static str {
    match agent {
        "state-owner" => "State Owner",
        "observer" => "Observer",
        "spec-writer" => "Spec Writer",
        "executor" => "Executor",
        other => display_step(other),
    }
}

/// The seed's "Prerequisites by Agent" table and the Spec Writer rules by command.
fn requirements(agent: &str, command: Option<&str>) -> Vec<Vec<&'static str>> {
    const SCAN: &str = "state-owner-scan";
    match (agent, command) {
        ("state-owner" | "observer", _) => Vec::new(),
        ("researcher" | "visual-translator", Some("ref")) => Vec::new(), // parallel with State Owner
        ("interviewer" | "researcher" | "visual-translator" | "executor", _) => vec![vec![SCAN]],
        ("scenario-crafter", _) => vec![vec!["interviewer"]],
        ("spec-writer", Some("init" | "evolve")) => {
            vec![vec!["interviewer"], vec!["scenario-crafter"]]
        }
        ("spec-writer", Some("ref")) => vec![vec![SCAN], vec!["researcher", "visual-translator"]],
        // review, and (a choice: the seed is silent) execute or no command: the scan.
        _ => vec![vec![SCAN]],
    }
}

/// Checks an agent's prerequisites against `completedSteps`.
pub fn check_prerequisites(
    state: &Value,
    agent: &str,
    command: Option<&str>,
) -> Result<Prerequisites> {
    check_in(agent, &AGENTS, "agent")?;
    if let Some(command) = command {
        check_in(command, &COMMANDS, "command")?;
    }
    let done: Vec<&str> = state
        .get("completedSteps")
        .and_then(Value::as_array)
        .map(|steps| steps.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let missing = requirements(agent, command)
        .into_iter()
        .filter(|group| !group.iter().any(|step| done.contains(step)))
        .collect();
    Ok(Prerequisites {
        agent: agent.to_owned(),
        command: command.map(str::to_owned),
        missing,
    })
}

/// The user chose "Skip": the skip is recorded in `skippedPrerequisites` (`{agent, command,
/// missing, timestamp}`) so later readers know the output may be inaccurate. Nothing missing:
/// the state is returned unchanged.
pub fn skip_prerequisites(
    state: Value,
    agent: &str,
    command: Option<&str>,
    now: &Value,
) -> Result<Value> {
    let found = check_prerequisites(&state, agent, command)?;
    if found.ok() {
        return Ok(state);
    }
    let (timestamp, _) = normalize_now(now)?;
    let missing: Vec<&str> = found.missing.iter().flatten().copied().collect();
    let record =
        json!({ "agent": agent, "command": command, "missing": missing, "timestamp": timestamp });
    let patch = json!({ "skippedPrerequisites": [record] });
    write(
        state,
        patch,
        vec![rule("/skippedPrerequisites", Mode::Append)],
        now,
    )
}

/// Records a file write outside fctry commands (`{file, section, sectionNumber, timestamp}`),
/// de-duplicated by `file`: a second change to the same file updates its entry in place.
/// A missing `timestamp` is taken from `now`.
pub fn add_untracked_change(state: Value, change: &Value, now: &Value) -> Result<Value> {
    let Some(map) = change.as_object() else {
        return Err(argument(
            "/change",
            "an untracked change must be an object with a file".into(),
        ));
    };
    if !map.get("file").is_some_and(Value::is_string) {
        return Err(argument(
            "/change/file",
            "an untracked change needs its file (a string)".into(),
        ));
    }
    let mut change = map.clone();
    if change.get("timestamp").is_none_or(Value::is_null) {
        change.insert("timestamp".into(), Value::from(normalize_now(now)?.0));
    }
    let patch = json!({ "untrackedChanges": [change] });
    write(
        state,
        patch,
        vec![rule("/untrackedChanges", Mode::ByKey("file".into()))],
        now,
    )
}

/// Clears the untracked changes of the given sections (aliases with or without `#`), or all
/// of them when `sections` is `None` (`/fctry:review` and `/fctry:evolve` for those sections).
pub fn clear_untracked_changes(
    state: Value,
    sections: Option<&[String]>,
    now: &Value,
) -> Result<Value> {
    let bare = |s: &str| s.trim_start_matches('#').to_owned();
    let wanted: Option<Vec<String>> = sections.map(|list| list.iter().map(|s| bare(s)).collect());
    let Some(Value::Array(items)) = state.get("untrackedChanges") else {
        return write(state, json!({}), Vec::new(), now);
    };
    let kept: Vec<Value> = items
        .iter()
        .filter(|item| match &wanted {
            None => false,
            Some(list) => !item
                .get("section")
                .and_then(Value::as_str)
                .is_some_and(|s| list.contains(&bare(s))),
        })
        .cloned()
        .collect();
    write(state, json!({ "untrackedChanges": kept }), Vec::new(), now)
}
