//! Property tests of agency: the precedence is a total order (each level beats every level
//! below it, whatever else the snapshot holds), the stall check is monotonic in the file's age
//! and inclusive at the threshold, milestone updates always produce a valid document or
//! `E_INVALID`, and `ls` keeps its columns aligned for any cell text.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::agency::{self, DERIVED_STATUSES};
use statecore::{json, Value};

const STATUSES: [&str; 4] = ["working", "needs_input", "blocked", "ready_for_review"];

/// A snapshot in which level `level` (0-based, the seed's order) applies, plus random noise
/// that only lower levels look at.
fn snapshot_for(level: usize, noise: &Noise) -> Value {
    let mut flags = json!({});
    let mut merged_at = Value::Null;
    // Lower levels' conditions are switched on at random: they must not matter.
    if level < 1 {
        return json!({"meta": null, "tmux_active": noise.tmux, "runner_status": noise.status()});
    }
    let below = |l: usize| level < l && noise.bits & (1 << l) != 0;
    if level == 1 || below(1) {
        merged_at = json!("2026-01-19T11:00:00Z");
    }
    for (l, flag) in [
        (2, "abandoned"),
        (3, "setup_failed"),
        (4, "needs_attention"),
    ] {
        if level == l || below(l) {
            flags
                .as_object_mut()
                .unwrap()
                .insert(flag.into(), json!(true));
        }
    }
    let runner = match level {
        5..=8 => status_doc(["ready_for_review", "needs_input", "blocked", "working"][level - 5]),
        _ if level < 5 => noise.status(),
        _ => Value::Null,
    };
    let stalled = level == 9 || (level < 9 && noise.stalled);
    let tmux = matches!(level, 9 | 10) || (level < 9 && noise.tmux);
    json!({
        "meta": {"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z", "flags": flags, "archive": {"merged_at": merged_at}},
        "worktree_present": noise.present,
        "tmux_active": tmux,
        "runner_status": runner,
        "stall_result": if stalled { json!({"is_stalled": true, "stalled_duration": 1}) } else { json!({"is_stalled": false}) },
    })
}

fn status_doc(status: &str) -> Value {
    json!({"status": status, "summary": "s", "questions": ["q"], "blockers": ["b"], "how_to_test": "t"})
}

#[derive(Debug, Clone)]
struct Noise {
    bits: u32,
    tmux: bool,
    stalled: bool,
    present: bool,
    status: Option<usize>,
}

impl Noise {
    fn status(&self) -> Value {
        self.status
            .map_or(Value::Null, |i| status_doc(STATUSES[i % 4]))
    }
}

fn noise() -> impl Strategy<Value = Noise> {
    (
        any::<u32>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(0usize..4),
    )
        .prop_map(|(bits, tmux, stalled, present, status)| Noise {
            bits,
            tmux,
            stalled,
            present,
            status,
        })
}

proptest! {
    #[test]
    fn the_first_level_that_applies_wins(level in 0usize..12, noise in noise()) {
        let derived = agency::derive(&snapshot_for(level, &noise)).unwrap();
        prop_assert_eq!(derived.status, DERIVED_STATUSES[level]);
        // A broken run (level 0) is archived whatever the host found, as agency shows it.
        prop_assert_eq!(derived.archived, level == 0 || !noise.present);
    }

    #[test]
    fn stall_is_monotonic_and_inclusive(age in 0i64..10_000_000, threshold in 0i64..5_000_000, tmux in any::<bool>()) {
        let now = 1_768_826_700_000i64;
        let check = |a: i64| agency::check_stall(
            &json!({"status_file_mod_time": now - a, "tmux_session_exists": tmux}), &json!(now), &json!(threshold),
        ).unwrap().stalled_duration;
        let got = check(age);
        prop_assert_eq!(got.is_some(), tmux && age >= threshold);
        if let Some(d) = got {
            prop_assert_eq!(d, age);
            prop_assert!(check(age + 1).is_some(), "older files stay stalled");
        }
    }

    #[test]
    fn updates_are_valid_or_refused(
        status in proptest::option::of(prop_oneof![Just("working"), Just("needs_input"), Just("blocked"), Just("ready_for_review"), Just("Working")]),
        summary in proptest::option::of("[ a-z]{0,5}"),
        questions in proptest::option::of(proptest::collection::vec("[a-z]{1,3}", 0..2)),
        how in proptest::option::of("[ a-z]{0,3}"),
    ) {
        let mut update = json!({});
        if let Some(s) = status { update.as_object_mut().unwrap().insert("status".into(), json!(s)); }
        if let Some(s) = &summary { update.as_object_mut().unwrap().insert("summary".into(), json!(s)); }
        if let Some(q) = &questions { update.as_object_mut().unwrap().insert("questions".into(), json!(q)); }
        if let Some(h) = &how { update.as_object_mut().unwrap().insert("how_to_test".into(), json!(h)); }
        match agency::update_runner_status(&Value::Null, &update, &json!("2026-01-19T12:00:00Z")) {
            Ok(doc) => {
                prop_assert!(agency::validate_runner_status(&doc).valid());
                prop_assert_eq!(&doc["updated_at"], &json!("2026-01-19T12:00:00Z"));
            }
            Err(e) => prop_assert_eq!(e.code.as_str(), "E_INVALID"),
        }
    }

    #[test]
    fn ls_columns_stay_aligned(cells in proptest::collection::vec(("\\PC{0,30}", "\\PC{0,30}", "\\PC{0,60}"), 0..5)) {
        let rows: Vec<Value> = cells.iter().map(|(id, name, summary)| json!({
            "run_id": id, "name": name,
            "snapshot": {"meta": {"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z"}, "runner_status": {"status": "working", "summary": summary}},
        })).collect();
        let table = agency::render_ls(&Value::Array(rows)).unwrap();
        let lines: Vec<&str> = table.lines().collect();
        prop_assert_eq!(lines.len(), cells.len() + 1);
        // The PR column starts at the same character offset on every line.
        let pr_at = |line: &str| line.chars().count() - line.chars().rev().take_while(|c| *c != ' ').count();
        let header = pr_at(lines[0]);
        for line in &lines[1..] {
            prop_assert_eq!(pr_at(line), header, "{}", table);
        }
    }
}
