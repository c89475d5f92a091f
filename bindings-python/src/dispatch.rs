//! An operation's arguments from a Python tuple, each converted by its parameter's kind in the
//! core's table, and its result back to Python.

use crate::convert::{arg, bytes_arg, document_arg, out, to_py, utf8};
use crate::errors::{argument_error, value_error};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use statecore::document::Doc;
use statecore::ops::{Arg, Args, Kind, Op, Out, Param};
use statecore::{Map, Value};
use std::borrow::Cow;

/// The arguments of `op`'s parameters from the `skip`-th on, converted from `objects`; also
/// the number of bytes given (large inputs are processed with the interpreter released).
pub(crate) fn args<'a>(
    op: &Op,
    skip: usize,
    objects: &'a [Bound<'_, PyAny>],
) -> PyResult<(Args<'a>, usize)> {
    let params = op.params.get(skip..).unwrap_or_default();
    if objects.len() > params.len() {
        return Err(PyTypeError::new_err(format!(
            "{} takes {} argument(s) after the document, not {}",
            op.name(),
            params.len(),
            objects.len()
        )));
    }
    let mut size = 0usize;
    let mut items = Vec::with_capacity(objects.len());
    let mut within = Vec::new();
    for (i, (obj, param)) in objects.iter().zip(params).enumerate() {
        let item = if matches!(param.kind, Kind::Value) {
            let (value, within_limits) = document_arg(obj, param.name)?;
            if within_limits {
                within.push(i);
            }
            Arg::Value(value)
        } else {
            one(obj, param)?
        };
        if let Arg::Bytes(Some(bytes)) = &item {
            size = size.saturating_add(bytes.len());
        }
        items.push(item);
    }
    let mut args = Args::new(items);
    for i in within {
        args.mark_within_limits(i);
    }
    Ok((args, size))
}

/// One argument by its parameter's kind: documents walked, text and bytes checked for their
/// Python type (`E_ARGUMENT` naming the parameter, `details.argument`, as a host's path
/// argument is refused).
fn one<'a>(obj: &'a Bound<'_, PyAny>, param: &Param) -> PyResult<Arg<'a>> {
    let name = param.name;
    match param.kind {
        Kind::Bytes if obj.is_none() => Ok(Arg::Bytes(None)),
        Kind::Bytes => Ok(Arg::Bytes(Some(Cow::Borrowed(bytes_arg(obj, name)?)))),
        Kind::Random if obj.is_none() => Ok(Arg::Value(Value::Null)),
        Kind::Random if obj.is_instance_of::<PyBytes>() => {
            Ok(Arg::Bytes(Some(Cow::Borrowed(bytes_arg(obj, name)?))))
        }
        Kind::Text | Kind::Random => {
            if obj.is_none() && param.optional {
                return Ok(Arg::Value(Value::Null));
            }
            let Ok(text) = obj.cast::<PyString>() else {
                return Err(argument_error(obj, name, "str"));
            };
            let text = utf8(text).map_err(|_| {
                value_error("str contains a lone surrogate, which JSON text cannot hold".into())
                    .in_argument(name)
                    .into_pyerr(obj.py())
            })?;
            Ok(Arg::Value(Value::from(text)))
        }
        Kind::Value | Kind::Int | Kind::Now | Kind::Options(_) => Ok(Arg::Value(arg(obj, name)?)),
    }
}

/// A result in Python: objects for JSON and update results, `str` for text, `None` for nothing,
/// a `Job` for a job.
pub(crate) fn result(py: Python<'_>, result: Out) -> PyResult<Bound<'_, PyAny>> {
    match result {
        Out::Json(value) => out(py, &value),
        Out::Text(text) => Ok(PyString::new(py, &text).into_any()),
        Out::Nothing => Ok(py.None().into_bound(py)),
        Out::Loaded { document, meta, .. } => loaded(py, &document, None, meta),
        Out::Update {
            document,
            text,
            meta,
            ..
        } => loaded(py, &document, Some(text), meta),
        Out::Job(job) => Ok(crate::job::Job::of(py, *job)?.into_pyobject(py)?.into_any()),
    }
}

/// A document as the core holds it (a tree, or read text: no tree is built for it) in
/// Python.
pub(crate) fn document<'py>(py: Python<'py>, document: &Doc) -> PyResult<Bound<'py, PyAny>> {
    match document {
        Doc::Tree(tree) => to_py(py, tree),
        Doc::Text(tape) => crate::tape::to_py(py, tape),
    }
    .map_err(|fail| fail.into_pyerr(py))
}

/// A reader's result `{document, ...meta}`, or an update's `{document, text, ...meta}`, the
/// document converted from how the core holds it ([`document`]).
fn loaded<'py>(
    py: Python<'py>,
    doc: &Doc,
    text: Option<String>,
    meta: Map,
) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    dict.set_item(crate::keys::key(py, "document"), document(py, doc)?)?;
    if let Some(text) = text {
        dict.set_item(crate::keys::key(py, "text"), text)?;
    }
    for (key, item) in &meta {
        dict.set_item(crate::keys::key(py, key), out(py, item)?)?;
    }
    Ok(dict.into_any())
}
