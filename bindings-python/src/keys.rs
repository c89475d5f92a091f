//! Object keys as Python strings, from a small cache (as orjson and jiter do): the documents
//! of one kind repeat the same keys, and a cached `str` is made once and keeps its hash, so a
//! dict insert does not hash it again.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::cell::RefCell;
use std::os::raw::c_int;

/// The number of cache slots (a direct-mapped cache: one key per slot).
const SLOTS: usize = 1024;
/// Longer keys are made each time.
const MAX_CACHED: usize = 64;

/// A cached key: its text and its `str`.
type Entry = Option<(Box<str>, Py<PyString>)>;

/// The key cache: direct-mapped slots of keys made before.
#[derive(Default)]
pub(crate) struct Keys {
    slots: Vec<Entry>,
}

thread_local! {
    /// The cached keys by slot. Only touched with the GIL held (the module is not free-threaded).
    static CACHE: RefCell<Keys> = RefCell::new(Keys::default());
}

/// The slot of a key (FNV-1a).
fn slot(key: &str) -> usize {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in key.as_bytes() {
        hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    (hash as usize) % SLOTS
}

impl Keys {
    /// The cached `str` of `key`, borrowed from the cache, if it was made before.
    fn cached(&self, key: &str) -> Option<*mut ffi::PyObject> {
        match self.slots.get(slot(key)) {
            Some(Some((text, string))) if **text == *key => Some(string.as_ptr()),
            _ => None,
        }
    }

    /// `key` as a Python `str`: the cached one, or a new interned one that takes the slot.
    fn key<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        if key.len() > MAX_CACHED {
            return PyString::new(py, key);
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let at = slot(key);
        if let Some(Some((text, string))) = self.slots.get(at) {
            if **text == *key {
                return string.bind(py).clone();
            }
        }
        let string = PyString::intern(py, key);
        if let Some(entry) = self.slots.get_mut(at) {
            *entry = Some((key.into(), string.clone().unbind()));
        }
        string
    }

    /// Calls `insert` with `key` as a borrowed Python `str` (the cached one when this key was
    /// made before: no reference is taken and dropped for it) and returns what it returns;
    /// for `PyDict_SetItem`, which takes a reference of its own.
    pub(crate) fn with_key(
        &mut self,
        py: Python<'_>,
        key: &str,
        insert: impl FnOnce(*mut ffi::PyObject) -> c_int,
    ) -> c_int {
        if key.len() <= MAX_CACHED {
            if let Some(string) = self.cached(key) {
                // The cache holds the `str` until another key takes its slot; `insert` makes
                // none.
                return insert(string);
            }
        }
        insert(self.key(py, key).as_ptr())
    }
}

/// Runs `work` with the key cache borrowed once (a document's keys, one after another; a
/// fresh, empty cache if it is already borrowed, which no caller does).
pub(crate) fn with_keys<T>(py: Python<'_>, work: impl FnOnce(&mut Keys) -> T) -> T {
    let _ = py;
    CACHE.with(|cache| match cache.try_borrow_mut() {
        Ok(mut keys) => work(&mut keys),
        Err(_) => work(&mut Keys::default()),
    })
}

/// `key` as a Python `str`: the cached one when this key was made before.
pub(crate) fn key<'py>(py: Python<'py>, key: &str) -> Bound<'py, PyString> {
    with_keys(py, |keys| keys.key(py, key))
}

/// [`Keys::with_key`] with the cache borrowed for this key only.
pub(crate) fn with_key(
    py: Python<'_>,
    key: &str,
    insert: impl FnOnce(*mut ffi::PyObject) -> c_int,
) -> c_int {
    with_keys(py, |keys| keys.with_key(py, key, insert))
}
