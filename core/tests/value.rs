//! The document type (core/src/value): the behaviours the core relies on, which serde_json's
//! `Value` had (key order, exact numbers, pointers, order-free equality), and the hash index of
//! large maps.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use statecore::{json, Map, Number, Value};

#[test]
fn maps_keep_insertion_order_and_replace_in_place() {
    let mut map = Map::new();
    for key in ["b", "a", "c"] {
        map.insert(key.into(), json!(1));
    }
    assert_eq!(map.insert("a".into(), json!(2)), Some(json!(1)));
    assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a", "c"]);
    assert_eq!(map.shift_remove("b"), Some(json!(1)));
    assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "c"]);
    assert_eq!(
        map.insert_new("a".into(), json!(3)),
        Err(("a".into(), json!(3)))
    );
    assert_eq!(map["a"], json!(2));
    assert_eq!(map["missing"], Value::Null);
}

#[test]
fn large_maps_find_every_key_through_their_index_after_changes() {
    let mut map = Map::new();
    for i in 0..100 {
        map.insert(format!("k{i}").into(), json!(i));
    }
    for i in (0..100).step_by(3) {
        assert_eq!(map.shift_remove(&format!("k{i}")), Some(json!(i)));
    }
    map.retain(|key, _| key != "k1");
    for i in 0..100 {
        let want = (i % 3 != 0 && i != 1).then(|| json!(i));
        assert_eq!(map.get(&format!("k{i}")).cloned(), want, "k{i}");
    }
    assert_eq!(map.keys().next().map(statecore::Str::as_str), Some("k2"));
    assert_eq!(map.insert("k2".into(), json!("x")), Some(json!(2)));
    assert_eq!(map.keys().next().map(statecore::Str::as_str), Some("k2"));
}

#[test]
fn equality_ignores_key_order_but_not_number_text() {
    assert_eq!(
        json!({"a": 1, "b": [true, null]}),
        json!({"b": [true, null], "a": 1})
    );
    assert_ne!(json!({"a": 1}), json!({"a": 1, "b": 2}));
    assert_ne!(json::parse(b"1.0").unwrap(), json::parse(b"1").unwrap());
}

#[test]
fn numbers_keep_their_text() {
    for (text, kept) in [
        (
            "12345678901234567890123456789",
            "12345678901234567890123456789",
        ),
        ("1.0", "1.0"),
        ("1E5", "1e+5"),
        ("-2.5e-3", "-2.5e-3"),
        ("-0", "0"),
    ] {
        let value = json::parse(text.as_bytes()).unwrap();
        assert_eq!(value.as_number().unwrap().as_str(), kept);
        assert_eq!(json::serialize_compact(&value), kept);
    }
    assert_eq!(Number::from(i64::MIN).as_str(), "-9223372036854775808");
    assert_eq!(Number::from(u64::MAX).as_str(), "18446744073709551615");
    assert_eq!(Number::from_f64(1e300).unwrap().as_str(), "1e+300");
    assert_eq!(Number::from_f64(0.1).unwrap().as_str(), "0.1");
    assert!(Number::from_f64(f64::NAN).is_none());
    assert_eq!(json!(7).as_i64(), Some(7));
    assert_eq!(json!(2.5).as_f64(), Some(2.5));
    assert!("1.5".parse::<Number>().unwrap().is_f64());
    assert!("[1]".parse::<Number>().is_err());
}

#[test]
fn pointers_read_and_change_members() {
    let mut doc = json!({"a/b": {"~x": [10, 20]}, "": 1});
    assert_eq!(doc.pointer(""), Some(&doc.clone()));
    assert_eq!(doc.pointer("/a~1b/~0x/1"), Some(&json!(20)));
    assert_eq!(doc.pointer("/"), Some(&json!(1)));
    assert_eq!(doc.pointer("/a~1b/~0x/01"), None);
    assert_eq!(doc.pointer("a"), None);
    *doc.pointer_mut("/a~1b/~0x/0").unwrap() = json!("ten");
    assert_eq!(doc["a/b"]["~x"][0], json!("ten"));
    assert_eq!(
        doc.get("a/b")
            .and_then(|v| v.get("~x"))
            .and_then(|v| v.get(5)),
        None
    );
}

#[test]
fn json_macro_builds_what_the_text_says() {
    let name = "k";
    let list = vec![json!(1), json!(null)];
    let built =
        json!({"s": "x", "n": null, "l": [1, [2], {"z": false}], (name): list, "o": Some(3)});
    let parsed = json::parse(br#"{"s":"x","n":null,"l":[1,[2],{"z":false}],"k":[1,null],"o":3}"#);
    assert_eq!(built, parsed.unwrap());
    assert_eq!(
        built.to_string(),
        r#"{"s":"x","n":null,"l":[1,[2],{"z":false}],"k":[1,null],"o":3}"#
    );
}

/// A number whose fraction is zero is a whole number, as JSON Schema's `integer` says
/// (`5.0`, `5e0`, `0.5e1`), read exactly from its digits; one with a fraction is not.
#[test]
fn whole_numbers_written_with_a_fraction_or_an_exponent() {
    let number = |text: &str| {
        statecore::json::parse(text.as_bytes())
            .unwrap()
            .as_number()
            .cloned()
            .unwrap()
    };
    for (text, want) in [
        ("5", Some(5)),
        ("5.0", Some(5)),
        ("5e0", Some(5)),
        ("0.5e1", Some(5)),
        ("70e-1", Some(7)),
        ("1.5e3", Some(1500)),
        ("-0.0", Some(0)),
        ("0e999999999", Some(0)),
        ("18446744073709551615.000", Some(u64::MAX)),
        ("18446744073709551616.0", None),
        ("1e400", None),
        ("1.5", None),
        ("5.000001", None),
        ("5e-1", None),
        ("-5.0", None),
    ] {
        assert_eq!(number(text).as_u64(), want, "{text} as u64");
    }
    assert_eq!(number("-5.0").as_i64(), Some(-5));
    assert_eq!(number("-9223372036854775808.0").as_i64(), Some(i64::MIN));
    assert_eq!(number("9223372036854775808.0").as_i64(), None);
    assert_eq!(number("2.5").as_i64(), None);
    // The text is kept as written.
    assert_eq!(number("5.0").as_str(), "5.0");
}
