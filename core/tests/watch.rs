//! The watcher's law (docs/watch.md): however a log grows between reads (cut anywhere, even
//! inside a line or a character) and however a host pages it, the records a watcher reports,
//! read by read from where the last read stopped, are the log's records, each once, in order.
//!
//! Only with the core's `full` feature: the watcher's reads of a log are not in the browser's
//! module's build.
#![cfg(feature = "full")]
#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use proptest::prelude::*;
use statecore::ops::{self, Arg, Args, Out};
use statecore::{json, Value};
use std::borrow::Cow;

/// One `watch_read` of `data` with `facts`, through the table as the hosts call it.
fn read(data: &[u8], facts: Value) -> Value {
    let target = json::parse(br#"{"path":"s/EVENTS.jsonl","kind":"hive.event","log":true}"#)
        .expect("target");
    let op = ops::CORE.find("watch_read").expect("watch_read");
    let args = vec![
        Arg::Value(target),
        Arg::Bytes(Some(Cow::Owned(data.to_vec()))),
        Arg::Value(facts),
    ];
    match ops::CORE
        .call(op, Args::new(args))
        .expect("watch_read answers")
    {
        Out::Json(value) => value,
        other => panic!("not JSON: {other:?}"),
    }
}

/// The facts of a read: a last attempt (a torn line is reported, not waited for).
fn facts(offset: u64, line: u64, more: bool) -> Value {
    json::parse(
        format!(r#"{{"attempt":99,"locked":false,"unlocked":99,"offset":{offset},"line":{line},"more":{more}}}"#)
            .as_bytes(),
    )
    .expect("facts")
}

/// A log of `n` records with a non-ASCII character in each.
fn log(n: usize) -> (Vec<u8>, Vec<Value>) {
    let mut bytes = Vec::new();
    let mut records = Vec::new();
    for i in 0..n {
        let line = format!(
            r#"{{"timestamp":"2026-11-25T01:00:{:02}Z","type":"progress","agent":"w{i}","details":{{"note":"é{i}"}}}}"#,
            i % 60
        );
        records.push(json::parse(line.as_bytes()).expect("record"));
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    (bytes, records)
}

/// Reads the log as it stood at each cut, then whole, in pages of `page` bytes, and gives the
/// records reported in order.
fn watched(bytes: &[u8], cuts: &[usize], page: usize) -> Vec<Value> {
    let mut seen = Vec::new();
    let (mut offset, mut line) = (0u64, 0u64);
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        let file = &bytes[..cut];
        loop {
            let start = usize::try_from(offset).expect("offset");
            let end = file.len().min(start + page);
            let more = end < file.len();
            let answer = read(&file[start..end], facts(offset, line, more));
            if let Some(records) = answer["change"]["records"].as_array() {
                seen.extend(records.iter().cloned());
            }
            offset = answer["offset"].as_u64().expect("offset");
            line = answer["line"].as_u64().expect("line");
            if !more {
                break;
            }
        }
    }
    seen
}

proptest! {
    #[test]
    fn a_growing_log_is_reported_once_in_order(
        n in 1usize..12,
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
        page in 400usize..2000,
    ) {
        let (bytes, records) = log(n);
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        prop_assert_eq!(watched(&bytes, &cuts, page), records);
    }
}

#[test]
fn a_torn_line_is_reported_once_it_is_whole() {
    let (bytes, records) = log(3);
    // Cut inside the second line's `é`: the first read reports one record, the next two.
    let cut = bytes
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w == &"é".as_bytes())
        .nth(1)
        .expect("é")
        .0
        + 1;
    assert_eq!(watched(&bytes, &[cut], 1 << 20), records);
    let first = read(&bytes[..cut], facts(0, 0, false));
    assert_eq!(first["change"]["records"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        first["change"]["warnings"][0]["code"].as_str(),
        Some("W_TORN_TAIL")
    );
}
