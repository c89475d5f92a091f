//! The commands that describe statecore itself: `kinds`, `schema`, `diagram`.

use super::command::Call;
use super::host::Host;
use super::out::{Output, Style};
use statecore::kinds::{self, KINDS};
use statecore::machine::Machine;
use statecore::{json, Map, Value};

/// A built-in machine: its name, what it is, its definition.
type BuiltIn = (&'static str, &'static str, fn() -> Value);

/// The protocols' machines `diagram` draws.
static MACHINES: &[BuiltIn] = &[
    (
        "fctry.inbox",
        "an fctry inbox item's statuses",
        statecore::fctry::inbox_machine,
    ),
    (
        "fctry.chunk",
        "an fctry build chunk's statuses",
        statecore::fctry::chunk_machine,
    ),
    (
        "fctry.run",
        "an fctry build run's statuses",
        statecore::fctry::run_machine,
    ),
    (
        "hivemind",
        "the Hivemind workflow",
        statecore::hivemind::hivemind_machine,
    ),
    (
        "hive",
        "a hive session's phases",
        statecore::hive::hive_machine,
    ),
    (
        "specify.loop",
        "the specify loop's statuses",
        statecore::specify::loop_machine,
    ),
    (
        "specify.gap",
        "a specify gap's statuses",
        statecore::specify::gap_machine,
    ),
];

/// The machines' names, for `diagram`'s help.
pub fn machine_names() -> Vec<(&'static str, &'static str)> {
    MACHINES.iter().map(|(n, what, _)| (*n, *what)).collect()
}

/// The kinds' names, for `schema`'s help.
pub fn kind_names() -> Vec<(&'static str, &'static str)> {
    KINDS.iter().map(|k| (k.name, k.description)).collect()
}

/// `statecore kinds`.
pub fn kinds(call: &Call, _: &mut Host<'_>, style: Style) -> Output {
    if call.flag("json") {
        let list = KINDS
            .iter()
            .map(|k| {
                let mut map = Map::new();
                map.insert("name".into(), Value::from(k.name));
                let file = k.file.as_ref().map(|f| Value::from(f.path.join("/")));
                map.insert("file".into(), file.unwrap_or(Value::Null));
                map.insert("description".into(), Value::from(k.description));
                Value::Object(map)
            })
            .collect();
        return Output::text(json::serialize(&Value::Array(list)));
    }
    let width = KINDS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    let text = KINDS
        .iter()
        .map(|k| {
            let pad = " ".repeat(width.saturating_sub(k.name.len()));
            format!("{}{pad}  {}\n", style.strong(k.name), k.description)
        })
        .collect();
    Output::text(text)
}

/// `statecore schema KIND`.
pub fn schema(call: &Call, _: &mut Host<'_>, _: Style) -> Output {
    let name = call.operands.first().map_or("", String::as_str);
    match statecore::schema::schema(name) {
        Ok(schema) => Output::text(json::serialize(&schema)),
        Err(_) => Output::usage(&unknown("kind", name, &kinds::names())),
    }
}

/// `statecore diagram [MACHINE]`: the machine's diagram, or without one the machines' list
/// (as `kinds` lists the kinds).
pub fn diagram(call: &Call, _: &mut Host<'_>, style: Style) -> Output {
    let Some(name) = call.operands.first().map(String::as_str) else {
        let width = MACHINES.iter().map(|(n, _, _)| n.len()).max().unwrap_or(0);
        let text = MACHINES
            .iter()
            .map(|(n, what, _)| {
                let pad = " ".repeat(width.saturating_sub(n.len()));
                format!("{}{pad}  {what}\n", style.strong(n))
            })
            .collect();
        return Output::text(text);
    };
    let Some((_, _, definition)) = MACHINES.iter().find(|(n, _, _)| *n == name) else {
        let names: Vec<&str> = MACHINES.iter().map(|(n, _, _)| *n).collect();
        return Output::usage(&unknown("machine", name, &names));
    };
    match Machine::from_value(&definition()) {
        Ok(machine) => Output::text(machine.mermaid()),
        Err(e) => Output::usage(&e.message),
    }
}

/// `unknown kind "x"; did you mean "y"? (known: ...)`.
pub fn unknown(what: &str, name: &str, known: &[&str]) -> String {
    let hint = statecore::options::nearest(name, known)
        .map_or(String::new(), |k| format!("; did you mean {k:?}?"));
    format!(
        "unknown {what} {:?}{hint} (known: {})",
        super::out::clean(name),
        known.join(", ")
    )
}
