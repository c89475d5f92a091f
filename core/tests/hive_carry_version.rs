//! The version of a hive replay's carry (docs/hive.md § Recovery, a replay in parts): a carry
//! says which version of the line hash its remembered ids use. A carry of version 1 (written
//! before the replay hashed lines with `hive::line_hash`: its ids remember xxh3 hashes and it
//! has no `version`) still resumes, its ids' hashes recomputed from the lines of its window,
//! and gives what the whole replay gives; a version this statecore does not know is refused
//! with `E_ARGUMENT` at `/version`, saying what to do.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod hive_support;

use hive_support::outcome;
use statecore::hive::{recover_state, Replay};
use statecore::{json, Value};

/// A session whose lines carry ids (another writer's `id`, statecore's `event_id`), then
/// `tail`.
fn log(tail: &[&str]) -> String {
    let head = [
        r#"{"timestamp":"2026-11-24T10:00:00.000Z","type":"session_created","agent":"queen","details":{"task":"t"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.100Z","type":"workers_planned","agent":"queen","details":{"workers":[{"name":"w-a","task":"a","focus_areas":[]}]}}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.200Z","type":"worker_spawned","agent":"w-a","details":{"worker":"w-a"},"id":"e1"}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.300Z","type":"worker_heartbeat","agent":"w-a","details":{"worker":"w-a"},"event_id":"0a0b"}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.400Z","type":"debug","agent":"w-a","details":"note","id":7}"#,
    ];
    let lines: Vec<&str> = head.iter().copied().chain(tail.iter().copied()).collect();
    format!("{}\n", lines.join("\n"))
}

/// The carry after the log's first five lines, as a version-1 carry was written: no
/// `version`, each id's line hash xxh3 of the line's bytes.
fn version_one(carry: &Value) -> Value {
    let mut carry = carry.clone();
    let map = carry.as_object_mut().unwrap();
    assert_eq!(map.shift_remove("version"), Some(Value::from(2u64)));
    let window: Vec<String> = map["window"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    let ids = map.get_mut("ids").unwrap().as_array_mut().unwrap();
    assert_eq!(ids.len(), 3);
    for item in ids.iter_mut() {
        let item = item.as_array_mut().unwrap();
        let line = item[1].as_u64().unwrap() as usize;
        let old = xxhash_rust::xxh3::xxh3_64(window[line - 1].as_bytes());
        assert_ne!(item[2].as_str().unwrap(), old.to_string());
        item[2] = Value::from(old.to_string().as_str());
    }
    carry
}

/// The log replayed whole, and replayed from `carry` after its first five lines.
fn both(
    tail: &[&str],
    carry: impl Fn(&Value) -> Value,
) -> (Result<String, String>, Result<String, String>) {
    let text = log(tail);
    let whole = outcome(recover_state(text.as_bytes(), "s1", false));
    let cut = text.match_indices('\n').nth(4).unwrap().0 + 1;
    let mut first = Replay::new("s1", None, 0, false).unwrap();
    first.feed(&text.as_bytes()[..cut]).unwrap();
    let carried = carry(&first.carry());
    let mut second = Replay::resume(&carried).unwrap();
    let carried = match second.feed(&text.as_bytes()[cut..]) {
        Ok(()) => outcome(second.finish()),
        Err(error) => outcome(Err(error)),
    };
    (whole, carried)
}

/// Lines after the carry: each id again with its body (applied once), and one under another
/// body (two events under one id: `E_LOG_CORRUPT` naming the first line).
const AGAIN: [&str; 3] = [
    r#"{"timestamp":"2026-11-24T10:00:00.200Z","type":"worker_spawned","agent":"w-a","details":{"worker":"w-a"},"id":"e1"}"#,
    r#"{"event_id":"0a0b","timestamp":"2026-11-24T10:00:00.300Z","type":"worker_heartbeat","agent":"w-a","details":{"worker":"w-a"}}"#,
    r#"{"timestamp":"2026-11-24T10:00:00.400Z", "type":"debug", "agent":"w-a", "details":"note", "id":7}"#,
];
const OTHER: &str = r#"{"timestamp":"2026-11-24T10:00:01.000Z","type":"debug","agent":"w-a","details":"another","id":"e1"}"#;

#[test]
fn a_carry_says_its_version() {
    let mut replay = Replay::new("s1", None, 0, false).unwrap();
    replay.feed(log(&[]).as_bytes()).unwrap();
    assert_eq!(replay.carry()["version"], Value::from(2u64));
}

#[test]
fn a_version_two_carry_resumes_as_the_whole_replay() {
    let (whole, carried) = both(&AGAIN, Value::clone);
    let whole = whole.unwrap();
    assert_eq!(carried.unwrap(), whole);
    let out = json::parse(whole.as_bytes()).unwrap();
    assert_eq!(out["duplicates"].as_u64(), Some(3));
    let (whole, carried) = both(&[OTHER], Value::clone);
    assert!(whole.as_ref().unwrap_err().starts_with("E_LOG_CORRUPT"));
    assert_eq!(carried, whole);
}

#[test]
fn a_version_one_carry_is_recomputed_and_resumes_as_the_whole_replay() {
    let (whole, carried) = both(&AGAIN, version_one);
    assert_eq!(carried.unwrap(), whole.unwrap());
    let (whole, carried) = both(&[OTHER], version_one);
    let error = whole.unwrap_err();
    assert!(error.contains(r#""first_line":3"#), "{error}");
    assert_eq!(carried.unwrap_err(), error);
}

#[test]
fn a_carry_of_an_unknown_version_is_refused() {
    let mut replay = Replay::new("s1", None, 0, false).unwrap();
    replay.feed(log(&[]).as_bytes()).unwrap();
    for version in [Value::from(3u64), Value::from("2"), Value::Null] {
        let mut carry = replay.carry();
        carry
            .as_object_mut()
            .unwrap()
            .insert("version".into(), version.clone());
        let error = Replay::resume(&carry).unwrap_err();
        assert_eq!(error.code.as_str(), "E_ARGUMENT", "{version:?}");
        assert_eq!(error.path, "/version");
        assert!(
            error.message.contains("start the replay again"),
            "{}",
            error.message
        );
    }
}
