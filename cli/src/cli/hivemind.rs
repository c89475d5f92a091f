//! `hivemind status|fire|watch` (docs/cli.md, docs/hivemind.md § The command line): a
//! Hivemind project's `workspace/state.json` shown, moved by a host event under its lock, or
//! driven live by the trigger files written under `workspace/`, as the Hivemind watcher does:
//! every reaction is one locked update of the host's routine with the table's
//! `hivemind_on_file`, `hivemind_fire` or `hivemind_follow_up`.

use super::checked_text::CheckedText;
use super::command::{Call, Command, Opt, JSON, TIMEOUT};
use super::follow::{self, Then, COUNT};
use super::hivemind_text::{outcome_detail, outcome_summary, status_text, status_value};
use super::host::{File, Host};
use super::out::{clean, Output, Style, INVALID};
use super::paths;
use super::validate::unreadable;
use super::writes;
use statecore::checked::{Checked, Target};
use statecore::hivemind::EVENTS;
use statecore::{json, Map, Value};

/// The state file's kind.
const KIND: &str = "hivemind.state";

/// `hivemind status [DIR]`.
pub const STATUS: Command = Command {
    name: "hivemind status",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Show a Hivemind project's workflow state: its agents, checkpoint and next events.",
    about: "DIR is the project (default: the working directory); its state is \
            DIR/workspace/state.json, the idle default when there is none yet. Prints the \
            state, the agents' modes, the checkpoint, friction, the error and the events a \
            host may fire now. A file that does not validate has its problems printed to \
            standard error (exit 1). Exit 0, 2 when DIR is not a directory or the file \
            cannot be read.",
    options: &[JSON],
    values: None,
    run: status,
};

/// `hivemind fire EVENT [DIR]`.
pub const FIRE: Command = Command {
    name: "hivemind fire",
    operands: "EVENT [DIR]",
    min: 1,
    max: Some(2),
    summary: "Fire a host event on a Hivemind project's state (select_project, give_task, ...).",
    about: "One locked update of DIR/workspace/state.json (default DIR: the working \
            directory): the event, validation, an atomic write only when the state changed. \
            Prints the transitions and the messages the agents get. An event that leads to \
            an automatic follow-up (a checkpoint's review, the friction sync) waits for its \
            delay (500 ms) and fires it too, as the watcher would. An event the state does \
            not allow is refused with E_TRANSITION and the file left as it was (exit 1). \
            Exit 0, 1 refused, 2 usage or I/O.",
    options: &[
        Opt {
            name: "project",
            value: Some("PATH"),
            help: "For select_project: the project folder recorded (default: DIR).",
        },
        Opt {
            name: "error",
            value: Some("TEXT"),
            help: "For worker_crashed: what broke.",
        },
        Opt {
            name: "checkpoints",
            value: Some("N"),
            help: "For plan_written and plan_updated: the plan's number of checkpoints.",
        },
        TIMEOUT,
        JSON,
    ],
    values: Some(events),
    run: fire,
};

/// `hivemind watch [DIR]`.
pub const WATCH: Command = Command {
    name: "hivemind watch",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Drive a Hivemind project live: each trigger file written under workspace/ moves \
              its state.",
    about: "Prints the state, then one line per file created or changed under \
            DIR/workspace/ (default DIR: the working directory) with what it did: the \
            transitions and the agents' messages, or why it was ignored. Each reaction is \
            one locked update of state.json; the automatic follow-ups fire after their \
            delay. The state file's own writes (by this watcher or any other writer) are \
            not reactions. Runs until Ctrl-C (exit 130) or --count changes.",
    options: &[COUNT, TIMEOUT, JSON],
    values: None,
    run: watch,
};

fn events() -> Vec<(&'static str, &'static str)> {
    EVENTS.iter().map(|e| (*e, "")).collect()
}

/// The project directory (the operand `at`, default `.`), resolved against the working
/// directory; `Err` the usage error of one that is not a directory; `None` until the host
/// has looked.
fn project(call: &Call, host: &mut Host<'_>, at: usize) -> Option<Result<String, Output>> {
    let given = call.operands.get(at).map_or(".", String::as_str);
    let dir = paths::resolve(host.cwd(), given);
    let file = host.read(&dir)?;
    Some(match file.not_a_directory() {
        None => Ok(dir),
        Some(why) => Err(Output::usage(&format!(
            "{}: {why} (a Hivemind project's directory, holding workspace/)",
            clean(given)
        ))),
    })
}

/// `DIR/workspace`.
fn workspace(dir: &str) -> String {
    paths::child(dir, "workspace")
}

/// `DIR/workspace/state.json`.
fn state_file(dir: &str) -> String {
    paths::child(&workspace(dir), "state.json")
}

/// The state file checked (`None`: there is none) and its document.
type StateRead = (Option<Checked>, Option<Value>);

/// The state file checked (`None`: there is none) and its document (the idle default for a
/// missing file; `None` for one that does not read); `Err` the error of a file that cannot be
/// read; `None` until the host has read it.
fn read_state(host: &mut Host<'_>, path: &str, shown: &str) -> Option<Result<StateRead, Output>> {
    let checked = match host.read(path)? {
        File::Missing => None,
        File::Text(text) => Some(Checked::check(shown, Target::Document(KIND), text)),
        other => return Some(Err(Output::usage(&unreadable(shown, other)))),
    };
    let document = match &checked {
        None => Some(statecore::hivemind::default_state()),
        Some(c) => c.document.clone(),
    };
    Some(Ok((checked, document)))
}

/// `hivemind status [DIR]`.
fn status(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let dir = match project(call, host, 0) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(dir)) => dir,
    };
    let path = state_file(&dir);
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let (checked, document) = match read_state(host, &path, &shown) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(read)) => read,
    };
    let mut out = Output::default();
    if let Some(c) = &checked {
        if !c.valid() {
            out.worst(INVALID);
        }
        if !call.flag("json") {
            out.stderr = c.problems(style);
        }
    }
    if call.flag("json") {
        let value = status_value(&shown, checked.as_ref(), document.as_ref());
        out.stdout = json::serialize(&value);
    } else {
        match &document {
            Some(doc) => out.stdout = status_text(&shown, checked.is_some(), doc, style),
            None => out.stdout = checked.map_or(String::new(), |c| c.verdict(style)),
        }
    }
    out
}

/// The locked update of the state file by the table's `change` with `args`; `None` until the
/// host has carried it out.
fn update<'f>(
    call: &Call,
    host: &mut Host<'f>,
    path: &str,
    change: &str,
    args: Vec<Value>,
) -> Option<Result<&'f Map, Output>> {
    let change = writes::Change {
        kind: KIND,
        change,
        args,
        if_match: None,
    };
    match writes::update_need(path, call, host.now(), change) {
        Ok(need) => host.write(need).map(Ok),
        Err(usage) => Some(Err(usage)),
    }
}

/// The follow-ups an outcome schedules, as timers: `(event, after_ms)`.
fn scheduled(fact: &Map) -> Vec<(String, u64)> {
    let list = fact
        .get("result")
        .and_then(|r| r.get("scheduled"))
        .and_then(Value::as_array);
    list.map_or_else(Vec::new, |list| {
        list.iter()
            .filter_map(|s| {
                let event = s.get("event")?.as_str()?;
                Some((event.to_owned(), s.get("after_ms")?.as_u64()?))
            })
            .collect()
    })
}

/// The details `fire`'s options give (`Err`: the usage error of a bad --checkpoints).
fn details(call: &Call, event: &str, dir: &str) -> Result<Value, Output> {
    let mut map = Map::new();
    match call.value("project") {
        Some(project) => {
            map.insert("project".into(), Value::from(project));
        }
        None if event == "select_project" => {
            map.insert("project".into(), Value::from(dir));
        }
        None => {}
    }
    if let Some(error) = call.value("error") {
        map.insert("error".into(), Value::from(error));
    }
    if let Some(text) = call.value("checkpoints") {
        let Ok(n) = text.parse::<u64>() else {
            return Err(Output::usage(&format!(
                "--checkpoints takes a whole number ≥ 0 (got {:?})",
                clean(text)
            )));
        };
        map.insert("total_checkpoints".into(), Value::from(n));
    }
    Ok(if map.is_empty() {
        Value::Null
    } else {
        Value::Object(map)
    })
}

/// `hivemind fire EVENT [DIR]`; then, woken by its timer, the follow-up it scheduled.
fn fire(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let event = call.operands.first().map_or("", String::as_str);
    if !EVENTS.contains(&event) {
        return Output::usage(&format!(
            "EVENT is one of {} (got {:?})",
            EVENTS.join(", "),
            clean(event)
        ));
    }
    let dir = match project(call, host, 1) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(dir)) => dir,
    };
    let path = state_file(&dir);
    let (label, change, args) = match host.event() {
        Some((_, Some(timer))) => (
            format!("follow-up {}: ", clean(timer)),
            "hivemind_follow_up",
            vec![Value::from(timer)],
        ),
        _ => match details(call, event, &dir) {
            Ok(details) => (
                String::new(),
                "hivemind_fire",
                // `now` comes from the update (null: its own).
                vec![Value::from(event), Value::Null, details],
            ),
            Err(usage) => return usage,
        },
    };
    let fact = match update(call, host, &path, change, args) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(fact)) => fact,
    };
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let mut out = reaction(call, &shown, fact, style, (&label, ""), Map::new());
    if writes::failure(fact).is_none() {
        let timers = scheduled(fact);
        if !timers.is_empty() {
            out.then = Then {
                timers,
                ..Then::default()
            }
            .value(None);
        }
    }
    out
}

/// What a locked reaction printed: `prefix` + `label` + the outcome's summary, then its
/// details (`--json`: one line of JSON with `file`, the write's `etag`, `changed`, `result`,
/// then the fields of `after`).
fn reaction(
    call: &Call,
    shown: &str,
    fact: &Map,
    style: Style,
    (label, prefix): (&str, &str),
    after: Map,
) -> Output {
    let result = fact.get("result").cloned().unwrap_or(Value::Null);
    let mut value = Map::new();
    for key in ["changed", "etag"] {
        value.insert(key.into(), fact.get(key).cloned().unwrap_or(Value::Null));
    }
    let text = format!(
        "{prefix}{label}{}\n{}",
        outcome_summary(&result),
        outcome_detail(&result, style)
    );
    value.insert("result".into(), result);
    if call.flag("json") {
        // One line per reaction (JSON Lines), so that a watcher's output can be read live.
        return writes::finish_line(shown, fact, value, after);
    }
    let mut out = writes::finish(shown, fact, call, style, text, value);
    if !prefix.is_empty() {
        // A watcher's lines all begin with the time and what caused them.
        let lead = format!("{prefix}{label}");
        out.stderr = out
            .stderr
            .lines()
            .map(|line| {
                let rest = line.strip_prefix(shown).unwrap_or(line);
                let rest = rest.strip_prefix(": ").unwrap_or(rest);
                format!("{lead}{rest}\n")
            })
            .collect();
    }
    out
}

/// `hivemind watch [DIR]`: the state first, then one reaction per event.
fn watch(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let count = match follow::count(call) {
        Ok(count) => count,
        Err(usage) => return usage,
    };
    let dir = match project(call, host, 0) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(dir)) => dir,
    };
    let seen = follow::seen(host);
    let going_on = |seen: u64, timers: Vec<(String, u64)>| {
        Then {
            watch: vec![workspace(&dir)],
            timers,
            seen: Some(seen),
            ..Then::default()
        }
        .value(count)
    };
    let clock = host.clock();
    let path = state_file(&dir);
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let (label, change, args) = match host.event() {
        None => return first_look(call, host, &dir, style, going_on(0, Vec::new())),
        Some((_, Some(timer))) => (
            format!("follow-up {}", clean(timer)),
            "hivemind_follow_up",
            vec![Value::from(timer)],
        ),
        Some((path, None)) => {
            let path = path.unwrap_or("");
            let relative = path
                .strip_prefix(dir.as_str())
                .map(|rest| rest.trim_start_matches('/'))
                .unwrap_or(path);
            if own_file(relative) {
                return quiet(going_on(seen, Vec::new()));
            }
            let content = match host.read(path) {
                None => return Output::default(),
                // A removed file triggers nothing (the watcher reacts to files written).
                Some(File::Missing | File::Directory) => return quiet(going_on(seen, Vec::new())),
                Some(File::Text(text)) => Value::from(text),
                Some(_) => Value::Null,
            };
            (
                clean(relative).into_owned(),
                "hivemind_on_file",
                vec![Value::from(relative), content],
            )
        }
    };
    let fact = match update(call, host, &path, change, args) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(fact)) => fact,
    };
    let prefix = format!("{clock} ");
    let mut cause = Map::new();
    cause.insert("time".into(), Value::from(clock.as_str()));
    cause.insert("cause".into(), Value::from(label.as_str()));
    let lead = format!("{label}: ");
    let mut out = reaction(call, &shown, fact, style, (&lead, &prefix), cause);
    out.then = going_on(seen.saturating_add(1), scheduled(fact));
    out
}

/// Nothing to print this time; the command goes on.
fn quiet(then: Option<Value>) -> Output {
    Output {
        then,
        ..Output::default()
    }
}

/// The state file's own writes under the project (`relative` to it): the file, its lock,
/// the writers' temporary files and kept copies.
fn own_file(relative: &str) -> bool {
    let Some(name) = relative.strip_prefix("workspace/") else {
        return false;
    };
    name == "state.json"
        || name.starts_with("state.json.lock")
        || name.starts_with(".state.json.tmp-")
        || name.starts_with("state.json.corrupt-")
}

/// The watcher's first answer: the state as it is, and what it watches.
fn first_look(
    call: &Call,
    host: &mut Host<'_>,
    dir: &str,
    style: Style,
    then: Option<Value>,
) -> Output {
    let path = state_file(dir);
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let clock = host.clock();
    let (checked, document) = match read_state(host, &path, &shown) {
        None => return Output::default(),
        Some(Err(usage)) => return usage,
        Some(Ok(read)) => read,
    };
    let state = document
        .as_ref()
        .and_then(|d| d.get("state"))
        .and_then(Value::as_str)
        .unwrap_or("?");
    let mut out = Output {
        then,
        ..Output::default()
    };
    if let Some(c) = &checked {
        out.stderr = c.problems(style);
    }
    let watched = paths::shown(host.cwd(), &workspace(dir)).to_owned();
    if call.flag("json") {
        let mut map = Map::new();
        map.insert("time".into(), Value::from(clock.as_str()));
        map.insert("file".into(), Value::from(shown.as_str()));
        map.insert("state".into(), Value::from(state));
        map.insert("watching".into(), Value::from(watched.as_str()));
        out.stdout = format!("{}\n", json::serialize_compact(&Value::Object(map)));
    } else {
        let what = statecore::hivemind::describe(state).unwrap_or("not a state");
        out.stdout = format!(
            "{clock} {}: {} ({what}){}\n",
            clean(&shown),
            style.strong(&clean(state)),
            if checked.is_none() {
                ", no file yet"
            } else {
                ""
            }
        );
        out.stderr.push_str(&format!(
            "watching {}/ for trigger files (Ctrl-C stops)\n",
            clean(&watched)
        ));
    }
    out
}
