//! Event ids in a log (docs/hive.md § Recovery, event ids): a line may carry an `id` (another
//! writer's) or an `event_id` (statecore's). The same id with the same body again is a
//! retried append, applied once; the same id with another body is two events under one id,
//! `E_LOG_CORRUPT` naming both lines. A replay remembers the ids of its recent lines, and
//! finds their bodies in its window of recent lines, never the whole file.

use super::window::DUPLICATE_WINDOW;
use crate::error::{Code, Error, Result};
use crate::value::Identity;
use crate::{json, Map, Value};
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

/// The id fields of an event line, in the order they are looked at.
const ID_FIELDS: [&str; 2] = ["id", "event_id"];

/// What an id says of a line.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Seen {
    /// No id, or an id not seen in the window: apply the line.
    New,
    /// The id of an earlier line with the same body: a retried append, not applied again.
    Again,
}

/// The ids of recent lines: each id's key (a hash of its field and value) with the line it
/// was first applied at and the hash of that line's bytes (the replay's window holds the
/// bytes; on an id met again with other bytes, the two bodies are compared as values: key
/// order and spacing do not matter).
#[derive(Debug, Default)]
pub(super) struct Ids {
    order: VecDeque<u64>,
    seen: HashMap<u64, (u64, u64), BuildHasherDefault<Identity>>,
}

impl Ids {
    /// Looks up `event`'s id: [`Seen::Again`] for the same body, `E_LOG_CORRUPT` (with
    /// `details.first_line` and `details.id`) for another body under the same id. `body`
    /// finds an earlier line's bytes by their hash (`None`: out of the window, forgotten).
    pub(super) fn check<'a>(
        &self,
        event: &Map,
        body: impl Fn(u64) -> Option<&'a [u8]>,
    ) -> Result<Seen> {
        if self.seen.is_empty() {
            return Ok(Seen::New);
        }
        for (field, id, key) in keys(event) {
            let Some(&(line, hash)) = self.seen.get(&key) else {
                continue;
            };
            let Some(raw) = body(hash) else {
                continue;
            };
            let same = json::parse(raw)
                .ok()
                .is_some_and(|earlier| matches!(earlier, Value::Object(map) if &map == event));
            if same {
                return Ok(Seen::Again);
            }
            return Err(Error::new(
                Code::LogCorrupt,
                "",
                format!(
                    "it carries the {field} {} of line {line} with a different body: two \
                     events under one id (a writer reused an id, or a line was edited)",
                    json::serialize_compact(id)
                ),
            )
            .with_detail("first_line", line)
            .with_detail("id", id.clone()));
        }
        Ok(Seen::New)
    }

    /// Remembers the id(s) of `event`, applied at line `line` from bytes hashed `hash` (the
    /// oldest forgotten past the window).
    pub(super) fn remember(&mut self, event: &Map, line: u64, hash: u64) {
        for (_, _, key) in keys(event) {
            if self.seen.contains_key(&key) {
                continue;
            }
            if self.order.len() >= DUPLICATE_WINDOW {
                if let Some(old) = self.order.pop_front() {
                    self.seen.remove(&old);
                }
            }
            self.order.push_back(key);
            self.seen.insert(key, (line, hash));
        }
    }

    /// Each remembered line's hash replaced by `new` of it (a carry whose lines were hashed
    /// another way: [`super::replay::CARRY_VERSION`]).
    pub(super) fn rehash(&mut self, new: impl Fn(u64) -> u64) {
        for (_, hash) in self.seen.values_mut() {
            *hash = new(*hash);
        }
    }

    /// The remembered ids as JSON (`[[line, hash], ...]`, oldest first; the hash as text), for
    /// a replay's carry (the bodies are in the carry's window).
    pub(super) fn carry(&self) -> Value {
        let items = self.order.iter().filter_map(|key| {
            let (line, hash) = self.seen.get(key)?;
            let pair = vec![Value::from(key.to_string().as_str()), Value::from(*line)];
            Some(Value::Array(
                [pair, vec![Value::from(hash.to_string().as_str())]].concat(),
            ))
        });
        Value::Array(items.collect())
    }

    /// The ids a carry remembered ([`Ids::carry`]); `None` when it is not one.
    pub(super) fn resume(carry: &Value) -> Option<Ids> {
        let mut ids = Ids::default();
        for item in carry.as_array()? {
            let number = |i: usize| item.get(i)?.as_str()?.parse::<u64>().ok();
            let (key, hash) = (number(0)?, number(2)?);
            let line = item.get(1).and_then(Value::as_u64)?;
            ids.order.push_back(key);
            ids.seen.insert(key, (line, hash));
        }
        Some(ids)
    }
}

/// The ids of an event: the field, the id, and its key (a hash of the field and the id's
/// text), for each id field holding a string or a number.
fn keys(event: &Map) -> impl Iterator<Item = (&'static str, &Value, u64)> {
    ID_FIELDS.iter().enumerate().filter_map(|(i, field)| {
        let id = event.get(field)?;
        let seed = u64::try_from(i).unwrap_or_default();
        let key = match id {
            Value::String(text) => key_hash(text.as_bytes(), seed),
            Value::Number(_) => {
                let text = json::serialize_compact(id);
                // Another seed: the number 7 and the string "7" are two ids.
                key_hash(text.as_bytes(), seed.saturating_add(2))
            }
            _ => return None,
        };
        Some((*field, id, key))
    })
}

/// An id's key: the hash of its text with the seed of its field and type. A replay's carry
/// holds the keys, so they are xxh3's; the browser's modules (built without the `full`
/// feature) never carry a replay ([`super::replay_part`]), and hash with the replay's line
/// hash, mixed with the seed, instead: no second hash function in them (docs/performance.md
/// § wasm size). Two ids are one when their keys are (a collision of 64-bit hashes aside).
#[cfg(feature = "full")]
fn key_hash(text: &[u8], seed: u64) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(text, seed)
}

/// An id's key in the browser's modules (see the `full` build's).
#[cfg(not(feature = "full"))]
fn key_hash(text: &[u8], seed: u64) -> u64 {
    super::window::line_hash(text) ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
