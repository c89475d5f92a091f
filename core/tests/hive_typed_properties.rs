//! Differential property test of the hive replay's typed lines (docs/performance.md § The hive
//! replay): a replay that reads each line it can in the typed form gives exactly what the
//! replay reading every line as a generic tree gives (the same state text byte for byte, the
//! same counts, skipped lines and warnings, the same error with its code, path, message and
//! details) on random logs: statecore's own lines and other writers' (ids, reordered keys,
//! spaces, escapes, CRLF), retried appends, ids reused with other bodies, bad lines of every
//! kind, nesting at the depth limit, torn or unterminated tails, fed in chunks cut anywhere,
//! bad lines skipped or not.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod hive_support;

use hive_support::{feed_in_cuts, outcome, reordered};
use proptest::prelude::*;
use statecore::hive::Replay;
use statecore::{json, Map, Value};

const WORKERS: [&str; 3] = ["w-a", "w-b", "w-c"];
const PHASES: [&str; 7] = [
    "initializing",
    "planning",
    "spawning",
    "executing",
    "synthesizing",
    "complete",
    "failed",
];

/// One generated line: what it says, and how it is written.
#[derive(Debug, Clone)]
struct Spec {
    kind: u8,
    worker: usize,
    n: u32,
    time: u8,
    form: u8,
}

fn spec() -> impl Strategy<Value = Spec> {
    (0..13u8, 0..WORKERS.len(), 0..40u32, 0..20u8, 0..30u8).prop_map(
        |(kind, worker, n, time, form)| Spec {
            kind,
            worker,
            n,
            time,
            form,
        },
    )
}

fn parse(text: &str) -> Value {
    json::parse(text.as_bytes()).unwrap()
}

/// Details nested `depth` levels (an object holding a list holding ...).
fn nested(depth: usize) -> Value {
    let mut value = Value::from("deep");
    for level in 0..depth {
        value = if level.is_multiple_of(2) {
            Value::Array(vec![value])
        } else {
            let mut map = Map::new();
            map.insert("k".into(), value);
            Value::Object(map)
        };
    }
    value
}

/// The event a spec says: (type, agent, details).
fn event(spec: &Spec, i: usize) -> (String, String, Value) {
    let w = WORKERS[spec.worker];
    let n = spec.n;
    let (kind, details) = match spec.kind {
        0 => ("session_created", parse(r#"{"task":"build it"}"#)),
        1 => (
            "workers_planned",
            parse(&format!(
                r#"{{"workers":[{{"name":"{w}","task":"t{n}","focus_areas":["a"]}}],"rationale":"r"}}"#
            )),
        ),
        2 => (
            "spawn_attempted",
            parse(&format!(r#"{{"worker":"{w}","attempt":{n}}}"#)),
        ),
        3 => ("worker_spawned", parse(&format!(r#"{{"worker":"{w}"}}"#))),
        4 => ("worker_heartbeat", parse(&format!(r#"{{"worker":"{w}"}}"#))),
        5 => (
            "worker_progress",
            match n % 5 {
                0 => parse(&format!(
                    r#"{{"worker":"{w}","metrics":{{"events_logged":{n}}}}}"#
                )),
                1 => parse(&format!(
                    r#"{{"worker":"{w}","metrics":{{"files_created":-{n}}}}}"#
                )),
                2 => parse(&format!(
                    r#"{{"worker":"{w}","metrics":{{"files_created":{n}}},"protocol_compliance":{{"debug_logging_active":true}}}}"#
                )),
                _ => parse(&format!(
                    r#"{{"worker":"{w}","metrics":{{"files_created":{n},"tokens_estimated":{}}}}}"#,
                    n * 37
                )),
            },
        ),
        6 => (
            "worker_completed",
            parse(&format!(
                r#"{{"worker":"{w}","outputs":{{"notes":"notes/{w}.md"}},"metrics":{{"debug_entries":{n}}}}}"#
            )),
        ),
        7 => (
            "worker_failed",
            if n.is_multiple_of(2) {
                parse(&format!(r#"{{"worker":"{w}","error":"boom {n}"}}"#))
            } else {
                Value::from(format!("failed at step {n}").as_str())
            },
        ),
        8 => (
            "state_updated",
            match n % 4 {
                0 => parse(&format!(
                    r#"{{"updates":{{"status":"{}"}},"strategy":"deep"}}"#,
                    PHASES[n as usize % PHASES.len()]
                )),
                1 => parse(r#"{"updates":[1],"strategy":"deep"}"#),
                2 => parse(&format!(
                    r#"{{"updates":{{"metrics":{{"x":{n}}}}},"strategy":"shallow"}}"#
                )),
                _ => parse(&format!(
                    r#"{{"updates":{{"metrics":{{"x":{n}}}}},"strategy":"deep"}}"#
                )),
            },
        ),
        9 => (
            "phase_changed",
            parse(&format!(
                r#"{{"from":"x","to":"{}"}}"#,
                PHASES[n as usize % PHASES.len()]
            )),
        ),
        10 => ("debug", Value::from(format!("note {n}").as_str())),
        11 => (
            "notification",
            Value::Array(vec![Value::from("a"), Value::from(i as u64)]),
        ),
        // Nesting around the depth limit (the line's depth is one more than the details').
        _ => ("deep_note", nested(125 + n as usize % 4)),
    };
    let agent = if matches!(spec.kind, 0 | 1 | 8 | 9) || n.is_multiple_of(7) {
        "queen".to_owned()
    } else {
        w.to_owned()
    };
    (kind.to_owned(), agent, details)
}

/// The line's time: mostly increasing, sometimes going back, in other forms, or not a time.
fn time(spec: &Spec, i: usize) -> String {
    let second = i * 3 + usize::from(spec.time);
    let (m, s) = (second / 60 % 60, second % 60);
    match spec.time {
        0 => format!("2026-11-24T09:{m:02}:{s:02}.000Z"),
        1 => format!("2026-11-24T11:{m:02}:{s:02}+01:00"),
        2 => format!("2026-11-24T10:{m:02}:{s:02}Z"),
        3 => "2026-11-24T25:00:00.000Z".to_owned(),
        4 => "yesterday".to_owned(),
        5 => format!("2026-11-24T10:{m:02}:{s:02}.5Z"),
        // A second past 59 in a minute the line before used (60 is a leap second to some).
        6 => format!("2026-11-24T10:{m:02}:6{}.{:03}Z", spec.n % 10, spec.n),
        7 => format!("2026-11-24T10:{m:02}:{s:02}.{:03}X", spec.n),
        _ => format!("2026-11-24T10:{m:02}:{s:02}.{:03}Z", spec.n),
    }
}

/// The line's bytes (without its line break), in the form `spec.form` says.
fn text(spec: &Spec, i: usize) -> Vec<u8> {
    let (kind, agent, details) = event(spec, i);
    let time = time(spec, i);
    let mut map = Map::new();
    map.insert("timestamp".into(), time.as_str().into());
    map.insert("type".into(), kind.as_str().into());
    map.insert("agent".into(), agent.as_str().into());
    map.insert("details".into(), details.clone());
    let canonical = |map: &Map| json::serialize_compact(&Value::Object(map.clone()));
    let with = |key: &str, value: Value| {
        let mut map = map.clone();
        map.insert(key.into(), value);
        canonical(&map)
    };
    let line = match spec.form {
        // The ids come from a small pool: the same id again with another body is common.
        10 => with("id", Value::from(format!("ev-{}", spec.n % 4).as_str())),
        11 => with("event_id", Value::from(u64::from(spec.n % 3))),
        12 => reordered(&map),
        // An escape in a string the typed reader reads in place (the same name).
        13 => canonical(&map)
            .replacen("\"agent\":\"", "\"agent\":\"\\u0071", 1)
            .replace("\\u0071queen", "\\u0071ueen"),
        14 => canonical(&map).replacen("\"type\":\"", "\"type\":\"\\n", 1),
        15 => format!("{} ", canonical(&map)),
        16 => format!("{}\r", canonical(&map)),
        17 => canonical(&map).replacen("\"details\":", "\"details\": ", 1),
        18 => with("status", Value::from(u64::from(spec.n))),
        19 => {
            let mut map = map.clone();
            map.insert("details".into(), Value::from(u64::from(spec.n)));
            canonical(&map)
        }
        20 => {
            let mut map = map.clone();
            map.shift_remove("details");
            canonical(&map)
        }
        21 => canonical(&map).replacen("{\"", "{\"worker\":\"x\",\"", 2),
        22 => canonical(&map).replacen("\"worker\":", "\"worker\":\"dup\",\"worker\":", 1),
        23 => canonical(&map)[..canonical(&map).len() / 2].to_owned(),
        24 => "[1,2]".to_owned(),
        25 => format!("{}}}", canonical(&map)),
        26 => {
            let mut bytes = canonical(&map).into_bytes();
            let at = bytes.iter().position(|&b| b == b'w').unwrap_or(0);
            bytes[at] = 0xFF;
            return bytes;
        }
        27 => String::new(),
        _ => canonical(&map),
    };
    line.into_bytes()
}

fn replay(log: &[u8], cuts: &[usize], skip: bool, typed: bool) -> Result<String, String> {
    let mut replay = Replay::new("s1", None, 0, skip).unwrap();
    replay.read_typed(typed);
    if let Err(error) = feed_in_cuts(&mut replay, log, cuts) {
        return outcome(Err(error));
    }
    outcome(replay.finish())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_typed_replay_equals_the_generic_fold(
        specs in prop::collection::vec((spec(), 0..8u8), 0..40),
        tail in prop::option::of((spec(), 0..400usize)),
        cuts in prop::collection::vec(1..400usize, 0..8),
        skip in any::<bool>(),
    ) {
        let mut log = Vec::new();
        let first = Spec { kind: 0, worker: 0, n: 0, time: 10, form: 0 };
        log.extend(text(&first, 0));
        log.push(b'\n');
        for (i, (spec, repeat)) in specs.iter().enumerate() {
            let line = text(spec, i + 1);
            log.extend(&line);
            log.push(b'\n');
            // A retried append: the same bytes again.
            if *repeat == 0 {
                log.extend(&line);
                log.push(b'\n');
            }
        }
        // A last line without its line break: whole (applied) or torn (dropped).
        if let Some((spec, cut)) = &tail {
            let line = text(spec, specs.len() + 1);
            let keep = (*cut).min(line.len());
            log.extend(&line[..keep]);
        }
        let generic = replay(&log, &[], skip, false);
        let typed = replay(&log, &cuts, skip, true);
        prop_assert_eq!(&typed, &generic, "\n{}", String::from_utf8_lossy(&log));
        // And the generic replay cut the same way (chunking changes nothing either way).
        prop_assert_eq!(&replay(&log, &cuts, skip, false), &generic);
    }
}

/// The typed reader takes statecore's own lines (so the property above compares both paths on
/// them, not two generic reads): a canonical line and the same line with an id give the
/// same state, and an escaped name reads as the name.
#[test]
fn canonical_lines_and_their_other_forms_replay_alike() {
    let lines = [
        r#"{"timestamp":"2026-11-24T10:00:00.000Z","type":"session_created","agent":"queen","details":{"task":"t"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:01.000Z","type":"worker_spawned","agent":"w-a","details":{"worker":"w-a"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:02.000Z","type":"worker_heartbeat","agent":"w-a","details":{"worker":"w-a"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:03.000Z","type":"worker_heartbeat","agent":"w-\u0061","details":{"worker":"w-a"}}"#,
        r#"{"timestamp":"2026-11-24T10:00:04.000Z","type":"debug","agent":"w-a","details":"note","id":"x"}"#,
    ];
    let log = format!("{}\n", lines.join("\n"));
    let typed = replay(log.as_bytes(), &[7, 100], false, true).unwrap();
    assert_eq!(typed, replay(log.as_bytes(), &[], false, false).unwrap());
    let state = json::parse(typed.as_bytes()).unwrap();
    assert_eq!(state["events"].as_u64(), Some(5));
    assert_eq!(
        state["state"]["worker_states"]["w-a"]["metrics"]["events_logged"].as_u64(),
        Some(4)
    );
}
