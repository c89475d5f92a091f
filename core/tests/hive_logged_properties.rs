//! Property tests of a session's files as the hosts keep them (`ops::update_logged`, issue 35
//! item 4): for any sequence of steps, identical ones at the same `now` included, each line
//! carrying the event id the host passes, the state the live steps wrote equals the replay of
//! the log they wrote, whole or fed in chunks cut anywhere; and a state whose offset was moved
//! inside a line by another writer's line is rebuilt to that replay, never wedged.
//!
//! Only with the core's `full` feature: a session's logged steps (writers) are not in the
//! browser's module's build.
#![cfg(feature = "full")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::hive::recover_state;
use statecore::ops::{self, Args, LogReplay};
use statecore::{json, Value};

const WORKERS: [&str; 2] = ["alpha", "beta"];

/// One step, by its table name and arguments after the state.
#[derive(Debug, Clone)]
enum Step {
    Plan(usize),
    Spawn(usize),
    Beat(usize),
    Note(u8),
    Update(u8),
}

fn step() -> impl Strategy<Value = Step> {
    let w = 0..WORKERS.len();
    prop_oneof![
        w.clone().prop_map(Step::Plan),
        w.clone().prop_map(Step::Spawn),
        w.prop_map(Step::Beat),
        (0..3u8).prop_map(Step::Note),
        (0..3u8).prop_map(Step::Update),
    ]
}

fn parse(text: &str) -> Value {
    json::parse(text.as_bytes()).unwrap()
}

/// The change of `step` (a fixed time in the note: identical lines but for their ids).
fn change(step: &Step) -> Option<ops::Change<'static>> {
    let (name, args) = match step {
        Step::Plan(w) => (
            "hive_plan_workers",
            vec![
                parse(&format!(r#"[{{"name": "{}", "task": "t"}}]"#, WORKERS[*w])),
                Value::Null,
            ],
        ),
        Step::Spawn(w) => ("hive_spawn_worker", vec![WORKERS[*w].into()]),
        Step::Beat(w) => ("hive_heartbeat", vec![WORKERS[*w].into()]),
        Step::Note(n) => (
            "hive_apply_event",
            vec![parse(&format!(
                r#"{{"timestamp": "2026-11-24T10:05:00Z", "type": "note", "agent": "queen", "details": {{"n": {n}}}}}"#
            ))],
        ),
        Step::Update(n) => (
            "hive_update_state",
            vec![parse(&format!(r#"{{"task": "t{n}"}}"#)), Value::Null],
        ),
    };
    ops::CORE.logged_change(name, Args::values(args)).unwrap()
}

/// The files: the state's text and the log's bytes.
struct Files {
    state: Option<String>,
    log: Vec<u8>,
}

impl Files {
    /// Takes `change` at `now` with the event id `id`: appends the line and writes the state
    /// as a host does (false when the core refused the step: nothing written).
    fn step(&mut self, change: Option<ops::Change<'static>>, now: &Value, id: &str) -> bool {
        let size = self.log.len() as u64;
        let bytes = self.state.as_deref().map(str::as_bytes);
        let Ok(out) = ops::update_logged("hive.state", "s1", bytes, size, change, now, Some(id))
        else {
            return false;
        };
        assert!(
            out["replay_from"].is_null(),
            "a state the steps wrote folds its log"
        );
        self.apply(&out);
        true
    }

    fn apply(&mut self, out: &Value) {
        if let Some(line) = out["line"].as_str() {
            self.log.extend_from_slice(line.as_bytes());
        }
        if out["write"] == Value::Bool(true) {
            self.state = Some(out["text"].as_str().unwrap().to_owned());
        }
    }

    /// A read as a host does it: replays when asked (at most twice), writes the state.
    fn read(&mut self) -> Value {
        let bytes = self.state.clone();
        let bytes = bytes.as_deref().map(str::as_bytes);
        let size = self.log.len() as u64;
        let now = Value::from(1_795_521_600_000i64);
        let mut out =
            ops::update_logged("hive.state", "s1", bytes, size, None, &now, None).unwrap();
        let mut rounds = 0;
        while let Some(from) = out["replay_from"].as_u64() {
            rounds += 1;
            assert!(rounds <= 2, "a replay from the start never asks again");
            let corrupt = out["corrupt"] == Value::Bool(true);
            let mut replay = LogReplay::new("hive.state", "s1", bytes, from, corrupt).unwrap();
            replay.feed(&self.log[from as usize..]).unwrap();
            out = replay.commit(None, &now, None).unwrap();
        }
        self.apply(&out);
        out["document"].clone()
    }
}

fn without_offset(mut state: Value) -> Value {
    if let Some(Value::Object(meta)) = state
        .as_object_mut()
        .and_then(|s| s.get_mut("session_metadata"))
    {
        meta.shift_remove("log_offset");
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_live_fold_equals_the_replay_of_the_written_log(
        steps in prop::collection::vec((step(), 0..3i64), 1..30),
        cuts in prop::collection::vec(1..400usize, 0..8),
    ) {
        let mut files = Files { state: None, log: Vec::new() };
        let start = Value::from(1_795_521_600_000i64);
        let create = ops::CORE.logged_change("hive_create_session", Args::values(vec!["task".into(), Value::Null])).unwrap();
        prop_assert!(files.step(create, &start, "id-0"));
        for (i, (step, minute)) in steps.iter().enumerate() {
            // Few distinct times: identical steps at the same now are common.
            let now = Value::from(1_795_521_600_000i64 + minute * 60_000);
            files.step(change(step), &now, &format!("id-{}", i + 1));
        }
        let live = parse(files.state.as_deref().unwrap());
        let whole = recover_state(&files.log, "s1", false).unwrap();
        prop_assert_eq!(&whole["state"], &live);
        prop_assert_eq!(whole["duplicates"].as_u64(), Some(0));
        // Fed in chunks cut anywhere.
        let mut replay = statecore::hive::Replay::new("s1", None, 0, false).unwrap();
        let mut at = 0;
        for cut in cuts {
            let end = (at + cut).min(files.log.len());
            replay.feed(&files.log[at..end]).unwrap();
            at = end;
        }
        replay.feed(&files.log[at..]).unwrap();
        prop_assert_eq!(&replay.finish().unwrap()["state"], &live);
    }

    #[test]
    fn a_state_whose_offset_falls_inside_a_line_is_rebuilt(
        steps in prop::collection::vec(step(), 0..12),
        n in 0..3u8,
    ) {
        let mut files = Files { state: None, log: Vec::new() };
        let now = Value::from(1_795_521_600_000i64);
        let create = ops::CORE.logged_change("hive_create_session", Args::values(vec!["task".into(), Value::Null])).unwrap();
        files.step(create, &now, "id-0");
        for (i, step) in steps.iter().enumerate() {
            files.step(change(step), &now, &format!("id-{}", i + 1));
        }
        // Another writer's line lands between the last step's read and its append.
        let before = files.log.clone();
        prop_assert!(files.step(change(&Step::Note(n)), &now, "last"));
        let line = files.log[before.len()..].to_vec();
        let outside = format!(
            "{{\"timestamp\":\"2026-11-24T10:05:00Z\",\"type\":\"note\",\"agent\":\"other\",\"details\":\"{n}\",\"event_id\":\"other\"}}\n"
        );
        files.log = [before, outside.into_bytes(), line].concat();
        let read = files.read();
        let whole = recover_state(&files.log, "s1", false).unwrap();
        prop_assert_eq!(without_offset(read.clone()), without_offset(whole["state"].clone()));
        prop_assert_eq!(read["session_metadata"]["log_offset"].as_u64(), Some(files.log.len() as u64));
        // And the next read takes it as it is.
        prop_assert_eq!(files.read(), read);
    }
}
