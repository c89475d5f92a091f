//! A replay fed in parts (docs/hive.md § Recovery): its carry, the replay so far as JSON
//! that another call or process goes on from, and its resumption, including the carries of
//! earlier versions.

#[cfg(not(feature = "full"))]
use super::recover_state;
use super::{Replay, CARRY_VERSION};
use crate::error::{Code, Error, Result};
use crate::hive::ids::Ids;
use crate::hive::state::State;
use crate::hive::window::{line_hash, window_hash};
use crate::{json, Map, Value};

/// How far a replay fed in parts got: what it goes on from ([`Replay::carry`]), or its end.
#[derive(Debug)]
pub enum ReplayStep {
    /// The replay so far, as JSON, to give back with the next part.
    Going(Value),
    /// What [`Replay::finish`] returned, after the last part.
    Done(Value),
}

/// One part of session `session_id`'s log replayed, bad lines skipped and reported: the first
/// part with `carry` `None`, each next with the previous [`ReplayStep::Going`]. Every part but
/// the `last` ends with a line break (a host reads a log in pages cut at line ends).
#[cfg(feature = "full")]
pub fn replay_part(
    carry: Option<&Value>,
    session_id: &str,
    part: &[u8],
    last: bool,
) -> Result<ReplayStep> {
    let mut replay = match carry {
        None => Replay::new(session_id, None, 0, true)?,
        Some(carry) => Replay::resume(carry)?,
    };
    replay.feed(part)?;
    if last {
        return replay.finish().map(ReplayStep::Done);
    }
    Ok(ReplayStep::Going(replay.carry()))
}

/// [`replay_part`] in the browser's modules (built without the `full` feature), which check a
/// log whole, in one part (`viewFile`): the replay of a log in pages, carried from one part to
/// the next, is the command line's, and its code (the carry, its resumption, the first
/// version's hashes) is left out of them (docs/performance.md § wasm size). A first and last
/// part is replayed as before; any other `E_UNAVAILABLE`.
#[cfg(not(feature = "full"))]
pub fn replay_part(
    carry: Option<&Value>,
    session_id: &str,
    part: &[u8],
    last: bool,
) -> Result<ReplayStep> {
    if carry.is_some() || !last {
        return Err(Error::new(
            Code::Unavailable,
            "",
            "a log replayed in parts (a carry from one part to the next) is not in the \
             browser's module: replay it whole, or through the Node entry or the Python package",
        ));
    }
    recover_state(part, session_id, true).map(ReplayStep::Done)
}

impl Replay {
    /// The replay so far as JSON, to go on from with [`Replay::resume`] (another call, another
    /// process): its state, counts, the recent lines that find a duplicate and the lines
    /// skipped. A part of a line not fed whole yet is not kept: call it at a line's end.
    pub fn carry(&self) -> Value {
        let mut map = Map::new();
        map.insert("version".into(), CARRY_VERSION.into());
        map.insert("session_id".into(), self.session_id.as_str().into());
        let state = self.state.clone();
        let state = state.map_or(Value::Null, |s| Value::Object(s.into_tree()));
        map.insert("state".into(), state);
        map.insert("skip_bad_lines".into(), self.skip_bad_lines.into());
        map.insert("offset".into(), self.offset.into());
        map.insert("line".into(), self.line.into());
        map.insert("applied".into(), self.applied.into());
        map.insert("duplicates".into(), self.duplicates.into());
        map.insert("out_of_order".into(), self.out_of_order.into());
        let latest = self.latest.as_deref().map_or(Value::Null, Value::from);
        map.insert("latest".into(), latest);
        map.insert("skipped".into(), Value::Array(self.skipped.clone()));
        let window = self.window.lines();
        let lines = window.map(|l| Value::from(String::from_utf8_lossy(l).as_ref()));
        map.insert("window".into(), Value::Array(lines.collect()));
        map.insert("ids".into(), self.ids.carry());
        Value::Object(map)
    }

    /// A replay going on from `carry` ([`Replay::carry`]); `E_ARGUMENT` when it is not one.
    pub fn resume(carry: &Value) -> Result<Replay> {
        let bad = |what: &str| {
            Error::new(
                Code::Argument,
                format!("/{what}"),
                format!("a replay's carry has no valid {what}"),
            )
        };
        let count = |key: &str| {
            carry
                .get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(key))
        };
        let version = match carry.get("version") {
            None => 1,
            Some(version) => version
                .as_u64()
                .filter(|v| (1..=CARRY_VERSION).contains(v))
                .ok_or_else(|| {
                    Error::new(
                        Code::Argument,
                        "/version",
                        format!(
                            "a replay's carry of version {}: this statecore reads versions 1 \
                             to {CARRY_VERSION} (a carry from a newer statecore?): start the \
                             replay again, from the state's session_metadata.log_offset or from \
                             the log's start",
                            json::serialize_compact(version)
                        ),
                    )
                })?,
        };
        let session_id = carry.get("session_id").and_then(Value::as_str);
        let skip = carry.get("skip_bad_lines").and_then(Value::as_bool);
        let state = carry.get("state").cloned();
        let mut replay = Replay::new(
            session_id.ok_or_else(|| bad("session_id"))?,
            state,
            count("offset")?,
            skip.ok_or_else(|| bad("skip_bad_lines"))?,
        )?;
        replay.line = count("line")?;
        replay.applied = count("applied")?;
        replay.duplicates = count("duplicates")?;
        replay.out_of_order = count("out_of_order")?;
        replay.latest = carry
            .get("latest")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let list = |key: &str| {
            carry
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| bad(key))
        };
        replay.skipped = list("skipped")?.clone();
        if let Some(ids) = carry.get("ids") {
            replay.ids = Ids::resume(ids).ok_or_else(|| bad("ids"))?;
        }
        let mut older = Vec::new();
        for line in list("window")? {
            let line = line.as_str().ok_or_else(|| bad("window"))?.as_bytes();
            replay.window.remember(window_hash(line), line);
            if version == 1 {
                older.push((xxhash_rust::xxh3::xxh3_64(line), line_hash(line)));
            }
        }
        if version == 1 {
            // Version 1 remembered its ids' lines by their xxh3 hashes: each becomes its
            // line's hash now, found among the window's lines. An id whose line has left the
            // window keeps its old hash, under which the window holds no line (a new line of
            // that hash is as unlikely as any collision of two lines' 64-bit hashes).
            replay.ids.rehash(|old| {
                older
                    .iter()
                    .find(|(xxh3, _)| *xxh3 == old)
                    .map_or(old, |(_, hash)| *hash)
            });
        }
        Ok(replay)
    }
}
