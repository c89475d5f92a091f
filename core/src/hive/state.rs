//! A session's state as the fold writes it ([`State`]), in either of two representations: the
//! generic tree (a [`Map`]: what a step reads and returns) or the replay's typed session
//! ([`super::typed::Session`]: the counters as integers, the stamps as strings, each worker
//! found once, written into the tree when the tree is asked for). The fold (`fold.rs`,
//! `workers.rs`) is written once, over this trait, as it is over the event's forms
//! ([`super::event::Event`]); the trait has only the representation's primitives (a counter,
//! a stamp, a worker's status and fields), never a rule (docs/performance.md § The hive
//! replay: typed lines, a typed session, one fold).

use super::clock::Now;
use super::phases::with_object;
use super::progress::{set_pairs, Pairs};
use crate::time::compare_timestamps;
use crate::{Map, Str, Value};

/// A whole-number field the fold adds to.
#[derive(Debug, Clone, Copy)]
pub(super) enum Counter<'a> {
    /// `metrics.total_events_logged`.
    Events,
    /// `worker_states[name].metrics.events_logged`.
    WorkerEvents(&'a str),
}

/// A timestamp field the fold advances (never moves back: [`advance`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum Stamp<'a> {
    /// `timestamps.updated_at`.
    Updated,
    /// `timestamps.last_heartbeat`.
    Heartbeat,
    /// `worker_states[name].last_heartbeat`.
    WorkerHeartbeat(&'a str),
    /// `worker_states[name].last_update`.
    WorkerUpdate(&'a str),
}

/// What the fold reads and writes of a session's state.
pub(super) trait State: Sized {
    /// The state of a new session (the template's tree).
    fn from_tree(tree: Map) -> Self;
    /// The whole state as a tree, to read or change anything (a typed session writes its
    /// typed fields into it first and reads them again from it afterwards).
    fn tree(&mut self) -> &mut Map;
    /// The state as a tree, given up.
    fn into_tree(self) -> Map;
    /// Adds `by` to a counter (0 when absent; a value that is not a whole number is replaced).
    fn add(&mut self, counter: Counter<'_>, by: u64);
    /// Sets a stamp to `now` unless it holds a later time already.
    fn advance(&mut self, stamp: Stamp<'_>, now: &Now<'_>);
    /// The `status` of the worker `name` (`""` when it has none), `None` when `worker_states`
    /// has no object `name`.
    fn worker_status(&mut self, name: &str) -> Option<Str>;
    /// Sets `values` in the object `worker_states[name][field]` (made when it is not
    /// one); the worker exists ([`State::worker_status`] found it). `field` is never one a
    /// counter or a stamp lives in directly, and `values` never holds a counter.
    fn extend_worker(&mut self, name: &str, field: &str, values: Pairs<'_>);
}

/// The generic tree: every primitive a lookup in it.
impl State for Map {
    fn from_tree(tree: Map) -> Self {
        tree
    }
    fn tree(&mut self) -> &mut Map {
        self
    }
    fn into_tree(self) -> Map {
        self
    }
    fn add(&mut self, counter: Counter<'_>, by: u64) {
        match counter {
            Counter::Events => {
                with_object(self, "metrics", |m| add(m, "total_events_logged", by));
            }
            Counter::WorkerEvents(name) => {
                if let Some(worker) = worker_mut(self, name) {
                    with_object(worker, "metrics", |m| add(m, "events_logged", by));
                }
            }
        }
    }
    fn advance(&mut self, stamp: Stamp<'_>, now: &Now<'_>) {
        let (map, key) = match stamp {
            Stamp::Updated => (timestamps(self), "updated_at"),
            Stamp::Heartbeat => (timestamps(self), "last_heartbeat"),
            Stamp::WorkerHeartbeat(name) => (worker_mut(self, name), "last_heartbeat"),
            Stamp::WorkerUpdate(name) => (worker_mut(self, name), "last_update"),
        };
        if let Some(map) = map {
            advance(map, key, now.text);
        }
    }
    fn worker_status(&mut self, name: &str) -> Option<Str> {
        match self.get("worker_states").and_then(|w| w.get(name)) {
            Some(Value::Object(worker)) => Some(
                worker
                    .get("status")
                    .and_then(Value::as_str)
                    .map_or_else(Str::default, Str::from),
            ),
            _ => None,
        }
    }
    fn extend_worker(&mut self, name: &str, field: &str, values: Pairs<'_>) {
        if let Some(worker) = worker_mut(self, name) {
            with_object(worker, field, |target| set_pairs(target, values));
        }
    }
}

/// A state behind a box: the replay keeps its typed session boxed, so that the fold, which
/// takes a state and gives it back, moves a pointer per event instead of the session.
impl<S: State> State for Box<S> {
    fn from_tree(tree: Map) -> Self {
        Box::new(S::from_tree(tree))
    }
    fn tree(&mut self) -> &mut Map {
        S::tree(self)
    }
    fn into_tree(self) -> Map {
        S::into_tree(*self)
    }
    fn add(&mut self, counter: Counter<'_>, by: u64) {
        S::add(self, counter, by);
    }
    fn advance(&mut self, stamp: Stamp<'_>, now: &Now<'_>) {
        S::advance(self, stamp, now);
    }
    fn worker_status(&mut self, name: &str) -> Option<Str> {
        S::worker_status(self, name)
    }
    fn extend_worker(&mut self, name: &str, field: &str, values: Pairs<'_>) {
        S::extend_worker(self, name, field, values);
    }
}

/// `timestamps`, made an object first when it is not one.
fn timestamps(state: &mut Map) -> Option<&mut Map> {
    with_object(state, "timestamps", |_| ())?;
    state.get_mut("timestamps").and_then(Value::as_object_mut)
}

/// The worker object `worker_states[name]`, when there is one.
pub(super) fn worker_mut<'m>(state: &'m mut Map, name: &str) -> Option<&'m mut Map> {
    state
        .get_mut("worker_states")
        .and_then(Value::as_object_mut)
        .and_then(|w| w.get_mut(name))
        .and_then(Value::as_object_mut)
}

/// Sets the timestamp field `key` of `map` to `now` unless it holds a later time already (one
/// lookup; a string's buffer reused).
pub(super) fn advance(map: &mut Map, key: &str, now: &str) {
    match map.get_mut(key) {
        Some(Value::String(current)) => advance_text(current, now),
        Some(other) => *other = Value::from(now),
        None => {
            map.insert(key.into(), Value::from(now));
        }
    }
}

/// Sets the timestamp `current` to `now` unless it is a later time already (its buffer reused).
pub(super) fn advance_text(current: &mut Str, now: &str) {
    let write = match compare_timestamps(current, now) {
        Some(std::cmp::Ordering::Greater) => false,
        // An earlier time: another text.
        Some(std::cmp::Ordering::Less) => true,
        _ => current.as_str() != now,
    };
    if write {
        current.clear();
        current.push_str(now);
    }
}

/// Adds `by` to the whole number at `map[key]` (0 when absent; one lookup).
pub(super) fn add(map: &mut Map, key: &str, by: u64) {
    match map.get_mut(key) {
        Some(value) => {
            let current = value.as_u64().unwrap_or(0);
            *value = current.saturating_add(by).into();
        }
        None => {
            map.insert(key.into(), by.into());
        }
    }
}
