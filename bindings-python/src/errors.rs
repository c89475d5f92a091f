//! Errors: the core's errors raised as the classes of `statecore.errors` (defined in Python,
//! looked up by the core's class name, so the abi3 wheel never needs to know them), and the
//! failures of a value conversion.

use crate::convert::to_py;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;
use statecore::error::child_path;
use statecore::{Code, Error};

/// `statecore.errors`, imported on the first error and kept.
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// The Python exception for a core error: `statecore.errors.<class_name>(message, code, path,
/// details)`. Falls back to `ValueError` only if that module cannot be used (never expected).
pub(crate) fn raise(py: Python<'_>, error: &Error) -> PyErr {
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
pub(crate) enum Fail {
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
    pub(crate) fn within(self, token: &str) -> Self {
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
    pub(crate) fn in_argument(self, name: &str) -> Self {
        match self {
            Fail::Core(error) => Fail::Core(error.with_detail("argument", name)),
            other => other,
        }
    }

    pub(crate) fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Fail::Core(error) => raise(py, &error),
            Fail::Py(error) => error,
        }
    }
}

/// Maps a core result to a Python one.
pub(crate) fn core<T>(py: Python<'_>, result: statecore::Result<T>) -> PyResult<T> {
    result.map_err(|error| raise(py, &error))
}

/// `E_VALUE` with an empty path (prefixed on the way out of the walk).
pub(crate) fn value_error(message: String) -> Fail {
    Fail::Core(Error::new(Code::Value, "", message))
}

/// `E_ARGUMENT` (`UsageError`) for an argument `name` of the wrong Python type (`expected`:
/// what it must be), with `details.argument`: the conversion's error, as every host function
/// raises for a bad argument.
pub(crate) fn argument_error(obj: &Bound<'_, PyAny>, name: &str, expected: &str) -> PyErr {
    let shown = if obj.is_none() {
        "None".to_owned()
    } else {
        type_name(obj)
    };
    let error = Error::new(
        Code::Argument,
        "",
        format!("{name} must be {expected}, not {shown}"),
    )
    .with_detail("argument", name);
    raise(obj.py(), &error)
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |name| name.to_string())
}
