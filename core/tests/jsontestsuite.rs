//! JSONTestSuite (tests/vectors/JSONTestSuite): every `y_` file accepted, every `n_` file
//! rejected with a typed error, `i_` outcomes equal to the pinned `i_outcomes.json` (which the
//! Node, browser and Python runners check too). `STATECORE_BLESS=1` rewrites the pin file.
//!
//! The one deliberate exception: statecore rejects duplicate keys (docs/merge.md), so the two
//! `y_` files with a duplicated key are rejected with `E_DUPLICATE_KEY`; they are listed in the
//! pin file with `"reject"` like the `i_` outcomes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use statecore::{json, Code};
use statecore::{Map, Value};
use std::path::Path;

#[test]
fn jsontestsuite_parsing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/JSONTestSuite");
    let mut names: Vec<String> = std::fs::read_dir(root.join("test_parsing"))
        .expect("vectors vendored")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut outcomes = Map::new();
    let mut failures = Vec::new();
    for name in &names {
        let data = std::fs::read(root.join("test_parsing").join(name)).expect("read");
        let result = json::parse(&data);
        if let Err(e) = &result {
            assert!(
                matches!(e.code, Code::Parse | Code::DuplicateKey | Code::Limit),
                "{name}: unexpected code {}",
                e.code
            );
        }
        let accepted = result.is_ok();
        match name.get(..2) {
            Some("y_") if !accepted => {
                let duplicate = matches!(&result, Err(e) if e.code == Code::DuplicateKey);
                if duplicate && name.contains("duplicated_key") {
                    outcomes.insert(name.as_str().into(), "reject".into());
                } else {
                    failures.push(format!("{name} rejected: {result:?}"));
                }
            }
            Some("n_") if accepted => failures.push(format!("{name} accepted")),
            Some("i_") => {
                outcomes.insert(
                    name.as_str().into(),
                    if accepted { "accept" } else { "reject" }.into(),
                );
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), 318, "all 318 parsing vectors are present");
    let pin = root.join("i_outcomes.json");
    let current = json::serialize(&Value::Object(outcomes));
    if std::env::var_os("STATECORE_BLESS").is_some() {
        std::fs::write(&pin, &current).expect("write pin");
    }
    let pinned = std::fs::read_to_string(&pin).expect("i_outcomes.json exists");
    assert_eq!(
        pinned, current,
        "i_ outcomes changed; rerun with STATECORE_BLESS=1 if meant"
    );
}

#[test]
fn rfc7396_appendix_a() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/rfc7396/rfc7396_tests.json");
    let cases = json::parse(&std::fs::read(path).expect("read")).expect("json");
    let cases = cases.as_array().expect("array");
    assert_eq!(cases.len(), 16);
    for case in cases {
        let got = statecore::merge::merge_patch(&case["doc"], &case["patch"]);
        assert_eq!(got, case["expected"], "{}", case["comment"]);
    }
}
