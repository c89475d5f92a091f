//! Large inputs: every limit is a typed error, never a crash; just-below-limit inputs work.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use statecore::Value;
use statecore::{json, Code};

#[test]
fn a_ten_megabyte_string_round_trips() {
    let big = "x".repeat(10 * 1024 * 1024);
    let text = format!("{{\"s\":\"{big}\"}}");
    let doc = json::parse(text.as_bytes()).unwrap();
    assert_eq!(doc["s"].as_str().map(str::len), Some(big.len()));
    assert_eq!(json::serialize_compact(&doc), text);
}

#[test]
fn a_string_over_the_limit_is_e_limit() {
    let text = format!("[\"{}\"]", "x".repeat(json::MAX_STRING_BYTES + 1));
    let err = json::parse(text.as_bytes()).unwrap_err();
    assert_eq!(err.code, Code::Limit);
    assert_eq!(err.path, "/0");
    let value = Value::from("x".repeat(json::MAX_STRING_BYTES + 1));
    assert_eq!(json::check_limits(&value).unwrap_err().code, Code::Limit);
}

#[test]
fn a_document_over_the_limit_is_e_limit() {
    let text = vec![b' '; json::MAX_DOCUMENT_BYTES + 1];
    let err = json::parse(&text).unwrap_err();
    assert_eq!(err.code, Code::Limit);
}

#[test]
fn deep_values_built_by_hosts_are_checked() {
    let mut value = Value::Null;
    for _ in 0..json::MAX_DEPTH {
        value = Value::Array(vec![value]);
    }
    assert!(json::check_limits(&value).is_ok());
    let deeper = Value::Array(vec![value]);
    assert_eq!(json::check_limits(&deeper).unwrap_err().code, Code::Limit);
}

#[test]
fn a_hundred_thousand_open_brackets_are_e_limit_not_a_stack_overflow() {
    let text = "[".repeat(100_000);
    assert_eq!(json::parse(text.as_bytes()).unwrap_err().code, Code::Limit);
}

#[test]
fn numbers_are_checked_for_host_precision() {
    // Integers a double holds exactly pass (2^53, 1e20 written out), others do not.
    let exact = br#"{"max": 9007199254740991, "p53": 9007199254740992, "e20": 100000000000000000000, "neg": -9007199254740992, "js": 1152921504606847000, "full": 1152921504606846976}"#;
    assert!(json::check_js_safe(&json::parse(exact).unwrap()).is_ok());
    let doc = json::parse(br#"{"ok": 1, "a": [1, 9007199254740993]}"#).unwrap();
    let err = json::check_js_safe(&doc).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::Precision, "/a/1"));
    let doc = json::parse(br#"[123456789012345678901234567890]"#).unwrap();
    assert_eq!(json::check_js_safe(&doc).unwrap_err().path, "/0");
    let doc = json::parse(br#"{"f": 1e400}"#).unwrap();
    assert_eq!(json::check_js_safe(&doc).unwrap_err().path, "/f");
    let doc = json::parse(br#"{"big": 123456789012345678901234567890, "f": 1e400}"#).unwrap();
    let err = json::check_float_range(&doc).unwrap_err();
    assert_eq!((err.code, err.path.as_str()), (Code::Precision, "/f"));
}

#[test]
fn error_codes_are_unique_and_documented() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md"))
        .expect("docs/errors.md");
    let mut seen = std::collections::HashSet::new();
    for code in Code::ALL {
        assert!(seen.insert(code.as_str()), "duplicate code {code}");
        assert!(
            docs.contains(&format!("`{}`", code.as_str())),
            "{code} is not in docs/errors.md"
        );
    }
}

/// A document of `n` strings of 1 MiB: about `n` MiB of text.
fn megabytes(n: usize) -> Value {
    let chunk = "y".repeat(1024 * 1024);
    Value::Array((0..n).map(|_| Value::from(chunk.as_str())).collect())
}

#[test]
fn a_writer_never_creates_a_document_readers_refuse() {
    // 20 MiB on file, a 20 MiB patch: the merged document would be 40 MiB.
    let old = json::serialize(&statecore::json!({ "a": megabytes(20) }));
    let patch = statecore::json!({ "b": megabytes(20) });
    let options = statecore::merge::MergeOptions::default();
    let pre = statecore::document::Precondition::default();
    let error = statecore::document::update("json", Some(old.as_bytes()), &patch, &options, pre)
        .expect_err("over the document limit");
    assert_eq!(error.code, Code::Limit);
    assert!(
        error.message.contains("the new document"),
        "{}",
        error.message
    );
    // The same for a log line.
    let error = statecore::jsonl::line(&megabytes(33)).expect_err("over the limit");
    assert_eq!(error.code, Code::Limit);
}

#[test]
fn a_file_over_the_size_limit_is_refused_by_writers_unless_reset() {
    // What a host reads of a larger file: the limit + 1 bytes.
    let bytes = vec![b' '; json::MAX_DOCUMENT_BYTES + 1];
    let patch = statecore::json!({ "counter": 1 });
    let options = statecore::merge::MergeOptions::default();
    let keep = statecore::document::Precondition::default();
    let error = statecore::document::update("json", Some(&bytes), &patch, &options, keep)
        .expect_err("refused");
    assert_eq!(error.code, Code::Limit);
    assert!(
        error.message.contains("left unchanged"),
        "{}",
        error.message
    );
    let reset = statecore::document::Precondition {
        if_match: None,
        reset: true,
    };
    let updated = statecore::document::update("json", Some(&bytes), &patch, &options, reset)
        .expect("reset on request");
    assert!(updated.corrupt && updated.changed);
}
