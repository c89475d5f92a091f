//! The fast path of the conversion to core values, for what a state document is made of:
//! exact `dict`, `list`, `str`, `int` (64-bit), `float`, `bool` and `None`, told apart by their
//! type pointer (no subclass checks), with the items of a container read as borrowed
//! references (no reference count traffic per item). Anything else (subclasses, tuples, big
//! ints, non-JSON values) goes to the general walk of `convert`, on a strong reference.
//!
//! Why borrowing is sound: Python code can run only inside the general walk (an `int`
//! subclass's `__int__`, say), which may change any container. So every container being
//! walked is held by a strong reference for the whole walk (it cannot be freed under us),
//! a borrowed item is only used before the next general walk, and after a general walk (of
//! an item or anywhere inside it) its container is checked for a change of size: `E_VALUE`,
//! as Python's own iteration of a `dict` refuses it.

#![allow(unsafe_code)]

use crate::convert::{changed, general, object, str_text, within, Around};
use crate::errors::{value_error, Fail};
use pyo3::ffi;
use pyo3::prelude::*;
use statecore::{json, Map, Number, Str, Value};

/// Converts `obj` (any Python object) to a core value.
pub(crate) fn to_value(obj: &Bound<'_, PyAny>, around: &mut Around) -> Result<Value, Fail> {
    // SAFETY: `obj` is a live object, held by the caller for the call.
    unsafe { item(obj.py(), obj.as_ptr(), around) }.map(|item| item.value)
}

/// A converted item, and whether a general walk (which may run Python code) was made for it
/// or inside it, so that its container must be checked again.
struct Item {
    value: Value,
    ran_python: bool,
}

impl Item {
    fn quick(value: Value) -> Result<Item, Fail> {
        Ok(Item {
            value,
            ran_python: false,
        })
    }
}

/// Converts the object `ptr`, borrowed from a container held by the caller.
///
/// # Safety
/// `ptr` is a live object, and stays alive until this returns or runs Python code (only the
/// general walk does, on a strong reference of its own).
unsafe fn item(py: Python<'_>, ptr: *mut ffi::PyObject, around: &mut Around) -> Result<Item, Fail> {
    // SAFETY: `ptr` is live (contract); the type objects and singletons are static.
    unsafe {
        let ty = ffi::Py_TYPE(ptr);
        if ty == &raw mut ffi::PyUnicode_Type {
            return Item::quick(Value::String(text(py, ptr)?));
        }
        if ptr == ffi::Py_None() {
            return Item::quick(Value::Null);
        }
        if ptr == ffi::Py_True() || ptr == ffi::Py_False() {
            return Item::quick(Value::Bool(ptr == ffi::Py_True()));
        }
        if ty == &raw mut ffi::PyLong_Type {
            let mut overflow = 0;
            let v = ffi::PyLong_AsLongLongAndOverflow(ptr, &mut overflow);
            if overflow == 0 && (v != -1 || ffi::PyErr_Occurred().is_null()) {
                return Item::quick(Value::Number(Number::from(v)));
            }
            // Past 64 bits: the general walk's exact decimal text.
            ffi::PyErr_Clear();
        } else if ty == &raw mut ffi::PyFloat_Type {
            let f = ffi::PyFloat_AsDouble(ptr);
            return match json::float_number(f) {
                Some(n) => Item::quick(Value::Number(n)),
                None => Err(value_error(format!(
                    "{f} is not JSON: only finite floats are"
                ))),
            };
        } else if ty == &raw mut ffi::PyDict_Type || ty == &raw mut ffi::PyList_Type {
            // Held strongly while its items are walked (see the module's comment).
            let container = Bound::from_borrowed_ptr(py, ptr);
            let is_dict = ty == &raw mut ffi::PyDict_Type;
            let mut ran_python = false;
            let value = within(&container, around, |around| {
                if is_dict {
                    dict(py, container.as_ptr(), around, &mut ran_python)
                } else {
                    list(py, container.as_ptr(), around, &mut ran_python)
                }
            })?;
            return Ok(Item { value, ran_python });
        }
        let strong = Bound::from_borrowed_ptr(py, ptr);
        Ok(Item {
            value: general(&strong, around)?,
            ran_python: true,
        })
    }
}

/// The text of an exact `str`, within the string-length limit.
///
/// # Safety
/// `ptr` is a live exact `str`.
unsafe fn text(py: Python<'_>, ptr: *mut ffi::PyObject) -> Result<Str, Fail> {
    // SAFETY: `ptr` is a live `str` (contract), borrowed for this call only; its type was
    // checked by the caller.
    let s = unsafe { Bound::ref_from_ptr(py, &ptr).cast_unchecked() };
    str_text(s)
}

/// The members of an exact `dict`: exact `str` keys are distinct, so they are added without a
/// lookup; any other key sends the whole dict through the general walk's checks.
/// `ran_python` is set when a general walk was made.
///
/// # Safety
/// `ptr` is a live exact `dict`, held strongly by the caller.
unsafe fn dict(
    py: Python<'_>,
    ptr: *mut ffi::PyObject,
    around: &mut Around,
    ran_python: &mut bool,
) -> Result<Value, Fail> {
    // SAFETY: `ptr` is a live dict (contract).
    let size = unsafe { ffi::PyDict_Size(ptr) };
    let mut map = Map::with_capacity(usize::try_from(size).unwrap_or(0));
    let mut pos: ffi::Py_ssize_t = 0;
    let mut key: *mut ffi::PyObject = std::ptr::null_mut();
    let mut value: *mut ffi::PyObject = std::ptr::null_mut();
    // SAFETY: `PyDict_Next` gives borrowed, non-null key and value while it returns non-zero;
    // they are used before any Python code runs (module comment).
    while unsafe { ffi::PyDict_Next(ptr, &mut pos, &mut key, &mut value) } != 0 {
        if unsafe { ffi::Py_TYPE(key) } != &raw mut ffi::PyUnicode_Type {
            *ran_python = true;
            // SAFETY: `ptr` is a live dict (contract).
            let whole = unsafe { Bound::ref_from_ptr(py, &ptr).cast_unchecked() };
            return object(whole, around);
        }
        let name = unsafe { text(py, key) }?;
        let converted = unsafe { item(py, value, around) }.map_err(|fail| fail.within(&name))?;
        map.push_distinct(name, converted.value);
        if converted.ran_python {
            *ran_python = true;
            if unsafe { ffi::PyDict_Size(ptr) } != size {
                return Err(changed("dict"));
            }
        }
    }
    Ok(Value::Object(map))
}

/// The items of an exact `list`; `ran_python` is set when a general walk was made.
///
/// # Safety
/// `ptr` is a live exact `list`, held strongly by the caller.
unsafe fn list(
    py: Python<'_>,
    ptr: *mut ffi::PyObject,
    around: &mut Around,
    ran_python: &mut bool,
) -> Result<Value, Fail> {
    // SAFETY: `ptr` is a live list (contract).
    let len = unsafe { ffi::PyList_Size(ptr) };
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    let mut index: ffi::Py_ssize_t = 0;
    while index < len {
        // SAFETY: the list still has `len` items (checked after every general walk), so the
        // item is a borrowed, non-null reference, used before any Python code runs.
        let converted = unsafe { item(py, ffi::PyList_GetItem(ptr, index), around) }
            .map_err(|fail| fail.within(&index.to_string()))?;
        out.push(converted.value);
        if converted.ran_python {
            *ran_python = true;
            if unsafe { ffi::PyList_Size(ptr) } != len {
                return Err(changed("list"));
            }
        }
        index = index.saturating_add(1);
    }
    Ok(Value::Array(out))
}
