//! Event ids in a log (docs/hive.md § Recovery, event ids): a line may carry an `id` (another
//! writer's) or an `event_id` (statecore's). The same id with the same body again is a
//! retried append, applied once; the same id with another body is two events under one id,
//! `E_LOG_CORRUPT` naming both lines. A replay remembers the ids of its recent lines (the
//! same window as its duplicate lines), never the whole file.

use super::replay::DUPLICATE_WINDOW;
use crate::error::{Code, Error, Result};
use crate::{json, Map, Value};
use std::collections::{HashMap, VecDeque};

/// The id fields of an event line, in the order they are looked at.
pub const ID_FIELDS: [&str; 2] = ["id", "event_id"];

/// What an id says of a line.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Seen {
    /// No id, or an id not seen in the window: apply the line.
    New,
    /// The id of an earlier line with the same body: a retried append, not applied again.
    Again,
}

/// The ids of recent lines: each id's key (its field and JSON text), the line it was first
/// applied at and that line's bytes (on an id met again with other bytes, the two bodies are
/// compared as values: key order and spacing do not matter).
#[derive(Debug, Default)]
pub(super) struct Ids {
    order: VecDeque<String>,
    seen: HashMap<String, (u64, Vec<u8>)>,
}

impl Ids {
    /// Looks up `event`'s id: [`Seen::Again`] for the same body, `E_LOG_CORRUPT` (with
    /// `details.first_line` and `details.id`) for another body under the same id.
    pub(super) fn check(&self, event: &Map) -> Result<Seen> {
        if self.seen.is_empty() {
            return Ok(Seen::New);
        }
        for (key, id) in keys(event) {
            let Some((line, raw)) = self.seen.get(&key) else {
                continue;
            };
            let same = json::parse(raw)
                .ok()
                .is_some_and(|body| matches!(body, Value::Object(map) if &map == event));
            if same {
                return Ok(Seen::Again);
            }
            let field = key.split(':').next().unwrap_or("id");
            return Err(Error::new(
                Code::LogCorrupt,
                "",
                format!(
                    "it carries the {field} {} of line {line} with a different body: two \
                     events under one id (a writer reused an id, or a line was edited)",
                    json::serialize_compact(id)
                ),
            )
            .with_detail("first_line", *line)
            .with_detail("id", id.clone()));
        }
        Ok(Seen::New)
    }

    /// Remembers the id(s) of `event`, applied at line `line` from the bytes `raw` (the oldest
    /// forgotten past the window).
    pub(super) fn remember(&mut self, event: &Map, line: u64, raw: &[u8]) {
        for (key, _) in keys(event) {
            if self.seen.contains_key(&key) {
                continue;
            }
            if self.order.len() >= DUPLICATE_WINDOW {
                if let Some(old) = self.order.pop_front() {
                    self.seen.remove(&old);
                }
            }
            self.order.push_back(key.clone());
            self.seen.insert(key, (line, raw.to_vec()));
        }
    }

    /// The remembered lines as JSON (`[[line, text], ...]`, oldest first), for a replay's carry.
    pub(super) fn carry(&self) -> Value {
        let mut out = Vec::new();
        let mut lines_seen = std::collections::HashSet::new();
        for key in &self.order {
            if let Some((line, raw)) = self.seen.get(key) {
                if lines_seen.insert(*line) {
                    let text = String::from_utf8_lossy(raw);
                    out.push(Value::Array(vec![
                        Value::from(*line),
                        Value::from(text.as_ref()),
                    ]));
                }
            }
        }
        Value::Array(out)
    }

    /// The ids a carry remembered ([`Ids::carry`]); `None` when it is not one.
    pub(super) fn resume(carry: &Value) -> Option<Ids> {
        let mut ids = Ids::default();
        for item in carry.as_array()? {
            let line = item.get(0).and_then(Value::as_u64)?;
            let raw = item.get(1).and_then(Value::as_str)?.as_bytes();
            if let Ok(Value::Object(event)) = json::parse(raw) {
                ids.remember(&event, line, raw);
            }
        }
        Some(ids)
    }
}

/// The id keys of an event: the field's name, `:` and the id's JSON text, for each id field
/// holding a string or a number, with the id.
fn keys(event: &Map) -> impl Iterator<Item = (String, &Value)> {
    ID_FIELDS.iter().filter_map(|field| {
        let id = event.get(*field)?;
        matches!(id, Value::String(_) | Value::Number(_))
            .then(|| (format!("{field}:{}", json::serialize_compact(id)), id))
    })
}
