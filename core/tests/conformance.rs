//! Runs the shared conformance corpus (`tests/conformance/**/*.json`) through the Rust core's
//! operation table (`statecore::ops`), the same dispatcher every binding uses. The Node,
//! browser and Python runners read the same files (tests/README.md).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use statecore::ops::{self, Arg, Args, Kind, Out};
use statecore::Value;
use statecore::{json, Error};
use statecore_cli::TABLE;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.map(|e| e.path()).unwrap_or_default())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            case_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// A corpus argument: `{"hex": "..."}` is bytes (for bytes and random parameters); anything
/// else is a JSON value (a string given for a bytes parameter is its UTF-8).
fn arg(value: Value, kind: Option<Kind>) -> Arg<'static> {
    match (&value, kind) {
        (Value::Object(m), Some(Kind::Bytes | Kind::Random)) if m.contains_key("hex") => {
            let hex = m["hex"].as_str().expect("hex string");
            Arg::Bytes(Some(Cow::Owned(
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                    .collect(),
            )))
        }
        _ => Arg::Value(value),
    }
}

/// The file's bytes of a file routine case: a string (its UTF-8), `{"hex": ...}`, or null.
fn data(value: Value) -> Option<Vec<u8>> {
    match arg(value, Some(Kind::Bytes)) {
        Arg::Bytes(bytes) => bytes.map(Cow::into_owned),
        Arg::Value(Value::String(text)) => Some(text.as_bytes().to_vec()),
        Arg::Value(_) => None,
    }
}

/// The arguments after the document of a file routine's operation `op` (`skip`: how many
/// first parameters the file supplies).
fn routine_args(op: &ops::Op, skip: usize, args: Value) -> Args<'static> {
    let list = match args {
        Value::Array(list) => list,
        _ => Vec::new(),
    };
    let params = op.params.get(skip..).unwrap_or_default();
    Args::new(
        list.into_iter()
            .enumerate()
            .map(|(i, v)| arg(v, params.get(i).map(|p| p.kind)))
            .collect(),
    )
}

/// The file routines (tests/README.md): `update_file [kind, change, data, args, now,
/// if_match, reset]` and `query_file [kind, op, data, args]`, not table operations.
fn routine(name: &str, args: Vec<Value>) -> Option<Result<Out, Error>> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Null);
    let (kind, op, bytes, list) = (next(), next(), next(), next());
    let (kind, op) = (kind.as_str()?.to_owned(), op.as_str()?.to_owned());
    let bytes = data(bytes);
    Some(match name {
        "update_file" => {
            let (now, if_match, reset) = (next(), next(), next());
            let pre = statecore::document::Precondition {
                if_match: if_match.as_str(),
                reset: reset.as_bool().unwrap_or(false),
            };
            TABLE.params_of(&op).and_then(|(params, skip)| {
                let change = TABLE.change(&op, routine_args(params, skip, list))?;
                ops::update(&kind, bytes.as_deref(), change, &now, pre)
                    .map(|updated| Out::Json(updated.into_value()))
            })
        }
        "query_file" => TABLE.find(&op).and_then(|params| {
            let args = routine_args(params, 1, list);
            ops::query(&kind, bytes.as_deref(), params, args, &Value::Null)
        }),
        _ => return None,
    })
}

/// A resident document (tests/README.md): `resident [kind, data, steps]` opens `data` (or holds
/// `{"document": ...}`), then runs each step `[method, ...args]`; the result is the read's
/// fields (null for a held document) and each step's result, or `{"error": {code, path}}`.
fn resident(args: Vec<Value>) -> Result<Out, Error> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Null);
    let (kind, source, steps) = (next(), next(), next());
    let kind = kind.as_str().unwrap_or_default();
    let (mut doc, first) = match source.get("document") {
        Some(document) => (ops::Resident::new(kind, document.clone())?, Value::Null),
        None => ops::Resident::open(kind, data(source).as_deref())?,
    };
    let mut results = vec![first];
    for step in steps.as_array().cloned().unwrap_or_default() {
        let mut step = step.as_array().cloned().unwrap_or_default().into_iter();
        let method = step.next().unwrap_or_default();
        let rest: Vec<Value> = step.collect();
        let first = rest.first().cloned().unwrap_or_default();
        let got = match method.as_str().unwrap_or_default() {
            "get" => doc.get(first.as_str().unwrap_or_default()),
            "text" => doc.text().map(Value::from),
            "validate" => doc.validate().map(|report| report.to_value()),
            "merge" => {
                let options = rest.get(1).cloned().unwrap_or_default();
                doc.change(ops::Change::Patch(first, options), &Value::Null)
            }
            "replace" => doc.change(ops::Change::Replace(first), &Value::Null),
            name => TABLE.find(name).and_then(|op| match op.access {
                ops::Access::Writes(w) => {
                    let args = routine_args(op, usize::from(w.takes_document), Value::Array(rest));
                    doc.change(ops::Change::Op(op, args), &Value::Null)
                }
                _ => doc
                    .query(op, routine_args(op, 1, Value::Array(rest)), &Value::Null)
                    .map(Out::into_value),
            }),
        };
        match got {
            // a step this build has not got: the whole case is skipped (`unavailable_here`)
            Err(e) if unavailable_here(&e) => return Err(e),
            got => results.push(got.unwrap_or_else(
                |e| statecore::json!({"error": {"code": e.code.as_str(), "path": e.path}}),
            )),
        }
    }
    Ok(Out::Json(Value::Array(results)))
}

/// The arguments of a logged step: none for a read (`""`), else the step's after the state.
fn logged_change(change: &str, list: Value) -> Result<Option<ops::Change<'static>>, Error> {
    if change.is_empty() {
        return Ok(None);
    }
    let (params, skip) = TABLE.params_of(change)?;
    TABLE.logged_change(change, routine_args(params, skip, list))
}

/// The logged-file routines (tests/README.md): `update_logged [kind, session_id, change,
/// data, log_size, args, now, event_id?]` and `log_replay [kind, session_id, data, offset,
/// corrupt, chunks, change, args, now, event_id?]`.
fn logged(name: &str, args: Vec<Value>) -> Result<Out, Error> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Null);
    let (kind, session) = (next(), next());
    let (kind, session) = (
        kind.as_str().unwrap_or_default().to_owned(),
        session.as_str().unwrap_or_default().to_owned(),
    );
    if name == "update_logged" {
        let (change, bytes, size, list, now) = (next(), next(), next(), next(), next());
        let id = next();
        let change = logged_change(change.as_str().unwrap_or_default(), list)?;
        let size = size.as_u64().unwrap_or_default();
        let (bytes, id) = (data(bytes), id.as_str());
        return ops::update_logged(&kind, &session, bytes.as_deref(), size, change, &now, id)
            .map(Out::Json);
    }
    let (bytes, offset, corrupt, chunks) = (next(), next(), next(), next());
    let (change, list, now) = (next(), next(), next());
    let mut replay = ops::LogReplay::new(
        &kind,
        &session,
        data(bytes).as_deref(),
        offset.as_u64().unwrap_or_default(),
        corrupt.as_bool().unwrap_or_default(),
    )?;
    for chunk in chunks.as_array().cloned().unwrap_or_default() {
        replay.feed(&data(chunk).unwrap_or_default())?;
    }
    let id = next();
    let change = logged_change(change.as_str().unwrap_or_default(), list)?;
    replay.commit(change, &now, id.as_str()).map(Out::Json)
}

fn run(name: &str, args: Vec<Value>) -> Result<Out, Error> {
    if matches!(name, "update_logged" | "log_replay") {
        return logged(name, args);
    }
    if matches!(name, "update_file" | "query_file") {
        return routine(name, args).expect("a file routine case names its kind and operation");
    }
    if name == "resident" {
        return resident(args);
    }
    let op = TABLE.find(name)?;
    let args = args
        .into_iter()
        .enumerate()
        .map(|(i, v)| arg(v, op.params.get(i).map(|p| p.kind)))
        .collect();
    TABLE.call(op, Args::new(args))
}

/// A result as the corpus states it: text as it is, a JSON result pretty-printed, an update's
/// or a reader's result as `{document, ...}`, a job as its first step.
fn render(out: Out) -> String {
    match out {
        Out::Text(text) => text,
        Out::Json(Value::String(s)) => s.to_string(),
        Out::Json(value) => json::serialize(&value),
        Out::Nothing => json::serialize(&Value::Null),
        other @ (Out::Update { .. } | Out::Loaded { .. } | Out::Job(_)) => {
            json::serialize(&other.into_value())
        }
    }
}

fn render_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        other => json::serialize(other),
    }
}

#[test]
fn conformance_corpus() {
    let mut files = Vec::new();
    case_files(&corpus_dir(), &mut files);
    assert!(!files.is_empty(), "the corpus is empty");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut skipped = 0;
    for file in &files {
        let suite: Value =
            json::parse(&std::fs::read(file).expect("read case file")).expect("case file is JSON");
        let cases = suite["cases"].as_array().expect("cases array");
        for case in cases {
            count += 1;
            let name = format!(
                "{}: {}",
                file.display(),
                case["name"].as_str().unwrap_or("?")
            );
            let args = case["args"].as_array().cloned().unwrap_or_default();
            let outcome = run(case["op"].as_str().expect("op"), args);
            if let Err(err) = &outcome {
                if unavailable_here(err) {
                    skipped += 1;
                    continue;
                }
            }
            match (outcome, case.get("expect"), case.get("error")) {
                (Ok(got), Some(want), None) => {
                    let got = render(got);
                    if got != render_value(want) {
                        failures.push(format!(
                            "{name}\n  want: {}\n  got:  {got}",
                            render_value(want),
                        ));
                    }
                }
                (Err(err), None, Some(want)) => {
                    let code_ok = want["code"].as_str() == Some(err.code.as_str());
                    let path_ok = want
                        .get("path")
                        .is_none_or(|p| p.as_str() == Some(&err.path));
                    let details_ok = want
                        .get("details")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                        .all(|(key, value)| err.details.get(key) == Some(value));
                    if !code_ok || !path_ok || !details_ok {
                        failures.push(format!(
                            "{name}\n  want error: {want}\n  got error:  {} at {:?}: {} {}",
                            err.code, err.path, err.message, err.details
                        ));
                    }
                }
                (Ok(got), None, Some(want)) => failures.push(format!(
                    "{name}\n  want error {want}\n  got: {}",
                    render(got)
                )),
                (Err(err), Some(want), None) => failures.push(format!(
                    "{name}\n  want: {}\n  got error: {} at {:?}: {}",
                    render_value(want),
                    err.code,
                    err.path,
                    err.message
                )),
                _ => failures.push(format!("{name}: a case needs exactly one of expect/error")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} conformance cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!(
        "conformance: {} cases passed, {skipped} skipped (operations this build has not got)",
        count - skipped
    );
    assert!(
        cfg!(feature = "full") == (skipped == 0),
        "a full build skips no case, a build without `full` skips those of its other operations"
    );
}

/// True when `err` is the `E_UNAVAILABLE` of an operation this build has not got (the core
/// without its `full` feature: the browser's module), which the corpus run skips.
fn unavailable_here(err: &Error) -> bool {
    err.code == statecore::Code::Unavailable
        && err
            .details
            .get("op")
            .and_then(Value::as_str)
            .is_some_and(|name| TABLE.ops().any(|op| op.is(name) && !op.available()))
}

#[test]
fn every_operation_has_corpus_cases() {
    let mut files = Vec::new();
    case_files(&corpus_dir(), &mut files);
    let mut used = std::collections::BTreeSet::new();
    for file in &files {
        let suite = json::parse(&std::fs::read(file).unwrap()).unwrap();
        for case in suite["cases"].as_array().unwrap() {
            used.insert(case["op"].as_str().unwrap().to_owned());
        }
    }
    // `manifest` describes the table itself; `xtask codegen --check` pins it (docs/manifest.json).
    let missing: Vec<String> = TABLE
        .ops()
        .map(|op| op.name())
        .filter(|name| !used.contains(name) && name != "manifest")
        .collect();
    assert!(
        missing.is_empty(),
        "operations without corpus cases: {missing:?}"
    );
    let routines = [
        "update_file",
        "query_file",
        "resident",
        "update_logged",
        "log_replay",
    ];
    assert!(
        routines.iter().all(|r| used.contains(*r)),
        "the file routines have corpus cases"
    );
    let unknown: Vec<&String> = used
        .iter()
        .filter(|n| !TABLE.ops().any(|op| op.is(n)) && !routines.contains(&n.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "corpus cases of unknown operations: {unknown:?}"
    );
}

/// The status line's differential cases (`fctry/status_client.json`): statecore's line is the
/// real client's, except where a case says why it differs; a case that says so must differ.
#[test]
fn the_status_line_matches_its_client_or_says_why() {
    let path = corpus_dir().join("fctry/status_client.json");
    let suite = json::parse(&std::fs::read(path).unwrap()).unwrap();
    let cases = suite["cases"].as_array().unwrap();
    assert!(cases.len() > 40, "{} cases", cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let (ours, client) = (case["expect"].as_str(), case["client"].as_str());
        assert!(client.is_some(), "{name}: the client's output is recorded");
        match case.get("differs").and_then(Value::as_str) {
            None => assert_eq!(ours, client, "{name}: statecore and the client differ"),
            Some(why) => {
                assert_ne!(ours, client, "{name}: the same, yet it says {why:?}");
                assert!(why.len() > 20, "{name}: why it differs");
            }
        }
    }
}
