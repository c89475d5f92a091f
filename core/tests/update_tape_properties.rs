//! The update on a read text (`document::update_read`, `ops::update_read`: the file's bytes
//! read into a tape, the patch merged into it without building a tree) against the update on
//! the document's tree (`document::update`): on random base documents written as text (odd
//! number texts, escapes, nesting, keys shared with the patch), random patches (nulls, nested
//! objects, objects over non-objects), every strategy, with and without a stamp and rules,
//! with and without an etag to match, both give the same result in every field (text, etag,
//! changed, document, warnings) or the same error.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::document::{self, Doc, Precondition};
use statecore::merge::MergeOptions;
use statecore::ops::{self, Change};
use statecore::{json, Map, Value};

/// Keys from a small pool, so that patches meet the base's keys; one needs escaping.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just("c".to_owned()),
        Just("id".to_owned()),
        Just("lastUpdated".to_owned()),
        Just("q\"\n".to_owned()),
        Just("é".to_owned()),
    ]
}

/// A number as another writer may have written it.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i32>().prop_map(|n| n.to_string()),
        Just("12345678901234567890123".to_owned()),
        Just("1.50".to_owned()),
        Just("1E5".to_owned()),
        Just("-0".to_owned()),
        Just("-0.0e3".to_owned()),
        Just("2.5e-3".to_owned()),
        Just("-3e7".to_owned()),
        Just("4e+2".to_owned()),
    ]
}

fn string_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,5}".prop_map(|s| format!("\"{s}\"")),
        Just(r#""tab\tquote\"\u00e9\ud83d\ude00""#.to_owned()),
        Just(r#""\u0061\/""#.to_owned()),
    ]
}

/// A base document as text, in a random style.
fn base_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number(),
        string_literal(),
    ];
    let value = leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| format!("[ {} ]", items.join(" ,\n"))),
            object_text(inner),
        ]
    });
    prop_oneof![
        8 => object_text(value.boxed()),
        1 => Just("[1, 2]".to_owned()),
        1 => Just("null".to_owned()),
        1 => Just("\"text\"".to_owned()),
    ]
}

fn object_text(inner: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop::collection::btree_map(key(), inner, 0..6).prop_map(|members| {
        let members: Vec<String> = members
            .into_iter()
            .map(|(k, v)| format!("{} :{v}", serde_json::to_string(&k).unwrap()))
            .collect();
        format!("{{\n  {}\n}}", members.join(",\n\t"))
    })
}

/// A patch: objects over the same keys, nulls, arrays, numbers as a host gives them.
fn patch() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        2 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        2 => any::<i32>().prop_map(Value::from),
        1 => Just(json::parse_str("1e+400").unwrap_or(Value::Null)),
        1 => Just(json::parse_str("1.50").unwrap()),
        2 => "[a-z\"\\\\\n]{0,4}".prop_map(|s| Value::from(s.as_str())),
    ];
    let value = leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            patch_object(inner),
        ]
    });
    prop_oneof![
        8 => patch_object(value.boxed()),
        1 => Just(Value::Null),
        1 => Just(json::parse_str("[null, {\"a\": null}]").unwrap()),
    ]
}

fn patch_object(inner: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(), inner), 0..5).prop_map(|members| {
        let mut map = Map::new();
        for (k, v) in members {
            map.insert(k.as_str().into(), v);
        }
        Value::Object(map)
    })
}

/// Merge options: every strategy; a stamp; rules for shallow and deep.
fn options() -> impl Strategy<Value = Value> {
    let strategy = prop_oneof![Just("shallow"), Just("deep"), Just("merge_patch")];
    let rules = prop_oneof![
        4 => Just(Value::Null),
        1 => Just(json::parse_str(r#"[{"path": "/a", "mode": "append"}]"#).unwrap()),
        1 => Just(json::parse_str(r#"[{"path": "/b", "mode": "by_key", "key": "id"}]"#).unwrap()),
        1 => Just(json::parse_str(r#"[{"path": "/c/*", "mode": "replace"}]"#).unwrap()),
    ];
    (strategy, rules, any::<bool>()).prop_map(|(strategy, rules, stamp)| {
        let mut map = Map::new();
        map.insert("strategy".into(), Value::from(strategy));
        if strategy != "merge_patch" {
            map.insert("rules".into(), rules);
        }
        if stamp {
            map.insert(
                "stamp".into(),
                json::parse_str(r#"{"field": "lastUpdated", "now": "2026-11-27T12:00:00Z"}"#)
                    .unwrap(),
            );
        }
        Value::Object(map)
    })
}

const KINDS: [&str; 3] = ["json", "fctry.state", "agency.runner_status"];

/// The tree update and the update on the read text of `base` by `patch`: the same result, or
/// the same error, at the document level and through the operation table's file update.
fn agree(kind: &str, base: &[u8], patch: &Value, options: &Value, if_match: Option<&str>) {
    let merge_options = match MergeOptions::from_value(options) {
        Ok(options) => options,
        Err(_) => return,
    };
    let pre = Precondition::if_match(if_match);
    let tree = document::update(kind, Some(base), patch, &merge_options, pre);
    let tape = document::update_read(kind, Some(base), patch, &merge_options, pre)
        .map(|updated| updated.map_document(Doc::into_value));
    assert_eq!(tree, tape, "document::update_read of {kind}");
    let change = Change::Patch(patch.clone(), options.clone());
    let now = Value::Null;
    let file = ops::update_read(kind, Some(base), change, &now, pre);
    match (&tree, file) {
        (Ok(tree), Ok(file)) => {
            assert_eq!(tree.text, file.text, "ops::update_read's text");
            assert_eq!(Some(&tree.etag), file.etag.as_ref());
            assert_eq!(tree.changed, file.changed);
            assert_eq!(tree.warnings, file.warnings);
            assert_eq!(tree.document, file.document.into_value());
        }
        (Err(tree), Err(file)) => assert_eq!(tree, &file, "ops::update_read's error"),
        (tree, file) => panic!("tree {tree:?}, ops::update_read {file:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn tape_update_equals_tree_update(
        base in base_text(),
        patch in patch(),
        options in options(),
        kind in 0usize..3,
        etag in 0u8..3,
    ) {
        let base = base.as_bytes();
        let right = json::etag(base);
        let if_match = match etag {
            0 => None,
            1 => Some(right.as_str()),
            _ => Some("0123"),
        };
        agree(KINDS[kind], base, &patch, &options, if_match);
    }

    /// The same base written back unchanged: `changed: false` exactly when the text is the
    /// file's bytes.
    #[test]
    fn canonical_bases_agree(base in base_text(), patch in patch(), options in options()) {
        let Ok(tree) = json::parse(base.as_bytes()) else { return Ok(()) };
        let canonical = json::serialize(&tree);
        agree("json", canonical.as_bytes(), &patch, &options, None);
        agree("json", canonical.as_bytes(), &Value::Object(Map::new()), &options, None);
    }
}

/// Edge cases the generators reach rarely: a patch that makes the document deeper than the
/// limit, a base that is not JSON, a missing file, an unknown kind, a text kind.
#[test]
fn edges_agree() {
    let deep = |levels: usize| {
        let array = format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        json::parse_args(&format!("[{array}]")).unwrap()[0].clone()
    };
    for base in [
        &br#"{"a": 1}"#[..],
        br#"{"b": {"c": 1}}"#,
        b"{not json",
        br#"{"a": 1, "a": 2}"#,
        b"",
    ] {
        for (kind, levels, strategy) in KINDS.into_iter().flat_map(|k| {
            [
                (k, 127, "deep"),
                (k, 128, "merge_patch"),
                (k, 127, "shallow"),
            ]
        }) {
            let mut patch = Map::new();
            patch.insert("a".into(), deep(levels));
            let options = json::parse_str(&format!(r#"{{"strategy": "{strategy}"}}"#)).unwrap();
            agree(kind, base, &Value::Object(patch), &options, None);
            agree(kind, base, &Value::Object(Map::new()), &options, None);
        }
    }
    // A missing file and a kind of another format take the tree path, with its answers.
    let options = MergeOptions::default();
    let empty = Value::Object(Map::new());
    for kind in ["json", "specify.index", "no.such.kind"] {
        let tree = document::update(kind, None, &empty, &options, Precondition::default());
        let tape = document::update_read(kind, None, &empty, &options, Precondition::default())
            .map(|u| u.map_document(Doc::into_value));
        assert_eq!(tree, tape, "{kind}");
    }
}
