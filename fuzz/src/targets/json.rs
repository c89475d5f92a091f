//! `json`: the strict parser and the canonical serializer (`statecore::json`).
//!
//! Input: the bytes of a document. Laws:
//! - a parsed value is within the limits, round-trips (`parse(serialize(v)) == v`,
//!   `serialize` a fixed point, the compact text too), and wrapped in an argument list it
//!   parses the same with `parse_args`;
//! - differential against `serde_json` (documents less than 100 levels deep): what statecore
//!   accepts serde_json accepts with the same value (numbers compared after statecore's
//!   normalisations: the exponent written `e` with a sign, no negative zero); what serde_json accepts and
//!   statecore refuses is a duplicate key or a limit;
//! - an error has a stable code, a pointer path and, for a parse error, a position inside
//!   the input;
//! - the tape (`json::Tape`, the reader that builds no tree) accepts exactly what `parse`
//!   accepts, with the same error, the same document and the same as-written flag.

use crate::laws;
use crate::seeds::Case;
use statecore::json;
use statecore::Code;
use statecore::Value;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let parsed = json::parse(data);
    match &parsed {
        Ok(v) => accepted(data, v),
        Err(e) => {
            laws::error("json::parse", e);
            if e.code == Code::Parse {
                let offset = e.details.get("offset").and_then(Value::as_u64);
                assert!(
                    offset.is_some_and(|o| o <= data.len() as u64),
                    "json::parse: E_PARSE offset {offset:?} is not within the {} input bytes",
                    data.len()
                );
            }
        }
    }
    differential(data, parsed.as_ref().ok());
    tape(data);
}

/// The tape reads what `parse_as_written` reads, or fails with its error.
fn tape(data: &[u8]) {
    use statecore::value::Json;
    match (json::parse_as_written(data), json::Tape::parse(data)) {
        (Ok((value, written)), Ok((tape, tape_written))) => {
            let built = tape.root().to_value();
            assert!(
                built == value && json::serialize(&built) == json::serialize(&value),
                "json::Tape read {} where parse read {}",
                laws::show(&built),
                laws::show(&value)
            );
            assert_eq!(written, tape_written, "json::Tape: as-written flag differs");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "json::Tape: another error than parse's"),
        (a, b) => panic!(
            "json::Tape and parse disagree: parse {:?}, tape {:?}",
            a.map(|(v, _)| laws::show(&v)),
            b.map(|_| "accepted")
        ),
    }
}

fn accepted(data: &[u8], v: &Value) {
    if let Err(e) = json::check_limits(v) {
        panic!("json::parse accepted a value that breaks a limit: {e}");
    }
    laws::round_trip("json", v);
    let _ = json::check_js_safe(v);
    let _ = json::check_float_range(v);
    // The argument-list parser reads the same document one level down.
    if let Ok(text) = std::str::from_utf8(data) {
        if !text.starts_with('\u{feff}') {
            match json::parse_args(&format!("[{text}]")) {
                Ok(Value::Array(items)) => assert!(
                    items.len() == 1 && items.first() == Some(v),
                    "json::parse_args([doc]) != [parse(doc)]: {}",
                    laws::show(&Value::Array(items))
                ),
                Ok(other) => panic!("json::parse_args gave a non-array {}", laws::show(&other)),
                Err(e) => panic!("json::parse_args refused [doc] that parse accepts: {e}"),
            }
        }
    }
}

/// The nesting depth of a value (`1` for `[]`).
fn depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// A number's text as statecore writes it: `E` → `e`, the exponent's sign explicit, and a
/// negative zero without its sign (`-0.0e3` → `0.0e+3`, docs/api.md § Host values).
fn normal_number(text: &str) -> String {
    let lower = text.replace('E', "e");
    let (mantissa, exp) = lower
        .split_once('e')
        .map_or((lower.as_str(), None), |(m, e)| (m, Some(e)));
    let mantissa = match mantissa.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest,
        _ => mantissa,
    };
    match exp {
        Some(exp) if !exp.starts_with(['+', '-']) => format!("{mantissa}e+{exp}"),
        Some(exp) => format!("{mantissa}e{exp}"),
        None => mantissa.to_owned(),
    }
}

/// Equality with serde_json's numbers normalised as statecore writes them.
fn same(ours: &Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as Theirs;
    match (ours, theirs) {
        (Value::Null, Theirs::Null) => true,
        (Value::Bool(a), Theirs::Bool(b)) => a == b,
        (Value::String(a), Theirs::String(b)) => a == b,
        (Value::Number(a), Theirs::Number(b)) => a.as_str() == normal_number(b.as_str()),
        (Value::Array(a), Theirs::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Theirs::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        _ => false,
    }
}

fn differential(data: &[u8], ours: Option<&Value>) {
    let body = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let theirs: Result<serde_json::Value, _> = serde_json::from_slice(body);
    match (ours, theirs) {
        (Some(v), Ok(t)) => assert!(
            same(v, &t),
            "statecore and serde_json read different values\n  statecore:  {}\n  serde_json: {}",
            laws::show(v),
            t
        ),
        (Some(v), Err(e)) => assert!(
            depth(v) >= 100,
            "statecore accepted a document serde_json refuses ({e}): {}",
            laws::show(v)
        ),
        (None, Ok(t)) => {
            let e = json::parse(data).err();
            let code = e.as_ref().map(|e| e.code);
            assert!(
                matches!(code, Some(Code::DuplicateKey | Code::Limit)),
                "statecore refused a document serde_json accepts ({}), not for a duplicate key \
                 or a limit: {}",
                e.map_or_else(String::new, |e| e.to_string()),
                t
            );
        }
        (None, Err(_)) => {}
    }
}

/// Seeds from one conformance case: every bytes argument (file contents, JSON text) and
/// the compact text of every object or array argument.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    out.extend(case.bytes_args());
    for arg in &case.args {
        if arg.is_object() || arg.is_array() {
            out.push(crate::input::text(arg));
        }
    }
}
