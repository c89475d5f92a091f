//! The replay's typed session: the state's tree, with the fields every event writes held
//! typed beside it ([`Session`]) — the session's event counter as an integer, its two stamps
//! as strings, and for each worker met its status, event counter and two stamps — so that an
//! event line costs no lookup in the state's maps, no number parsed or written, no string
//! allocated. The tree stays the state of record: everything the typed fields do not hold
//! (the template's other sections, another writer's keys, in their order) is in it as it was
//! read, and the typed fields are written into it, in place, whenever the tree is asked for
//! (a rule that reads or changes anything else, a validation, the end of the replay, a
//! carry). A field is held typed only once it exists in the tree in the form it keeps (a
//! counter present, a stamp a string, a worker an object); until then the primitive is the
//! tree's own ([`State`] for [`Map`]), so a key is inserted where the generic fold inserts
//! it and the state's text is the generic fold's, byte for byte
//! (core/tests/hive_typed_properties.rs proves it on random logs).

use super::clock::{Now, Time};
use super::progress::{set_pairs, Pairs, PROGRESS_FIELDS};
use super::state::{add, worker_mut, Counter, Stamp, State};
use crate::{Map, Str, Value};

/// How many workers a session holds typed (a log of more distinct agents keeps the rest in
/// the tree, where a lookup finds them: a scan of this list stays short).
const MOST_WORKERS: usize = 64;

/// A session's state: the tree, and the fields the events write held typed beside it.
#[derive(Debug, Clone, Default)]
pub(super) struct Session {
    tree: Map,
    /// `metrics.total_events_logged`, once read.
    events: Option<u64>,
    /// `timestamps.updated_at`, once read (while it is in statecore's UTC form: [`Time`]).
    updated: Option<Time>,
    /// `timestamps.last_heartbeat`, once read (the same).
    heartbeat: Option<Time>,
    /// The workers met since the tree was last asked for.
    workers: Vec<Worker>,
    /// The position in `workers` of the worker [`Session::find`] found last.
    last: usize,
}

/// One worker's typed fields.
#[derive(Debug, Clone)]
struct Worker {
    name: Str,
    /// `status` (`""` when it has none); `None`: `worker_states` has no object of the name.
    status: Option<Str>,
    /// `metrics.events_logged`, once read.
    events: Option<u64>,
    /// `last_heartbeat`, once read (while it is in statecore's UTC form: [`Time`]).
    heartbeat: Option<Time>,
    /// `last_update`, once read (the same).
    update: Option<Time>,
    /// The worker's objects of [`PROGRESS_FIELDS`] (`metrics`, `protocol_compliance`), held
    /// out of the tree once a progress merged into them (the tree keeps an empty object in
    /// their place, so the key keeps its position): a progress merges into them with no
    /// lookup of the worker in the tree.
    held: [Option<Map>; 2],
}

impl Session {
    /// The position of worker `name` in the typed list (read from the tree the first time),
    /// `None` when the list is full and does not hold it.
    fn find(&mut self, name: &str) -> Option<usize> {
        let key = name.as_bytes();
        let is = |w: &Worker| same_name(w.name.as_bytes(), key);
        // The worker found last first: an event asks for its worker four or five times.
        if self.workers.get(self.last).is_some_and(is) {
            return Some(self.last);
        }
        let found = self.workers.iter().position(is);
        if let Some(at) = found {
            self.last = at;
        }
        if found.is_some() || self.workers.len() >= MOST_WORKERS {
            return found;
        }
        let status = self.tree.worker_status(name);
        self.workers.push(Worker {
            name: Str::from(name),
            status,
            events: None,
            heartbeat: None,
            update: None,
            held: [None, None],
        });
        Some(self.workers.len().saturating_sub(1))
    }

    /// Writes the typed fields into the tree and forgets them.
    fn flush(&mut self) {
        // Without the `full` feature (the browser's modules) the replay folds into the tree
        // and no field is ever held typed: nothing to write (and no code for it there).
        if !cfg!(feature = "full") {
            return;
        }
        let tree = &mut self.tree;
        if let Some(n) = self.events.take() {
            put(section(tree, "metrics"), "total_events_logged", n.into());
        }
        if let Some(time) = self.updated.take() {
            put(section(tree, "timestamps"), "updated_at", time.into());
        }
        if let Some(time) = self.heartbeat.take() {
            put(section(tree, "timestamps"), "last_heartbeat", time.into());
        }
        for worker in self.workers.drain(..) {
            write_worker(tree, worker);
        }
    }
}

/// True when two names are the same bytes: their lengths, their last bytes (worker names
/// such as `researcher-1` and `researcher-2` differ there), then eight bytes at a time, the
/// last word read where it ends (overlapping the one before): no byte loop, which `memcmp` is
/// in wasm.
fn same_name(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() || a.last() != b.last() {
        return false;
    }
    let word = |w: &[u8]| u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or_default());
    match a.len().checked_sub(8) {
        None => a == b,
        Some(end) => {
            let words = a.chunks_exact(8).zip(b.chunks_exact(8));
            words.into_iter().all(|(x, y)| word(x) == word(y))
                && a.get(end..).map(word) == b.get(end..).map(word)
        }
    }
}

/// Writes a worker's typed fields into the tree.
fn write_worker(tree: &mut Map, worker: Worker) {
    let Some(map) = worker_mut(tree, &worker.name) else {
        return;
    };
    for (field, held) in PROGRESS_FIELDS.iter().zip(worker.held) {
        if let (Some(held), Some(Value::Object(slot))) = (held, map.get_mut(*field)) {
            *slot = held;
        }
    }
    if let Some(time) = worker.heartbeat {
        put(Some(&mut *map), "last_heartbeat", time.into());
    }
    if let Some(time) = worker.update {
        put(Some(&mut *map), "last_update", time.into());
    }
    if let Some(n) = worker.events {
        put(section(map, "metrics"), "events_logged", n.into());
    }
}

/// The object `map[key]`, when it is one.
fn section<'m>(map: &'m mut Map, key: &str) -> Option<&'m mut Map> {
    map.get_mut(key).and_then(Value::as_object_mut)
}

/// Sets `map[key]`, which exists (a typed field is held only once its key does).
fn put(map: Option<&mut Map>, key: &str, value: Value) {
    if let Some(slot) = map.and_then(|m| m.get_mut(key)) {
        *slot = value;
    }
}

/// A counter's value in the tree, when its key is there (the fold's `add` reads any value that
/// is not a whole number as 0).
fn count_in(map: Option<&Map>, key: &str) -> Option<u64> {
    map?.get(key).map(|v| v.as_u64().unwrap_or(0))
}

/// A stamp's string in the tree, when it is one in the form held ([`Time`]).
fn stamp_in(map: Option<&Map>, key: &str) -> Option<Time> {
    match map?.get(key) {
        Some(Value::String(time)) => Time::of(time),
        _ => None,
    }
}

impl From<Time> for Value {
    fn from(time: Time) -> Value {
        Value::String(time.text())
    }
}

/// The object `map[key]`, when it is one (shared).
fn object<'m>(map: Option<&'m Map>, key: &str) -> Option<&'m Map> {
    map?.get(key).and_then(Value::as_object)
}

impl State for Session {
    fn from_tree(tree: Map) -> Self {
        Session {
            tree,
            ..Session::default()
        }
    }

    fn tree(&mut self) -> &mut Map {
        self.flush();
        &mut self.tree
    }

    fn into_tree(mut self) -> Map {
        self.flush();
        self.tree
    }

    fn add(&mut self, counter: Counter<'_>, by: u64) {
        let (slot, read): (&mut Option<u64>, Option<u64>) = match counter {
            Counter::Events => {
                let read = match self.events {
                    Some(_) => None,
                    None => count_in(object(Some(&self.tree), "metrics"), "total_events_logged"),
                };
                (&mut self.events, read)
            }
            Counter::WorkerEvents(name) => {
                let Some(at) = self.find(name) else {
                    return self.tree.add(counter, by);
                };
                let tree = &self.tree;
                let Some(worker) = self.workers.get_mut(at) else {
                    return;
                };
                if worker.status.is_none() {
                    return;
                }
                let read = if worker.events.is_some() {
                    None
                } else if let [Some(metrics), _] = &mut worker.held {
                    // The metrics held: the counter is read there, or added there as the
                    // tree's `add` adds it.
                    if !metrics.contains_key("events_logged") {
                        return add(metrics, "events_logged", by);
                    }
                    count_in(Some(metrics), "events_logged")
                } else {
                    let map = tree.get("worker_states").and_then(|w| w.get(name));
                    count_in(
                        object(map.and_then(Value::as_object), "metrics"),
                        "events_logged",
                    )
                };
                (&mut worker.events, read)
            }
        };
        match (slot.as_mut(), read) {
            (Some(n), _) => *n = n.saturating_add(by),
            (None, Some(n)) => *slot = Some(n.saturating_add(by)),
            (None, None) => self.tree.add(counter, by),
        }
    }

    fn advance(&mut self, stamp: Stamp<'_>, now: &Now<'_>) {
        let (slot, read) = match stamp {
            Stamp::Updated | Stamp::Heartbeat => {
                let (slot, key) = match stamp {
                    Stamp::Updated => (&mut self.updated, "updated_at"),
                    _ => (&mut self.heartbeat, "last_heartbeat"),
                };
                let read = match slot {
                    Some(_) => None,
                    None => stamp_in(object(Some(&self.tree), "timestamps"), key),
                };
                (slot, read)
            }
            Stamp::WorkerHeartbeat(name) | Stamp::WorkerUpdate(name) => {
                let Some(at) = self.find(name) else {
                    return self.tree.advance(stamp, now);
                };
                let tree = &self.tree;
                let Some(worker) = self.workers.get_mut(at) else {
                    return;
                };
                let (slot, key) = match stamp {
                    Stamp::WorkerHeartbeat(_) => (&mut worker.heartbeat, "last_heartbeat"),
                    _ => (&mut worker.update, "last_update"),
                };
                let read = match slot {
                    Some(_) => None,
                    None => {
                        let map = tree.get("worker_states").and_then(|w| w.get(name));
                        stamp_in(map.and_then(Value::as_object), key)
                    }
                };
                (slot, read)
            }
        };
        if slot.is_none() {
            *slot = read;
        }
        let Some(time) = slot else {
            return self.tree.advance(stamp, now);
        };
        if let Some(now) = &now.time {
            return time.advance(now);
        }
        // `now` is in another form: the stamp goes back to the tree, which takes it.
        let time = *time;
        *slot = None;
        let (map, key) = match stamp {
            Stamp::Updated => (section(&mut self.tree, "timestamps"), "updated_at"),
            Stamp::Heartbeat => (section(&mut self.tree, "timestamps"), "last_heartbeat"),
            Stamp::WorkerHeartbeat(name) => (worker_mut(&mut self.tree, name), "last_heartbeat"),
            Stamp::WorkerUpdate(name) => (worker_mut(&mut self.tree, name), "last_update"),
        };
        put(map, key, time.into());
        self.tree.advance(stamp, now);
    }

    fn worker_status(&mut self, name: &str) -> Option<Str> {
        match self.find(name) {
            Some(at) => self.workers.get(at).and_then(|w| w.status.clone()),
            None => self.tree.worker_status(name),
        }
    }

    fn extend_worker(&mut self, name: &str, field: &str, values: Pairs<'_>) {
        // A field that holds one of the worker's typed fields: the typed ones written first.
        let holds = matches!(field, "last_heartbeat" | "last_update")
            || (field == "metrics" && values.iter().any(|(k, _)| *k == "events_logged"));
        if holds {
            if let Some(at) = self.workers.iter().position(|w| w.name == name) {
                let worker = self.workers.swap_remove(at);
                write_worker(&mut self.tree, worker);
            }
            return self.tree.extend_worker(name, field, values);
        }
        let slot = PROGRESS_FIELDS.iter().position(|f| *f == field);
        let (Some(slot), Some(at)) = (slot, self.find(name)) else {
            return self.tree.extend_worker(name, field, values);
        };
        let tree = &mut self.tree;
        let held = self
            .workers
            .get_mut(at)
            .and_then(|w| w.held.get_mut(slot))
            .and_then(|held| {
                if held.is_none() {
                    // Held once the tree has the object (until then the tree makes it).
                    let found = worker_mut(tree, name).and_then(|w| w.get_mut(field));
                    if let Some(Value::Object(map)) = found {
                        *held = Some(std::mem::take(map));
                    }
                }
                held.as_mut()
            });
        match held {
            Some(map) => set_pairs(map, values),
            None => self.tree.extend_worker(name, field, values),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::same_name;
    use proptest::prelude::*;

    proptest! {
        /// `same_name` is byte equality, for names of every length around the word's.
        #[test]
        fn same_name_is_byte_equality(
            common in prop::collection::vec(any::<u8>(), 0..30),
            a in prop::collection::vec(0u8..3, 0..10),
            b in prop::collection::vec(0u8..3, 0..10),
        ) {
            let a = [common.as_slice(), &a].concat();
            let b = [common.as_slice(), &b].concat();
            prop_assert_eq!(same_name(&a, &b), a == b);
            prop_assert!(same_name(&a, &a));
        }
    }
}
