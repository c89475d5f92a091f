//! JSON values (any `value::Json`; a tree, mostly: a document's read text takes the one pass
//! of `crate::tape`) to Python objects,
//! built with the C API directly, as orjson and jiter do: a `list` made at its final size and
//! its items stored into it (the list takes the reference: no count taken and dropped per
//! item), a `dict`'s keys passed to it from the key cache as borrowed references
//! (`crate::keys`), and no PyO3 wrapper per item.
//!
//! Why it is sound: everything made here is a new object that no Python code has seen, and no
//! Python code runs while it is built (exact `str`, `int`, `float`, `list` and `dict` only:
//! inserting a `str` key into a `dict` calls no `__hash__` or `__eq__` of Python code). Every
//! reference made is either handed to its container or dropped on the way out of an error.

#![allow(unsafe_code)]

use crate::errors::Fail;
use pyo3::exceptions::PySystemError;
use pyo3::ffi;
use pyo3::prelude::*;
use statecore::value::{Json, JsonKind};

/// Converts any read-only JSON view to Python objects.
pub(crate) fn to_py<'a, 'py, J: Json<'a>>(
    py: Python<'py>,
    value: J,
) -> Result<Bound<'py, PyAny>, Fail> {
    // SAFETY: we are attached to the interpreter (`py`); `object` returns a new, non-null
    // reference, which the `Bound` takes.
    unsafe { object(py, value).map(|ptr| Bound::from_owned_ptr(py, ptr)) }
}

/// A new reference to `ptr`.
///
/// # Safety
/// `ptr` is a live object and we are attached to the interpreter.
unsafe fn new_ref(ptr: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: contract.
    unsafe { ffi::Py_INCREF(ptr) };
    ptr
}

/// `ptr`, or the Python exception that made it null (a `MemoryError`).
fn made(py: Python<'_>, ptr: *mut ffi::PyObject) -> Result<*mut ffi::PyObject, Fail> {
    if ptr.is_null() {
        Err(Fail::Py(PyErr::fetch(py)))
    } else {
        Ok(ptr)
    }
}

/// The error for a view whose item count differs from its `len()` (never expected: both
/// views count their items exactly).
fn miscounted() -> Fail {
    Fail::Py(PySystemError::new_err(
        "statecore: an array's items differ from its length",
    ))
}

/// A new reference to the Python object of `value`.
///
/// # Safety
/// We are attached to the interpreter (`py`).
unsafe fn object<'a, J: Json<'a>>(py: Python<'_>, value: J) -> Result<*mut ffi::PyObject, Fail> {
    // SAFETY: attached (contract); the singletons are static objects; every pointer stored or
    // dropped below is a reference this function owns (see the module's comment).
    unsafe {
        match value.kind() {
            JsonKind::Null => Ok(new_ref(ffi::Py_None())),
            JsonKind::Bool => Ok(new_ref(if value.as_bool().unwrap_or_default() {
                ffi::Py_True()
            } else {
                ffi::Py_False()
            })),
            JsonKind::Number => match value.number() {
                Some(n) => crate::tape::number_object(py, n.as_str()),
                None => Ok(new_ref(ffi::Py_None())),
            },
            JsonKind::String => {
                let text = value.as_str().unwrap_or_default();
                made(
                    py,
                    ffi::PyUnicode_FromStringAndSize(
                        text.as_ptr().cast(),
                        ffi::Py_ssize_t::try_from(text.len()).unwrap_or(ffi::Py_ssize_t::MAX),
                    ),
                )
            }
            JsonKind::Array => {
                let len = value.len();
                let size = ffi::Py_ssize_t::try_from(len).unwrap_or(ffi::Py_ssize_t::MAX);
                let list = made(py, ffi::PyList_New(size))?;
                let mut at: ffi::Py_ssize_t = 0;
                for item in value.items() {
                    let item = match object(py, item) {
                        Ok(item) => item,
                        Err(fail) => {
                            ffi::Py_DECREF(list);
                            return Err(fail.within(&at.to_string()));
                        }
                    };
                    if at >= size {
                        ffi::Py_DECREF(item);
                        ffi::Py_DECREF(list);
                        return Err(miscounted());
                    }
                    // Takes the item's reference (within the list's size: it cannot fail).
                    if ffi::PyList_SetItem(list, at, item) != 0 {
                        ffi::Py_DECREF(list);
                        return Err(Fail::Py(PyErr::fetch(py)));
                    }
                    at = at.saturating_add(1);
                }
                if at != size {
                    // A list with empty slots must not reach Python code.
                    ffi::Py_DECREF(list);
                    return Err(miscounted());
                }
                Ok(list)
            }
            JsonKind::Object => {
                let dict = made(py, ffi::PyDict_New())?;
                for (key, item) in value.members() {
                    let item = match object(py, item) {
                        Ok(item) => item,
                        Err(fail) => {
                            ffi::Py_DECREF(dict);
                            return Err(fail.within(key));
                        }
                    };
                    let set =
                        crate::keys::with_key(py, key, |key| ffi::PyDict_SetItem(dict, key, item));
                    ffi::Py_DECREF(item);
                    if set != 0 {
                        ffi::Py_DECREF(dict);
                        return Err(Fail::Py(PyErr::fetch(py)));
                    }
                }
                Ok(dict)
            }
        }
    }
}
