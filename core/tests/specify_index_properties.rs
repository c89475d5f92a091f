//! Property tests of index.md read as the `specify.index` document: writing back what was
//! read is the text itself; a document written into a new file reads back as itself; a
//! change of one gap rewrites its line only; merged updates never lose a gap; every path the
//! artifact check accepts stays inside the feature's directory.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::specify::{apply_state_updates, check_path, parse_index, render_index};
use statecore::{json, Map, Value};

const STATUSES: [&str; 5] = ["pending", "clarifying", "resolved", "deferred", "known_gap"];
const PRIORITIES: [&str; 3] = ["Critical", "Important", "Minor"];

/// A cell's text: words, pipes, inline code, unicode.
fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            "[a-z]{1,8}",
            Just("|".to_owned()),
            Just("`x`".to_owned()),
            Just("é".to_owned())
        ],
        1..5,
    )
    .prop_map(|w| w.join(" "))
}

/// A gap with every seed column.
fn gap(n: usize) -> impl Strategy<Value = Value> {
    (
        0..3usize,
        prop::option::of(words()),
        0..5usize,
        0..4u64,
        prop::option::of("C[1-9]\\.[1-3]"),
    )
        .prop_map(move |(p, question, s, stale, clarification)| {
            let mut g = Map::new();
            g.insert("priority".into(), PRIORITIES[p].into());
            g.insert("id".into(), format!("G-{:03}", n + 1).into());
            g.insert("chk_source".into(), format!("CHK{:03}", n + 10).into());
            g.insert("fr_reference".into(), format!("FR-{:03}", n % 4).into());
            g.insert("question".into(), question.map_or(Value::Null, Value::from));
            g.insert("status".into(), STATUSES[s].into());
            g.insert("stale".into(), stale.into());
            g.insert(
                "clarification".into(),
                clarification.map_or(Value::Null, Value::from),
            );
            Value::Object(g)
        })
}

/// An index document with a loop state and a queue.
fn index() -> impl Strategy<Value = Value> {
    (1..11u64, 0..4u64, 0..8usize)
        .prop_flat_map(|(iteration, stale, gaps)| {
            let queue: Vec<_> = (0..gaps).map(gap).collect();
            (Just(iteration), Just(stale), queue)
        })
        .prop_map(|(iteration, stale, queue)| {
            let state = json::parse(
                format!(
                    r#"{{"loop_status": "validating", "current_iteration": {iteration},
                    "max_iterations": 10, "last_activity": "2026-01-19T12:00:00Z",
                    "stale_count": {stale}, "max_stale": 3, "termination_reason": null,
                    "deferred_minor_gaps": 0}}"#
                )
                .as_bytes(),
            )
            .unwrap();
            let mut doc = Map::new();
            doc.insert("priority_loop_state".into(), state);
            doc.insert("gap_priority_queue".into(), Value::Array(queue));
            Value::Object(doc)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_new_file_reads_back_as_its_document(doc in index()) {
        let text = render_index(None, &doc).unwrap();
        let back = parse_index(&text).unwrap();
        prop_assert_eq!(json::serialize(&back), json::serialize(&doc));
        prop_assert_eq!(render_index(Some(&text), &back).unwrap(), text);
    }

    #[test]
    fn one_changed_gap_rewrites_one_line(doc in index(), pick in any::<prop::sample::Index>(), s in 0..5usize) {
        let text = render_index(None, &doc).unwrap();
        let mut changed = parse_index(&text).unwrap();
        let queue = changed.get_mut("gap_priority_queue").unwrap().as_array_mut().unwrap();
        prop_assume!(!queue.is_empty());
        let at = pick.index(queue.len());
        let before = queue[at]["status"].clone();
        queue.get_mut(at).unwrap().as_object_mut().unwrap().insert("status".into(), STATUSES[s].into());
        let out = render_index(Some(&text), &changed).unwrap();
        let differ = text.lines().zip(out.lines()).filter(|(a, b)| a != b).count();
        prop_assert_eq!(text.lines().count(), out.lines().count());
        prop_assert_eq!(differ, usize::from(before.as_str() != Some(STATUSES[s])));
        prop_assert_eq!(json::serialize(&parse_index(&out).unwrap()), json::serialize(&changed));
    }

    #[test]
    fn merged_gaps_are_never_lost(doc in index(), extra in prop::collection::vec(words(), 0..4)) {
        let text = render_index(None, &doc).unwrap();
        let before = parse_index(&text).unwrap();
        let count = before["gap_priority_queue"].as_array().unwrap().len();
        let new: Vec<Value> = extra
            .iter()
            .map(|q| {
                let mut g = Map::new();
                g.insert("priority".into(), "Important".into());
                g.insert("question".into(), q.as_str().into());
                Value::Object(g)
            })
            .collect();
        let mut updates = Map::new();
        updates.insert("gap_priority_queue".into(), Value::Array(new));
        let after = apply_state_updates(before, &Value::Object(updates), &"2026-01-20T00:00:00Z".into())
            .unwrap();
        let out = render_index(Some(&text), &after).unwrap();
        let reread = parse_index(&out).unwrap();
        prop_assert_eq!(reread["gap_priority_queue"].as_array().unwrap().len(), count + extra.len());
    }

    #[test]
    fn accepted_paths_stay_inside(parts in prop::collection::vec(
        prop_oneof![Just("..".to_owned()), Just(".".to_owned()), Just(String::new()),
                    Just(".workflow".to_owned()), "[a-z]{1,6}(\\.md)?", "[\\x00-\\x7f]{1,4}"], 1..6)) {
        let path = parts.join("/");
        if let Ok(normal) = check_path(&path, None, "") {
            prop_assert!(!normal.is_empty());
            let mut depth = 0i64;
            for name in path.split('/') {
                match name {
                    ".." => depth -= 1,
                    "" | "." => {}
                    _ => depth += 1,
                }
                prop_assert!(depth >= 0, "{path:?} went above the directory");
            }
            for name in &normal {
                prop_assert!(!name.is_empty() && name != ".." && name != ".");
                prop_assert!(!name.contains(['\\', '\0']) && !name.chars().any(char::is_control));
            }
            prop_assert!(normal[0] != ".workflow");
        }
    }
}
