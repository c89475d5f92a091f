//! Property test of recovery on logs other writers produced (docs/hive.md § Logs of other
//! writers): any log written the way the original template's `log_event` writes it (the
//! event vocabulary `session_created`, `worker_spawned`, `worker_completed`, `worker_failed`
//! and the tool's other types such as `analysis_started` or `notification`; no plan lines;
//! `details` a string, an object or a list; the worker named by `agent`; extra fields such as
//! `level` and an `id`, retried appends) recovers to a state that validates, whole or fed in
//! chunks cut anywhere, with every worker in the status its lines gave it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

mod hive_support;

use hive_support::reordered;
use proptest::prelude::*;
use statecore::hive::{recover_state, validate_state, Replay};
use statecore::{json, Map, Value};
use std::collections::BTreeMap;

const WORKERS: [&str; 3] = ["backend-worker", "frontend-worker", "test-worker"];
const QUEEN: &str = "queen-orchestrator";
/// The original tool's own event types (statecore only counts them).
const OTHER: [&str; 8] = [
    "session_validated",
    "worker_configured",
    "analysis_started",
    "notification",
    "escalation",
    "coordination",
    "synthesis_created",
    "orchestration_completed",
];

/// A `details` as the original and its later versions write it.
#[derive(Debug, Clone)]
enum Details {
    /// `str(details)[:500]`, or `"No details provided"`.
    Text(u8),
    /// A later client's object.
    Object(u8),
    /// A list (output paths, reasons).
    List(u8),
    /// Empty details (only on lines whose details carry nothing statecore needs).
    Empty(u8),
}

fn details() -> impl Strategy<Value = Details> {
    prop_oneof![
        (0..4u8).prop_map(Details::Text),
        (0..4u8).prop_map(Details::Object),
        (0..4u8).prop_map(Details::List),
    ]
}

fn any_details() -> impl Strategy<Value = Details> {
    prop_oneof![details(), (0..3u8).prop_map(Details::Empty)]
}

impl Details {
    fn value(&self) -> Value {
        let text = |s: &str| Value::from(s);
        match self {
            Details::Text(0) => text("No details provided"),
            Details::Text(n) => text(&format!("{{'note': 'step {n}', 'mode': 'analysis'}}")),
            Details::Object(0) => json::parse(br#"{"status": "completed"}"#).unwrap(),
            Details::Object(n) => {
                json::parse(format!(r#"{{"note": "step {n}", "count": {n}}}"#).as_bytes()).unwrap()
            }
            Details::List(n) => Value::Array(
                (0..=*n)
                    .map(|i| text(&format!("notes/part_{i}.md")))
                    .collect(),
            ),
            Details::Empty(0) => text(""),
            Details::Empty(1) => Value::Array(Vec::new()),
            Details::Empty(_) => Value::Object(Map::new()),
        }
    }
}

/// One line of the log, before the model decides whether the original could write it.
#[derive(Debug, Clone)]
enum Line {
    Spawn(usize, Details),
    Complete(usize, Details),
    Fail(usize, Details),
    Other(usize, Option<usize>, Details),
}

fn line() -> impl Strategy<Value = Line> {
    let w = 0..WORKERS.len();
    prop_oneof![
        3 => (w.clone(), any_details()).prop_map(|(w, d)| Line::Spawn(w, d)),
        2 => (w.clone(), details()).prop_map(|(w, d)| Line::Complete(w, d)),
        1 => (w.clone(), details()).prop_map(|(w, d)| Line::Fail(w, d)),
        3 => (0..OTHER.len(), prop::option::of(w), any_details())
            .prop_map(|(t, w, d)| Line::Other(t, w, d)),
    ]
}

/// What the log's lines made of each worker (the model the recovered state must match).
#[derive(Debug, Default)]
struct Model {
    status: BTreeMap<&'static str, &'static str>,
}

impl Model {
    /// The event type of `line` when the original's writers would write it now (a worker's
    /// first line is `worker_spawned` or a failure; a completion follows a spawn; nothing
    /// spawns or completes a completed worker), and the model moved by it.
    fn admit(&mut self, line: &Line) -> Option<(&'static str, &'static str)> {
        let (kind, worker) = match line {
            Line::Spawn(w, _) => ("worker_spawned", WORKERS[*w]),
            Line::Complete(w, _) => ("worker_completed", WORKERS[*w]),
            Line::Fail(w, _) => ("worker_failed", WORKERS[*w]),
            Line::Other(t, w, _) => return Some((OTHER[*t], w.map_or(QUEEN, |w| WORKERS[w]))),
        };
        let now = self.status.get(worker).copied();
        let next = match (kind, now) {
            (_, Some("completed")) => return None,
            ("worker_spawned", _) => "active",
            ("worker_completed", Some("active")) => "completed",
            ("worker_completed", _) => return None,
            _ => "failed",
        };
        self.status.insert(worker, next);
        Some((kind, worker))
    }
}

/// The line's JSON text: the original's field order, `status` and `level` sometimes, an
/// `id` sometimes.
fn text(kind: &str, agent: &str, details: &Value, second: usize, id: Option<usize>) -> String {
    let mut map = Map::new();
    let time = format!("2026-11-24T10:{:02}:{:02}Z", second / 60, second % 60);
    map.insert("timestamp".into(), time.as_str().into());
    map.insert("type".into(), kind.into());
    map.insert("agent".into(), agent.into());
    map.insert("details".into(), details.clone());
    if second.is_multiple_of(3) {
        map.insert("status".into(), "ok".into());
    }
    if second.is_multiple_of(4) {
        map.insert("level".into(), "INFO".into());
    }
    if let Some(id) = id {
        map.insert("id".into(), format!("ev-{id}").as_str().into());
    }
    json::serialize_compact(&Value::Object(map))
}

/// The same event with its keys in reverse order and spaces after the separators (another
/// serializer retrying the append).
fn reordered_line(line: &str) -> String {
    let Value::Object(map) = json::parse(line.as_bytes()).unwrap() else {
        panic!("a line is an object");
    };
    reordered(&map)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn any_log_of_the_original_template_recovers_to_a_valid_state(
        lines in prop::collection::vec((line(), any::<bool>(), 0..4u8), 0..40),
        created in details(),
        cuts in prop::collection::vec(1..300usize, 0..8),
    ) {
        let mut model = Model::default();
        let mut log = String::new();
        log.push_str(&text("session_created", QUEEN, &created.value(), 0, Some(0)));
        log.push('\n');
        for (i, (line, with_id, retry)) in lines.iter().enumerate() {
            let Some((kind, agent)) = model.admit(line) else { continue };
            let details = match line {
                Line::Spawn(_, d) | Line::Complete(_, d) | Line::Fail(_, d) | Line::Other(_, _, d) => d,
            };
            let id = with_id.then_some(i + 1);
            let written = text(kind, agent, &details.value(), i + 1, id);
            log.push_str(&written);
            log.push('\n');
            // A retried append: the same bytes, or (with an id) the same event reserialized.
            match (retry, id) {
                (0, _) => log.push_str(&format!("{written}\n")),
                (1, Some(_)) => log.push_str(&format!("{}\n", reordered_line(&written))),
                _ => {}
            }
        }
        let whole = recover_state(log.as_bytes(), "s1", false);
        prop_assert!(whole.is_ok(), "{:?}\n{log}", whole.err());
        let whole = whole.unwrap();
        let state = &whole["state"];
        let report = validate_state(state);
        prop_assert!(report.valid(), "{:?}\n{log}", report.errors);
        for (worker, status) in &model.status {
            prop_assert_eq!(state["worker_states"][*worker]["status"].as_str(), Some(*status));
        }
        // Fed in chunks cut anywhere: the same state.
        let mut replay = Replay::new("s1", None, 0, false).unwrap();
        let (bytes, mut at) = (log.as_bytes(), 0);
        for cut in cuts {
            let end = (at + cut).min(bytes.len());
            replay.feed(&bytes[at..end]).unwrap();
            at = end;
        }
        replay.feed(&bytes[at..]).unwrap();
        prop_assert_eq!(&replay.finish().unwrap()["state"], state);
    }
}

/// A log replayed in parts (`replay_part`, each part's carry through JSON text, as the hosts
/// page a log) finds an id reused with another body across a part's end, and a retried
/// append of the same body, as the whole replay does.
#[test]
fn event_ids_are_remembered_across_parts() {
    use statecore::hive::{replay_part, ReplayStep};
    let lines = [
        r#"{"timestamp":"2026-11-24T10:00:00Z","type":"session_created","agent":"queen-orchestrator","details":"start"}"#,
        r#"{"timestamp":"2026-11-24T10:00:05Z","type":"worker_spawned","agent":"backend-worker","details":"go","id":"a"}"#,
        r#"{"id":"a","details":"go","agent":"backend-worker","type":"worker_spawned","timestamp":"2026-11-24T10:00:05Z"}"#,
        r#"{"timestamp":"2026-11-24T10:00:09Z","type":"analysis_started","agent":"backend-worker","details":"x","id":"a"}"#,
    ];
    let mut carry: Option<Value> = None;
    let mut done = None;
    for (i, line) in lines.iter().enumerate() {
        let part = format!("{line}\n");
        let last = i == lines.len() - 1;
        match replay_part(carry.as_ref(), "s1", part.as_bytes(), last).unwrap() {
            ReplayStep::Going(value) => {
                let text = json::serialize_compact(&value);
                carry = Some(json::parse(text.as_bytes()).unwrap());
            }
            ReplayStep::Done(value) => done = Some(value),
        }
    }
    let done = done.unwrap();
    let whole = recover_state(format!("{}\n", lines.join("\n")).as_bytes(), "s1", true).unwrap();
    assert_eq!(done, whole);
    assert_eq!(done["duplicates"].as_u64(), Some(1));
    let skipped = done["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["line"].as_u64(), Some(4));
    assert_eq!(skipped[0]["code"].as_str(), Some("E_LOG_CORRUPT"));
    assert!(
        skipped[0]["message"]
            .as_str()
            .unwrap()
            .contains("of line 2"),
        "{done:?}"
    );
}
