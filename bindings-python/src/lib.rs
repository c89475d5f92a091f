//! `statecore._statecore`: the PyO3 binding of the statecore core (docs/conventions.md § The Python package).
//!
//! Thin by design: three functions that dispatch through the whole operation table
//! (`statecore_cli::TABLE`: the core's rows and the command line's and the viewer's): `call` (any operation), `update` (a file update in one crossing) and
//! `query` (a read of a file's document). The Python package's wrappers, generated from the
//! table by `xtask codegen`, name the operation and pass its arguments. Conversion lives in
//! `convert.rs`, the table-driven argument handling in `dispatch.rs`, errors in `errors.rs`.
//!
//! - **Threads**: inputs of 256 KiB or more are processed with the interpreter released.
//! - **Errors** are the classes of `statecore.errors`, defined in Python and looked up by the
//!   core's class name, so the abi3 wheel never needs to know them.

mod convert;
mod dispatch;
mod errors;
mod fast;
mod job;
mod keys;
mod logged;
mod objects;
mod resident;
mod tape;

use convert::{arg, out};
use errors::core;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use statecore::document::Precondition;
use statecore::ops;
use statecore::Value;
use statecore_cli::TABLE;

/// Rust-side allocations only (Python objects use Python's allocator): converted documents
/// are many small strings and maps, where mimalloc is much faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// The host's clock reading (`None`: none given).
fn clock(now: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Value>> {
    now.filter(|n| !n.is_none())
        .map(|n| arg(n, "now"))
        .transpose()
}

/// The file's contents: `bytes` or `str` (`None`: a missing file).
fn file<'a>(data: Option<&'a Bound<'_, PyAny>>) -> PyResult<Option<&'a [u8]>> {
    data.filter(|d| !d.is_none())
        .map(|d| convert::bytes_arg(d, "data"))
        .transpose()
}

/// Runs the operation `op` (`"fctry_start_step"`) on `args`; `now` (the host's clock, epoch
/// milliseconds) fills the `now` parameters left out.
#[pyfunction]
#[pyo3(signature = (op, args, now=None))]
fn call<'py>(
    py: Python<'py>,
    op: &str,
    args: &Bound<'py, PyTuple>,
    now: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let op = core(py, TABLE.find(op))?;
    let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
    let (mut args, size) = dispatch::args(op, 0, &objects)?;
    if let Some(now) = clock(now)? {
        args.set_now(&now);
    }
    let result = core(py, unlocked(py, size, || TABLE.call(op, args)))?;
    dispatch::result(py, result)
}

/// A file update: `data` (the file's contents; `None`: missing) read as `kind`, the change
/// `op` applied (`""`: replace with the first argument, `"merge"`: a patch and its options,
/// else a writer of the table with its arguments after the document), validated and
/// serialized: `{document, text, etag, changed, corrupt, warnings}` (and `result`, or the
/// writer's extra field, when it has them). `reset`: replace a file that breaks a limit.
#[pyfunction]
#[pyo3(signature = (kind, op, data, args, now, if_match=None, reset=false))]
#[allow(clippy::too_many_arguments)] // the Python signature, flat
fn update<'py>(
    py: Python<'py>,
    kind: &str,
    op: &str,
    data: Option<&Bound<'py, PyAny>>,
    args: &Bound<'py, PyTuple>,
    now: &Bound<'py, PyAny>,
    if_match: Option<&str>,
    reset: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (params, skip) = core(py, TABLE.params_of(op))?;
    let pre = Precondition { if_match, reset };
    let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
    let (args, size) = dispatch::args(params, skip, &objects)?;
    let bytes = file(data)?;
    let now = arg(now, "now")?;
    let len = size.saturating_add(bytes.map_or(0, <[u8]>::len));
    let updated = core(
        py,
        unlocked(py, len, || {
            ops::update_read(kind, bytes, TABLE.change(op, args)?, &now, pre)
        }),
    )?;
    let dict = PyDict::new(py);
    dict.set_item("document", dispatch::document(py, &updated.document)?)?;
    dict.set_item("text", updated.text)?;
    dict.set_item("etag", updated.etag)?;
    dict.set_item("changed", updated.changed)?;
    dict.set_item("corrupt", updated.corrupt)?;
    let warnings = statecore::report::issues_value(&updated.warnings);
    dict.set_item("warnings", out(py, &warnings)?)?;
    if let Some(result) = &updated.result {
        dict.set_item("result", out(py, result)?)?;
    }
    if let Some((name, value)) = &updated.extra {
        dict.set_item(*name, out(py, value)?)?;
    }
    Ok(dict.into_any())
}

/// Starts the locked update of the file `path` (absolute), a document of `kind`, by the change
/// `op` with `args` (as [`update`] takes them), for `waiter` (the core's `UpdateWaiter`) with
/// the random bytes `seed`: a `Job` (docs/locking.md § The update as one job).
#[pyfunction]
#[pyo3(signature = (kind, op, path, args, now, if_match, reset, waiter, seed))]
#[allow(clippy::too_many_arguments)] // the Python signature, flat
fn update_job<'py>(
    py: Python<'py>,
    kind: &str,
    op: &str,
    path: String,
    args: &Bound<'py, PyTuple>,
    now: &Bound<'py, PyAny>,
    if_match: Option<String>,
    reset: bool,
    waiter: &Bound<'py, PyAny>,
    seed: Vec<u8>,
) -> PyResult<job::Job> {
    let (params, skip) = core(py, TABLE.params_of(op))?;
    let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
    let (args, _) = dispatch::args(params, skip, &objects)?;
    let change = statecore::update_job::Change {
        name: op.to_owned(),
        args: args.into_owned(),
        now: arg(now, "now")?,
        if_match,
        reset,
    };
    let waiter = arg(waiter, "waiter")?;
    let job = core(
        py,
        statecore::update_job::update_job(kind, path, change, &waiter, seed),
    )?;
    job::Job::of(py, job)
}

/// A read: `data` (the file's contents; `None`: missing) given as the first argument of the
/// reader `op` (its document, or its bytes), `args` after it.
#[pyfunction]
#[pyo3(signature = (kind, op, data, args, now=None))]
fn query<'py>(
    py: Python<'py>,
    kind: &str,
    op: &str,
    data: Option<&Bound<'py, PyAny>>,
    args: &Bound<'py, PyTuple>,
    now: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let op = core(py, TABLE.find(op))?;
    let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
    let (args, size) = dispatch::args(op, 1, &objects)?;
    let bytes = file(data)?;
    let now = clock(now)?.unwrap_or(Value::Null);
    let len = size.saturating_add(bytes.map_or(0, <[u8]>::len));
    let result = core(
        py,
        unlocked(py, len, || ops::query(kind, bytes, op, args, &now)),
    )?;
    dispatch::result(py, result)
}

/// The native module `statecore._statecore`.
#[pymodule(gil_used = false)]
fn _statecore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(update, m)?)?;
    m.add_function(wrap_pyfunction!(update_job, m)?)?;
    m.add_function(wrap_pyfunction!(query, m)?)?;
    m.add_class::<resident::Document>()?;
    m.add_class::<job::Job>()?;
    m.add_function(wrap_pyfunction!(logged::update_logged, m)?)?;
    m.add_class::<logged::LogReplay>()?;
    Ok(())
}
