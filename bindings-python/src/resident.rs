//! Resident documents: the `Document` class, holding a core
//! [`Resident`](statecore::ops::Resident) between calls. Its methods convert and map errors
//! like the module's functions; the Python package (`statecore.Document`, generated per
//! kind) wraps it.

use crate::convert::{arg, out};
use crate::errors::core;
use crate::{clock, dispatch, file, unlocked};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use statecore::ops::Resident;
use statecore::Value;
use statecore_cli::TABLE;

/// A document kept by the core between calls.
#[pyclass(module = "statecore._statecore", name = "Document", frozen)]
pub(crate) struct Document {
    resident: std::sync::Mutex<Resident>,
}

impl Document {
    /// Runs `work` on the resident document (a mutex: a free-threaded Python may share it).
    fn with<T>(&self, work: impl FnOnce(&mut Resident) -> T) -> PyResult<T> {
        let mut guard = self.resident.lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err("the document's lock was poisoned")
        })?;
        Ok(work(&mut guard))
    }
}

#[pymethods]
impl Document {
    /// A document of `kind` holding `document` (a JSON value).
    #[new]
    fn new(py: Python<'_>, kind: &str, document: &Bound<'_, PyAny>) -> PyResult<Document> {
        let value = arg(document, "document")?;
        let resident = core(py, Resident::new(kind, value))?;
        Ok(Document {
            resident: std::sync::Mutex::new(resident),
        })
    }

    /// Reads `data` (a file's contents; `None`: missing) as a document of `kind`, as a
    /// reader does: `(document, {etag, corrupt, valid, errors, warnings})`.
    #[staticmethod]
    #[pyo3(signature = (kind, data=None))]
    fn open<'py>(
        py: Python<'py>,
        kind: &str,
        data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Document, Bound<'py, PyAny>)> {
        let bytes = file(data)?;
        let len = bytes.map_or(0, <[u8]>::len);
        let (resident, meta) = core(py, unlocked(py, len, || Resident::open(kind, bytes)))?;
        let document = Document {
            resident: std::sync::Mutex::new(resident),
        };
        Ok((document, out(py, &meta)?))
    }

    /// The document's kind.
    #[getter]
    fn kind(&self) -> PyResult<String> {
        self.with(|r| r.kind().to_owned())
    }

    /// The value at the JSON pointer `pointer` (`""`: the whole document; `None` when none).
    #[pyo3(signature = (pointer=""))]
    fn get<'py>(&self, py: Python<'py>, pointer: &str) -> PyResult<Bound<'py, PyAny>> {
        let value = core(py, self.with(|r| r.get(pointer))?)?;
        out(py, &value)
    }

    /// The document's canonical text.
    fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let text = core(py, self.with(|r| r.text())?)?;
        Ok(PyString::new(py, &text))
    }

    /// The document's validation report.
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = core(py, self.with(|r| r.validate())?)?;
        out(py, &report.to_value())
    }

    /// Applies the change `op` (`""`: replace, `"merge"`, or a writer of the table) with
    /// `args` after the document: `{changed, warnings, result?, <extra>?}`.
    #[pyo3(signature = (op, args, now=None))]
    fn change<'py>(
        &self,
        py: Python<'py>,
        op: &str,
        args: &Bound<'py, PyTuple>,
        now: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (params, skip) = core(py, TABLE.params_of(op))?;
        let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
        let (args, _) = dispatch::args(params, skip, &objects)?;
        let now = clock(now)?.unwrap_or(Value::Null);
        let change = core(py, TABLE.change(op, args))?;
        let result = core(py, self.with(|r| r.change(change, &now))?)?;
        out(py, &result)
    }

    /// Runs the reader `op` of the table on the document with `args` after it.
    #[pyo3(signature = (op, args, now=None))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        op: &str,
        args: &Bound<'py, PyTuple>,
        now: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let op = core(py, TABLE.find(op))?;
        let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
        let (args, _) = dispatch::args(op, 1, &objects)?;
        let now = clock(now)?.unwrap_or(Value::Null);
        let result = core(py, self.with(|r| r.query(op, args, &now))?)?;
        dispatch::result(py, result)
    }
}
