//! What the hive replay's property tests share: an object written as another writer would
//! write it, a replay fed in chunks, and a replay's outcome as comparable text.

#![allow(
    dead_code, // each test file uses what it needs
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use statecore::hive::Replay;
use statecore::{json, Map, Value};

/// `map` with its keys in reverse order and spaces after the separators (another serializer
/// writing the same event, or retrying its append).
pub fn reordered(map: &Map) -> String {
    let pairs: Vec<String> = map
        .iter()
        .rev()
        .map(|(k, v)| {
            format!(
                "{}: {}",
                json::serialize_compact(&Value::from(k.as_str())),
                json::serialize_compact(v)
            )
        })
        .collect();
    format!("{{{}}}", pairs.join(", "))
}

/// Feeds `bytes` to `replay` in chunks of the sizes `cuts`, then the rest.
pub fn feed_in_cuts(replay: &mut Replay, bytes: &[u8], cuts: &[usize]) -> statecore::Result<()> {
    let mut at: usize = 0;
    for cut in cuts.iter().chain(std::iter::once(&usize::MAX)) {
        let end = at.saturating_add(*cut).min(bytes.len());
        replay.feed(&bytes[at..end])?;
        at = end;
    }
    Ok(())
}

/// How a replay ended: its result as text, or its error's every part.
pub fn outcome(result: statecore::Result<Value>) -> Result<String, String> {
    result.map(|v| json::serialize(&v)).map_err(|e| {
        format!(
            "{} {:?} {} {}",
            e.code.as_str(),
            e.path,
            e.message,
            json::serialize_compact(&e.details)
        )
    })
}
