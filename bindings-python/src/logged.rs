//! Logged files: a hive session's step in one crossing (`update_logged`) and the `LogReplay`
//! class a host feeds the log with when the state is behind it (docs/hive.md § Files). Both
//! convert and map errors only.

use crate::convert::{arg, out};
use crate::errors::core;
use crate::{dispatch, file, unlocked};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use statecore::ops::{self, Change};
use statecore_cli::TABLE;

/// The step `name` (`""`: a read) with `objects`, its arguments after the state.
fn change<'a>(
    py: Python<'_>,
    name: &str,
    objects: &'a [Bound<'_, PyAny>],
) -> PyResult<(Option<Change<'a>>, usize)> {
    if name.is_empty() {
        return Ok((None, 0));
    }
    let (params, skip) = core(py, TABLE.params_of(name))?;
    let (args, size) = dispatch::args(params, skip, objects)?;
    Ok((core(py, TABLE.logged_change(name, args))?, size))
}

/// A step of `kind`'s file kept with its log, or a read (`change` `""`): `data` the state's
/// bytes (`None`: missing), `log_size` the log's length, `session_id` the directory's name:
/// `{document, text, etag, write, line, event, log_offset, truncate_at, torn_line,
/// replay_from, corrupt, recovered, warnings}`; `event_id`: the step's unique id.
#[pyfunction]
#[pyo3(signature = (kind, session_id, change_name, data, log_size, args, now, event_id = None))]
#[allow(clippy::too_many_arguments)] // the Python signature, flat
pub(crate) fn update_logged<'py>(
    py: Python<'py>,
    kind: &str,
    session_id: &str,
    change_name: &str,
    data: Option<&Bound<'py, PyAny>>,
    log_size: u64,
    args: &Bound<'py, PyTuple>,
    now: &Bound<'py, PyAny>,
    event_id: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
    let (change, size) = change(py, change_name, &objects)?;
    let bytes = file(data)?;
    let now = arg(now, "now")?;
    let len = size.saturating_add(bytes.map_or(0, <[u8]>::len));
    let result = core(
        py,
        unlocked(py, len, || {
            ops::update_logged(kind, session_id, bytes, log_size, change, &now, event_id)
        }),
    )?;
    out(py, &result)
}

/// A replay of a session's log, fed by the host, then committed with a step or a read.
#[pyclass(module = "statecore._statecore", name = "LogReplay", frozen)]
pub(crate) struct LogReplay {
    replay: std::sync::Mutex<Option<ops::LogReplay>>,
}

impl LogReplay {
    fn take(&self) -> PyResult<Option<ops::LogReplay>> {
        let mut guard = self.replay.lock().map_err(|_| poisoned())?;
        Ok(guard.take())
    }
}

fn poisoned() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err("the replay's lock was poisoned")
}

fn used(py: Python<'_>) -> PyErr {
    let error = statecore::Error::new(
        statecore::error::Code::Argument,
        "",
        "this replay was committed already: make a new one",
    );
    crate::errors::raise(py, &error)
}

#[pymethods]
impl LogReplay {
    /// A replay of `kind`'s log from `offset` onto the state in `data` (`None`, or
    /// `corrupt`: from nothing).
    #[new]
    #[pyo3(signature = (kind, session_id, data, offset, corrupt))]
    fn new(
        py: Python<'_>,
        kind: &str,
        session_id: &str,
        data: Option<&Bound<'_, PyAny>>,
        offset: u64,
        corrupt: bool,
    ) -> PyResult<LogReplay> {
        let bytes = file(data)?;
        let replay = core(
            py,
            ops::LogReplay::new(kind, session_id, bytes, offset, corrupt),
        )?;
        Ok(LogReplay {
            replay: std::sync::Mutex::new(Some(replay)),
        })
    }

    /// Feeds the next bytes of the log.
    fn feed(&self, py: Python<'_>, chunk: &[u8]) -> PyResult<()> {
        let mut guard = self.replay.lock().map_err(|_| poisoned())?;
        let replay = guard.as_mut().ok_or_else(|| used(py))?;
        let len = chunk.len();
        core(py, unlocked(py, len, || replay.feed(chunk)))
    }

    /// Ends the replay and takes the step `change_name` (`""`: a read) with `args`; returns
    /// like `update_logged` (`event_id`: the step's unique id). The replay is used up.
    #[pyo3(signature = (change_name, args, now, event_id = None))]
    fn commit<'py>(
        &self,
        py: Python<'py>,
        change_name: &str,
        args: &Bound<'py, PyTuple>,
        now: &Bound<'py, PyAny>,
        event_id: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let replay = self.take()?.ok_or_else(|| used(py))?;
        let objects: Vec<Bound<'py, PyAny>> = args.iter().collect();
        let (change, _) = change(py, change_name, &objects)?;
        let now = arg(now, "now")?;
        let result = core(py, replay.commit(change, &now, event_id))?;
        out(py, &result)
    }
}
