//! [`Map`]: a JSON object that keeps its keys in order. Entries live in one vector; objects of
//! up to [`INDEXED_FROM`] keys (nearly every object of a state file) are searched by a scan,
//! larger ones through a hash index of positions, so a lookup stays O(1) and parsing an object
//! of n keys O(n).

use super::{Str, Value};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// The number of keys from which a map keeps a hash index.
const INDEXED_FROM: usize = 12;

/// A JSON object: keys in insertion order, each at most once.
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Str, Value)>,
    /// Boxed: most maps have none, and a `Value` stays 32 bytes.
    index: Option<Box<Index>>,
}

/// Positions by key hash. Two keys with one hash (`collided`) turn lookups back into scans:
/// slower, never wrong.
#[derive(Clone, Default)]
struct Index {
    positions: HashMap<u64, usize, BuildHasherDefault<Identity>>,
    collided: bool,
}

/// The hasher of an index whose keys are already hashes (also the hive replay's window).
#[derive(Debug, Default)]
pub(crate) struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A fast hash of a key (FxHash-style, eight bytes at a time).
fn hash_key(key: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut hash = key.len() as u64;
    for chunk in key.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        if let Some(slot) = word.get_mut(..chunk.len()) {
            slot.copy_from_slice(chunk);
        }
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    hash
}

impl Index {
    fn of(entries: &[(Str, Value)]) -> Index {
        let mut index = Index {
            positions: HashMap::with_capacity_and_hasher(
                entries.len().saturating_mul(2),
                BuildHasherDefault::default(),
            ),
            collided: false,
        };
        for (at, (key, _)) in entries.iter().enumerate() {
            index.add(key, at);
        }
        index
    }

    fn add(&mut self, key: &str, at: usize) {
        if self.positions.insert(hash_key(key), at).is_some() {
            self.collided = true;
        }
    }
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `capacity` keys.
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            entries: Vec::with_capacity(capacity),
            index: None,
        }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the map has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of `key`.
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) if !index.collided => {
                index.positions.get(&hash_key(key)).copied().filter(|&at| {
                    self.entries
                        .get(at)
                        .is_some_and(|(k, _)| super::same_bytes(k.as_bytes(), key.as_bytes()))
                })
            }
            _ => {
                // Length, first and last byte before the bytes: most keys differ there
                // (numbered names such as `worker-1`, `worker-2` at the end), and a short
                // key is not worth a `memcmp` call.
                let key = key.as_bytes();
                self.entries.iter().position(|(k, _)| {
                    let k = k.as_bytes();
                    k.len() == key.len()
                        && k.first() == key.first()
                        && k.last() == key.last()
                        && super::same_bytes(k, key)
                })
            }
        }
    }

    /// The position and value of `key`, looked for at position `at` first (where a caller
    /// walking keys in a usual order expects it), then as [`Map::get`] does.
    pub fn get_near(&self, key: &str, at: usize) -> Option<(usize, &Value)> {
        match self.entries.get(at) {
            Some((k, v)) if super::same_bytes(k.as_bytes(), key.as_bytes()) => Some((at, v)),
            _ => {
                let found = self.position(key)?;
                self.entries.get(found).map(|(_, v)| (found, v))
            }
        }
    }

    /// The key at position `at`.
    pub fn key_at(&self, at: usize) -> Option<&Str> {
        self.entries.get(at).map(|(k, _)| k)
    }

    /// The value of `key`.
    pub fn get<Q: AsRef<str> + ?Sized>(&self, key: &Q) -> Option<&Value> {
        let at = self.position(key.as_ref())?;
        self.entries.get(at).map(|(_, v)| v)
    }

    /// The value of `key`, to change it.
    pub fn get_mut<Q: AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<&mut Value> {
        let at = self.position(key.as_ref())?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// True when the map has `key`.
    pub fn contains_key<Q: AsRef<str> + ?Sized>(&self, key: &Q) -> bool {
        self.position(key.as_ref()).is_some()
    }

    /// Sets `key` to `value`: in place when the key exists (its position kept; the old value
    /// returned), else at the end.
    pub fn insert(&mut self, key: Str, value: Value) -> Option<Value> {
        if let Some(at) = self.position(&key) {
            return self
                .entries
                .get_mut(at)
                .map(|(_, v)| std::mem::replace(v, value));
        }
        self.push(key, value);
        None
    }

    /// Adds `key` at the end when it is new; gives the key and value back when it exists
    /// (the parser's duplicate-key check, one lookup).
    pub fn insert_new(&mut self, key: Str, value: Value) -> Result<(), (Str, Value)> {
        if self.position(&key).is_some() {
            return Err((key, value));
        }
        self.push(key, value);
        Ok(())
    }

    /// Adds `key` at the end without looking for it: for a caller that knows its keys are
    /// distinct (the keys of a Python `dict` that are exact `str`, the fields of an index.md
    /// table as bound, a fixed set of keys). A repeated key would leave
    /// the map with two entries for it, so every other caller uses `insert` or `insert_new`.
    pub fn push_distinct(&mut self, key: Str, value: Value) {
        self.push(key, value);
    }

    fn push(&mut self, key: Str, value: Value) {
        let at = self.entries.len();
        if let Some(index) = &mut self.index {
            index.add(&key, at);
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() >= INDEXED_FROM {
            self.index = Some(Box::new(Index::of(&self.entries)));
        }
    }

    /// Removes `key`, keeping the order of the others; returns its value.
    pub fn shift_remove<Q: AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<Value> {
        let at = self.position(key.as_ref())?;
        let removed = (at < self.entries.len()).then(|| self.entries.remove(at));
        self.reindex();
        removed.map(|(_, v)| v)
    }

    /// Keeps the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&Str, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
        self.reindex();
    }

    fn reindex(&mut self) {
        self.index =
            (self.entries.len() >= INDEXED_FROM).then(|| Box::new(Index::of(&self.entries)));
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries in order, values changeable.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

/// The iterator of [`Map::iter`].
#[derive(Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, (Str, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Str, &'a Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The iterator of [`Map::iter_mut`].
pub struct IterMut<'a>(std::slice::IterMut<'a, (Str, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Str, &'a mut Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

/// Equal when both have the same keys with equal values, in any order (as serde_json's).
impl PartialEq for Map {
    /// Maps are equal when they hold the same keys with equal values, in any order. Entries
    /// in the same order are compared in one pass; from the first key out of order, by lookup.
    fn eq(&self, other: &Map) -> bool {
        if self.len() != other.len() {
            return false;
        }
        for (i, ((ka, va), (kb, vb))) in self.entries.iter().zip(&other.entries).enumerate() {
            if !super::same_bytes(ka.as_bytes(), kb.as_bytes()) {
                let rest = self.entries.get(i..).unwrap_or_default();
                return rest.iter().all(|(k, v)| other.get(k) == Some(v));
            }
            if va != vb {
                return false;
            }
        }
        true
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Str, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Str, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Str, Value);
    type IntoIter = std::vec::IntoIter<(Str, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Into<Str>, V: Into<Value>> FromIterator<(K, V)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Map {
        let mut map = Map::new();
        map.extend(items);
        map
    }
}

impl<K: Into<Str>, V: Into<Value>> Extend<(K, V)> for Map {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k.into(), v.into());
        }
    }
}

/// `map["key"]`: the value, or `null` when the key is missing (never a panic).
impl<Q: AsRef<str> + ?Sized> std::ops::Index<&Q> for Map {
    type Output = Value;
    fn index(&self, key: &Q) -> &Value {
        self.get(key).unwrap_or(&super::NULL)
    }
}
