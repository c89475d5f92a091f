//! The viewer's activity feed and context health indicator (seed 000 "Verification Events"
//! and "Context Lifecycle Events"): lifecycle, verification and context events merged in
//! timestamp order, and the isolation mode and last checkpoint derived from them.

use crate::time::parse_timestamp;
use crate::{json, Value};

fn timestamp_of(event: &Value) -> Option<i64> {
    event
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(|t| parse_timestamp(t).ok())
}

/// Merges event lists (e.g. the Executor's lifecycle events, the Observer's verification
/// events, the context events) into one feed, oldest first; events with the same time keep
/// their source order. An entry without a valid `timestamp` is not dropped silently: it is
/// listed in `invalid` as `{source, index}`. Returns `{events, invalid}`.
pub fn activity_feed(sources: &Value) -> Value {
    let mut timed: Vec<(i64, usize, usize, &Value)> = Vec::new();
    let mut invalid: Vec<Value> = Vec::new();
    let lists = sources.as_array().map_or(&[][..], Vec::as_slice);
    for (source, list) in lists.iter().enumerate() {
        for (index, event) in list
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .enumerate()
        {
            match timestamp_of(event) {
                Some(t) => timed.push((t, source, index, event)),
                None => invalid.push(json!({"source": source, "index": index})),
            }
        }
    }
    // (source, index) is unique: an unstable sort gives the stable order (and no second sort
    // routine in the browser's module, docs/performance.md § wasm size).
    timed.sort_unstable_by_key(|(t, source, index, _)| (*t, *source, *index));
    let events: Vec<Value> = timed.into_iter().map(|(_, _, _, e)| e.clone()).collect();
    json!({"events": events, "invalid": invalid})
}

/// The context health indicator: `{isolation, lastCheckpoint}`. `isolation` is the
/// `isolation` field of the latest `context-boundary` event (`"isolated"` when it has none),
/// or `"standard"` when there is no boundary event; `lastCheckpoint` is the later of the
/// latest `context-checkpointed` event and `buildRun.lastCheckpoint` (or `null`).
pub fn context_health(state: &Value, events: &Value) -> Value {
    let list = events.as_array().map_or(&[][..], Vec::as_slice);
    let latest = |kind: &str| {
        list.iter()
            .filter(|e| e.get("kind").and_then(Value::as_str) == Some(kind))
            .filter_map(|e| timestamp_of(e).map(|t| (t, e)))
            .max_by_key(|(t, _)| *t)
    };
    let isolation = match latest("context-boundary") {
        None => "standard".to_owned(),
        Some((_, e)) => e
            .get("isolation")
            .and_then(Value::as_str)
            .unwrap_or("isolated")
            .to_owned(),
    };
    let from_event = latest("context-checkpointed")
        .and_then(|(t, e)| Some((t, e.get("timestamp")?.as_str()?.to_owned())));
    let from_run = state
        .get("buildRun")
        .and_then(|r| r.get("lastCheckpoint"))
        .and_then(Value::as_str)
        .and_then(|text| Some((parse_timestamp(text).ok()?, text.to_owned())));
    let last = match (from_event, from_run) {
        (Some(a), Some(b)) => Some(if b.0 > a.0 { b.1 } else { a.1 }),
        (a, b) => a.or(b).map(|(_, text)| text),
    };
    json!({"isolation": isolation, "lastCheckpoint": last})
}
