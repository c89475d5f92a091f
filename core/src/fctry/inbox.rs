//! Inbox operations (`.fctry/inbox.json`, newest item first). Item statuses move on the
//! generic machine engine: the lifecycle is the data in [`inbox_machine`], so it can be
//! listed, checked and drawn like every other machine.

use super::validate::is_inbox_id;
use super::words::{INBOX_STATUSES, INBOX_TYPES};
use crate::error::{Code, Error, Result};
use crate::machine::Machine;
use crate::time::normalize_now;
use crate::{json, Map, Value};

/// The inbox item lifecycle: `pending → processing → processed | error`,
/// `processed → incorporated`, and (a statecore choice) `error → pending` to retry.
pub fn inbox_machine() -> Value {
    crate::machine::definition(INBOX_MACHINE)
}

const INBOX_MACHINE: &str = r#"{
        "name": "fctry_inbox_item",
        "initial": "pending",
        "states": [
            {"name": "pending", "description": "queued, waiting for a command to pick it up"},
            {"name": "processing", "description": "a command is working on it"},
            {"name": "processed"},
            {"name": "error"},
            {"name": "incorporated", "description": "folded into the spec", "terminal": true}
        ],
        "transitions": [
            {"from": ["pending"], "event": "start", "to": "processing"},
            {"from": ["processing"], "event": "complete", "to": "processed"},
            {"from": ["processing"], "event": "fail", "to": "error"},
            {"from": ["processed"], "event": "incorporate", "to": "incorporated"},
            {"from": ["error"], "event": "retry", "to": "pending"}
        ]
    }"#;

fn machine() -> Result<Machine> {
    Machine::from_value(&inbox_machine())
}

fn items(inbox: Value) -> Result<Vec<Value>> {
    match inbox {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => Ok(items),
        _ => Err(not_a_list()),
    }
}

fn not_a_list() -> Error {
    Error::new(Code::Argument, "", "the inbox must be a list of items")
}

fn position(items: &[Value], id: &str) -> Option<usize> {
    items
        .iter()
        .position(|item| item.get("id").and_then(Value::as_str) == Some(id))
}

/// How many random bytes a host passes for an inbox id suffix ([`random_suffix`]).
pub const RANDOM_BYTES: usize = 32;

/// The 6 lowercase base36 characters of a new inbox id from random bytes, without bias:
/// a byte below 252 (7 × 36) gives one character (`b % 36`), others are skipped. 32 bytes
/// run out only with a probability below 10^-40; `E_ARGUMENT` then (or with too few bytes).
pub fn random_suffix(bytes: &[u8]) -> Result<String> {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let suffix: String = bytes
        .iter()
        .filter(|b| **b < 252)
        .filter_map(|b| DIGITS.get(usize::from(*b % 36)).map(|d| char::from(*d)))
        .take(6)
        .collect();
    if suffix.len() < 6 {
        return Err(Error::new(
            Code::Argument,
            "/random",
            format!(
                "{} random bytes gave too few usable values; pass {RANDOM_BYTES} random bytes",
                bytes.len()
            ),
        ));
    }
    Ok(suffix)
}

/// Adds an item first: `{id: "inbox-{ms}-{random}", type, content, timestamp: now, status:
/// "pending"}`. The host supplies `now` and `random` (6 lowercase base36 characters).
pub fn inbox_add(
    inbox: Value,
    kind: &str,
    content: &str,
    now: &Value,
    random: &str,
) -> Result<Value> {
    if !INBOX_TYPES.contains(&kind) {
        return Err(Error::new(
            Code::Argument,
            "/type",
            format!(
                "unknown inbox item type {kind:?}; use one of {}",
                INBOX_TYPES.join(", ")
            ),
        ));
    }
    let (timestamp, millis) = normalize_now(now)?;
    let id = format!("inbox-{millis}-{random}");
    if !is_inbox_id(&id) {
        return Err(Error::new(
            Code::Argument,
            "/random",
            format!("random {random:?} must be 6 lowercase base36 characters (0-9, a-z)"),
        ));
    }
    let mut list = items(inbox)?;
    if position(&list, &id).is_some() {
        return Err(Error::new(
            Code::Argument,
            "/id",
            format!("inbox id {id:?} already exists; use another random suffix"),
        ));
    }
    let item = json!({"id": id, "type": kind, "content": content, "timestamp": timestamp, "status": "pending"});
    list.insert(0, item);
    Ok(Value::Array(list))
}

/// Moves one item through its lifecycle (`start`, `complete`, `fail`, `incorporate`,
/// `retry`). An unknown id is `E_ARGUMENT`; an illegal event is `E_TRANSITION`.
pub fn inbox_transition(inbox: Value, id: &str, event: &str) -> Result<Value> {
    let machine = machine()?;
    let mut list = items(inbox)?;
    let index = position(&list, id).ok_or_else(|| {
        Error::new(
            Code::Argument,
            "/id",
            format!("no inbox item has id {id:?}"),
        )
    })?;
    if let Some(item) = list.get_mut(index).and_then(Value::as_object_mut) {
        let path = format!("/{index}/status");
        machine.fire_field(item, "status", "pending", event, &Value::Null, &path)?;
    }
    Ok(Value::Array(list))
}

/// Removes an item; an id that is not there leaves the inbox as it is (two viewers may
/// dismiss the same item).
pub fn inbox_dismiss(inbox: Value, id: &str) -> Result<Value> {
    let mut list = items(inbox)?;
    if let Some(index) = position(&list, id) {
        list.remove(index);
    }
    Ok(Value::Array(list))
}

/// Applies `event` to every `pending` or `processed` item it is legal for (e.g. `start` all
/// pending items, `incorporate` all processed ones); other items are not touched.
pub fn inbox_batch(inbox: Value, event: &str) -> Result<Value> {
    let machine = machine()?;
    if !machine.transitions.iter().any(|t| t.event == event) {
        let events: Vec<&str> = machine
            .transitions
            .iter()
            .map(|t| t.event.as_str())
            .collect();
        return Err(Error::new(
            Code::Argument,
            "/event",
            format!(
                "unknown inbox event {event:?}; use one of {}",
                events.join(", ")
            ),
        ));
    }
    let mut list = items(inbox)?;
    for item in list.iter_mut().filter_map(Value::as_object_mut) {
        let status = item
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if status == "pending" || status == "processed" {
            // Items the event is not legal for are left as they are.
            let _ = machine.fire_field(item, "status", "pending", event, &Value::Null, "");
        }
    }
    Ok(Value::Array(list))
}

/// How many items the inbox holds in each status, for a badge or the viewer's inbox panel:
/// `{total, pending, processing, processed, error, incorporated, other}` (`other`: items whose
/// status is missing or not one of the five, which `validate` reports).
pub fn inbox_counts(inbox: &Value) -> Result<Value> {
    let list = match inbox {
        Value::Null => &[][..],
        Value::Array(items) => items.as_slice(),
        _ => return Err(not_a_list()),
    };
    let mut counts = [0_u64; INBOX_STATUSES.len()];
    let mut other = 0_u64;
    for item in list {
        let status = item.get("status").and_then(Value::as_str);
        match INBOX_STATUSES.iter().position(|s| Some(*s) == status) {
            Some(i) => counts
                .iter_mut()
                .skip(i)
                .take(1)
                .for_each(|n| *n = n.saturating_add(1)),
            None => other = other.saturating_add(1),
        }
    }
    let mut out = Map::new();
    out.insert("total".into(), list.len().into());
    for (status, n) in INBOX_STATUSES.iter().zip(counts) {
        out.insert((*status).into(), n.into());
    }
    out.insert("other".into(), other.into());
    Ok(Value::Object(out))
}
