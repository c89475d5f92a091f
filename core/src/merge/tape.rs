//! The merge into a document read as text ([`Tape`]), without building its tree: the merge's
//! rules (`drive.rs`) run over slots that name a value of the base tape, of the patch, or an
//! object being merged (its members in order); the merged document is then spliced into a new
//! tape ([`Splice`]): base values copied as their nodes, patch values appended. A per-path
//! rule (append, by key) merges on trees: the values it merges are built, and its result
//! spliced in.

use super::drive::{self, Sink};
use super::tree::apply_rule;
use super::{MergeOptions, Mode};
use crate::error::Result;
use crate::json::{Room, Splice, Tape, TapeValue, MAX_DEPTH};
use crate::value::{Json, JsonKind};
use crate::{Map, Str, Value};

/// A value of the merged document.
#[derive(Clone, Copy)]
enum Slot<'a> {
    /// A value of the base, as it is.
    Base(TapeValue<'a>),
    /// A value of the patch, as it is.
    Patch(&'a Value),
    /// A string (the stamp's time).
    Text(&'a str),
    /// A value a rule made (an index into [`TapeSink::owned`]).
    Owned(usize),
    /// A merged object (an index into [`TapeSink::objects`]).
    Object(usize),
}

/// A member of a merged object.
#[derive(Clone, Copy)]
struct Entry<'a> {
    key: &'a str,
    /// The base member whose key this is (its key node is copied), if any.
    base: Option<TapeValue<'a>>,
    slot: Slot<'a>,
}

/// The sink of a merge into a tape.
#[derive(Default)]
struct TapeSink<'a> {
    objects: Vec<Vec<Entry<'a>>>,
    owned: Vec<Value>,
    /// Set when the merge met what this sink does not splice (an object a rule made, merged
    /// into again): the caller takes the tree path.
    unsupported: bool,
}

/// The document `patch` merged into `base` with `options`, as a new tape; `Ok(None)` when it
/// must be made on trees instead (rare: see [`TapeSink::unsupported`], and positions beyond
/// a tape's 32 bits or a depth beyond the limit, which the tree path reports).
pub(crate) fn merged<'a>(
    base: &'a Tape<'a>,
    patch: &'a Value,
    options: &'a MergeOptions,
) -> Result<Option<Tape<'static>>> {
    let mut sink = TapeSink::default();
    let root = drive::merge(&mut sink, Slot::Base(base.root()), patch, options)?;
    if sink.unsupported {
        return Ok(None);
    }
    let mut room = Room::default();
    sink.count(&mut room, root);
    let mut splice = Splice::new(base, &room);
    Ok(sink.emit(&mut splice, root, 0).map(|()| splice.finish()))
}

impl<'a> TapeSink<'a> {
    /// Counts what [`TapeSink::emit`] of `slot` appends (the splice's buffers are made that
    /// size). A count that is off only costs a buffer's growth, never the result.
    fn count(&self, room: &mut Room, slot: Slot<'a>) {
        match slot {
            Slot::Base(value) => room.base(value),
            Slot::Patch(value) => room.value(value),
            Slot::Text(text) => room.string(text),
            Slot::Owned(at) => {
                if let Some(value) = self.owned.get(at) {
                    room.value(value);
                }
            }
            Slot::Object(at) => {
                room.node();
                for entry in self.objects.get(at).map_or(&[][..], Vec::as_slice) {
                    match entry.base {
                        Some(member) => room.base_key(member),
                        None => room.string(entry.key),
                    }
                    self.count(room, entry.slot);
                }
            }
        }
    }

    /// Appends `slot`, at `depth` (the number of containers around it), to `splice`.
    fn emit(&self, splice: &mut Splice<'a>, slot: Slot<'a>, depth: usize) -> Option<()> {
        match slot {
            // A base value stays at its path (a merge never moves one), so its depth is its
            // depth in the base, which the read checked.
            Slot::Base(value) => splice.base(value),
            Slot::Patch(value) => deep_enough(value, depth).then(|| splice.value(value))?,
            Slot::Text(text) => splice.string(text),
            Slot::Owned(at) => {
                let value = self.owned.get(at)?;
                deep_enough(value, depth).then(|| splice.value(value))?
            }
            Slot::Object(at) => {
                (depth < MAX_DEPTH).then_some(())?;
                let entries = self.objects.get(at)?;
                let open = splice.open(true, entries.len())?;
                let inner = depth.saturating_add(1);
                for entry in entries {
                    match entry.base {
                        Some(member) => splice.base_key(member)?,
                        None => splice.string(entry.key)?,
                    }
                    self.emit(splice, entry.slot, inner)?;
                }
                splice.close(open)
            }
        }
    }

    /// The tree of `slot` (for a rule, which merges trees).
    fn tree(&mut self, slot: Slot<'a>) -> Value {
        match slot {
            Slot::Base(value) => value.to_value(),
            Slot::Patch(value) => value.clone(),
            Slot::Text(text) => Value::from(text),
            Slot::Owned(at) => self.owned.get_mut(at).map(Value::take).unwrap_or_default(),
            Slot::Object(at) => {
                let entries = self
                    .objects
                    .get_mut(at)
                    .map(std::mem::take)
                    .unwrap_or_default();
                let mut map = Map::with_capacity(entries.len());
                for entry in entries {
                    let value = self.tree(entry.slot);
                    map.insert(Str::from(entry.key), value);
                }
                Value::Object(map)
            }
        }
    }
}

/// True when `value`, placed within `depth` containers, stays within [`MAX_DEPTH`].
fn deep_enough(value: &Value, depth: usize) -> bool {
    fn levels(value: &Value, left: usize) -> bool {
        match value {
            Value::Array(items) => {
                left > 0 && items.iter().all(|v| levels(v, left.saturating_sub(1)))
            }
            Value::Object(map) => {
                left > 0 && map.iter().all(|(_, v)| levels(v, left.saturating_sub(1)))
            }
            _ => true,
        }
    }
    MAX_DEPTH
        .checked_sub(depth)
        .is_some_and(|left| levels(value, left))
}

fn position(object: &[Entry<'_>], key: &str) -> Option<usize> {
    object.iter().position(|entry| entry.key == key)
}

impl<'a> Sink<'a> for TapeSink<'a> {
    type Val = Slot<'a>;
    type Obj = Vec<Entry<'a>>;

    fn kind(&self, slot: &Slot<'a>) -> JsonKind {
        match *slot {
            Slot::Base(value) => value.kind(),
            Slot::Patch(value) => value.kind(),
            Slot::Text(_) => JsonKind::String,
            Slot::Owned(at) => self.owned.get(at).map_or(JsonKind::Null, Json::kind),
            Slot::Object(_) => JsonKind::Object,
        }
    }

    fn object(&mut self, slot: Slot<'a>) -> Option<Vec<Entry<'a>>> {
        match slot {
            Slot::Base(value) if value.kind() == JsonKind::Object => Some(
                value
                    .members()
                    .map(|(key, member)| Entry {
                        key,
                        base: Some(member),
                        slot: Slot::Base(member),
                    })
                    .collect(),
            ),
            Slot::Patch(Value::Object(map)) => Some(
                map.iter()
                    .map(|(key, member)| Entry {
                        key: key.as_str(),
                        base: None,
                        slot: Slot::Patch(member),
                    })
                    .collect(),
            ),
            Slot::Object(at) => self.objects.get_mut(at).map(std::mem::take),
            Slot::Owned(_) if self.kind(&slot) == JsonKind::Object => {
                self.unsupported = true;
                Some(Vec::new())
            }
            _ => None,
        }
    }

    fn empty(&mut self) -> Vec<Entry<'a>> {
        Vec::new()
    }

    fn take(&mut self, object: &mut Vec<Entry<'a>>, key: &str) -> Option<Slot<'a>> {
        position(object, key)
            .and_then(|at| object.get(at))
            .map(|entry| entry.slot)
    }

    fn put(&mut self, object: &mut Vec<Entry<'a>>, key: &'a str, slot: Slot<'a>) {
        match position(object, key).and_then(|at| object.get_mut(at)) {
            Some(entry) => entry.slot = slot,
            None => object.push(Entry {
                key,
                base: None,
                slot,
            }),
        }
    }

    fn remove(&mut self, object: &mut Vec<Entry<'a>>, key: &str) {
        if let Some(at) = position(object, key) {
            object.remove(at);
        }
    }

    fn close(&mut self, object: Vec<Entry<'a>>) -> Slot<'a> {
        self.objects.push(object);
        Slot::Object(self.objects.len().saturating_sub(1))
    }

    fn patch(&mut self, value: &'a Value) -> Slot<'a> {
        Slot::Patch(value)
    }

    fn text(&mut self, text: &'a str) -> Slot<'a> {
        Slot::Text(text)
    }

    fn rule(
        &mut self,
        mode: &Mode,
        current: Option<Slot<'a>>,
        patch: &'a Value,
        path: &[&str],
        options: &MergeOptions,
    ) -> Result<Slot<'a>> {
        let current = current.map(|slot| self.tree(slot));
        let value = apply_rule(mode, current, patch, path, options)?;
        self.owned.push(value);
        Ok(Slot::Owned(self.owned.len().saturating_sub(1)))
    }
}
