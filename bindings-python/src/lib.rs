//! `statecore._statecore`: the PyO3 binding of the statecore core (ARCHITECTURE §7).
//!
//! Thin by design: one `#[pyfunction]` per `statecore::api` function (plus the text fast
//! paths `merge_text` and `validate_text`), value conversion and error mapping, nothing else.
//! Every rule lives in the core.
//!
//! - **Python → JSON** is a direct walk over `dict`/`list`/`tuple`/`str`/`int`/`float`/`bool`/
//!   `None` (no serde bridge: it is the hot spot). Depth and string-length limits are enforced
//!   during the walk, which also stops cycles. JSON pointer paths are built only on failure.
//! - **JSON → Python**: integers become `int` (any size, exact), other numbers `float` (out of
//!   double range: `E_PRECISION` with its path).
//! - **Threads**: text inputs of 256 KiB or more are processed with the interpreter released.
//! - **Errors** are the classes of `statecore.errors`, defined in Python and looked up by the
//!   core's `code.class_name()`, so the abi3 wheel never needs to know them.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use statecore::error::child_path;
use statecore::{api, json, Code, Error};
use std::str::FromStr;

/// Rust-side allocations only (Python objects use Python's allocator): converted documents
/// are many small strings and maps, where mimalloc is much faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// `statecore.errors`, imported on the first error and kept.
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// The Python exception for a core error: `statecore.errors.<class_name>(message, code, path,
/// details)`. Falls back to `ValueError` only if that module cannot be used (never expected).
fn raise(py: Python<'_>, error: &Error) -> PyErr {
    fn build(py: Python<'_>, error: &Error) -> PyResult<PyErr> {
        let module =
            ERRORS.get_or_try_init(py, || py.import("statecore.errors").map(Bound::unbind))?;
        let class = module.bind(py).getattr(error.code.class_name())?;
        let details = to_py(py, &error.details).unwrap_or_else(|_| PyDict::new(py).into_any());
        let exception = class.call1((
            error.message.as_str(),
            error.code.as_str(),
            error.path.as_str(),
            details,
        ))?;
        Ok(PyErr::from_value(exception))
    }
    build(py, error).unwrap_or_else(|_| PyValueError::new_err(error.to_string()))
}

/// Why a conversion stopped: a statecore error (its path relative to the value being
/// converted), or a Python exception raised underneath (`MemoryError`, ...).
enum Fail {
    Core(Error),
    Py(PyErr),
}

impl From<Error> for Fail {
    fn from(error: Error) -> Self {
        Fail::Core(error)
    }
}

impl From<PyErr> for Fail {
    fn from(error: PyErr) -> Self {
        Fail::Py(error)
    }
}

impl Fail {
    /// Prefixes the path of a core error with one reference token of its container.
    fn within(self, token: &str) -> Self {
        match self {
            Fail::Core(mut error) => {
                let mut path = child_path("", token);
                path.push_str(&error.path);
                error.path = path;
                Fail::Core(error)
            }
            other => other,
        }
    }

    /// Adds `details.argument` (which argument held the bad value) to a core error.
    fn in_argument(self, name: &str) -> Self {
        match self {
            Fail::Core(error) => Fail::Core(error.with_detail("argument", name)),
            other => other,
        }
    }

    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Fail::Core(error) => raise(py, &error),
            Fail::Py(error) => error,
        }
    }
}

/// Inputs of at least this many bytes are processed with the interpreter released, so other
/// Python threads run meanwhile. Smaller ones keep it: giving it up and waiting to get it back
/// (up to the 5 ms switch interval when another thread is busy) would cost more than the work.
const DETACH_BYTES: usize = 256 * 1024;

/// Runs `work` (pure core code over `len` bytes of input) detached from the interpreter when
/// the input is large, attached otherwise.
fn unlocked<T: Send>(py: Python<'_>, len: usize, work: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_BYTES {
        py.detach(work)
    } else {
        work()
    }
}

/// The size of an optional file's contents.
fn size(bytes: Option<&[u8]>) -> usize {
    bytes.map_or(0, <[u8]>::len)
}

/// Maps a core result to a Python one.
fn core<T>(py: Python<'_>, result: statecore::Result<T>) -> PyResult<T> {
    result.map_err(|error| raise(py, &error))
}

/// `E_VALUE` with an empty path (prefixed on the way out of the walk).
fn value_error(message: String) -> Fail {
    Fail::Core(api::value_error("", message))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |name| name.to_string())
}

// ---------------------------------------------------------------------------------------------
// Python → JSON
// ---------------------------------------------------------------------------------------------

/// Converts a Python value to a document; `name` is the argument, reported in `details`.
fn arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    to_value(obj, 0).map_err(|fail| fail.in_argument(name).into_pyerr(obj.py()))
}

/// Like [`arg`], with `None` (or an omitted argument) as `null`.
fn opt_arg(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Value> {
    obj.map_or(Ok(Value::Null), |obj| arg(obj, name))
}

/// The walk: `depth` is the number of containers around `obj`.
fn to_value(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, Fail> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(string(s)?));
    }
    // `bool` before `int`: it is a subclass of it.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Ok(Value::Number(int(i)?));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        return object(dict, depth);
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return array(list.iter(), list.len(), depth);
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let f = f.value();
        return Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| value_error(format!("{f} is not JSON: only finite floats are")));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return array(tuple.iter(), tuple.len(), depth);
    }
    Err(value_error(format!(
        "a value of type {} is not JSON: use dict, list, tuple, str, int, float, bool or None",
        type_name(obj)
    )))
}

/// One more level of nesting, or `E_LIMIT` (which is also what stops a cycle).
fn enter(depth: usize) -> Result<usize, Fail> {
    let depth = depth.saturating_add(1);
    json::check_depth(depth, "")?;
    Ok(depth)
}

fn object(dict: &Bound<'_, PyDict>, depth: usize) -> Result<Value, Fail> {
    let depth = enter(depth)?;
    let mut map = Map::with_capacity(dict.len());
    for (key, item) in dict.iter() {
        let Ok(key) = key.cast::<PyString>() else {
            return Err(value_error(format!(
                "object keys must be str, not {} ({})",
                type_name(&key),
                key.repr()
                    .map_or_else(|_| "?".to_owned(), |r| r.to_string())
            )));
        };
        let key = string(key)?;
        let value = to_value(&item, depth).map_err(|fail| fail.within(&key))?;
        if let Some(_previous) = map.insert(key, value) {
            // Only possible with `str` subclasses whose equality differs from their text.
            return Err(value_error(
                "two keys of this dict have the same text".to_owned(),
            ));
        }
    }
    Ok(Value::Object(map))
}

fn array<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    depth: usize,
) -> Result<Value, Fail> {
    let depth = enter(depth)?;
    let mut out = Vec::with_capacity(len);
    for (index, item) in items.enumerate() {
        out.push(to_value(&item, depth).map_err(|fail| fail.within(&index.to_string()))?);
    }
    Ok(Value::Array(out))
}

/// A `str` as UTF-8, within the string-length limit; a lone surrogate is `E_VALUE`.
fn string(s: &Bound<'_, PyString>) -> Result<String, Fail> {
    let text = utf8(s).map_err(|err| {
        if err.is_instance_of::<PyUnicodeEncodeError>(s.py()) {
            value_error("str contains a lone surrogate, which JSON text cannot hold".to_owned())
        } else {
            Fail::Py(err)
        }
    })?;
    json::check_string_len(text.len(), "")?;
    Ok(text.to_owned())
}

/// The UTF-8 text of a `str`, borrowed from the string object (no copy for ASCII strings).
///
/// PyO3 offers this (`to_str`) only for abi3 ≥ 3.10 and otherwise encodes into a temporary
/// `bytes` object; `PyUnicode_AsUTF8AndSize` is exported by every CPython 3 (and in the stable
/// ABI since 3.10), so the cp39-abi3 wheel calls it directly: strings are the hot spot of the
/// conversion. Fails with `UnicodeEncodeError` on a lone surrogate.
#[allow(unsafe_code)]
fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
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
fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a [u8]> {
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
    Err(PyTypeError::new_err(format!(
        "{name} must be str or bytes, not {}",
        type_name(obj)
    )))
}

/// Like [`bytes_arg`], with `None` as "no file".
fn opt_bytes_arg<'a>(obj: Option<&'a Bound<'_, PyAny>>, name: &str) -> PyResult<Option<&'a [u8]>> {
    obj.map(|obj| bytes_arg(obj, name)).transpose()
}

// ---------------------------------------------------------------------------------------------
// JSON → Python
// ---------------------------------------------------------------------------------------------

/// Converts a core result to Python.
fn out<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, value).map_err(|fail| fail.into_pyerr(py))
}

fn to_py<'py>(py: Python<'py>, value: &Value) -> Result<Bound<'py, PyAny>, Fail> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => number(py, n)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let mut list = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                list.push(to_py(py, item).map_err(|fail| fail.within(&index.to_string()))?);
            }
            PyList::new(py, list)?.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                let item = to_py(py, item).map_err(|fail| fail.within(key))?;
                dict.set_item(PyString::new(py, key), item)?;
            }
            dict.into_any()
        }
    })
}

/// An integer literal becomes an exact `int`; any other number a finite `float`.
fn number<'py>(py: Python<'py>, n: &Number) -> Result<Bound<'py, PyAny>, Fail> {
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
        Ok(f) if f.is_finite() => Ok(PyFloat::new(py, f).into_any()),
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

// ---------------------------------------------------------------------------------------------
// The API (docs/api.md), in the order of the table
// ---------------------------------------------------------------------------------------------

/// Parses JSON text (`str` or `bytes`) into a document.
#[pyfunction]
fn parse<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let bytes = bytes_arg(data, "data")?;
    let value = core(py, unlocked(py, bytes.len(), || api::parse(bytes)))?;
    out(py, &value)
}

/// Canonical text of JSON text, numbers kept exactly.
#[pyfunction]
fn canonical(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
    let bytes = bytes_arg(data, "data")?;
    core(py, unlocked(py, bytes.len(), || api::canonical(bytes)))
}

/// Canonical text of a document.
#[pyfunction]
fn serialize(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = arg(value, "value")?;
    core(py, api::serialize(&value))
}

/// Merges `patch` into `doc` (`options`: `{strategy, rules, stamp}` or `None`).
#[pyfunction]
#[pyo3(signature = (doc, patch, options=None))]
fn merge<'py>(
    py: Python<'py>,
    doc: &Bound<'py, PyAny>,
    patch: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = arg(doc, "doc")?;
    let patch = arg(patch, "patch")?;
    let options = opt_arg(options, "options")?;
    let merged = core(py, api::merge(doc, &patch, &options))?;
    out(py, &merged)
}

/// [`merge`] over JSON text: parses both, merges, returns canonical text.
#[pyfunction]
#[pyo3(signature = (doc, patch, options=None))]
fn merge_text(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    patch: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let doc = bytes_arg(doc, "doc")?;
    let patch = bytes_arg(patch, "patch")?;
    let options = opt_arg(options, "options")?;
    let merged = unlocked(py, doc.len().saturating_add(patch.len()), || {
        let doc = api::parse(doc)?;
        let patch = api::parse(patch)?;
        api::serialize(&api::merge(doc, &patch, &options)?)
    });
    core(py, merged)
}

/// Validates a document of a kind: `{valid, errors, warnings}`.
#[pyfunction]
fn validate<'py>(
    py: Python<'py>,
    kind: String,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = arg(doc, "doc")?;
    let report = core(py, api::validate(&kind, &doc))?;
    out(py, &report)
}

/// [`validate`] over JSON text (unparseable text raises `ParseError`).
#[pyfunction]
fn validate_text<'py>(
    py: Python<'py>,
    kind: String,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = bytes_arg(data, "data")?;
    let report = core(
        py,
        unlocked(py, bytes.len(), || {
            api::validate(&kind, &api::parse(bytes)?)
        }),
    )?;
    out(py, &report)
}

/// `[{name, description}]` for every document kind.
#[pyfunction]
fn kinds(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::kinds())
}

/// The JSON Schema (draft 2020-12) of a document kind.
#[pyfunction]
fn schema(py: Python<'_>, kind: String) -> PyResult<Bound<'_, PyAny>> {
    let schema = core(py, api::schema(&kind))?;
    out(py, &schema)
}

/// The document a reader gets for a missing file of this kind.
#[pyfunction]
fn default_document(py: Python<'_>, kind: String) -> PyResult<Bound<'_, PyAny>> {
    let doc = core(py, api::default_document(&kind))?;
    out(py, &doc)
}

/// `{max_depth, max_document_bytes, max_string_bytes}`.
#[pyfunction]
fn limits(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::limits())
}

/// The etag of a file's contents: 32 hex digits.
#[pyfunction]
fn etag(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
    let bytes = bytes_arg(data, "data")?;
    Ok(unlocked(py, bytes.len(), || api::etag(bytes)))
}

/// What a reader makes of a file's contents (`None` = missing file).
#[pyfunction]
#[pyo3(signature = (kind, data))]
fn load_document<'py>(
    py: Python<'py>,
    kind: String,
    data: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = opt_bytes_arg(data, "data")?;
    let loaded = core(
        py,
        unlocked(py, size(bytes), || api::load_document(&kind, bytes)),
    )?;
    out(py, &loaded)
}

/// Validates and serializes a document for writing: `{text, etag, warnings}`.
#[pyfunction]
fn prepare_document<'py>(
    py: Python<'py>,
    kind: String,
    doc: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = arg(doc, "doc")?;
    let prepared = core(py, api::prepare_document(&kind, &doc))?;
    out(py, &prepared)
}

/// The pure update step: `{document, text, etag, changed, corrupt, warnings}`.
#[pyfunction]
#[pyo3(signature = (kind, data, patch, options=None, if_match=None))]
fn apply_update<'py>(
    py: Python<'py>,
    kind: String,
    data: Option<&Bound<'py, PyAny>>,
    patch: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyAny>>,
    if_match: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = opt_bytes_arg(data, "data")?;
    let patch = arg(patch, "patch")?;
    let options = opt_arg(options, "options")?;
    let updated = core(
        py,
        unlocked(py, size(bytes), || {
            api::apply_update(&kind, bytes, &patch, &options, if_match.as_deref())
        }),
    )?;
    out(py, &updated)
}

/// The update step for a document the host produced from the loaded one.
#[pyfunction]
#[pyo3(signature = (kind, data, doc, if_match=None))]
fn finish_update<'py>(
    py: Python<'py>,
    kind: String,
    data: Option<&Bound<'py, PyAny>>,
    doc: &Bound<'py, PyAny>,
    if_match: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = opt_bytes_arg(data, "data")?;
    let doc = arg(doc, "doc")?;
    let updated = core(
        py,
        unlocked(py, size(bytes), || {
            api::finish_update(&kind, bytes, &doc, if_match.as_deref())
        }),
    )?;
    out(py, &updated)
}

/// `ConflictError` unless `if_match` is `None` or equals `current`.
#[pyfunction]
#[pyo3(signature = (current, if_match))]
fn check_if_match(
    py: Python<'_>,
    current: Option<String>,
    if_match: Option<String>,
) -> PyResult<()> {
    core(
        py,
        api::check_if_match(current.as_deref(), if_match.as_deref()),
    )
}

/// Parses a JSONL log: `{records, torn, needs_newline}`.
#[pyfunction]
fn parse_log<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let bytes = bytes_arg(data, "data")?;
    let log = core(py, unlocked(py, bytes.len(), || api::parse_log(bytes)))?;
    out(py, &log)
}

/// One JSONL line: compact JSON and `\n`.
#[pyfunction]
fn log_line(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = arg(value, "value")?;
    core(py, api::log_line(&value))
}

/// Parses an RFC 3339 timestamp into epoch milliseconds.
#[pyfunction]
fn parse_timestamp(py: Python<'_>, text: String) -> PyResult<i64> {
    core(py, api::parse_timestamp(&text))
}

/// Formats epoch milliseconds (an `int`) as RFC 3339 UTC with milliseconds.
#[pyfunction]
fn format_timestamp(py: Python<'_>, ms: &Bound<'_, PyInt>) -> PyResult<String> {
    let ms = ms.extract::<i64>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(py) {
            raise(
                py,
                &Error::new(
                    Code::Timestamp,
                    "",
                    format!("{ms} milliseconds is outside the range of timestamps"),
                ),
            )
        } else {
            err
        }
    })?;
    core(py, api::format_timestamp(ms))
}

/// Checks a machine definition: `{valid, errors, warnings}`.
#[pyfunction]
fn machine_check<'py>(
    py: Python<'py>,
    definition: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let definition = arg(definition, "definition")?;
    let report = core(py, api::machine_check(&definition))?;
    out(py, &report)
}

/// The legal events from `state`: `[{event, to, auto}]`.
#[pyfunction]
#[pyo3(signature = (definition, state, context=None))]
fn machine_events<'py>(
    py: Python<'py>,
    definition: &Bound<'py, PyAny>,
    state: String,
    context: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let definition = arg(definition, "definition")?;
    let context = opt_arg(context, "context")?;
    let events = core(py, api::machine_events(&definition, &state, &context))?;
    out(py, &events)
}

/// Fires an event: `{state, previous, changed, steps, scheduled}`.
#[pyfunction]
#[pyo3(signature = (definition, instance, event, context=None))]
fn machine_fire<'py>(
    py: Python<'py>,
    definition: &Bound<'py, PyAny>,
    instance: &Bound<'py, PyAny>,
    event: String,
    context: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let definition = arg(definition, "definition")?;
    let instance = arg(instance, "instance")?;
    let context = opt_arg(context, "context")?;
    let fired = core(
        py,
        api::machine_fire(&definition, &instance, &event, &context),
    )?;
    out(py, &fired)
}

/// The Mermaid `stateDiagram-v2` text of a machine.
#[pyfunction]
fn machine_diagram(py: Python<'_>, definition: &Bound<'_, PyAny>) -> PyResult<String> {
    let definition = arg(definition, "definition")?;
    core(py, api::machine_diagram(&definition))
}

/// fctry step 0: `currentCommand` set; `completedSteps`, `agentOutputs`, `workflowStep` cleared.
#[pyfunction]
fn fctry_start_command<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    command: String,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_start_command(state, &command, &now))?;
    out(py, &updated)
}

/// fctry: an agent starts its step (`workflowStep`).
#[pyfunction]
fn fctry_start_step<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    step: String,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_start_step(state, &step, &now))?;
    out(py, &updated)
}

/// fctry: an agent completes its step (appended once; its output stored when not `None`).
#[pyfunction]
#[pyo3(signature = (state, step, output, now))]
fn fctry_complete_step<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    step: String,
    output: Option<&Bound<'py, PyAny>>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let output = opt_arg(output, "output")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_complete_step(state, &step, &output, &now))?;
    out(py, &updated)
}

/// fctry: `{ok, agent, command, missing, message, options}` for an agent's prerequisites.
#[pyfunction]
#[pyo3(signature = (state, agent, command=None))]
fn fctry_check_prerequisites<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    agent: String,
    command: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let found = core(
        py,
        api::fctry_check_prerequisites(&state, &agent, command.as_deref()),
    )?;
    out(py, &found)
}

/// fctry: records that the user skipped an agent's missing prerequisites.
#[pyfunction]
#[pyo3(signature = (state, agent, command, now))]
fn fctry_skip_prerequisites<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    agent: String,
    command: Option<String>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let updated = core(
        py,
        api::fctry_skip_prerequisites(state, &agent, command.as_deref(), &now),
    )?;
    out(py, &updated)
}

/// fctry: adds an untracked change, de-duplicated by file.
#[pyfunction]
fn fctry_add_untracked_change<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    change: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let change = arg(change, "change")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_add_untracked_change(state, &change, &now))?;
    out(py, &updated)
}

/// fctry: clears the untracked changes of these sections (`None`: all of them).
#[pyfunction]
#[pyo3(signature = (state, sections, now))]
fn fctry_clear_untracked_changes<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    sections: Option<&Bound<'py, PyAny>>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let sections = opt_arg(sections, "sections")?;
    let now = arg(now, "now")?;
    let updated = core(
        py,
        api::fctry_clear_untracked_changes(state, &sections, &now),
    )?;
    out(py, &updated)
}

/// fctry: the inbox item lifecycle as a machine definition.
#[pyfunction]
fn fctry_inbox_machine(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::fctry_inbox_machine())
}

/// fctry: adds an inbox item first (`random`: 6 lowercase base36 characters from the host).
#[pyfunction]
fn fctry_inbox_add<'py>(
    py: Python<'py>,
    inbox: &Bound<'py, PyAny>,
    kind: String,
    content: String,
    now: &Bound<'py, PyAny>,
    random: String,
) -> PyResult<Bound<'py, PyAny>> {
    let inbox = arg(inbox, "inbox")?;
    let now = arg(now, "now")?;
    let updated = core(
        py,
        api::fctry_inbox_add(inbox, &kind, &content, &now, &random),
    )?;
    out(py, &updated)
}

/// fctry: moves one inbox item through its lifecycle.
#[pyfunction]
fn fctry_inbox_transition<'py>(
    py: Python<'py>,
    inbox: &Bound<'py, PyAny>,
    id: String,
    event: String,
) -> PyResult<Bound<'py, PyAny>> {
    let inbox = arg(inbox, "inbox")?;
    let updated = core(py, api::fctry_inbox_transition(inbox, &id, &event))?;
    out(py, &updated)
}

/// fctry: removes an inbox item (absent: unchanged).
#[pyfunction]
fn fctry_inbox_dismiss<'py>(
    py: Python<'py>,
    inbox: &Bound<'py, PyAny>,
    id: String,
) -> PyResult<Bound<'py, PyAny>> {
    let inbox = arg(inbox, "inbox")?;
    let updated = core(py, api::fctry_inbox_dismiss(inbox, &id))?;
    out(py, &updated)
}

/// fctry: applies an event to every pending or processed item it is legal for.
#[pyfunction]
fn fctry_inbox_batch<'py>(
    py: Python<'py>,
    inbox: &Bound<'py, PyAny>,
    event: String,
) -> PyResult<Bound<'py, PyAny>> {
    let inbox = arg(inbox, "inbox")?;
    let updated = core(py, api::fctry_inbox_batch(inbox, &event))?;
    out(py, &updated)
}

/// fctry: the chunk lifecycle as a machine definition.
#[pyfunction]
fn fctry_chunk_machine(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::fctry_chunk_machine())
}

/// fctry: the build run lifecycle as a machine definition.
#[pyfunction]
fn fctry_run_machine(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::fctry_run_machine())
}

/// fctry: creates a build run from an approved plan.
#[pyfunction]
fn fctry_create_build_run<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    plan: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let plan = arg(plan, "plan")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_create_build_run(state, &plan, &now))?;
    out(py, &updated)
}

/// A chunk id: an `int` ≥ 0 (not a `bool`), else `E_ARGUMENT` at `/id` (the core says which
/// chunk does not exist).
fn chunk_id(id: &Bound<'_, PyAny>) -> PyResult<u64> {
    let whole = id
        .cast::<PyInt>()
        .ok()
        .filter(|_| !id.is_instance_of::<PyBool>())
        .and_then(|i| i.extract::<u64>().ok());
    whole.ok_or_else(|| {
        let shown = id.repr().map_or_else(|_| type_name(id), |r| r.to_string());
        raise(
            id.py(),
            &Error::new(
                Code::Argument,
                "/id",
                format!("a chunk id must be a whole number ≥ 0 (an int), not {shown}"),
            ),
        )
    })
}

/// fctry: a chunk event (`start`, `complete`, `fail`).
#[pyfunction]
fn fctry_chunk_event<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    id: &Bound<'py, PyAny>,
    event: String,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let id = chunk_id(id)?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_chunk_event(state, id, &event, &now))?;
    out(py, &updated)
}

/// fctry: planned chunks whose dependencies all completed.
#[pyfunction]
fn fctry_ready_chunks<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    out(py, &api::fctry_ready_chunks(&state))
}

/// fctry: `{layers, unplaced}` of the chunk DAG.
#[pyfunction]
fn fctry_dag_layers<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    out(py, &api::fctry_dag_layers(&state))
}

/// fctry: pauses a running build with its pending question.
#[pyfunction]
fn fctry_pause_build_run<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    question: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let question = arg(question, "question")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_pause_build_run(state, &question, &now))?;
    out(py, &updated)
}

/// fctry: resumes a paused build.
#[pyfunction]
fn fctry_resume_build_run<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_resume_build_run(state, &now))?;
    out(py, &updated)
}

/// fctry: finishes a build whose chunks are all done.
#[pyfunction]
fn fctry_finish_build_run<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let updated = core(py, api::fctry_finish_build_run(state, &now))?;
    out(py, &updated)
}

/// fctry: the resume plan `{offer, completed, remaining, next, changed, options}`.
#[pyfunction]
#[pyo3(signature = (state, current_spec_version=None))]
fn fctry_resume_plan<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    current_spec_version: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    out(
        py,
        &api::fctry_resume_plan(&state, current_spec_version.as_deref()),
    )
}

/// fctry: what a status line shows.
#[pyfunction]
fn fctry_status_line<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    out(py, &api::fctry_status_line(&state))
}

/// fctry: one line of text from a status line summary (`options`: `{color}`).
#[pyfunction]
#[pyo3(signature = (summary, options=None))]
fn fctry_render_status_line(
    summary: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let summary = arg(summary, "summary")?;
    let options = opt_arg(options, "options")?;
    Ok(api::fctry_render_status_line(&summary, &options))
}

/// fctry: the rendered status line from the state file's contents (`None`: no file).
#[pyfunction]
#[pyo3(signature = (data, options=None))]
fn fctry_status_line_text(
    data: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let bytes = opt_bytes_arg(data, "data")?;
    let options = opt_arg(options, "options")?;
    Ok(api::fctry_status_line_text(bytes, &options))
}

/// fctry: a list of event lists merged oldest first, `{events, invalid}`.
#[pyfunction]
fn fctry_activity_feed<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let sources = arg(sources, "sources")?;
    out(py, &api::fctry_activity_feed(&sources))
}

/// fctry: the context health indicator `{isolation, lastCheckpoint}`.
#[pyfunction]
#[pyo3(signature = (state, events=None))]
fn fctry_context_health<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    events: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let events = opt_arg(events, "events")?;
    out(py, &api::fctry_context_health(&state, &events))
}

/// hivemind: the workflow as a machine definition.
#[pyfunction]
fn hivemind_machine(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::hivemind_machine())
}

/// hivemind: the Mermaid state diagram of the workflow.
#[pyfunction]
fn hivemind_diagram(py: Python<'_>) -> PyResult<String> {
    core(py, api::hivemind_diagram())
}

/// hivemind: each agent's mode in a state.
#[pyfunction]
fn hivemind_agents(py: Python<'_>, state: String) -> PyResult<Bound<'_, PyAny>> {
    let modes = core(py, api::hivemind_agents(&state))?;
    out(py, &modes)
}

/// hivemind: the context message of a state (`None`: none).
#[pyfunction]
fn hivemind_context_message(py: Python<'_>, state: String) -> PyResult<Bound<'_, PyAny>> {
    out(py, &api::hivemind_context_message(&state))
}

/// hivemind: fires a host event on the state document (`None`: a missing file).
#[pyfunction]
#[pyo3(signature = (state, event, now, details=None))]
fn hivemind_fire<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    event: String,
    now: &Bound<'py, PyAny>,
    details: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let details = opt_arg(details, "details")?;
    let outcome = core(py, api::hivemind_fire(state, &event, &now, &details))?;
    out(py, &outcome)
}

/// hivemind: fires a scheduled follow-up if it still applies.
#[pyfunction]
fn hivemind_follow_up<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    event: String,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let outcome = core(py, api::hivemind_follow_up(state, &event, &now))?;
    out(py, &outcome)
}

/// hivemind: what a created or changed file under `workspace/` does in the current state.
#[pyfunction]
fn hivemind_on_file<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    path: String,
    content: Option<String>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let state = arg(state, "state")?;
    let now = arg(now, "now")?;
    let content = content.map_or(Value::Null, Value::String);
    let outcome = core(py, api::hivemind_on_file(state, &path, &content, &now))?;
    out(py, &outcome)
}

/// agency: the initial runner status.
#[pyfunction]
fn agency_initial_runner_status<'py>(
    py: Python<'py>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let now = arg(now, "now")?;
    let status = core(py, api::agency_initial_runner_status(&now))?;
    out(py, &status)
}

/// agency: a runner's milestone update applied to the current status (`None`: no file).
#[pyfunction]
fn agency_update_runner_status<'py>(
    py: Python<'py>,
    current: &Bound<'py, PyAny>,
    update: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let current = arg(current, "current")?;
    let update = arg(update, "update")?;
    let now = arg(now, "now")?;
    let status = core(
        py,
        api::agency_update_runner_status(&current, &update, &now),
    )?;
    out(py, &status)
}

/// agency: what a reader makes of the status file's bytes (`None`: no file).
#[pyfunction]
fn agency_parse_runner_status<'py>(
    py: Python<'py>,
    data: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = opt_bytes_arg(data, "data")?;
    out(py, &api::agency_parse_runner_status(bytes))
}

/// agency: milliseconds since the status's `updated_at`.
#[pyfunction]
fn agency_age(py: Python<'_>, status: &Bound<'_, PyAny>, now: &Bound<'_, PyAny>) -> PyResult<i64> {
    let status = arg(status, "status")?;
    let now = arg(now, "now")?;
    core(py, api::agency_age(&status, &now))
}

/// agency: the stall watchdog.
#[pyfunction]
#[pyo3(signature = (signals, now, threshold_ms=None))]
fn agency_check_stall<'py>(
    py: Python<'py>,
    signals: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
    threshold_ms: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let signals = arg(signals, "signals")?;
    let now = arg(now, "now")?;
    let threshold = opt_arg(threshold_ms, "threshold_ms")?;
    let stall = core(py, api::agency_check_stall(&signals, &now, &threshold))?;
    out(py, &stall)
}

/// agency: a run's snapshot from its files' bytes and the host's facts.
#[pyfunction]
#[pyo3(signature = (status_data, meta_data, facts, now, threshold_ms=None))]
fn agency_build_snapshot<'py>(
    py: Python<'py>,
    status_data: Option<&Bound<'py, PyAny>>,
    meta_data: Option<&Bound<'py, PyAny>>,
    facts: &Bound<'py, PyAny>,
    now: &Bound<'py, PyAny>,
    threshold_ms: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let status = opt_bytes_arg(status_data, "status_data")?;
    let meta = opt_bytes_arg(meta_data, "meta_data")?;
    let facts = arg(facts, "facts")?;
    let now = arg(now, "now")?;
    let threshold = opt_arg(threshold_ms, "threshold_ms")?;
    let snapshot = core(
        py,
        api::agency_build_snapshot(status, meta, &facts, &now, &threshold),
    )?;
    out(py, &snapshot)
}

/// agency: the run status of a snapshot.
#[pyfunction]
fn agency_derive<'py>(
    py: Python<'py>,
    snapshot: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let snapshot = arg(snapshot, "snapshot")?;
    let derived = core(py, api::agency_derive(&snapshot))?;
    out(py, &derived)
}

/// agency: the `ls` table of runs.
#[pyfunction]
fn agency_render_ls(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<String> {
    let rows = arg(rows, "rows")?;
    core(py, api::agency_render_ls(&rows))
}

/// agency: the `show` output of one run.
#[pyfunction]
fn agency_render_show(
    py: Python<'_>,
    run: &Bound<'_, PyAny>,
    now: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let run = arg(run, "run")?;
    let now = arg(now, "now")?;
    core(py, api::agency_render_show(&run, &now))
}

/// agency: the runner protocol document (`CLAUDE.md`).
#[pyfunction]
fn agency_protocol_document() -> String {
    api::agency_protocol_document()
}

/// The native module `statecore._statecore`.
#[pymodule(gil_used = false)]
fn _statecore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(serialize, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(merge_text, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(validate_text, m)?)?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(default_document, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    m.add_function(wrap_pyfunction!(etag, m)?)?;
    m.add_function(wrap_pyfunction!(load_document, m)?)?;
    m.add_function(wrap_pyfunction!(prepare_document, m)?)?;
    m.add_function(wrap_pyfunction!(apply_update, m)?)?;
    m.add_function(wrap_pyfunction!(finish_update, m)?)?;
    m.add_function(wrap_pyfunction!(check_if_match, m)?)?;
    m.add_function(wrap_pyfunction!(parse_log, m)?)?;
    m.add_function(wrap_pyfunction!(log_line, m)?)?;
    m.add_function(wrap_pyfunction!(parse_timestamp, m)?)?;
    m.add_function(wrap_pyfunction!(format_timestamp, m)?)?;
    m.add_function(wrap_pyfunction!(machine_check, m)?)?;
    m.add_function(wrap_pyfunction!(machine_events, m)?)?;
    m.add_function(wrap_pyfunction!(machine_fire, m)?)?;
    m.add_function(wrap_pyfunction!(machine_diagram, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_start_command, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_start_step, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_complete_step, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_check_prerequisites, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_skip_prerequisites, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_add_untracked_change, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_clear_untracked_changes, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_inbox_machine, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_inbox_add, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_inbox_transition, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_inbox_dismiss, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_inbox_batch, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_chunk_machine, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_run_machine, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_create_build_run, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_chunk_event, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_ready_chunks, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_dag_layers, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_pause_build_run, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_resume_build_run, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_finish_build_run, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_resume_plan, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_status_line, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_render_status_line, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_status_line_text, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_activity_feed, m)?)?;
    m.add_function(wrap_pyfunction!(fctry_context_health, m)?)?;
    m.add_function(wrap_pyfunction!(agency_initial_runner_status, m)?)?;
    m.add_function(wrap_pyfunction!(agency_update_runner_status, m)?)?;
    m.add_function(wrap_pyfunction!(agency_parse_runner_status, m)?)?;
    m.add_function(wrap_pyfunction!(agency_age, m)?)?;
    m.add_function(wrap_pyfunction!(agency_check_stall, m)?)?;
    m.add_function(wrap_pyfunction!(agency_build_snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(agency_derive, m)?)?;
    m.add_function(wrap_pyfunction!(agency_render_ls, m)?)?;
    m.add_function(wrap_pyfunction!(agency_render_show, m)?)?;
    m.add_function(wrap_pyfunction!(agency_protocol_document, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_machine, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_diagram, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_agents, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_context_message, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_fire, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_follow_up, m)?)?;
    m.add_function(wrap_pyfunction!(hivemind_on_file, m)?)?;
    Ok(())
}
