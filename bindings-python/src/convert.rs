//! Value conversion, the hot spot of the boundary: Python objects straight to the core's JSON
//! values (a direct walk over `dict`/`list`/`tuple`/`str`/`int`/`float`/`bool`/`None`, no
//! serde bridge; depth and string-length limits enforced during the walk, which also stops
//! cycles, told apart from deep values only then; JSON pointer paths built only on failure),
//! and JSON values back to Python
//! (integers as exact `int`s, other numbers as `float`s, `E_PRECISION` out of range).

use crate::errors::{type_name, value_error, Fail};
use crate::fast::to_value;
pub(crate) use crate::objects::to_py;
use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use statecore::{json, Code, Error};
use statecore::{Map, Number, Str, Value};
use std::cell::Cell;
use std::str::FromStr;

/// Converts a Python value to a document; `name` is the argument, reported in `details`.
pub(crate) fn arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    to_value(obj, &mut Vec::new()).map_err(|fail| fail.in_argument(name).into_pyerr(obj.py()))
}

thread_local! {
    /// Whether a string longer than the documents' limit was met since the last reset
    /// (set only past it: [`str_text`]).
    static LONG_STRING: Cell<bool> = const { Cell::new(false) };
}

/// [`arg`], and whether the value is within the documents' limits: the walk allows no
/// deeper value than [`json::MAX_DEPTH`], and met no string or key over
/// [`json::MAX_STRING_BYTES`] (the core then does not walk it again:
/// `Args::mark_within_limits`).
pub(crate) fn document_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(Value, bool)> {
    LONG_STRING.with(|long| long.set(false));
    let value = arg(obj, name)?;
    Ok((value, !LONG_STRING.with(Cell::get)))
}

/// The containers around the value being converted, outermost first (their addresses): its
/// length is the depth, and a container met again on it is a cycle.
pub(crate) type Around = Vec<*mut pyo3::ffi::PyObject>;

/// The general walk, for any object (`crate::fast` takes the common types first): `around`
/// holds the containers around `obj`.
pub(crate) fn general(obj: &Bound<'_, PyAny>, around: &mut Around) -> Result<Value, Fail> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(str_text(s)?));
    }
    // `bool` before `int`: it is a subclass of it.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Ok(Value::Number(int(i)?));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        return within(obj, around, |around| object(dict, around));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        let len = list.len();
        let value = within(obj, around, |around| array(list.iter(), len, around))?;
        return if list.len() == len {
            Ok(value)
        } else {
            Err(changed("list"))
        };
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let f = f.value();
        return json::float_number(f)
            .map(Value::Number)
            .ok_or_else(|| value_error(format!("{f} is not JSON: only finite floats are")));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return within(obj, around, |around| {
            array(tuple.iter(), tuple.len(), around)
        });
    }
    Err(value_error(format!(
        "a value of type {} is not JSON: use dict, list, tuple, str, int, float, bool or None",
        type_name(obj)
    )))
}

/// Converts the items of the container `obj` (`convert`) one level deeper: `E_LIMIT` past the
/// depth limit, which is also what stops a cycle; only then is `obj` looked for among the
/// containers around it, to report a cycle as `E_VALUE` (no cost on the way down).
pub(crate) fn within(
    obj: &Bound<'_, PyAny>,
    around: &mut Around,
    convert: impl FnOnce(&mut Around) -> Result<Value, Fail>,
) -> Result<Value, Fail> {
    let depth = around.len().saturating_add(1);
    // The comparison first (it runs for every container); the error only when it is one.
    if depth > json::MAX_DEPTH {
        if around.contains(&obj.as_ptr()) {
            return Err(value_error("a cycle: the value contains itself".to_owned()));
        }
        json::check_depth(depth, "")?;
    }
    around.push(obj.as_ptr());
    let value = convert(around);
    around.pop();
    value
}

/// The members of any `dict`, from a list of its items (PyO3's iteration would panic on a
/// dict changed meanwhile by Python code of a value inside it; that is `E_VALUE` instead).
pub(crate) fn object(dict: &Bound<'_, PyDict>, around: &mut Around) -> Result<Value, Fail> {
    let size = dict.len();
    let mut map = Map::with_capacity(size);
    for pair in dict.items().iter() {
        let (key, item) = pair.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
        let Ok(key) = key.cast::<PyString>() else {
            return Err(value_error(format!(
                "object keys must be str, not {} ({})",
                type_name(&key),
                key.repr()
                    .map_or_else(|_| "?".to_owned(), |r| r.to_string())
            )));
        };
        let key = str_text(key)?;
        let value = to_value(&item, around).map_err(|fail| fail.within(&key))?;
        if let Some(_previous) = map.insert(key, value) {
            // Only possible with `str` subclasses whose equality differs from their text.
            return Err(value_error(
                "two keys of this dict have the same text".to_owned(),
            ));
        }
        if dict.len() != size {
            return Err(changed("dict"));
        }
    }
    Ok(Value::Object(map))
}

/// The error for a container that Python code (run while converting a value inside it, such
/// as an int subclass's `__int__`) changed meanwhile.
pub(crate) fn changed(what: &str) -> Fail {
    value_error(format!(
        "the {what} changed size while it was converted (by code of a value inside it, such \
         as an int subclass's __int__); convert a copy made beforehand"
    ))
}

fn array<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    around: &mut Around,
) -> Result<Value, Fail> {
    let mut out = Vec::with_capacity(len);
    for (index, item) in items.enumerate() {
        out.push(to_value(&item, around).map_err(|fail| fail.within(&index.to_string()))?);
    }
    Ok(Value::Array(out))
}

/// A `str` as UTF-8, within the string-length limit; a lone surrogate is `E_VALUE`.
pub(crate) fn str_text(s: &Bound<'_, PyString>) -> Result<Str, Fail> {
    let text = utf8(s).map_err(|err| {
        if err.is_instance_of::<PyUnicodeEncodeError>(s.py()) {
            value_error("str contains a lone surrogate, which JSON text cannot hold".to_owned())
        } else {
            Fail::Py(err)
        }
    })?;
    // An argument's string may hold a document's text; a document's own strings are held to
    // their limit when the operation binds it (the core's rule). The comparison first: this
    // runs for every string and key, and the error is built only when it is one.
    if text.len() > json::MAX_STRING_BYTES {
        LONG_STRING.with(|long| long.set(true));
        json::check_argument_string_len(text.len(), "")?;
    }
    Ok(Str::new(text))
}

/// The UTF-8 text of a `str`, borrowed from the string object (no copy for ASCII strings).
///
/// PyO3 offers this (`to_str`) only for abi3 ≥ 3.10 and otherwise encodes into a temporary
/// `bytes` object; `PyUnicode_AsUTF8AndSize` is exported by every CPython 3 (and in the stable
/// ABI since 3.10), so the cp39-abi3 wheel calls it directly: strings are the hot spot of the
/// conversion. Fails with `UnicodeEncodeError` on a lone surrogate. On Windows a module links
/// to the stable ABI's `python3.dll`, which exports it only from CPython 3.10: the Windows wheel
/// is built with the `abi3-py310` feature (scripts/build-wheels.sh).
#[allow(unsafe_code)]
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    #[cfg_attr(windows, link(name = "python3", kind = "raw-dylib"))]
    extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut pyo3::ffi::PyObject,
            size: *mut pyo3::ffi::Py_ssize_t,
        ) -> *const std::os::raw::c_char;
    }
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` object and we are attached to the interpreter.
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    let len = usize::try_from(size).unwrap_or(0);
    // SAFETY: CPython returns `size` bytes of valid UTF-8 cached in the string object, which
    // is immutable and outlives the borrow `'a` of `s`.
    Ok(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast(), len)) })
}

/// An `int` as an exact JSON number: `i64` directly, anything bigger through its decimal text.
fn int(i: &Bound<'_, PyInt>) -> Result<Number, Fail> {
    if let Ok(v) = i.extract::<i64>() {
        return Ok(Number::from(v));
    }
    let py = i.py();
    // `str()` of an `int` subclass (an IntEnum, say) need not be its digits: convert first.
    let exact = if i.is_exact_instance_of::<PyInt>() {
        i.clone().into_any()
    } else {
        py.get_type::<PyInt>().call1((i,))?
    };
    let digits = exact
        .str()
        .map_err(|err| value_error(format!("int cannot be converted to decimal text: {err}")))?;
    let digits = utf8(&digits)?;
    json::check_string_len(digits.len(), "")?;
    Number::from_str(digits).map_err(|_| value_error(format!("{digits} is not a JSON number")))
}

/// `str` or `bytes` (file contents) as bytes; `str` is encoded as UTF-8.
pub(crate) fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a [u8]> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return match utf8(s) {
            Ok(text) => Ok(text.as_bytes()),
            Err(_) => Err(value_error(
                "str contains a lone surrogate, which JSON text cannot hold".to_owned(),
            )
            .in_argument(name)
            .into_pyerr(obj.py())),
        };
    }
    Err(crate::errors::argument_error(obj, name, "str or bytes"))
}

/// Converts a core result to Python.
pub(crate) fn out<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, value).map_err(|fail| match fail {
        Fail::Core(error) => Fail::Core(json::document_relative(value, error)).into_pyerr(py),
        other => other.into_pyerr(py),
    })
}

/// An integer literal becomes an exact `int`; any other number a finite `float`.
pub(crate) fn number<'py>(py: Python<'py>, n: &Number) -> Result<Bound<'py, PyAny>, Fail> {
    let text = n.as_str();
    if json::is_integer_text(text) {
        if let Ok(v) = text.parse::<i64>() {
            return Ok(PyInt::new(py, v).into_any());
        }
        // Python's `int()` reads any size (up to `sys.get_int_max_str_digits()`).
        return py
            .get_type::<PyInt>()
            .call1((text,))
            .map_err(|_| precision(n));
    }
    match text.parse::<f64>() {
        Ok(f) if json::keeps_value(text, f) => Ok(PyFloat::new(py, f).into_any()),
        _ => Err(precision(n)),
    }
}

/// The core's `E_PRECISION` error for a number Python cannot hold.
fn precision(n: &Number) -> Fail {
    let error = json::check_float_range(&Value::Number(n.clone()))
        .err()
        .unwrap_or_else(|| {
            Error::new(
                Code::Precision,
                "",
                format!("the number {n} cannot be represented by a Python int or float"),
            )
            .with_detail("number", n.as_str())
        });
    Fail::Core(error)
}
