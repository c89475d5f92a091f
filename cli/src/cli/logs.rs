//! `log append`, `log read` and `log repair` (docs/cli.md § log): JSONL logs as the library
//! keeps them (`docs/locking.md` § Logs). Appends and repairs are the host's own routines
//! under the log's lock; a read is the core's reading of the file's text.

use super::command::Call;
use super::host::Host;
use super::out::{clean, Output, Style, INVALID};
use super::pages;
use super::paths;
use super::validate::{read_log, records};
use super::writes;
use statecore::{json, Map, Value};

/// `statecore log append PATH JSON`.
pub fn append(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let path = call.operands.first().map_or("", String::as_str);
    let text = call.operands.get(1).map_or("", String::as_str);
    let record = match json::parse_str(text) {
        Ok(record) => record,
        Err(e) => {
            return Output::usage(&format!(
                "the record is not JSON: {} (quote it for the shell: '{{\"type\": \"note\"}}')",
                clean(&e.message)
            ))
        }
    };
    let need = match writes::need("append", path, call) {
        Ok(need) => need.with("record", record),
        Err(usage) => return usage,
    };
    let need = match store_kind(path) {
        Some(kind) => need.with("kind", Value::from(kind)),
        None => need,
    };
    let Some(fact) = host.write(need) else {
        return Output::default();
    };
    let text = format!("{}: {}\n", clean(path), style.good("appended"));
    let mut value = Map::new();
    value.insert(
        "corrupt_copy".into(),
        fact.get("corrupt_copy").cloned().unwrap_or(Value::Null),
    );
    writes::finish(path, fact, call, style, text, value)
}

/// `statecore log repair PATH`.
pub fn repair(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let path = call.operands.first().map_or("", String::as_str);
    let need = match writes::need("repair", path, call) {
        Ok(need) => need,
        Err(usage) => return usage,
    };
    let untorn;
    let fact = if paths::is_store(path) {
        // A store appends a log's lines in transactions: it has no torn line to repair.
        untorn = nothing_repaired();
        &untorn
    } else {
        let Some(fact) = host.write(need) else {
            return Output::default();
        };
        fact
    };
    let torn = fact.get("torn_line").and_then(Value::as_u64);
    let copy = fact
        .get("corrupt_copy")
        .and_then(Value::as_str)
        .unwrap_or("");
    let text = match torn {
        Some(line) => format!(
            "{}: {}: line {line} was a torn write; its bytes were moved to {} and cut off\n",
            clean(path),
            style.good("repaired"),
            clean(copy)
        ),
        None if !copy.is_empty() => format!(
            "{}: {}: the lines a read refuses were moved to {} (kept) and the log rewritten \
             without them\n",
            clean(path),
            style.good("repaired"),
            clean(copy)
        ),
        None => format!("{}: nothing to repair (no torn last line)\n", clean(path)),
    };
    let mut value = Map::new();
    value.insert("torn_line".into(), torn.map_or(Value::Null, Value::from));
    value.insert(
        "corrupt_copy".into(),
        fact.get("corrupt_copy").cloned().unwrap_or(Value::Null),
    );
    // A repair's warning repeats its line: printed once, as the line above.
    let mut fact = fact.clone();
    if torn.is_some() && fact.get("error").is_none() {
        fact.shift_remove("warnings");
    }
    writes::finish(path, &fact, call, style, text, value)
}

/// The kind a log at a store URL is appended as (docs/store.md § Store URLs): the one its key
/// names (`hive/EVENTS.jsonl`: `hive.event`), else `json`; `None` for a file's path, or for a
/// store URL the store refuses (the host's store reports why).
fn store_kind(path: &str) -> Option<&'static str> {
    let split = statecore::store::url(path).ok()??;
    let key = split.get("key").and_then(Value::as_str).unwrap_or("");
    let target = statecore::watch::target(key, None, false).ok()?;
    Some(target.map_or("json", statecore::checked::Target::kind))
}

/// What a repair of a log with no torn line did: nothing.
fn nothing_repaired() -> Map {
    let mut fact = Map::new();
    fact.insert("torn_line".into(), Value::Null);
    fact.insert("warnings".into(), Value::Array(Vec::new()));
    fact.insert("corrupt_copy".into(), Value::Null);
    fact
}

/// `statecore log read PATH`: the records, one compact JSON line each. A log is read in pages:
/// read through once (a bad line prints nothing but the error), then printed a page a round.
pub fn read(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let path = call.operands.first().map_or("", String::as_str);
    let checked = match read_log(host, path, None, None) {
        None => return Output::default(),
        Some(Ok(checked)) => checked,
        Some(Err(usage)) => return usage,
    };
    let mut out = Output::default();
    if let Some(error) = checked.errors.first() {
        out.worst(INVALID);
        let line = error.at.map(|(line, _)| line as u64);
        let code = error.issue.code.as_str();
        if call.flag("json") {
            let mut map = Map::new();
            map.insert("code".into(), Value::from(code));
            map.insert("line".into(), line.map_or(Value::Null, Value::from));
            map.insert("message".into(), Value::from(error.issue.message.as_str()));
            out.stdout = json::serialize(&listing(path, Vec::new(), None, Value::Object(map)));
        } else {
            let at = line.map_or(String::new(), |l| format!(":{l}"));
            out.stderr = writes::issue_line(
                &format!("{path}{at}"),
                &style.error("error"),
                code,
                "",
                &error.issue.message,
            );
        }
        return out;
    }
    let torn = checked
        .warnings
        .iter()
        .find(|w| w.issue.code == "W_TORN_TAIL")
        .and_then(|w| w.at)
        .map(|(line, _)| line);
    let printed = match records(host, path, checked) {
        None => return out,
        Some(Err(usage)) => return usage,
        Some(Ok(printed)) => printed,
    };
    out.partial = !printed.last;
    if call.flag("json") {
        if printed.first {
            out.stdout = format!(
                "{{\n  \"file\": {},\n  \"records\": ",
                json::serialize_compact(&Value::from(path))
            );
        }
        out.stdout.push_str(&pages::array_part(&printed, 2));
        if printed.last {
            let torn = torn.map_or(Value::Null, |l| Value::from(l as u64));
            out.stdout.push_str(&format!(
                ",\n  \"torn_line\": {},\n  \"error\": null\n}}\n",
                json::serialize_compact(&torn)
            ));
        }
        return out;
    }
    for record in &printed.records {
        out.stdout.push_str(&json::serialize_compact(record));
        out.stdout.push('\n');
    }
    if let (Some(line), true) = (torn, printed.last) {
        out.stderr = writes::issue_line(
            &format!("{path}:{line}"),
            &style.warning("warning"),
            "W_TORN_TAIL",
            "",
            "an incomplete (torn) last write, ignored; `statecore log repair` or the next append \
             cuts it off, keeping a copy",
        );
    }
    out
}

/// `--json`'s `{file, records, torn_line, error}`.
fn listing(path: &str, records: Vec<Value>, torn: Option<usize>, error: Value) -> Value {
    let mut map = Map::new();
    map.insert("file".into(), Value::from(path));
    map.insert("records".into(), Value::Array(records));
    map.insert(
        "torn_line".into(),
        torn.map_or(Value::Null, |l| Value::from(l as u64)),
    );
    map.insert("error".into(), error);
    Value::Object(map)
}
