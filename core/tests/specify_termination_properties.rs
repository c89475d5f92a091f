//! Property tests of the specify loop's termination on any Gap Priority Queue (docs/specify.md
//! § The loop, § The queue): whatever statuses and priorities people write, `success` is never
//! said while a Critical or Important gap is unanswered (a status or priority statecore does
//! not know, or a Critical or Important gap deferred, is refused at its cell); `end_iteration`
//! agrees with `check_termination`; a gap added is `pending` (a Minor one `deferred`) with stale
//! 0 whatever it came with; and only a Minor gap is ever deferred.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::specify::{
    add_gaps, check_termination, end_iteration, set_gap_status, validate_index,
};
use statecore::{Map, Value};

const NOW: &str = "2026-11-24T12:00:00Z";
const KNOWN_STATUSES: [&str; 5] = ["pending", "clarifying", "resolved", "deferred", "known_gap"];
const KNOWN_PRIORITIES: [&str; 3] = ["Critical", "Important", "Minor"];

/// A cell as people write it: a known value, another word, no cell, or not text at all.
fn cell(known: &'static [&'static str]) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        6 => prop::sample::select(known).prop_map(|v| Some(Value::from(v))),
        1 => prop::sample::select(vec!["done", "open", "Urgent", "low", ""])
            .prop_map(|v| Some(Value::from(v))),
        1 => Just(None),
        1 => (0u64..3).prop_map(|n| Some(Value::from(n))),
    ]
}

/// One gap of the queue, as a person or another tool may have left it.
fn gap() -> impl Strategy<Value = (Option<Value>, Option<Value>, u64)> {
    (cell(&KNOWN_PRIORITIES), cell(&KNOWN_STATUSES), 0u64..=3)
}

/// An index in the `validating` loop at `iteration`, with these gaps (ids `G-001`...).
fn index(gaps: &[(Option<Value>, Option<Value>, u64)], iteration: u64) -> Value {
    let mut state = Map::new();
    state.insert("loop_status".into(), Value::from("validating"));
    state.insert("current_iteration".into(), Value::from(iteration));
    state.insert("max_iterations".into(), Value::from(10u64));
    state.insert("stale_count".into(), Value::from(0u64));
    state.insert("max_stale".into(), Value::from(3u64));
    let queue = gaps
        .iter()
        .enumerate()
        .map(|(i, (priority, status, stale))| {
            let mut g = Map::new();
            if let Some(p) = priority {
                g.insert("priority".into(), p.clone());
            }
            g.insert("id".into(), Value::from(format!("G-{:03}", i + 1)));
            g.insert("question".into(), Value::from("Q?"));
            if let Some(s) = status {
                g.insert("status".into(), s.clone());
            }
            g.insert("stale".into(), Value::from(*stale));
            Value::Object(g)
        })
        .collect();
    let mut map = Map::new();
    map.insert("priority_loop_state".into(), Value::Object(state));
    map.insert("gap_priority_queue".into(), Value::Array(queue));
    map.insert("gap_resolution_history".into(), Value::Array(Vec::new()));
    Value::Object(map)
}

fn text(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}

/// True when the termination check can count this gap: its status and priority (when
/// written) are known, and a deferred gap is Minor.
fn countable(priority: Option<&Value>, status: Option<&Value>) -> bool {
    let known = |v: Option<&Value>, list: &[&str]| {
        v.is_none_or(|v| v.as_str().is_some_and(|s| list.contains(&s)))
    };
    known(priority, &KNOWN_PRIORITIES)
        && known(status, &KNOWN_STATUSES)
        && !(text(status) == Some("deferred") && text(priority) != Some("Minor"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn success_is_never_said_past_an_unanswered_gap(
        gaps in prop::collection::vec(gap(), 0..8),
        iteration in 1u64..=10,
    ) {
        let doc = index(&gaps, iteration);
        let checked = check_termination(&doc);
        let ended = end_iteration(doc.clone(), &Value::from(NOW));
        let all_countable = gaps.iter().all(|(p, s, _)| countable(p.as_ref(), s.as_ref()));
        match (&checked, &ended) {
            (Ok(check), Ok(ended)) => {
                prop_assert!(all_countable, "a queue it cannot count was checked: {check:?}");
                // end_iteration counts the iteration's staleness first, so only the ending
                // outcomes (success, max_iterations) are the same as the check's.
                let outcome = check.get("outcome").and_then(Value::as_str).unwrap();
                let said = ended["termination"].get("outcome").and_then(Value::as_str).unwrap();
                prop_assert_eq!(outcome == "success", said == "success");
                prop_assert_eq!(outcome == "max_iterations", said == "max_iterations");
                if outcome == "success" {
                    for (p, s, _) in &gaps {
                        if matches!(text(p.as_ref()), Some("Critical" | "Important")) {
                            prop_assert!(
                                matches!(text(s.as_ref()), Some("resolved" | "known_gap")),
                                "success with a gap {p:?} {s:?}"
                            );
                        }
                    }
                    let state = &ended["index"]["priority_loop_state"];
                    prop_assert_eq!(state["loop_status"].as_str(), Some("completed"));
                }
            }
            (Err(a), Err(b)) => {
                prop_assert!(!all_countable, "a countable queue was refused: {a}");
                prop_assert_eq!(a.code.as_str(), "E_ARGUMENT");
                prop_assert_eq!(&a.path, &b.path);
                prop_assert!(a.path.starts_with("/gap_priority_queue/"), "{}", a.path);
                prop_assert!(a.path.ends_with("/status") || a.path.ends_with("/priority"));
            }
            (a, b) => prop_assert!(false, "check {a:?} and end {b:?} disagree"),
        }
    }

    #[test]
    fn a_gap_added_is_pending_with_stale_0_whatever_it_came_with(
        given in prop::collection::vec(gap(), 1..5),
    ) {
        let doc = index(&[], 1);
        let new: Vec<Value> = given
            .iter()
            .map(|(p, s, stale)| {
                let mut g = Map::new();
                if let Some(p) = p {
                    g.insert("priority".into(), p.clone());
                }
                if let Some(s) = s {
                    g.insert("status".into(), s.clone());
                }
                g.insert("stale".into(), Value::from(*stale));
                Value::Object(g)
            })
            .collect();
        let added = add_gaps(doc, &Value::Array(new), &Value::from(NOW)).unwrap();
        let queue = added["gap_priority_queue"].as_array().unwrap();
        prop_assert_eq!(queue.len(), given.len());
        for (gap, (p, _, _)) in queue.iter().zip(&given) {
            let want = if text(p.as_ref()) == Some("Minor") { "deferred" } else { "pending" };
            prop_assert_eq!(gap["status"].as_str(), Some(want));
            prop_assert_eq!(gap["stale"].as_u64(), Some(0));
        }
    }

    #[test]
    fn only_a_minor_gap_is_deferred(gaps in prop::collection::vec(gap(), 1..6), pick in any::<prop::sample::Index>()) {
        let doc = index(&gaps, 2);
        let i = pick.index(gaps.len());
        let (priority, _, _) = &gaps[i];
        let id = format!("G-{:03}", i + 1);
        if let Ok(after) = set_gap_status(doc.clone(), &id, "deferred", &Value::from(NOW), None) {
            prop_assert_eq!(text(priority.as_ref()), Some("Minor"));
            prop_assert_eq!(after["gap_priority_queue"][i]["status"].as_str(), Some("deferred"));
        } else if text(priority.as_ref()) != Some("Minor") {
            // Refused at the gap's status: not Minor, or a status no move is checked from.
            let err = set_gap_status(doc.clone(), &id, "deferred", &Value::from(NOW), None).unwrap_err();
            prop_assert_eq!(&err.path, &format!("/gap_priority_queue/{i}/status"));
            prop_assert!(matches!(err.code.as_str(), "E_TRANSITION" | "E_ARGUMENT"), "{err}");
        }
        let report = validate_index(&doc);
        for (j, (p, s, _)) in gaps.iter().enumerate() {
            let flagged = report
                .errors
                .iter()
                .any(|e| e.code == "E_DEFERRED_PRIORITY" && e.path == format!("/gap_priority_queue/{j}/status"));
            let deferred_blocking = text(s.as_ref()) == Some("deferred")
                && matches!(text(p.as_ref()), Some("Critical" | "Important"));
            prop_assert_eq!(flagged, deferred_blocking);
        }
    }
}
