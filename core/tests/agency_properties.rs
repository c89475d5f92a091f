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

/// One run's files and facts for `derive_files`: (meta text, status text, tmux, worktree,
/// the status file's age in ms); `None`: missing / left out.
type FileRun = (
    Option<String>,
    Option<String>,
    Option<bool>,
    Option<bool>,
    Option<i64>,
);

const METAS: [&str; 7] = [
    r#"{"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z"}"#,
    r#"{"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z", "flags": {"needs_attention": true}}"#,
    r#"{"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z", "archive": {"merged_at": "2026-01-20T10:00:00Z"}}"#,
    r#"{"schema_version": "1.0", "created_at": "2026-01-19T10:00:00Z", "pr_number": 12.0}"#,
    r#"{"schema_version": "1.0", "created_at": "x", "created_at": "y"}"#,
    "null",
    "",
];

fn file_run() -> impl Strategy<Value = FileRun> {
    let meta =
        proptest::option::of((0usize..METAS.len(), 0usize..200, any::<bool>())).prop_map(|m| {
            m.map(|(i, cut, torn)| {
                let text = METAS[i];
                if torn {
                    text.get(..cut.min(text.len())).unwrap_or(text).to_owned()
                } else {
                    text.to_owned()
                }
            })
        });
    let status = proptest::option::of((0usize..6, 0usize..100, any::<bool>())).prop_map(|s| {
        s.map(|(i, cut, torn)| {
            let text = match i {
                0..=3 => json::serialize_compact(&status_doc(STATUSES[i])),
                4 => r#"{"status": "Working", "summary": "s"}"#.to_owned(),
                _ => r#"{"status": "working", "summary": "é 🧪", "status": "blocked"}"#.to_owned(),
            };
            if torn {
                text.get(..cut.min(text.len())).unwrap_or(&text).to_owned()
            } else {
                text
            }
        })
    });
    (
        meta,
        status,
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(0i64..2_000_000),
    )
}

proptest! {
    #[test]
    fn derive_files_is_build_snapshot_then_derive(runs in proptest::collection::vec(file_run(), 0..12)) {
        let now = json!(1_768_900_000_000i64);
        let threshold = json!(900_000);
        let mut data = Vec::new();
        let mut specs = Vec::new();
        for (meta, status, tmux, present, age) in &runs {
            data.extend_from_slice(meta.as_deref().unwrap_or("").as_bytes());
            data.extend_from_slice(status.as_deref().unwrap_or("").as_bytes());
            let mut spec = json!({
                "meta": meta.as_ref().map(String::len),
                "status": status.as_ref().map(String::len),
            });
            let map = spec.as_object_mut().unwrap();
            if let Some(t) = tmux {
                map.insert("tmux_active".into(), json!(*t));
            }
            if let Some(p) = present {
                map.insert("worktree_present".into(), json!(*p));
            }
            if let Some(age) = age {
                map.insert("status_file_mod_time".into(), json!(1_768_900_000_000i64 - age));
            }
            specs.push(spec);
        }
        let got = agency::derive_files(&data, &Value::Array(specs.clone()), &now, &threshold).unwrap();
        let got = got.as_array().unwrap();
        prop_assert_eq!(got.len(), runs.len());
        for (i, (meta, status, ..)) in runs.iter().enumerate() {
            let mut facts = specs[i].clone();
            let facts_map = facts.as_object_mut().unwrap();
            facts_map.shift_remove("meta");
            facts_map.shift_remove("status");
            let snapshot = agency::build_snapshot(
                status.as_deref().map(str::as_bytes),
                meta.as_deref().map(str::as_bytes),
                &facts,
                &now,
                &threshold,
            ).unwrap();
            let want = agency::derive(&snapshot).unwrap().to_value();
            let mut mine = got[i].clone();
            let error = mine.as_object_mut().unwrap().shift_remove("error");
            prop_assert_eq!(&mine, &want, "run {}", i);
            let unreadable = |text: &Option<String>| {
                text.as_deref().is_some_and(|t| json::parse(t.as_bytes()).is_err())
            };
            let file = if unreadable(meta) {
                Some("meta")
            } else if unreadable(status) {
                Some("runner_status")
            } else {
                None
            };
            prop_assert_eq!(error.as_ref().and_then(|e| e.get("file")).and_then(Value::as_str), file);
        }
    }
}
