//! How the `hivemind` commands word a state and a workflow step's outcome (docs/cli.md §
//! hivemind): every text that came from a file cleaned before it is printed.

use super::out::{clean, Style};
use statecore::checked::Checked;
use statecore::hivemind::{self, AGENTS};
use statecore::{Map, Value};

/// A field of the state as text (`None` when absent, null or empty).
fn field<'v>(doc: &'v Value, key: &str) -> Option<&'v str> {
    doc.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A whole-number field (`None` when absent or not one).
fn number(doc: &Value, key: &str) -> Option<u64> {
    doc.get(key).and_then(Value::as_u64)
}

/// `hivemind status`'s text: `file`, `state`, `previous`, `project`, `checkpoint`,
/// `friction`, `error`, `agents`, `updated` and `next` lines (those with something to say).
pub fn status_text(shown: &str, exists: bool, doc: &Value, style: Style) -> String {
    let mut out = String::new();
    let mut line = |key: &str, value: &str| out.push_str(&format!("{key}: {value}\n"));
    let note = if exists {
        ""
    } else {
        " (none yet: the idle default)"
    };
    line("file", &format!("{}{note}", clean(shown)));
    let state = field(doc, "state").unwrap_or("?");
    let what = hivemind::describe(state).unwrap_or("not a state");
    line(
        "state",
        &format!("{} ({what})", style.strong(&clean(state))),
    );
    if let Some(previous) = field(doc, "previous_state") {
        line("previous", &clean(previous));
    }
    if let Some(project) = field(doc, "project") {
        line("project", &clean(project));
    }
    let current = number(doc, "current_checkpoint").unwrap_or(0);
    match number(doc, "total_checkpoints") {
        Some(total) => line("checkpoint", &format!("{current} of {total}")),
        None if current > 0 => line("checkpoint", &current.to_string()),
        None => {}
    }
    if let Some(friction) = number(doc, "friction_count").filter(|n| *n > 0) {
        line("friction", &friction.to_string());
    }
    if let Some(error) = field(doc, "error") {
        line("error", &style.error(&clean(error)));
    }
    if hivemind::STATES.contains(&state) {
        let modes: Vec<String> = AGENTS
            .iter()
            .zip(hivemind::modes(state))
            .map(|(agent, mode)| format!("{agent} {}", mode.name()))
            .collect();
        line("agents", &modes.join(", "));
    }
    if let Some(time) = field(doc, "timestamp") {
        line("updated", &clean(time));
    }
    if let Ok(next) = hivemind::next_events(state) {
        let events: Vec<String> = next
            .iter()
            .map(|(event, to)| format!("{event} → {to}"))
            .collect();
        let events = if events.is_empty() {
            "none".to_owned()
        } else {
            events.join(", ")
        };
        line("next", &events);
    }
    out
}

/// `hivemind status --json`: `{file, exists, valid, errors, warnings, document, agents,
/// next}` (`agents` and `next` null for a state that is not one).
pub fn status_value(shown: &str, checked: Option<&Checked>, document: Option<&Value>) -> Value {
    let mut map = Map::new();
    map.insert("file".into(), Value::from(shown));
    map.insert("exists".into(), Value::Bool(checked.is_some()));
    let report = checked.map(Checked::to_value);
    let part = |key: &str| {
        report
            .as_ref()
            .and_then(|r| r.get(key))
            .cloned()
            .unwrap_or(Value::Array(Vec::new()))
    };
    map.insert(
        "valid".into(),
        Value::Bool(checked.is_none_or(Checked::valid)),
    );
    map.insert("errors".into(), part("errors"));
    map.insert("warnings".into(), part("warnings"));
    map.insert("document".into(), document.cloned().unwrap_or(Value::Null));
    let state = document.and_then(|d| field(d, "state")).unwrap_or("");
    let agents = hivemind::agents(state).unwrap_or(Value::Null);
    map.insert("agents".into(), agents);
    let next = hivemind::next_events(state).map_or(Value::Null, |next| {
        let list = next.into_iter().map(|(event, to)| {
            let mut m = Map::new();
            m.insert("event".into(), Value::from(event));
            m.insert("to".into(), Value::from(to));
            Value::Object(m)
        });
        Value::Array(list.collect())
    });
    map.insert("next".into(), next);
    Value::Object(map)
}

/// An outcome in one line: its transitions (`planning → plan_review (plan_written)`, a chain
/// as `a → b (e1) → c (e2)`), `ignored: why`, or `unchanged`.
pub fn outcome_summary(result: &Value) -> String {
    let steps = result
        .get("transitions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let text = |step: &Value, key: &str| {
        clean(step.get(key).and_then(Value::as_str).unwrap_or("?")).into_owned()
    };
    if let Some(first) = steps.first() {
        let mut line = text(first, "from");
        for step in steps {
            line.push_str(&format!(
                " → {} ({})",
                text(step, "to"),
                text(step, "event")
            ));
        }
        return line;
    }
    match result.get("ignored").and_then(Value::as_str) {
        Some(why) => format!("ignored: {}", clean(why)),
        None => "unchanged".to_owned(),
    }
}

/// An outcome's details, one indented line each: the problems with the file, the agents'
/// messages, the follow-ups scheduled.
pub fn outcome_detail(result: &Value, style: Style) -> String {
    let list = |key: &str| {
        result
            .get(key)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    };
    let text = |item: &Value, key: &str| {
        clean(item.get(key).and_then(Value::as_str).unwrap_or("")).into_owned()
    };
    let mut out = String::new();
    for problem in list("problems") {
        out.push_str(&format!(
            "  {} {}: {}\n",
            style.warning("problem"),
            text(problem, "code"),
            text(problem, "message")
        ));
    }
    for note in list("notifications") {
        out.push_str(&format!(
            "  notify {}: {}\n",
            text(note, "agent"),
            text(note, "message")
        ));
    }
    for follow_up in list("scheduled") {
        let after = follow_up
            .get("after_ms")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        out.push_str(&format!(
            "  follow-up {} in {after} ms\n",
            text(follow_up, "event")
        ));
    }
    out
}
