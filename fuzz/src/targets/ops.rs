//! `ops`: the generic dispatcher over the whole operation table (`statecore_cli::TABLE`), the
//! binding's wire path (`Args::from_wire`) and the file routines (`ops::update`,
//! `ops::query`). Every operation of the table is reachable, including operations added
//! later: nothing here lists them.
//!
//! Input: `selector \0 args \0 slot \0 slot ...`. The selector is an operation's name
//! (`fctry_start_step`), `update_file` or `query_file` (any other bytes pick one by index);
//! `args` is the JSON array of the call's positional arguments, laid out as in the
//! conformance corpus (`update_file`: `[kind, change, data, args, now, if_match, reset]`;
//! `query_file`: `[kind, op, data, args]`). At a parameter that takes bytes (file contents,
//! random bytes) `null` is "no file", a string is its UTF-8, and any other value takes the
//! next raw *slot* (so file contents are mutated as bytes). Laws:
//! - every operation is deterministic (same arguments, same result or error); one without
//!   parameters is checked once per process (its result is a constant);
//! - errors have stable codes and pointer paths; a result has the form the table declares
//!   (JSON, text, nothing; an operation that `Raises` never succeeds), and a JSON result
//!   round-trips through the canonical text;
//! - an update's text is the canonical text of its document; a changed file's etag is the
//!   text's and its document is valid; an unchanged file keeps its etag; `corrupt` exactly
//!   when there were bytes that do not parse.

use crate::input::{self, select, split};
use crate::laws;
use crate::seeds::Case;
use statecore::document::{self, Precondition};
use statecore::ops::{self, Arg, Args, Form, Kind, Op, Out};
use statecore::Value;
use statecore::{json, kinds, Result};
use statecore_cli::TABLE;
use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

/// Raw byte slots an input may carry.
const MAX_SLOTS: usize = 8;

/// What a selector picks.
#[derive(Clone, Copy)]
enum Entry {
    Op(&'static Op),
    UpdateFile,
    QueryFile,
}

fn entries() -> &'static [(String, Entry)] {
    static ENTRIES: OnceLock<Vec<(String, Entry)>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut list: Vec<(String, Entry)> =
            TABLE.ops().map(|op| (op.name(), Entry::Op(op))).collect();
        list.push(("update_file".into(), Entry::UpdateFile));
        list.push(("query_file".into(), Entry::QueryFile));
        list
    })
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = split(data, 2 + MAX_SLOTS);
    let selector = pieces.first().copied().unwrap_or_default();
    let Some((name, entry)) = select(selector, entries(), |(name, _)| name.clone()) else {
        return;
    };
    let args_text = pieces.get(1).copied().unwrap_or_default();
    let values = match input::json(args_text) {
        Some(Value::Array(items)) => items,
        Some(other) => vec![other],
        None => Vec::new(),
    };
    let slots: Vec<&[u8]> = pieces.iter().skip(2).copied().collect();
    match *entry {
        Entry::Op(op) if op.params.is_empty() && values.is_empty() && !first_time(op) => {}
        Entry::Op(op) => {
            let first = TABLE.call(op, args(op.params, &values, &mut slots.iter()));
            let second = TABLE.call(op, args(op.params, &values, &mut slots.iter()));
            assert!(
                same(&first, &second),
                "{name} is not deterministic:\n  {first:?}\n  {second:?}"
            );
            outcome(name, op, &first);
            wire(name, op, args_text, &slots);
        }
        Entry::UpdateFile => update_file(&values, &slots),
        Entry::QueryFile => query_file(&values, &slots),
    }
}

/// True the first time an operation without parameters is called without arguments: its
/// result is a constant (`manifest` takes milliseconds), so later calls are skipped.
fn first_time(op: &Op) -> bool {
    static SEEN: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    let id = std::ptr::from_ref(op) as usize;
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if seen.contains(&id) {
        return false;
    }
    seen.push(id);
    true
}

/// The arguments of a call: bytes parameters take `null` (no file), a string's UTF-8 or the
/// next slot; every other parameter its JSON value.
fn args<'a>(
    params: &[ops::Param],
    values: &[Value],
    slots: &mut std::slice::Iter<'_, &'a [u8]>,
) -> Args<'a> {
    let items = values
        .iter()
        .enumerate()
        .map(|(i, v)| match (params.get(i).map(|p| p.kind), v) {
            (Some(Kind::Bytes), Value::Null) => Arg::Bytes(None),
            (Some(Kind::Bytes | Kind::Random), Value::String(_) | Value::Null) => {
                Arg::Value(v.clone())
            }
            (Some(Kind::Bytes | Kind::Random), _) => match crate::seeds::hex(v) {
                Some(bytes) => Arg::Bytes(Some(Cow::Owned(bytes))),
                None => Arg::Bytes(slots.next().map(|s| Cow::Borrowed(*s))),
            },
            _ => Arg::Value(v.clone()),
        })
        .collect();
    Args::new(items)
}

/// Whether two results of the same call are the same: their debug forms, which show every
/// field (a job's, its first step: a function of its arguments alone) are equal.
fn same(a: &Result<Out>, b: &Result<Out>) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// An operation's outcome has the declared form; errors and JSON results obey the laws.
fn outcome(name: &str, op: &Op, result: &Result<Out>) {
    match result {
        Err(e) => laws::error(name, e),
        Ok(out) => {
            let form = match out {
                Out::Json(_) => Form::Json,
                Out::Text(_) => Form::Text,
                Out::Nothing => Form::Nothing,
                Out::Update { .. } => Form::Update,
                Out::Loaded { .. } => Form::Loaded,
                Out::Job(_) => Form::Job,
            };
            assert!(
                form == op.returns.form,
                "{name} returned {form:?} but the table declares {:?}",
                op.returns.form
            );
            match out {
                Out::Json(v) => laws::round_trip(name, v),
                Out::Loaded { document, .. } => {
                    laws::round_trip(name, &document.clone().into_value())
                }
                Out::Update {
                    document,
                    text,
                    text_is_document,
                    ..
                } => {
                    let document = document.clone().into_value();
                    laws::round_trip(name, &document);
                    assert!(
                        !*text_is_document || *text == json::serialize(&document),
                        "{name}: an update's text is not its document's canonical text"
                    );
                }
                _ => {}
            }
        }
    }
}

/// The binding's path: the same arguments as JSON text and byte slots (`Args::from_wire`).
fn wire(name: &str, op: &'static Op, args_text: &[u8], slots: &[&[u8]]) {
    let Ok(text) = std::str::from_utf8(args_text) else {
        return;
    };
    let slots = slots.iter().map(|s| Some(Cow::Borrowed(*s)));
    match Args::from_wire(op, 0, text, slots) {
        Ok(args) => outcome(name, op, &TABLE.call(op, args)),
        Err(e) => laws::error(name, &e),
    }
}

/// The two names a file routine's case starts with (a kind, then a change or an operation).
fn kind_and_name(values: &[Value]) -> Option<(String, String)> {
    let text = |i: usize| values.get(i).and_then(Value::as_str).map(str::to_owned);
    Some((text(0)?, text(1)?))
}

/// `[kind, change, data, args, now, if_match, reset]` through `ops::update`.
fn update_file(values: &[Value], slots: &[&[u8]]) {
    let get = |i: usize| values.get(i).cloned().unwrap_or(Value::Null);
    let Some((kind, change)) = kind_and_name(values) else {
        return;
    };
    let mut slots = slots.iter();
    let data = file_bytes(&get(2), &mut slots);
    let list = match get(3) {
        Value::Array(list) => list,
        _ => Vec::new(),
    };
    let (now, if_match, reset) = (get(4), get(5), get(6).as_bool().unwrap_or(false));
    let rest: Vec<&[u8]> = slots.copied().collect();
    let run = || {
        let (op, skip) = TABLE.params_of(&change)?;
        let params = op.params.get(skip..).unwrap_or_default();
        let change = TABLE.change(&change, args(params, &list, &mut rest.iter()))?;
        let pre = Precondition {
            if_match: if_match.as_str(),
            reset,
        };
        ops::update(&kind, data.as_deref(), change, &now, pre)
    };
    let first = run();
    let second = run();
    assert!(
        first == second,
        "update_file is not deterministic:\n  {first:?}\n  {second:?}"
    );
    let u = match first {
        Ok(u) => u,
        Err(e) => return laws::error("update_file", &e),
    };
    // The text is the document's: its JSON, or (index.md) text that reads back as it.
    let reads_back = document::read_bytes(&kind, u.text.as_bytes());
    assert!(
        json::serialize(&u.document) == u.text
            || reads_back.is_ok_and(|d| without_nulls(&d) == without_nulls(&u.document)),
        "update_file: text is not the document's"
    );
    if u.changed {
        assert!(
            u.etag == Some(json::etag(u.text.as_bytes())),
            "update_file: etag of a changed file"
        );
        let report = kinds::validate(&kind, &u.document);
        assert!(
            report.as_ref().is_ok_and(|r| r.valid()),
            "update_file wrote a document that does not validate: {report:?}"
        );
    } else {
        assert!(
            u.etag == data.as_deref().map(json::etag),
            "update_file: etag of an unchanged file"
        );
    }
    let unparseable = data
        .as_deref()
        .is_some_and(|d| document::read_bytes(&kind, d).is_err());
    assert!(
        u.corrupt == unparseable,
        "update_file: corrupt is {} for bytes that parse: {}",
        u.corrupt,
        !unparseable
    );
    laws::round_trip("update_file", &u.clone().into_value());
}

/// `[kind, op, data, args]` through `ops::query`.
fn query_file(values: &[Value], slots: &[&[u8]]) {
    let get = |i: usize| values.get(i).cloned().unwrap_or(Value::Null);
    let Some((kind, name)) = kind_and_name(values) else {
        return;
    };
    let Ok(op) = TABLE.find(&name) else {
        return;
    };
    let mut slots = slots.iter();
    let data = file_bytes(&get(2), &mut slots);
    let list = match get(3) {
        Value::Array(list) => list,
        _ => Vec::new(),
    };
    let rest: Vec<&[u8]> = slots.copied().collect();
    let params = op.params.get(1..).unwrap_or_default();
    let run = || {
        ops::query(
            &kind,
            data.as_deref(),
            op,
            args(params, &list, &mut rest.iter()),
            &Value::Null,
        )
    };
    let first = run();
    let second = run();
    assert!(
        same(&first, &second),
        "query_file is not deterministic:\n  {first:?}\n  {second:?}"
    );
    outcome("query_file", op, &first);
}

/// A file's bytes in a routine's arguments: `null` none, a string its UTF-8, else a slot.
fn file_bytes(v: &Value, slots: &mut std::slice::Iter<'_, &[u8]>) -> Option<Vec<u8>> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.as_bytes().to_vec()),
        _ => crate::seeds::hex(v).or_else(|| slots.next().map(|s| s.to_vec())),
    }
}

/// A conformance case as an input: the operation's name, its arguments with every bytes
/// argument moved to a slot (raw bytes mutate better than JSON strings).
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let mut args = case.args.clone();
    let mut slots: Vec<Vec<u8>> = Vec::new();
    // A slot cannot hold a NUL (but the last): such bytes stay `{"hex": ...}` arguments.
    let mut to_slot = |args: &mut Vec<Value>, i: usize, bytes: Option<Vec<u8>>| {
        let bytes = bytes.filter(|b| !b.contains(&input::SEP));
        if let (Some(bytes), Some(slot)) = (bytes, args.get_mut(i)) {
            *slot = Value::from(0);
            slots.push(bytes);
        }
    };
    match (case.op.as_str(), case.operation()) {
        ("update_file" | "query_file", _) => to_slot(&mut args, 2, case.bytes(2)),
        (_, Some(op)) => {
            for (i, p) in op.params.iter().enumerate() {
                if matches!(p.kind, Kind::Bytes)
                    || (matches!(p.kind, Kind::Random) && case.is_hex(i))
                {
                    to_slot(&mut args, i, case.bytes(i));
                }
            }
        }
        _ => return,
    }
    let mut pieces = vec![
        case.op.as_bytes().to_vec(),
        input::text(&Value::Array(args)),
    ];
    pieces.extend(slots);
    out.push(input::join(pieces));
}

/// A value with its objects' `null` members left out (absent and `null` read alike).
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = statecore::Map::new();
            for (key, item) in map.iter() {
                if !item.is_null() {
                    out.insert(key.clone(), without_nulls(item));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}
