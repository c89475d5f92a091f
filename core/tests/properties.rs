//! Property tests for the laws: merge identity and idempotence, parse/serialize round trips,
//! deterministic machines, and "never panics" on arbitrary bytes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::json;
use statecore::machine::{Instance, Machine};
use statecore::merge::{merge, MergeOptions, Strategy as MergeStrategy};
use statecore::ops::{Change, Resident};
use statecore::{Map, Number, Value};

/// The same document as a `serde_json::Value` (keys in order, numbers exact), built directly.
fn to_serde(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => serde_json::Value::Number(n.as_str().parse().unwrap()),
        Value::String(s) => serde_json::Value::String(s.to_string()),
        Value::Array(items) => serde_json::Value::Array(items.iter().map(to_serde).collect()),
        Value::Object(map) => serde_json::Value::Object(
            map.iter()
                .map(|(k, v)| (k.to_string(), to_serde(v)))
                .collect(),
        ),
    }
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        // Hosts never build a negative zero (they read it as zero: docs/api.md § Host values).
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| if f == 0.0 { 0.0 } else { f })
            .prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z\\u{e9}\\u{1F600}\"\\\\\n]{0,6}".prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-e]{1,2}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map>())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::vec(("[a-e]{1,2}", value()), 0..6)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map>()))
}

const STRATEGIES: [MergeStrategy; 3] = [
    MergeStrategy::Shallow,
    MergeStrategy::Deep,
    MergeStrategy::MergePatch,
];

proptest! {
    #[test]
    fn merging_an_empty_patch_is_identity(doc in object()) {
        for s in STRATEGIES {
            let out = merge(&doc, &Value::Object(Map::new()), &MergeOptions::with_strategy(s)).unwrap();
            prop_assert_eq!(&out, &doc);
        }
    }

    /// A resident document's patch (merged in place, only the part the patch can change
    /// copied) leaves the document a merge of the whole would, keys in order, and says
    /// `changed` exactly when the text changed.
    #[test]
    fn resident_patch_equals_a_merge_of_the_whole(
        doc in object(), patch in object(), s in 0..3usize, stamp in any::<bool>(),
    ) {
        let strategy = ["shallow", "deep", "merge_patch"][s];
        let options = if stamp {
            statecore::json!({"strategy": strategy, "stamp": {"field": "b", "now": "2026-01-01T00:00:00Z"}})
        } else {
            statecore::json!({"strategy": strategy})
        };
        let want = merge(&doc, &patch, &MergeOptions::from_value(&options).unwrap());
        let mut resident = Resident::new("json", doc.clone()).unwrap();
        let got = resident.change(Change::Patch(patch, options), &Value::Null);
        match want {
            Ok(want) => {
                let got = got.unwrap();
                prop_assert_eq!(json::serialize(resident.document()), json::serialize(&want));
                let changed = json::serialize(&doc) != json::serialize(&want);
                prop_assert_eq!(&got["changed"], &Value::Bool(changed));
            }
            Err(error) => {
                prop_assert_eq!(got.unwrap_err().code, error.code);
                prop_assert_eq!(json::serialize(resident.document()), json::serialize(&doc));
            }
        }
    }

    /// A refused resident patch (invalid result) leaves the document as it was, byte for
    /// byte (keys in their order, removed ones back in their place).
    #[test]
    fn a_refused_resident_patch_leaves_the_document_as_it_was(
        extra in object(),
        patch in prop::collection::vec((
            prop_oneof![Just("status"), Just("summary"), Just("questions"), Just("a"), Just("b")],
            prop_oneof![leaf(), Just(Value::from("working")), Just(Value::from("Working")), value()],
        ), 0..5),
        s in 0..3usize,
    ) {
        let mut map = Map::new();
        map.insert("status".into(), Value::from("working"));
        map.insert("summary".into(), Value::from("x"));
        for (key, value) in extra.as_object().unwrap() {
            if !["status", "summary", "questions"].contains(&key.as_str()) {
                map.insert(key.clone(), value.clone());
            }
        }
        map.insert("tail".into(), Value::from("last"));
        let doc = Value::Object(map);
        let kind = "agency.runner_status";
        prop_assume!(statecore::kinds::validate(kind, &doc).unwrap().valid());
        let patch = Value::Object(patch.into_iter().map(|(k, v)| (statecore::Str::from(k), v)).collect::<Map>());
        let strategy = ["shallow", "deep", "merge_patch"][s];
        let options = statecore::json!({"strategy": strategy});
        let before = json::serialize(&doc);
        let merged = merge(&doc, &patch, &MergeOptions::from_value(&options).unwrap()).unwrap();
        let valid = statecore::kinds::validate(kind, &merged).unwrap().valid();
        let mut resident = Resident::new(kind, doc).unwrap();
        let got = resident.change(Change::Patch(patch, options), &Value::Null);
        if valid {
            prop_assert!(got.is_ok());
            prop_assert_eq!(json::serialize(resident.document()), json::serialize(&merged));
        } else {
            prop_assert_eq!(got.unwrap_err().code, statecore::Code::Invalid);
            prop_assert_eq!(json::serialize(resident.document()), before);
        }
    }

    #[test]
    fn merge_is_idempotent(doc in object(), patch in object()) {
        for s in STRATEGIES {
            let options = MergeOptions::with_strategy(s);
            let once = merge(&doc, &patch, &options).unwrap();
            let twice = merge(&once, &patch, &options).unwrap();
            prop_assert_eq!(once, twice);
        }
    }

    #[test]
    fn rules_are_idempotent(doc in object(), items in prop::collection::vec(value(), 0..5)) {
        let options = MergeOptions::from_value(&statecore::json!({
            "strategy": "deep", "rules": [{"path": "/s", "mode": "append"}]
        })).unwrap();
        let patch = statecore::json!({"s": items});
        let once = merge(&doc, &patch, &options).unwrap();
        let twice = merge(&once, &patch, &options).unwrap();
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn parse_serialize_round_trip(doc in value()) {
        let text = json::serialize(&doc);
        let back = json::parse(text.as_bytes()).unwrap();
        prop_assert_eq!(&back, &doc);
        prop_assert_eq!(json::serialize(&back), text);
    }

    /// The writer (json/writer.rs) writes what serde_json writes, byte for byte, for every
    /// character class (all control characters, quotes, backslashes, DEL, non-ASCII).
    #[test]
    fn writer_matches_serde_json(doc in value(), text in "[\\x00-\\x7f\\u{e9}\\u{2028}\\u{1F600}]{0,12}") {
        let doc = Value::Array(vec![doc, Value::from(text.clone()), statecore::json!({ (text.clone()): 1 })]);
        let theirs = to_serde(&doc);
        let mut pretty = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(b"  ");
        let mut serializer = serde_json::Serializer::with_formatter(&mut pretty, formatter);
        serde::Serialize::serialize(&theirs, &mut serializer).unwrap();
        pretty.push(b'\n');
        prop_assert_eq!(json::serialize(&doc), String::from_utf8(pretty).unwrap());
        prop_assert_eq!(json::serialize_compact(&doc), serde_json::to_string(&theirs).unwrap());
    }

    #[test]
    fn compact_and_canonical_agree(doc in value()) {
        let compact = json::serialize_compact(&doc);
        prop_assert_eq!(json::serialize(&json::parse(compact.as_bytes()).unwrap()), json::serialize(&doc));
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = json::parse(&data);
        let _ = statecore::jsonl::parse_log(&data);
    }

    #[test]
    fn json_like_text_never_panics(text in "[\\[\\]{}\",:0-9eE.+\\-tfnrul\\\\ a]{0,40}") {
        let _ = json::parse(text.as_bytes());
    }

    #[test]
    fn machines_are_deterministic(events in prop::collection::vec(0usize..6, 0..30), attempt in 0u8..5) {
        let machine = Machine::from_value(&chunk_machine()).unwrap();
        let names = ["start", "succeed", "fail", "pause", "resume", "nonsense"];
        let context = statecore::json!({"attempt": attempt});
        let run = || {
            let mut instance = Instance { state: machine.initial.clone(), previous: None };
            let mut trace = Vec::new();
            for &e in &events {
                match machine.fire(&instance, names[e], &context) {
                    Ok(fired) => { instance = fired.instance; trace.push(instance.state.clone()); }
                    Err(err) => trace.push(err.code.as_str().to_owned()),
                }
            }
            trace
        };
        let first = run();
        prop_assert_eq!(&first, &run());
        for state in first.iter().filter(|s| !s.starts_with("E_")) {
            prop_assert!(machine.states.iter().any(|s| &s.name == state));
        }
    }
}

fn chunk_machine() -> Value {
    statecore::json!({"name": "chunk", "initial": "planned",
      "states": [{"name": "planned"}, {"name": "active"}, {"name": "retrying"},
                 {"name": "completed", "terminal": true}, {"name": "failed", "terminal": true},
                 {"name": "paused"}],
      "transitions": [
        {"from": ["planned"], "event": "start", "to": "active"},
        {"from": ["active", "retrying"], "event": "succeed", "to": "completed"},
        {"from": ["active", "retrying"], "event": "fail", "to": "retrying",
         "guard": {"path": "/attempt", "op": "lt", "value": 3}},
        {"from": ["active", "retrying"], "event": "fail", "to": "failed"},
        {"from": ["planned", "active", "retrying"], "event": "pause", "to": "paused"},
        {"from": ["paused"], "event": "resume", "to": "$previous"}]})
}

/// A document node stays four words (docs/performance.md § Documents): a map's hash index is
/// boxed, a number's text inline. Memory per node is what a large document costs.
#[test]
fn a_value_is_four_words() {
    assert_eq!(std::mem::size_of::<Value>(), 32);
    assert_eq!(std::mem::size_of::<statecore::Number>(), 24);
}
