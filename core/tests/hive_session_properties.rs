//! Differential property test of the hive replay's typed session (docs/performance.md § The
//! hive replay: typed lines, a typed session, one fold): a replay that folds into the typed session (the
//! counters as integers, the stamps as strings, each worker found once) gives exactly what the
//! replay folding into the generic state tree gives — the same state text byte for byte, the
//! same counts, skipped lines and warnings, the same error — with the lines read either way,
//! on random logs (statecore's own lines and other writers', repeats, ids reused, bad lines,
//! times going back or in other forms, torn tails) fed in chunks cut anywhere, replayed onto a
//! state that holds another writer's keys and fields of unexpected types, and carried over to
//! another replay in the middle. The generic fold validates the whole state after every
//! `state_updated`; the typed replays, once the state is known valid, only the fields the
//! updates changed and the cross-field rules: the same verdicts, the same errors.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod hive_support;

use hive_support::{feed_in_cuts, outcome};
use proptest::prelude::*;
use statecore::hive::{recover_state, Replay};
use statecore::{json, Value};

const AGENTS: [&str; 5] = ["w-a", "w-b", "w-c", "queen", "ghost"];

fn parse(text: &str) -> Value {
    json::parse(text.as_bytes()).unwrap()
}

/// The session the random logs go on from: three workers planned, two spawned.
fn base_log() -> String {
    let lines = [
        r#"{"timestamp":"2026-11-24T10:00:00.000Z","type":"session_created","agent":"queen","details":{"task":"t"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.100Z","type":"workers_planned","agent":"queen","details":{"workers":[{"name":"w-a","task":"a","focus_areas":[]},{"name":"w-b","task":"b","focus_areas":[]},{"name":"w-c","task":"c","focus_areas":[]}]}}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.200Z","type":"worker_spawned","agent":"w-a","details":{"worker":"w-a"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:00.300Z","type":"worker_spawned","agent":"w-b","details":{"worker":"w-b"}}"#,
    ];
    format!("{}\n", lines.join("\n"))
}

/// The state a replay goes on from: the base session's, changed as `change` says (another
/// writer's keys, counters and stamps of other types or missing, a worker that is not an
/// object).
fn start_state(change: u8) -> Value {
    let mut state = recover_state(base_log().as_bytes(), "s1", false).unwrap()["state"].clone();
    let map = state.as_object_mut().unwrap();
    let section = |map: &mut statecore::Map, key: &str| -> statecore::Map {
        map.get(key).and_then(Value::as_object).cloned().unwrap()
    };
    let mut metrics = section(map, "metrics");
    let mut times = section(map, "timestamps");
    let mut workers = section(map, "worker_states");
    let mut wa = workers
        .get("w-a")
        .and_then(Value::as_object)
        .cloned()
        .unwrap();
    match change {
        0 => {}
        1 => {
            map.insert(
                "zz_foreign".into(),
                parse(r#"{"b":[1,{"c":null}],"a":"é"}"#),
            );
        }
        2 => {
            metrics.insert("total_events_logged".into(), "7".into());
        }
        3 => {
            metrics.insert("total_events_logged".into(), parse("5.0"));
        }
        4 => {
            metrics.shift_remove("total_events_logged");
        }
        5 => {
            times.insert("updated_at".into(), 12.into());
        }
        6 => {
            times.shift_remove("last_heartbeat");
        }
        7 => {
            times.insert("updated_at".into(), "2099-01-01T00:00:00Z".into());
        }
        8 => {
            times.insert(
                "last_heartbeat".into(),
                "2026-11-24T11:00:00.300+01:00".into(),
            );
        }
        9 => {
            wa.shift_remove("metrics");
        }
        10 => {
            let mut m = wa
                .get("metrics")
                .and_then(Value::as_object)
                .cloned()
                .unwrap();
            m.shift_remove("events_logged");
            m.insert("zz".into(), parse("[1e2]"));
            wa.insert("metrics".into(), Value::Object(m));
        }
        11 => {
            wa.insert("last_heartbeat".into(), Value::Null);
            wa.shift_remove("last_update");
        }
        12 => {
            wa.insert("metrics".into(), parse("[]"));
        }
        13 => {
            workers.insert("ghost".into(), 3.into());
        }
        14 => {
            map.shift_remove("metrics");
            map.insert("timestamps".into(), "x".into());
        }
        // A worker's metrics and compliance holding what a progress does not write: a float,
        // a big integer, a string, a nested object, another writer's key (the typed session
        // holds these maps and must give them back as they were, in their order).
        16 => {
            let mut m = wa
                .get("metrics")
                .and_then(Value::as_object)
                .cloned()
                .unwrap();
            m.insert("duration_seconds".into(), parse("1.50"));
            m.insert("zz_big".into(), parse("123456789012345678901234567890"));
            m.insert("zz_text".into(), "7".into());
            m.insert("zz_nested".into(), parse(r#"{"a":[1,{"b":2.0e3}]}"#));
            wa.insert("metrics".into(), Value::Object(m));
            wa.insert(
                "protocol_compliance".into(),
                parse(r#"{"zz":1,"startup_logged":"yes","debug_logging_active":true}"#),
            );
        }
        17 => {
            wa.insert("protocol_compliance".into(), "x".into());
            wa.shift_remove("metrics");
            wa.insert("metrics".into(), parse(r#"{"files_created":2.5}"#));
        }
        18 => {
            wa.shift_remove("protocol_compliance");
            wa.insert(
                "metrics".into(),
                parse(r#"{"events_logged":"3","tokens_estimated":-4}"#),
            );
        }
        _ => {
            wa.insert("last_heartbeat".into(), "2099-01-01T00:00:00.000Z".into());
            wa.insert("zz_worker".into(), parse(r#"{"x":1}"#));
        }
    }
    workers.insert("w-a".into(), Value::Object(wa));
    for (key, value) in [
        ("metrics", metrics),
        ("timestamps", times),
        ("worker_states", workers),
    ] {
        if map.get(key).is_some_and(Value::is_object) {
            map.insert(key.into(), Value::Object(value));
        }
    }
    state
}

/// One line: (type 0..10, agent, n, time form, line form).
type Spec = (u8, usize, u32, u8, u8);

fn line(spec: &Spec, i: usize) -> Vec<u8> {
    let (kind, agent, n, time, form) = *spec;
    let a = AGENTS[agent];
    let (kind, details) = match kind {
        0 | 1 => ("worker_heartbeat", format!(r#"{{"worker":"{a}"}}"#)),
        2 => ("worker_progress", progress(a, n % 20)),
        3 => ("worker_progress", progress(a, n)),
        4 => ("debug", format!(r#""note {n}""#)),
        5 => ("notification", format!(r#"["a",{n}]"#)),
        6 => ("worker_spawned", format!(r#"{{"worker":"{a}"}}"#)),
        7 => (
            "worker_completed",
            format!(r#"{{"worker":"{a}","outputs":{{"notes":"n.md"}}}}"#),
        ),
        8 => ("worker_failed", format!(r#"{{"worker":"{a}","error":"boom"}}"#)),
        9 => (
            "state_updated",
            match n % 13 {
                0 => format!(r#"{{"updates":{{"metrics":{{"total_events_logged":{n}}}}}}}"#),
                1 => format!(
                    r#"{{"updates":{{"worker_states":{{"w-a":{{"last_heartbeat":"2026-11-24T10:30:{:02}.000Z"}}}}}}}}"#,
                    n % 60
                ),
                2 => r#"{"updates":{"timestamps":{"updated_at":"2026-11-24T12:00:00Z"}},"strategy":"shallow"}"#.to_owned(),
                // What a state known valid checks in what changed: bad values, a required
                // field removed, another writer's key, a phase, a worker made inconsistent.
                3 => r#"{"updates":{"metrics":{"total_events_logged":"many"}}}"#.to_owned(),
                4 => r#"{"updates":{"task":null}}"#.to_owned(),
                5 => format!(r#"{{"updates":{{"zz_other":{{"n":{n}}}}}}}"#),
                6 => r#"{"updates":{"worker_states":{"w-a":{"status":"sleeping"}}}}"#.to_owned(),
                7 => r#"{"updates":{"status":"executing"}}"#.to_owned(),
                8 => r#"{"updates":{"coordination_status":{"workers_active":["nobody"]}}}"#.to_owned(),
                9 => r#"{"updates":{"timestamps":{"created_at":"2030-01-01T00:00:00Z"}}}"#.to_owned(),
                10 => r#"{"updates":{"metrics":{"total_events_logged":1}},"strategy":"shallow"}"#.to_owned(),
                11 => r#"{"updates":{"worker_states":{"w-c":{"status":"active"}}}}"#.to_owned(),
                _ => format!(r#"{{"updates":{{"metrics":{{"token_usage_estimated":{n}}}}}}}"#),
            },
        ),
        _ => ("phase_changed", r#"{"to":"executing"}"#.to_owned()),
    };
    let second = 1 + i;
    let time = match time {
        0 => format!(
            "2026-11-24T10:{:02}:{:02}.{n:03}Z",
            second / 60 % 60,
            second % 60
        ),
        1 => format!("2026-11-24T09:{:02}:{:02}Z", second / 60 % 60, second % 60),
        2 => format!(
            "2026-11-24T11:{:02}:{:02}+01:00",
            second / 60 % 60,
            second % 60
        ),
        3 => "not a time".to_owned(),
        _ => format!(
            "2026-11-24T10:{:02}:{:02}.000Z",
            second / 60 % 60,
            second % 60
        ),
    };
    let text = match form {
        0 => format!(
            r#"{{"timestamp":"{time}","type":"{kind}","agent":"{a}","details":{details},"id":"e{}"}}"#,
            n % 3
        ),
        1 => format!(
            r#"{{"agent":"{a}", "type":"{kind}", "timestamp":"{time}", "details":{details}}}"#
        ),
        2 => format!(r#"{{"timestamp":"{time}","type":"{kind}","agent":"{a}","details":{details}"#),
        3 => "[]".to_owned(),
        _ => {
            format!(r#"{{"timestamp":"{time}","type":"{kind}","agent":"{a}","details":{details}}}"#)
        }
    };
    text.into_bytes()
}

/// A progress's `details` as text: the forms read in place (`metrics` and
/// `protocol_compliance` objects of whole numbers and booleans, either or both, in either
/// order) and every near miss that must go the generic way or be refused as it is there
/// (a key twice, next to itself or not; one key in both objects; a key of both fields).
fn progress(a: &str, n: u32) -> String {
    let w = format!(r#"{{"worker":"{a}""#);
    match n % 27 {
        0 => format!(r#"{w},"metrics":{{"files_created":{n}}}}}"#),
        1 => format!(r#"{w},"metrics":{{"events_logged":{n}}}}}"#),
        2 => format!(r#"{w},"protocol_compliance":{{"debug_logging_active":true}}}}"#),
        3 => format!(r#"{{"metrics":{{"tokens_estimated":{n},"zz":"x"}}}}"#),
        4 => format!(
            r#"{w},"metrics":{{"files_created":{n},"tokens_estimated":{}}},"protocol_compliance":{{"debug_logging_active":false}}}}"#,
            n * 37
        ),
        5 => format!(
            r#"{w},"protocol_compliance":{{"startup_logged":true}},"metrics":{{"debug_entries":0,"zz":{n}}}}}"#
        ),
        6 => format!(r#"{w},"metrics":{{"files_created":1,"files_created":{n}}}}}"#),
        7 => format!(r#"{w},"metrics":{{"files_created":0{n}}}}}"#),
        8 => format!(r#"{w},"metrics":{{"files_created":{n}.5,"tokens_estimated":{n}e2}}}}"#),
        9 => format!(r#"{w},"metrics":{{"tokens_estimated":90071992547409{n:02}}}}}"#),
        10 => format!(r#"{w},"metrics":{{"files_created":{n}}},"metrics":{{"debug_entries":1}}}}"#),
        11 => format!(r#"{w},"metrics":{{}},"protocol_compliance":{{"startup_logged":true}}}}"#),
        12 => format!(r#"{w},"metrics":[{n}]}}"#),
        13 => format!(r#"{w},"metrics":{{"files_created":"{n}"}}}}"#),
        14 => format!(r#"{w},"metrics":{{"files_created":{n}}},"note":"x"}}"#),
        15 => format!(r#"{w},"metrics":{{"files_created":true,"debug_entries":null}}}}"#),
        16 => format!(r#"{w},"metrics":{{"files_created":-{n}}}}}"#),
        17 => format!(r#"{w},"metrics":{{"files_created":{n}}},"protocol_compliance":{{}}}}"#),
        18 => format!(r#"{w},"metrics":{{"files_created":{n}}}"#),
        19 => format!(r#"{w},"metrics":{{"files_created":1234567890123456{n}}}}}"#),
        20 => format!(r#"{w},"metrics":{{"files_created":{{"n":{n}}},"zz":[{n}]}}}}"#),
        21 => format!(r#"{w},"protocol_compliance":{{"startup_logged":{n}}}}}"#),
        22 => format!(
            r#"{w},"metrics":{{"zz_new":{n},"debug_entries":{n}}},"protocol_compliance":{{"zz":false,"completion_logged":true}}}}"#
        ),
        24 => format!(
            r#"{w},"metrics":{{"files_created":1,"debug_entries":2,"files_created":{n}}}}}"#
        ),
        25 => format!(
            r#"{w},"metrics":{{"debug_entries":{n}}},"protocol_compliance":{{"debug_entries":true,"metrics":false}}}}"#
        ),
        26 => format!(
            r#"{w},"metrics":{{"tokens_estimated":{n},"files_created":{n},"debug_entries":{n},"duration_seconds":{n}}}}}"#
        ),
        _ => format!(r#"{w},"metrics":{{"duration_seconds":{n},"tokens_estimated":{n}}}}}"#),
    }
}

/// The replay of `log` onto `state`: fed in chunks of the sizes `cuts` (then the rest),
/// carried over to a new replay after its first `carry_at` bytes (cut at a line end), the lines
/// read typed or not, the state folded typed or not.
fn replay(
    state: &Value,
    log: &[u8],
    cuts: &[usize],
    carry_at: Option<usize>,
    skip: bool,
    (lines, session): (bool, bool),
) -> Result<String, String> {
    // The generic fold (no typed line, no typed session) checks the whole state after every
    // `state_updated`; the others check what changed once the state is known valid.
    let mode = |r: &mut Replay| {
        r.read_typed(lines);
        r.typed_session(session);
        r.check_whole(!lines && !session);
    };
    let mut replay = Replay::new("s1", Some(state.clone()), 10, skip).unwrap();
    mode(&mut replay);
    let (first, rest) = match carry_at {
        Some(at) => {
            let at = log[..at.min(log.len())]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            log.split_at(at)
        }
        None => (&log[..0], log),
    };
    if !first.is_empty() {
        if let Err(error) = replay.feed(first) {
            return outcome(Err(error));
        }
        replay = Replay::resume(&replay.carry()).unwrap();
        mode(&mut replay);
    }
    if let Err(error) = feed_in_cuts(&mut replay, rest, cuts) {
        return outcome(Err(error));
    }
    outcome(replay.finish())
}

fn spec() -> impl Strategy<Value = Spec> {
    (0..11u8, 0..AGENTS.len(), 0..40u32, 0..8u8, 0..12u8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_typed_session_equals_the_generic_fold(
        change in 0..19u8,
        specs in prop::collection::vec((spec(), 0..8u8), 0..60),
        tail in prop::option::of((spec(), 0..300usize)),
        cuts in prop::collection::vec(1..300usize, 0..8),
        carry_at in prop::option::of(0..6000usize),
        skip in any::<bool>(),
    ) {
        let state = start_state(change);
        let mut log = Vec::new();
        for (i, (spec, repeat)) in specs.iter().enumerate() {
            let text = line(spec, i);
            log.extend(&text);
            log.push(b'\n');
            if *repeat == 0 {
                log.extend(&text);
                log.push(b'\n');
            }
        }
        if let Some((spec, keep)) = &tail {
            let text = line(spec, specs.len());
            log.extend(&text[..(*keep).min(text.len())]);
        }
        let generic = replay(&state, &log, &[], None, skip, (false, false));
        for typed in [(true, true), (false, true), (true, false)] {
            let result = replay(&state, &log, &cuts, carry_at, skip, typed);
            prop_assert_eq!(&result, &generic, "{:?}\n{}", typed, String::from_utf8_lossy(&log));
        }
        prop_assert_eq!(&replay(&state, &log, &cuts, carry_at, skip, (false, false)), &generic);
    }
}

/// The typed session keeps what it does not type as it was: another writer's keys, in their
/// places, and a worker's fields beside the typed ones.
#[test]
fn foreign_keys_survive_the_typed_session() {
    let state = start_state(1);
    // Heartbeats, progress, notes: of w-a and w-b (active), the queen's and a stranger's.
    let specs: Vec<Spec> = (0..50u32)
        .map(|i| ([0, 2, 4, 5][i as usize % 4], (i % 5) as usize, i * 4, 0, 9))
        .filter(|(kind, agent, ..)| *kind > 3 || *agent < 2)
        .collect();
    let mut log = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        log.extend(line(spec, i));
        log.push(b'\n');
    }
    let typed = replay(&state, &log, &[33], None, false, (true, true));
    let typed = typed.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        typed,
        replay(&state, &log, &[], None, false, (false, false)).unwrap()
    );
    let out = json::parse(typed.as_bytes()).unwrap();
    let keys: Vec<&str> = out["state"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys.last(), Some(&"zz_foreign"));
    assert_eq!(
        json::serialize_compact(&out["state"]["zz_foreign"]),
        r#"{"b":[1,{"c":null}],"a":"é"}"#
    );
    assert_eq!(out["events"].as_u64(), Some(specs.len() as u64));
    assert!(specs.len() > 30);
}
