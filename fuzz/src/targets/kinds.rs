//! `kinds`: every document kind's validation (`statecore::kinds::KINDS`), and what a reader
//! and a writer make of a document of the kind (`statecore::document`).
//!
//! Input: `kind \0 document`: a kind's name (or any selector: a kind added to the registry is
//! fuzzed without changing this file) and the document's bytes. Laws:
//! - validation is deterministic; a report's errors are `E_` codes and its warnings `W_`
//!   codes, all listed in `docs/errors.md`, with pointer paths;
//! - `validate_text` over the bytes gives the same report;
//! - a reader (`document::load`) gets the parsed document, the bytes' etag and the same
//!   report; bytes that are not JSON give the kind's default, `corrupt` and `W_UNPARSEABLE`;
//! - a writer (`document::prepare`) accepts exactly the valid documents, writing their
//!   canonical text with its etag, and a reader of that text gets the document back; a
//!   kind written as text (index.md) writes its unchanged document over the bytes it came
//!   from as those very bytes.

use crate::input::{self, select, split};
use crate::laws;
use crate::seeds::Case;
use statecore::kinds::{self, Kind, KINDS};
use statecore::ops::{Access, Arg, Args, Out};
use statecore::Value;
use statecore::{document, json, Code};
use statecore_cli::TABLE;
use std::borrow::Cow;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = split(data, 2);
    let selector = pieces.first().copied().unwrap_or_default();
    let bytes = pieces.get(1).copied().unwrap_or_default();
    let Some(kind) = select(selector, KINDS, |k| k.name.to_owned()) else {
        return;
    };
    let Ok(doc) = document::read_bytes(kind.name, bytes) else {
        return unparseable(kind, bytes);
    };
    let text_format = matches!(kind.format, kinds::Format::Text { .. });
    let report = match kinds::validate(kind.name, &doc) {
        Ok(report) => report,
        Err(e) => panic!("validate({}) refused a known kind: {e}", kind.name),
    };
    laws::report(kind.name, &report);
    let again = kinds::validate(kind.name, &doc).ok();
    assert!(
        again.as_ref() == Some(&report),
        "validate({}) is not deterministic",
        kind.name
    );
    validate_text(kind, bytes, &report.to_value());

    let loaded = match document::load(kind.name, Some(bytes)) {
        Ok(loaded) => loaded,
        Err(e) => panic!(
            "document::load({}) failed on a parsed document: {e}",
            kind.name
        ),
    };
    assert!(
        loaded.document == doc,
        "document::load({}) changed the document",
        kind.name
    );
    assert!(
        !loaded.corrupt,
        "document::load({}) calls JSON corrupt",
        kind.name
    );
    assert!(
        loaded.etag == Some(json::etag(bytes)),
        "document::load: wrong etag"
    );
    let unvalidated = doc.is_null() && (kind.default)().is_null();
    if !unvalidated {
        assert!(
            loaded.report == report,
            "document::load({}) reports differently",
            kind.name
        );
    }

    let over = text_format.then_some(bytes);
    match document::prepare_over(kind.name, &doc, over) {
        Ok(prepared) => {
            assert!(
                report.valid(),
                "document::prepare({}) accepted an invalid document",
                kind.name
            );
            let canonical = if text_format {
                prepared.text.as_bytes() == bytes
            } else {
                prepared.text == json::serialize(&doc)
            };
            assert!(
                canonical,
                "prepare's text is not canonical (or not the bytes it was read from)"
            );
            assert!(
                prepared.etag == json::etag(prepared.text.as_bytes()),
                "prepare's etag"
            );
            assert!(
                prepared.report == report,
                "prepare({}) reports differently",
                kind.name
            );
            let back = document::load(kind.name, Some(prepared.text.as_bytes()));
            assert!(
                back.as_ref()
                    .is_ok_and(|b| b.document == doc && b.report == report),
                "a reader of prepare's text does not get the document back ({})",
                kind.name
            );
        }
        Err(e) => {
            laws::error("document::prepare", &e);
            assert!(
                e.code != Code::Invalid || !report.valid(),
                "document::prepare({}) refused a valid document: {e}",
                kind.name
            );
            assert!(
                e.code == Code::Invalid
                    || json::check_limits(&doc).is_err()
                    || (text_format && e.code == Code::Limit),
                "document::prepare({}) failed with {} on a document within the limits",
                kind.name,
                e.code
            );
        }
    }
}

/// Bytes that are not JSON: a reader gets the default, `corrupt` and `W_UNPARSEABLE`.
fn unparseable(kind: &Kind, bytes: &[u8]) {
    match document::load(kind.name, Some(bytes)) {
        Ok(loaded) => {
            assert!(
                loaded.corrupt,
                "unparseable bytes are not corrupt ({})",
                kind.name
            );
            assert!(
                loaded.document == (kind.default)(),
                "unparseable bytes: not the default"
            );
            assert!(
                loaded
                    .report
                    .warnings
                    .iter()
                    .any(|w| w.code == "W_UNPARSEABLE"),
                "unparseable bytes without W_UNPARSEABLE ({})",
                kind.name
            );
            laws::report(kind.name, &loaded.report);
        }
        Err(e) => panic!(
            "document::load({}) raised on unparseable bytes: {e}",
            kind.name
        ),
    }
}

fn validate_text(kind: &Kind, bytes: &[u8], want: &Value) {
    let Ok(op) = TABLE.find("validate_text") else {
        return;
    };
    let args = Args::new(vec![
        Arg::Value(kind.name.into()),
        Arg::Bytes(Some(Cow::Borrowed(bytes))),
    ]);
    match TABLE.call(op, args) {
        Ok(Out::Json(got)) => assert!(got == *want, "validate_text != validate ({})", kind.name),
        other => panic!("validate_text({}) gave {other:?}", kind.name),
    }
}

/// Seeds from one conformance case: every document of a kind it holds (validation cases,
/// readers' and writers' first arguments, the file routines' bytes).
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let a = |i: usize| case.args.get(i).cloned().unwrap_or(Value::Null);
    let mut push = |kind: &str, bytes: Option<Vec<u8>>| {
        if let Some(bytes) = bytes {
            out.push(input::join([kind.as_bytes(), &bytes]));
        }
    };
    let kind = a(0).as_str().unwrap_or_default().to_owned();
    match case.op.as_str() {
        "validate" | "prepare_document" => push(&kind, Some(input::text(&a(1)))),
        "validate_text" | "load_document" | "apply_update" | "finish_update" => {
            push(&kind, case.bytes(1))
        }
        "update_file" | "query_file" => push(&kind, case.bytes(2)),
        _ => {}
    }
    let Some(op) = case.operation() else {
        return;
    };
    match op.access {
        Access::Reads {
            kind, bytes: true, ..
        } => push(kind, case.bytes(0)),
        Access::Reads { kind, .. } => push(kind, Some(input::text(&a(0)))),
        Access::Writes(w) if w.takes_document => push(w.kind, Some(input::text(&a(0)))),
        _ => {}
    }
}
