//! `update` (docs/cli.md § update): one change to a document under its lock, carried out by
//! the host's own update routine (the one every protocol helper uses: one read, one
//! validation, an atomic write, a `.corrupt-` copy of unreadable old bytes), and `show
//! --etag`'s counterpart for scripts: the new etag printed.

use super::command::Call;
use super::host::Host;
use super::out::{clean, Output, Style};
use super::validate::{forced_kind, kind_of};
use super::writes;
use statecore::{json, kinds, Map, Value};

/// The options that name the change; exactly one is given.
const CHANGES: [&str; 3] = ["merge", "merge-patch", "set"];

/// `statecore update PATH --merge JSON | --merge-patch JSON | --set POINTER=JSON`.
pub fn update(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let path = call.operands.first().map_or("", String::as_str);
    let kind = match forced_kind(call).map(|forced| kind_of(path, forced)) {
        Err(usage) => return usage,
        Ok(Err(message)) => return Output::usage(&message),
        Ok(Ok(kind)) => kind,
    };
    let (change, args) = match change_of(call, kind) {
        Ok(change) => change,
        Err(message) => return Output::usage(&message),
    };
    let change = writes::Change {
        kind,
        change,
        args,
        if_match: call.value("if-match"),
    };
    let need = match writes::update_need(path, call, host.now(), change) {
        Ok(need) => need,
        Err(usage) => return usage,
    };
    let Some(fact) = host.write(need) else {
        return Output::default();
    };
    let etag = fact.get("etag").and_then(Value::as_str).unwrap_or("");
    let changed = fact.get("changed").and_then(Value::as_bool) == Some(true);
    let word = if changed { "updated" } else { "unchanged" };
    let text = format!(
        "{}: {} ({kind}), etag {}\n",
        clean(path),
        style.good(word),
        clean(etag)
    );
    let mut value = Map::new();
    value.insert("kind".into(), Value::from(kind));
    value.insert("changed".into(), Value::Bool(changed));
    value.insert(
        "etag".into(),
        fact.get("etag").cloned().unwrap_or(Value::Null),
    );
    value.insert(
        "corrupt_copy".into(),
        fact.get("corrupt_copy").cloned().unwrap_or(Value::Null),
    );
    writes::finish(path, fact, call, style, text, value)
}

/// The change the options name, as the host's update routine takes it: `merge` with the
/// patch and merge options (the kind's own for `--merge`, RFC 7396 for `--merge-patch`), or
/// `set_value` with the pointer and value. `Err`: the usage error.
fn change_of(call: &Call, kind: &str) -> Result<(&'static str, Vec<Value>), String> {
    let given: Vec<(&str, &str)> = call
        .options
        .iter()
        .filter(|(name, _)| CHANGES.contains(name))
        .map(|(name, value)| (*name, value.as_deref().unwrap_or("")))
        .collect();
    let [(name, text)] = given.as_slice() else {
        return Err(format!(
            "give one change (got {}): --merge JSON, --merge-patch JSON or --set POINTER=JSON",
            given.len()
        ));
    };
    let file = kinds::kind(kind).ok().and_then(|k| k.file.as_ref());
    if let Some(log) = file.and_then(|f| f.log) {
        return Err(format!(
            "a {kind} file changes only by its steps, each logged in {log}; `statecore update` \
             would change it without its log"
        ));
    }
    if *name == "set" {
        let Some((pointer, value)) = text.split_once('=') else {
            return Err(format!(
                "--set takes POINTER=JSON (`--set /buildRun/chunks/0/status=\"retrying\"`), got \
                 {:?}",
                clean(text)
            ));
        };
        let value = parsed(value, "--set")?;
        return Ok(("set_value", vec![Value::from(pointer), value]));
    }
    let patch = parsed(text, &format!("--{name}"))?;
    let options = match *name {
        "merge-patch" => statecore::json!({ "strategy": "merge_patch" }),
        _ => match file.and_then(|f| f.patch) {
            Some(options) => json::parse_str(options).unwrap_or(Value::Null),
            None => Value::Null,
        },
    };
    Ok(("merge", vec![patch, options]))
}

/// The JSON text an option gave, or the usage error naming the option and the place.
fn parsed(text: &str, option: &str) -> Result<Value, String> {
    json::parse_str(text).map_err(|e| {
        format!(
            "{option} takes JSON: {} (quote a string: '\"done\"')",
            clean(&e.message)
        )
    })
}
