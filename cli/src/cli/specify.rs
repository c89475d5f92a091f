//! `specify status` (docs/cli.md, docs/specify.md § The command line): a feature's
//! `.workflow/index.md` read as its tables and shown as the workflow's next step: the loop
//! state, where the workflow resumes, the termination check, the open gaps in the order they
//! are asked and the next clarifications. Read-only: an index changes by its operations (the
//! helpers of both packages), under its lock.

use super::checked_text::CheckedText;
use super::command::{Call, Command, JSON};
use super::host::{File, Host};
use super::out::{clean, Output, Style, INVALID};
use super::paths;
use super::validate::unreadable;
use statecore::checked::{Checked, Target};
use statecore::specify::{check_termination, next_clarifications, queue_order, resume_point};
use statecore::{json, Map, Value};

/// The index's kind.
const KIND: &str = "specify.index";

/// `specify status [FEATURE_DIR]`.
pub const STATUS: Command = Command {
    name: "specify status",
    operands: "[FEATURE_DIR]",
    min: 0,
    max: Some(1),
    summary: "Show a specify feature's workflow: its loop, where it resumes, its open gaps \
              and what to ask next.",
    about: "FEATURE_DIR is specs/<feature> (default: the working directory); its index is \
            FEATURE_DIR/.workflow/index.md. Prints the loop status, iteration and stale \
            count, where the workflow resumes, the termination check, the open gaps in the \
            order they are asked (Critical, Important, Minor; the longest open first) and the \
            next clarifications. An index that does not validate has its problems printed to \
            standard error (exit 1). A feature with no index yet has not started. Exit 0, 2 \
            when FEATURE_DIR is not a directory or the index cannot be read.",
    options: &[JSON],
    values: None,
    run: status,
};

/// `specify status [FEATURE_DIR]`.
fn status(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let given = call.operands.first().map_or(".", String::as_str);
    let dir = paths::resolve(host.cwd(), given);
    let path = paths::child(&paths::child(&dir, ".workflow"), "index.md");
    let (Some(place), Some(file)) = (host.read(&dir), host.read(&path)) else {
        return Output::default();
    };
    if let Some(why) = place.not_a_directory() {
        return Output::usage(&format!(
            "{}: {why} (a specify feature's directory, holding .workflow/index.md)",
            clean(given)
        ));
    }
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let checked = match file {
        File::Missing => None,
        File::Text(text) => Some(Checked::check(&shown, Target::Document(KIND), text)),
        other => return Output::usage(&unreadable(&shown, other)),
    };
    let mut out = Output::default();
    let index = match &checked {
        None => Value::Null,
        Some(c) => {
            if !c.valid() {
                out.worst(INVALID);
            }
            if !call.flag("json") {
                out.stderr = c.problems(style);
            }
            match &c.document {
                Some(doc) => doc.clone(),
                None if call.flag("json") => {
                    out.stdout = json::serialize(&Value::Array(vec![c.to_value()]));
                    return out;
                }
                None => {
                    out.stdout = c.verdict(style);
                    return out;
                }
            }
        }
    };
    let feature = paths::name(&dir).unwrap_or("");
    let view = View::of(&index);
    if call.flag("json") {
        out.stdout = json::serialize(&view.to_value(feature, &shown, checked.as_ref()));
    } else {
        out.stdout = view.text(feature, &shown, checked.is_some(), style);
    }
    out
}

/// What the index says of the workflow.
struct View {
    loop_state: Value,
    resume: Value,
    termination: Value,
    queue: Vec<Value>,
    next: Vec<Value>,
    deferred: usize,
}

impl View {
    fn of(index: &Value) -> View {
        let list = |v: statecore::Result<Value>| match v {
            Ok(Value::Array(list)) => list,
            _ => Vec::new(),
        };
        let section = |key: &str| index.get(key).cloned().unwrap_or(Value::Null);
        let gaps = index.get("gap_priority_queue").and_then(Value::as_array);
        let deferred = gaps
            .into_iter()
            .flatten()
            .filter(|g| g.get("status").and_then(Value::as_str) == Some("deferred"));
        View {
            loop_state: section("priority_loop_state"),
            resume: resume_point(index).unwrap_or(Value::Null),
            termination: check_termination(index).unwrap_or_else(|e| refused(&e)),
            queue: list(queue_order(index)),
            next: list(next_clarifications(index)),
            deferred: deferred.count(),
        }
    }

    /// `{feature, file, valid, loop, resume, termination, open_gaps, deferred_gaps, next}`.
    fn to_value(&self, feature: &str, shown: &str, checked: Option<&Checked>) -> Value {
        let mut map = Map::new();
        map.insert("feature".into(), Value::from(feature));
        map.insert("file".into(), Value::from(shown));
        let valid = checked.map_or(Value::Null, |c| Value::Bool(c.valid()));
        map.insert("valid".into(), valid);
        map.insert("loop".into(), self.loop_state.clone());
        map.insert("resume".into(), self.resume.clone());
        map.insert("termination".into(), self.termination.clone());
        map.insert("open_gaps".into(), Value::Array(self.queue.clone()));
        map.insert("deferred_gaps".into(), Value::from(self.deferred as u64));
        map.insert("next".into(), Value::Array(self.next.clone()));
        Value::Object(map)
    }

    /// The text `specify status` prints.
    fn text(&self, feature: &str, shown: &str, found: bool, style: Style) -> String {
        let field = |v: &Value, key: &str| -> String {
            match v.get(key) {
                Some(Value::String(s)) => clean(s).into_owned(),
                Some(Value::Number(n)) => n.to_string(),
                _ => "-".to_owned(),
            }
        };
        let mut out = format!("{} {}\n", style.strong("feature"), clean(feature));
        if !found {
            out.push_str(&format!(
                "{}: no index yet: the workflow has not started\n",
                clean(shown)
            ));
            out.push_str(&format!(
                "resume: {} {}: {}\n",
                field(&self.resume, "phase"),
                field(&self.resume, "action"),
                field(&self.resume, "description")
            ));
            return out;
        }
        let l = &self.loop_state;
        if !l.is_null() {
            out.push_str(&format!(
                "loop: {}, iteration {} / {}, stale {} / {}\n",
                field(l, "loop_status"),
                field(l, "current_iteration"),
                field(l, "max_iterations"),
                field(l, "stale_count"),
                field(l, "max_stale")
            ));
        }
        out.push_str(&format!(
            "resume: {} {}: {}\n",
            field(&self.resume, "phase"),
            field(&self.resume, "action"),
            field(&self.resume, "description")
        ));
        out.push_str(&termination(&self.termination, style));
        out.push_str(&format!(
            "gaps: {} open, {} deferred\n",
            self.queue.len(),
            self.deferred
        ));
        for gap in &self.queue {
            out.push_str(&format!(
                "  {}  {:<9}  {:<10}  stale {}  {}  {}\n",
                field(gap, "id"),
                field(gap, "priority"),
                field(gap, "status"),
                field(gap, "stale"),
                field(gap, "fr_reference"),
                described(gap)
            ));
        }
        for next in &self.next {
            let (gaps, questions) = (strings(next, "gaps"), strings(next, "questions"));
            let asked = match questions.is_empty() {
                true => String::new(),
                false => format!(": {}", questions.join(" / ")),
            };
            out.push_str(&format!(
                "next: {} ({}){asked}\n",
                field(next, "id"),
                gaps.join(", ")
            ));
        }
        out
    }
}

/// A termination check the queue refuses (a gap status or priority statecore does not know,
/// a Critical or Important gap deferred): `{outcome: null, error: {code, path, message}}`.
fn refused(error: &statecore::Error) -> Value {
    let mut why = Map::new();
    why.insert("code".into(), Value::from(error.code.as_str()));
    why.insert("path".into(), Value::from(error.path.as_str()));
    why.insert("message".into(), Value::from(error.message.as_str()));
    let mut map = Map::new();
    map.insert("outcome".into(), Value::Null);
    map.insert("error".into(), Value::Object(why));
    Value::Object(map)
}

/// What a gap's row is best described by: its description (a column some index.md files
/// add), else its question (the seed's column, what `add_gaps` writes), else its CHK source;
/// `-` when it has none.
fn described(gap: &Value) -> String {
    ["description", "question", "chk_source"]
        .iter()
        .find_map(|key| match gap.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(clean(s).into_owned()),
            _ => None,
        })
        .unwrap_or_else(|| "-".to_owned())
}

/// `termination: continue (blocking: G-001, G-002)`.
fn termination(check: &Value, style: Style) -> String {
    if let Some(error) = check.get("error") {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("-");
        return format!(
            "termination: {} ({})\n",
            style.warning("cannot be checked"),
            clean(message)
        );
    }
    let outcome = check.get("outcome").and_then(Value::as_str).unwrap_or("-");
    let mut parts = Vec::new();
    for (key, label) in [
        ("blocking", "blocking"),
        ("stale_gaps", "stale"),
        ("warning_gaps", "open 2 iterations"),
    ] {
        let list = strings(check, key);
        if !list.is_empty() {
            parts.push(format!("{label}: {}", list.join(", ")));
        }
    }
    let shown = match outcome {
        "success" => style.good(outcome),
        "continue" => outcome.to_owned(),
        other => style.warning(&clean(other)),
    };
    match parts.is_empty() {
        true => format!("termination: {shown}\n"),
        false => format!("termination: {shown} ({})\n", parts.join("; ")),
    }
}

/// The strings of the list `key` of `value`, made safe to print.
fn strings(value: &Value, key: &str) -> Vec<String> {
    let list = value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    list.filter_map(Value::as_str)
        .map(|s| clean(s).into_owned())
        .collect()
}
