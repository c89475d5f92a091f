//! The tape (`json::Tape`) against the recursive parser (`json::parse_as_written`): on random
//! documents written in random styles (pretty, compact, random whitespace, escapes), and on
//! the same texts with random bytes changed, the tape accepts exactly what the parser accepts,
//! with the same error, the same document and the same as-written flag; read through the
//! `Json` interface, a tape and the parser's tree give the same answers, and so do its
//! tokens in document order (`Tape::tokens`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::json::{self, Tape};
use statecore::value::{Json, JsonKind};
use statecore::Value;

/// A string's text: plain ASCII, characters JSON must escape, and non-ASCII ones.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => "[a-z_]{1,6}",
            1 => Just("\"".to_owned()),
            1 => Just("\\".to_owned()),
            1 => Just("\n\t".to_owned()),
            1 => Just("\u{1}".to_owned()),
            1 => Just("é😀".to_owned()),
        ],
        0..4,
    )
    .prop_map(|parts| parts.concat())
}

/// A number as it may be written: integers, big integers, fractions, exponents, zeros.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        Just("12345678901234567890123".to_owned()),
        (any::<i32>(), 0u32..1000).prop_map(|(a, b)| format!("{a}.{b}")),
        (1u32..99, -400i32..400, prop::bool::ANY)
            .prop_map(|(m, e, upper)| format!("{m}{}{e}", if upper { "E" } else { "e" })),
        Just("-0".to_owned()),
        Just("-0.0e3".to_owned()),
        Just("0.5E+2".to_owned()),
    ]
}

/// A document as text, with whitespace and escapes chosen at random.
fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number(),
        (text(), prop::bool::ANY).prop_map(|(t, escape_all)| quote(&t, escape_all)),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..6), ws())
                .prop_map(|(items, w)| { format!("[{w}{}{w}]", items.join(&format!(",{w}"))) }),
            (
                prop::collection::vec((text(), inner, prop::bool::ANY), 0..6),
                ws()
            )
                .prop_map(|(members, w)| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v, escape_all)| format!("{}{w}:{w}{v}", quote(&k, escape_all)))
                        .collect();
                    format!("{{{w}{}{w}}}", members.join(&format!("{w},{w}")))
                }),
        ]
    })
}

fn ws() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        Just("\n    ".to_owned()),
        Just("\r\n\t".to_owned()),
    ]
}

/// A JSON string literal of `text`; `escape_all` writes every character as `\uXXXX`.
fn quote(text: &str, escape_all: bool) -> String {
    if !escape_all {
        return serde_json::to_string(text).unwrap();
    }
    let mut out = String::from("\"");
    for unit in text.encode_utf16() {
        out.push_str(&format!("\\u{unit:04x}"));
    }
    out.push('"');
    out
}

/// Everything the `Json` interface says about a value, as text.
fn dump<'a, J: Json<'a>>(v: J, out: &mut String) {
    out.push_str(v.type_name());
    match v.kind() {
        JsonKind::Null => {}
        JsonKind::Bool | JsonKind::Number => {
            out.push_str(&format!(
                " {:?} {:?} {:?} {:?}",
                v.scalar_text(),
                v.as_u64(),
                v.as_i64(),
                v.as_f64().map(f64::to_bits)
            ));
        }
        JsonKind::String => out.push_str(&format!(" {:?}", v.as_str())),
        JsonKind::Array => {
            out.push_str(&format!(" {} [", v.len()));
            for item in v.items() {
                dump(item, out);
                out.push(',');
            }
            out.push(']');
        }
        JsonKind::Object => {
            out.push_str(&format!(" {} {{", v.len()));
            let mut cursor = v.first_member();
            for (key, value) in v.members() {
                // Walking in order, each key is where the cursor is.
                assert_eq!(v.key_at(cursor), Some(key));
                let (after, found) = v.find_near(key, cursor).expect("a member is found");
                assert_eq!(after, v.after_member(cursor));
                let mut a = String::new();
                let mut b = String::new();
                dump(found, &mut a);
                dump(value, &mut b);
                assert_eq!(a, b, "find_near and members disagree on {key:?}");
                assert!(v.get(key).is_some());
                // Looked for from anywhere, a key is found.
                assert!(v.find_near(key, v.first_member()).is_some());
                cursor = after;
                out.push_str(&format!("{key:?}:"));
                dump(value, out);
                out.push(',');
            }
            assert_eq!(v.key_at(cursor), None, "no key after the last member");
            assert!(v.get("\u{0}absent").is_none());
            out.push('}');
        }
    }
}

/// The document of a tape's tokens (`Tape::tokens`), built with a stack of the open
/// containers as a host builds its objects.
fn from_tokens(tape: &Tape<'_>) -> Value {
    use statecore::json::Token;
    use statecore::{Map, Number};
    enum Open {
        Object(Map, usize, Option<String>),
        Array(Vec<Value>, usize),
    }
    let mut open: Vec<Open> = Vec::new();
    let mut tokens = tape.tokens();
    loop {
        if let Some(Open::Object(_, left, key)) = open.last_mut() {
            if *left > 0 && key.is_none() {
                match tokens.next() {
                    Some(Token::String(k)) => *key = Some(k.to_owned()),
                    other => panic!("a key expected, not {other:?}"),
                }
            }
        }
        let done = matches!(open.last(), Some(Open::Object(_, 0, _) | Open::Array(_, 0)));
        let value = if done {
            match open.pop().unwrap() {
                Open::Object(map, ..) => Value::Object(map),
                Open::Array(items, _) => Value::Array(items),
            }
        } else {
            match tokens.next().expect("a value") {
                Token::Object(n) => {
                    open.push(Open::Object(Map::new(), n, None));
                    continue;
                }
                Token::Array(n) => {
                    open.push(Open::Array(Vec::new(), n));
                    continue;
                }
                Token::String(s) => Value::from(s),
                Token::Number(text) => Value::Number(text.parse::<Number>().unwrap()),
                Token::Bool(b) => Value::Bool(b),
                Token::Null => Value::Null,
            }
        };
        match open.last_mut() {
            None => {
                assert!(tokens.next().is_none(), "tokens after the root");
                return value;
            }
            Some(Open::Object(map, left, key)) => {
                map.insert(key.take().unwrap().into(), value);
                *left -= 1;
            }
            Some(Open::Array(items, left)) => {
                items.push(value);
                *left -= 1;
            }
        }
    }
}

/// The tape and the parser agree on `text`.
fn agree(text: &[u8]) {
    match (json::parse_as_written(text), Tape::parse(text)) {
        (Ok((value, written)), Ok((tape, tape_written))) => {
            let built = tape.root().to_value();
            assert_eq!(json::serialize(&built), json::serialize(&value));
            let tokens = from_tokens(&tape);
            assert_eq!(json::serialize(&tokens), json::serialize(&value), "tokens");
            assert!(built == value);
            assert_eq!(written, tape_written, "as-written flag");
            let (mut a, mut b) = (String::new(), String::new());
            dump(&value, &mut a);
            dump(tape.root(), &mut b);
            assert_eq!(a, b);
            numbers_agree(&value, tape.root());
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!(
            "parse {:?} but tape {:?} on {:?}",
            a.map(|_| "accepted"),
            b.map(|_| "accepted"),
            String::from_utf8_lossy(text)
        ),
    }
}

/// The number checks give the same answer on the tree and the tape (a tape reads its
/// numbers as one run of nodes), for the whole value and each member or item.
fn numbers_agree<'a>(value: &Value, tape: impl Json<'a>) {
    assert_eq!(json::check_js_safe(value), json::check_js_safe(tape));
    assert_eq!(
        json::check_float_range(value),
        json::check_float_range(tape)
    );
    let items = value.members().map(|(_, v)| v).chain(value.items());
    let tape_items = tape.members().map(|(_, v)| v).chain(tape.items());
    for (value, tape) in items.zip(tape_items) {
        assert_eq!(json::check_js_safe(value), json::check_js_safe(tape));
        assert_eq!(
            json::check_float_range(value),
            json::check_float_range(tape)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn tape_reads_what_parse_reads(text in json_text()) {
        agree(text.as_bytes());
        // With a byte-order mark, and as an argument of a larger document.
        agree(format!("\u{feff}{text}").as_bytes());
        agree(format!("{{\"a\": {text}, \"b\": [{text}]}}").as_bytes());
    }

    #[test]
    fn tape_refuses_what_parse_refuses(
        text in json_text(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4),
    ) {
        let mut bytes = text.into_bytes();
        for (at, byte, how) in edits {
            if bytes.is_empty() {
                bytes.push(byte);
                continue;
            }
            let i = at.index(bytes.len());
            match how {
                0 => bytes[i] = byte,
                1 => { bytes.remove(i); }
                _ => bytes.insert(i, byte),
            }
        }
        agree(&bytes);
    }

    #[test]
    fn repeated_keys_are_refused_with_the_parsers_error(
        keys in prop::collection::vec("[a-c]{1,2}", 1..40),
        escape in prop::bool::ANY,
    ) {
        let members: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{}: {i}", quote(k, escape && i % 2 == 0)))
            .collect();
        agree(format!("{{{}}}", members.join(", ")).as_bytes());
    }
}

#[test]
fn limits_and_edges_agree() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for text in [
        deep(128),
        deep(129),
        String::new(),
        "   ".to_owned(),
        "{\"a\":1,\"a\":2}".to_owned(),
        "{\"a\":1,\"\\u0061\":2}".to_owned(),
        "\"\\ud800\"".to_owned(),
        "\"\\udc00\\ud800\"".to_owned(),
        "\"\\ud83d\\ude00\"".to_owned(),
        "[1,]".to_owned(),
        "{\"a\" 1}".to_owned(),
        "01".to_owned(),
        "-".to_owned(),
        "1.".to_owned(),
        "1e".to_owned(),
        "[\"\u{1}\"]".to_owned(),
        "nul".to_owned(),
        "[] x".to_owned(),
        "-0".to_owned(),
        "[-0.0, 1E5]".to_owned(),
    ] {
        agree(text.as_bytes());
    }
    agree(&[0x22, 0xff, 0x22]);
    agree(b"\xef\xbb\xbf{}");
    // An object of many keys: every one found, in and out of order.
    let members: Vec<String> = (0..300).map(|i| format!("\"k{i}\": {i}")).collect();
    let text = format!("{{{}}}", members.join(","));
    agree(text.as_bytes());
    let (tape, _) = Tape::parse(text.as_bytes()).unwrap();
    let root = tape.root();
    for i in (0..300).rev() {
        assert_eq!(root.get(&format!("k{i}")).and_then(|v| v.as_u64()), Some(i));
    }
    let value: Value = json::parse(text.as_bytes()).unwrap();
    assert_eq!(root.len(), (&value).len());
}

#[test]
fn string_limit_counts_decoded_bytes() {
    // Escapes shrink when decoded: the limit is on the decoded text, on both paths.
    let max = json::MAX_STRING_BYTES;
    let escaped = "\\u0041".repeat(max / 6 + 1);
    agree(format!("\"{escaped}\"").as_bytes());
    let over = "a".repeat(max + 1);
    agree(format!("\"{over}\"").as_bytes());
}

/// A value for a runner status field: the right type, or anything.
fn field_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\"working\"".to_owned()),
        Just("\"needs_input\"".to_owned()),
        Just("\"blocked\"".to_owned()),
        Just("\"ready_for_review\"".to_owned()),
        Just("\"Working\"".to_owned()),
        Just("\"2026-01-19T12:00:00Z\"".to_owned()),
        Just("\"2026-01-19T12:00:00\"".to_owned()),
        Just("\"  \"".to_owned()),
        Just("[\"a question\"]".to_owned()),
        Just("[1, {\"x\": null}]".to_owned()),
        Just("[]".to_owned()),
        Just("null".to_owned()),
        Just("{}".to_owned()),
        Just("1.0".to_owned()),
        Just("-0".to_owned()),
        Just("12345678901234567890".to_owned()),
        Just("true".to_owned()),
        text().prop_map(|t| quote(&t, false)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// A reader's result is the same, field for field, whether the rules ran on the read text
    /// (`document::read`) or on the tree (`document::load`).
    #[test]
    fn read_on_the_text_is_load_on_the_tree(
        members in prop::collection::vec(
            (
                prop_oneof![
                    Just("schema_version"), Just("status"), Just("updated_at"),
                    Just("summary"), Just("questions"), Just("blockers"),
                    Just("how_to_test"), Just("risks"), Just("extra"), Just("pr_url"),
                ],
                field_value(),
            ),
            0..10,
        ),
        kind in prop_oneof![Just("agency.runner_status"), Just("json")],
        wrap in 0u8..4,
    ) {
        let mut seen = std::collections::HashSet::new();
        let body: Vec<String> = members
            .into_iter()
            .filter(|(k, _)| seen.insert(*k))
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        let object = format!("{{{}}}", body.join(", "));
        let text = match wrap {
            0 => object,
            1 => format!("[{object}]"),
            2 => "null".to_owned(),
            _ => format!("{object} x"),
        };
        for bytes in [Some(text.as_bytes()), None] {
            let loaded = statecore::document::load(kind, bytes).unwrap().into_value();
            let read = statecore::ops::Out::loaded(statecore::document::read(kind, bytes).unwrap())
                .into_value();
            prop_assert_eq!(json::serialize(&read), json::serialize(&loaded));
        }
    }
}

/// Every object and list in the conformance corpus (the protocols' documents, valid and
/// broken, as the cases hold them), read as each JSON kind: the result of the reader that
/// checks the read text is the tree reader's, field for field.
#[test]
fn read_equals_load_on_every_corpus_document() {
    fn collect(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Array(items) => {
                out.push(json::serialize(value));
                items.iter().for_each(|item| collect(item, out));
            }
            Value::Object(map) => {
                out.push(json::serialize(value));
                map.values().for_each(|item| collect(item, out));
            }
            _ => {}
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    let mut texts = Vec::new();
    for file in files {
        collect(
            &json::parse(&std::fs::read(file).unwrap()).unwrap(),
            &mut texts,
        );
    }
    texts.sort();
    texts.dedup();
    let kinds: Vec<&str> = statecore::kinds::KINDS
        .iter()
        .filter(|k| matches!(k.format, statecore::kinds::Format::Json))
        .map(|k| k.name)
        .collect();
    let mut checked = 0;
    for text in &texts {
        for kind in &kinds {
            let loaded = statecore::document::load(kind, Some(text.as_bytes())).unwrap();
            let read = statecore::document::read(kind, Some(text.as_bytes())).unwrap();
            assert_eq!(
                json::serialize(&statecore::ops::Out::loaded(read).into_value()),
                json::serialize(&loaded.into_value()),
                "{kind} on {text}"
            );
            checked += 1;
        }
    }
    assert!(checked > 10_000, "only {checked} documents were compared");
}
