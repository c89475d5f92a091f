//! Property tests of hive sessions: random sequences of steps (milestones, updates, phase
//! changes, refused steps included) keep every state valid, and the log of the accepted
//! steps' lines, replayed by `recover_state` (whole, in chunks cut anywhere, with lines
//! repeated), rebuilds exactly the state the steps reached.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::hive::{self, Replay};
use statecore::{json, Value};

const WORKERS: [&str; 3] = ["alpha", "beta", "gamma"];

/// One step a queen or a worker can take.
#[derive(Debug, Clone)]
enum Step {
    Plan(usize),
    Attempt(usize),
    Spawn(usize),
    Beat(usize),
    Progress(usize, u64),
    Complete(usize, bool),
    Fail(usize, bool),
    Phase(&'static str),
    Update(u64),
    Other(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let w = 0..WORKERS.len();
    prop_oneof![
        w.clone().prop_map(Step::Plan),
        w.clone().prop_map(Step::Attempt),
        w.clone().prop_map(Step::Spawn),
        w.clone().prop_map(Step::Beat),
        (w.clone(), 0..1000u64).prop_map(|(w, n)| Step::Progress(w, n)),
        (w.clone(), any::<bool>()).prop_map(|(w, real)| Step::Complete(w, real)),
        (w.clone(), any::<bool>()).prop_map(|(w, queen)| Step::Fail(w, queen)),
        prop::sample::select(&hive::PHASES[..]).prop_map(Step::Phase),
        (0..5u64).prop_map(Step::Update),
        w.prop_map(Step::Other),
    ]
}

fn json(text: &str) -> Value {
    json::parse(text.as_bytes()).unwrap()
}

/// Runs step number `i` (times go back now and then: `back`; every step's time is its own,
/// as two lines alike are one line repeated).
fn run(state: &Value, step: &Step, i: u64, back: bool) -> statecore::Result<Value> {
    let minute = if back { i.saturating_sub(7) } else { i };
    let millis = 1_795_521_600_000i64 + (minute * 60_000 + i) as i64;
    let now = Value::from(millis);
    let s = state.clone();
    match step {
        Step::Plan(w) => {
            let plan = json(&format!(
                r#"[{{"name": "{}", "task": "read"}}]"#,
                WORKERS[*w]
            ));
            hive::plan_workers(s, &plan, Some("why"), &now)
        }
        Step::Attempt(w) => hive::record_spawn_attempt(s, WORKERS[*w], &now),
        Step::Spawn(w) => hive::spawn_worker(s, WORKERS[*w], &now),
        Step::Beat(w) => hive::heartbeat(s, WORKERS[*w], &now),
        Step::Progress(w, n) => {
            let progress = json(&format!(r#"{{"metrics": {{"files_created": {n}}}}}"#));
            hive::record_progress(s, WORKERS[*w], &progress, &now)
        }
        Step::Complete(w, real) => {
            let outputs = if *real {
                json(r#"{"notes": "notes.md"}"#)
            } else {
                json(r#"{"notes": null}"#)
            };
            hive::complete_worker(s, WORKERS[*w], &outputs, None, &now)
        }
        Step::Fail(w, queen) => {
            let agent = queen.then_some("queen");
            hive::fail_worker(s, WORKERS[*w], &"timed out".into(), &now, agent)
        }
        Step::Phase(p) => hive::change_phase(s, p, &now),
        Step::Update(n) => {
            let updates = json(&format!(
                r#"{{"metrics": {{"token_usage_estimated": {n}}}}}"#
            ));
            hive::update_state(s, &updates, None, &now, None)
        }
        Step::Other(w) => {
            let line = json(&format!(
                r#"{{"timestamp": "{}", "type": "analysis_started", "agent": "{}", "details": "reading"}}"#,
                statecore::time::format_timestamp(millis).unwrap(),
                WORKERS[*w]
            ));
            hive::apply_event(s, line)
        }
    }
}

fn line(event: &Value) -> Vec<u8> {
    let mut text = json::serialize_compact(event).into_bytes();
    text.push(b'\n');
    text
}

/// The recovered state without the bookkeeping a recovery adds.
fn recovered(value: &Value) -> Value {
    let mut state = value.get("state").unwrap().clone();
    if let Value::Object(map) = &mut state {
        if let Some(Value::Object(meta)) = map.get_mut("session_metadata") {
            meta.shift_remove("log_offset");
        }
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_log_of_the_steps_rebuilds_their_state(
        steps in prop::collection::vec((step(), any::<bool>()), 1..60),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        repeat in any::<prop::sample::Index>(),
    ) {
        let created = hive::create_session("s1", "research", &Value::from(1_795_521_600_000u64)).unwrap();
        let mut state = created.get("state").unwrap().clone();
        let mut log = line(created.get("event").unwrap());
        let mut lines = vec![log.clone()];
        for (i, (step, back)) in steps.iter().enumerate() {
            match run(&state, step, i as u64 + 1, *back) {
                Ok(out) => {
                    state = out.get("state").unwrap().clone();
                    prop_assert!(hive::validate_state(&state).valid(), "{step:?}");
                    let l = line(out.get("event").unwrap());
                    log.extend_from_slice(&l);
                    lines.push(l);
                }
                Err(e) => prop_assert!(
                    matches!(e.code.as_str(), "E_ARGUMENT" | "E_TRANSITION" | "E_INVALID"),
                    "{step:?}: {e:?}"
                ),
            }
        }
        // Whole.
        let whole = hive::recover_state(&log, "s1", false).unwrap();
        prop_assert_eq!(&recovered(&whole), &state);
        prop_assert_eq!(whole.get("log_offset").unwrap().as_u64(), Some(log.len() as u64));
        prop_assert_eq!(whole.get("events").unwrap().as_u64(), Some(lines.len() as u64));
        // In chunks cut anywhere.
        let mut at: Vec<usize> = cuts.iter().map(|c| c.index(log.len() + 1)).collect();
        at.sort_unstable();
        let mut replay = Replay::new("s1", None, 0, false).unwrap();
        let mut from = 0;
        for cut in at.into_iter().chain([log.len()]) {
            replay.feed(&log[from..cut]).unwrap();
            from = cut;
        }
        let chunked = replay.finish().unwrap();
        prop_assert_eq!(&chunked, &whole);
        // A line appended twice is applied once.
        let twice = repeat.index(lines.len());
        let mut doubled = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            doubled.extend_from_slice(l);
            if i == twice {
                doubled.extend_from_slice(l);
            }
        }
        let deduped = hive::recover_state(&doubled, "s1", false).unwrap();
        prop_assert_eq!(recovered(&deduped), state.clone());
        prop_assert_eq!(deduped.get("duplicates").unwrap().as_u64(), Some(1));
        // In parts cut at line ends, the replay carried between them as JSON text (a command
        // reading the log in pages): the same as whole, the repeated line applied once even
        // when the two copies are in different parts.
        let ends: Vec<usize> = doubled
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        let mut at: Vec<usize> = cuts.iter().map(|c| ends[c.index(ends.len())]).collect();
        at.sort_unstable();
        at.dedup();
        let (mut carry, mut from, mut done) = (None::<Value>, 0, None);
        let last_cut = doubled.len();
        for cut in at.into_iter().filter(|c| *c < last_cut).chain([last_cut]) {
            let last = cut == last_cut;
            match hive::replay_part(carry.as_ref(), "s1", &doubled[from..cut], last).unwrap() {
                hive::ReplayStep::Going(value) => {
                    let text = statecore::json::serialize_compact(&value);
                    carry = Some(statecore::json::parse(text.as_bytes()).unwrap());
                }
                hive::ReplayStep::Done(value) => done = Some(value),
            }
            from = cut;
        }
        let in_parts = done.unwrap();
        prop_assert_eq!(&in_parts, &hive::recover_state(&doubled, "s1", true).unwrap());
        prop_assert_eq!(in_parts.get("duplicates").unwrap().as_u64(), Some(1));
        // Torn: the last line cut short is dropped, the rest rebuilds the state before it.
        if lines.len() > 1 {
            let last = lines.last().unwrap();
            let cut = log.len() - last.len() / 2;
            let torn = hive::recover_state(&log[..cut], "s1", false).unwrap();
            prop_assert!(!torn.get("torn").unwrap().is_null());
            let before = hive::recover_state(&log[..log.len() - last.len()], "s1", false).unwrap();
            prop_assert_eq!(recovered(&torn), recovered(&before));
        }
    }
}

#[test]
fn a_worker_lifecycle_moves_the_lists_and_counts_its_events() {
    let at = |m: u64| Value::from(format!("2026-11-24T10:{m:02}:00Z"));
    let state = |out: statecore::Result<Value>| out.unwrap().get("state").unwrap().clone();
    let s = state(hive::create_session("s1", "t", &at(0)));
    let plan = json(r#"[{"name": "alpha", "task": "read"}, {"name": "beta", "task": "write"}]"#);
    let s = state(hive::plan_workers(s, &plan, Some("two"), &at(1)));
    let s = state(hive::record_spawn_attempt(s, "alpha", &at(2)));
    assert_eq!(
        s.pointer("/worker_states/alpha/status").unwrap(),
        &Value::from("spawning")
    );
    let s = state(hive::spawn_worker(s, "alpha", &at(3)));
    let s = state(hive::spawn_worker(s, "beta", &at(3)));
    let s = state(hive::heartbeat(s, "alpha", &at(4)));
    let progress = json(r#"{"metrics": {"files_created": 2}}"#);
    let s = state(hive::record_progress(s, "alpha", &progress, &at(5)));
    let outputs = json(r#"{"notes": "alpha.md"}"#);
    let s = state(hive::complete_worker(s, "alpha", &outputs, None, &at(9)));
    let s = state(hive::fail_worker(
        s,
        "beta",
        &"no heartbeat".into(),
        &at(9),
        Some("queen"),
    ));
    let get = |p: &str| s.pointer(p).unwrap().clone();
    assert_eq!(
        get("/coordination_status/workers_completed"),
        json(r#"["alpha"]"#)
    );
    assert_eq!(
        get("/coordination_status/workers_failed"),
        json(r#"["beta"]"#)
    );
    assert_eq!(get("/coordination_status/workers_active"), json("[]"));
    assert_eq!(
        get("/coordination_status/spawn_attempts"),
        json(r#"{"alpha": 1}"#)
    );
    // spawned, heartbeat, progress, completed: four lines by alpha; the queen's failure of
    // beta is not beta's line.
    assert_eq!(
        get("/worker_states/alpha/metrics/events_logged"),
        Value::from(4)
    );
    assert_eq!(
        get("/worker_states/beta/metrics/events_logged"),
        Value::from(1)
    );
    assert_eq!(
        get("/worker_states/alpha/metrics/duration_seconds"),
        Value::from(360)
    );
    assert_eq!(
        get("/worker_states/alpha/metrics/files_created"),
        Value::from(2)
    );
    assert_eq!(
        get("/worker_states/beta/error/message"),
        Value::from("no heartbeat")
    );
    assert_eq!(get("/metrics/total_events_logged"), Value::from(9));
    assert_eq!(
        get("/queen_decisions/worker_selection_rationale"),
        Value::from("two")
    );
    // A completed worker neither beats, fails nor is spawned again; an unknown one is named.
    let e = hive::heartbeat(s.clone(), "alpha", &at(10)).unwrap_err();
    assert!(e.message.contains("completed, not active"), "{e:?}");
    let e = hive::fail_worker(s.clone(), "alpha", &"x".into(), &at(10), None).unwrap_err();
    assert!(e.message.contains("completed already"), "{e:?}");
    let e = hive::spawn_worker(s.clone(), "alpha", &at(10)).unwrap_err();
    assert!(e.message.contains("completed already"), "{e:?}");
    let e = hive::heartbeat(s.clone(), "delta", &at(10)).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_str()),
        ("E_ARGUMENT", "/worker_states/delta")
    );
    // A worker no plan announced is planned and spawned by its spawn (the original's log).
    let s = state(hive::spawn_worker(s, "delta", &at(10)));
    assert_eq!(
        get_in(&s, "/coordination_status/workers_planned"),
        json(r#"["alpha", "beta", "delta"]"#)
    );
    assert_eq!(
        get_in(&s, "/worker_states/delta/status"),
        Value::from("active")
    );
    // A failed worker spawned again is respawned: active, out of the failed list.
    let s = state(hive::spawn_worker(s, "beta", &at(11)));
    assert_eq!(
        get_in(&s, "/coordination_status/workers_failed"),
        json("[]")
    );
    assert_eq!(
        get_in(&s, "/coordination_status/workers_active"),
        json(r#"["delta", "beta"]"#)
    );
    assert!(s.pointer("/worker_states/beta/error").is_none());
}

fn get_in(s: &Value, p: &str) -> Value {
    s.pointer(p).unwrap().clone()
}

proptest! {
    #[test]
    fn timestamps_compare_by_time_in_any_form(a in 0i64..4_102_444_800_000, b in 0i64..4_102_444_800_000, form in 0..3usize) {
        use statecore::time::{compare_timestamps, format_timestamp};
        let text = |ms: i64, form: usize| {
            let canonical = format_timestamp(ms).unwrap();
            match form {
                // The canonical form, the same instant in seconds when whole, and with an offset.
                0 => canonical,
                1 if ms % 1000 == 0 => canonical.replace(".000Z", "Z"),
                _ => canonical.replace('Z', "+00:00"),
            }
        };
        prop_assert_eq!(compare_timestamps(&text(a, 0), &text(b, form)), Some(a.cmp(&b)));
        prop_assert_eq!(compare_timestamps(&text(a, form), &text(b, 0)), Some(a.cmp(&b)));
    }
}

#[test]
fn timestamps_that_do_not_parse_do_not_compare() {
    use statecore::time::compare_timestamps;
    assert_eq!(
        compare_timestamps("yesterday", "2026-11-24T10:00:00Z"),
        None
    );
    assert_eq!(
        compare_timestamps("2026-11-24T12:00:00+02:00", "2026-11-24T10:00:00Z"),
        Some(std::cmp::Ordering::Equal)
    );
}
