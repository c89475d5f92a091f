//! A document read as text (`json::Tape`: a read's, or an update's merged one) to Python
//! objects in one pass over its values in document order (`Tape::tokens`), as the tape's
//! writer walks it and as jiter and orjson build objects while they parse: a stack of the
//! containers opened, each value stored into its container as soon as it is made, object
//! keys from the key cache (`crate::keys`, one borrow of it for the whole document), and
//! integers of up to 18 digits read from their text without making a `Number`.
//!
//! Why it is sound: as for `crate::objects`, every object made here is new, no Python code
//! runs while they are built (exact `str`, `int`, `float`, `list` and `dict` only), and each
//! reference made is handed to its container at once; a container on the stack is borrowed
//! from its parent (or is the root, which this function owns), so on an error dropping the
//! root frees everything made so far (a list's slots not yet filled are empty, which its
//! deallocation allows).

#![allow(unsafe_code)]

use crate::convert::number;
use crate::errors::Fail;
use crate::keys::Keys;
use pyo3::exceptions::PySystemError;
use pyo3::ffi;
use pyo3::prelude::*;
use statecore::json::{self, Tape, Token};
use statecore::Number;
use std::str::FromStr;

/// The Python objects of a tape's document.
pub(crate) fn to_py<'py>(py: Python<'py>, tape: &Tape<'_>) -> Result<Bound<'py, PyAny>, Fail> {
    // SAFETY: attached (`py`); `build` returns a new, non-null reference, which the `Bound`
    // takes.
    crate::keys::with_keys(py, |keys| unsafe {
        build(py, tape, keys).map(|ptr| Bound::from_owned_ptr(py, ptr))
    })
}

/// An open container: its object (borrowed: its parent holds it), whether it is a `dict`,
/// its members or items still to come, the next item's index (a list) and the member being
/// made (a dict).
struct Open<'a> {
    container: *mut ffi::PyObject,
    object: bool,
    left: usize,
    at: ffi::Py_ssize_t,
    key: &'a str,
}

/// The error for a tape whose tokens do not add up (never expected: a tape counts its
/// members exactly).
fn miscounted() -> Fail {
    Fail::Py(PySystemError::new_err(
        "statecore: a document's values differ from their containers' counts",
    ))
}

/// `ptr`, or the Python exception that made it null (a `MemoryError`).
fn made(py: Python<'_>, ptr: *mut ffi::PyObject) -> Result<*mut ffi::PyObject, Fail> {
    if ptr.is_null() {
        Err(Fail::Py(PyErr::fetch(py)))
    } else {
        Ok(ptr)
    }
}

/// The value of an integer's text of at most 18 digits (within `i64`), else `None`.
fn small_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        // At most 18 digits: below 10^18, no overflow.
        value = value.wrapping_mul(10).wrapping_add(i64::from(digit));
    }
    Some(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

/// A new reference to the Python number of a number's text: `int` for an integer, `float`
/// otherwise, as `crate::convert::number` makes it (which this defers to for integers past
/// 18 digits and for the error of a number Python cannot hold).
///
/// # Safety
/// Attached to the interpreter.
pub(crate) unsafe fn number_object(py: Python<'_>, text: &str) -> Result<*mut ffi::PyObject, Fail> {
    if let Some(v) = small_int(text) {
        // SAFETY: attached (contract).
        return made(py, unsafe { ffi::PyLong_FromLongLong(v) });
    }
    if !json::is_integer_text(text) {
        if let Ok(f) = text.parse::<f64>() {
            if json::keeps_value(text, f) {
                // SAFETY: attached (contract).
                return made(py, unsafe { ffi::PyFloat_FromDouble(f) });
            }
        }
    }
    // A long integer, or a number Python cannot hold: the general path and its error.
    let n = Number::from_str(text).map_err(Fail::Core)?;
    number(py, &n).map(Bound::into_ptr)
}

/// A new reference to the root object of `tape`'s document.
///
/// # Safety
/// Attached to the interpreter (`py`).
unsafe fn build(
    py: Python<'_>,
    tape: &Tape<'_>,
    keys: &mut Keys,
) -> Result<*mut ffi::PyObject, Fail> {
    let mut root: *mut ffi::PyObject = std::ptr::null_mut();
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut tokens = tape.tokens();
    // SAFETY: attached (contract); every pointer stored or dropped below is a reference this
    // function owns or one its containers hold (see the module's comment).
    let outcome: Result<(), Fail> = unsafe {
        'values: loop {
            if let Some(top) = open.last_mut() {
                if top.left == 0 {
                    open.pop();
                    if open.is_empty() {
                        break 'values Ok(());
                    }
                    continue;
                }
                top.left = top.left.saturating_sub(1);
                if top.object {
                    match tokens.next() {
                        Some(Token::String(key)) => top.key = key,
                        _ => break 'values Err(miscounted()),
                    }
                }
            }
            let Some(token) = tokens.next() else {
                break 'values Err(miscounted());
            };
            let (object, count) = match token {
                Token::Null => (new_ref(ffi::Py_None()), 0),
                Token::Bool(b) => (new_ref(if b { ffi::Py_True() } else { ffi::Py_False() }), 0),
                Token::Number(text) => match number_object(py, text) {
                    Ok(object) => (object, 0),
                    Err(fail) => break 'values Err(fail),
                },
                Token::String(text) => match made(
                    py,
                    ffi::PyUnicode_FromStringAndSize(
                        text.as_ptr().cast(),
                        ffi::Py_ssize_t::try_from(text.len()).unwrap_or(ffi::Py_ssize_t::MAX),
                    ),
                ) {
                    Ok(object) => (object, 0),
                    Err(fail) => break 'values Err(fail),
                },
                Token::Object(count) => match made(py, ffi::PyDict_New()) {
                    Ok(object) => (object, count),
                    Err(fail) => break 'values Err(fail),
                },
                Token::Array(count) => {
                    let size = ffi::Py_ssize_t::try_from(count).unwrap_or(ffi::Py_ssize_t::MAX);
                    match made(py, ffi::PyList_New(size)) {
                        Ok(object) => (object, count),
                        Err(fail) => break 'values Err(fail),
                    }
                }
            };
            // Into its container, which takes the reference (a dict takes its own: ours is
            // dropped).
            match open.last_mut() {
                None => root = object,
                Some(top) if top.object => {
                    let set = keys.with_key(py, top.key, |key| {
                        ffi::PyDict_SetItem(top.container, key, object)
                    });
                    ffi::Py_DECREF(object);
                    if set != 0 {
                        break 'values Err(Fail::Py(PyErr::fetch(py)));
                    }
                }
                Some(top) => {
                    // Within the list's size (its count): it cannot fail.
                    if ffi::PyList_SetItem(top.container, top.at, object) != 0 {
                        break 'values Err(Fail::Py(PyErr::fetch(py)));
                    }
                    top.at = top.at.saturating_add(1);
                }
            }
            if count > 0 {
                open.push(Open {
                    container: object,
                    object: matches!(token, Token::Object(_)),
                    left: count,
                    at: 0,
                    key: "",
                });
            } else if open.is_empty() {
                break 'values Ok(());
            }
        }
    };
    match outcome {
        Ok(()) => Ok(root),
        Err(fail) => {
            if !root.is_null() {
                // SAFETY: the root is ours; it holds everything else made.
                unsafe { ffi::Py_DECREF(root) };
            }
            Err(at_path(fail, &open))
        }
    }
}

/// `fail` with the path of the value being made when it happened: each open container's
/// member (its key) or item (the innermost's next index; an outer list's last stored item,
/// the container being filled).
fn at_path(mut fail: Fail, open: &[Open<'_>]) -> Fail {
    for (depth, frame) in open.iter().enumerate().rev() {
        fail = if frame.object {
            fail.within(frame.key)
        } else {
            let innermost = depth.saturating_add(1) == open.len();
            let index = if innermost {
                frame.at
            } else {
                frame.at.saturating_sub(1)
            };
            fail.within(&index.to_string())
        };
    }
    fail
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
