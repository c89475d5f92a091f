//! The core's jobs (docs/locking.md § The lock as a job, docs/store.md § The update as a job):
//! the `Job` class the Python host's drivers run, a step at a time, which the table's job rows
//! give (`call("lock_acquire_job", ...)`). Converts and maps errors only.

use crate::convert::{arg, out};
use crate::errors::core;
use pyo3::prelude::*;
use statecore::job;

/// A job of the core (a lock's acquisition, release or sweep; a store's update; a command
/// line): `first` is its
/// first step, `next(answer)` gives the step after the one answered (a mutex: the thread that
/// drives it need not be the one that drops it).
#[pyclass(module = "statecore._statecore", name = "Job", frozen)]
pub(crate) struct Job {
    job: std::sync::Mutex<job::Job>,
    /// The job's first step (`next(None)` gives it too): it may be answered straight away.
    #[pyo3(get)]
    first: Py<PyAny>,
}

impl Job {
    /// The job with its first step (the table's job rows give it opened: it has one; a job
    /// that ended at once raises its error all the same).
    pub(crate) fn of(py: Python<'_>, mut job: job::Job) -> PyResult<Job> {
        let first = match job.first() {
            Some(first) => out(py, first)?,
            None => {
                let end = core(py, job.next(statecore::Value::Null))?;
                out(py, &end)?
            }
        };
        Ok(Job {
            job: std::sync::Mutex::new(job),
            first: first.unbind(),
        })
    }
}

#[pymethods]
impl Job {
    /// The next step, given the answer to the last one (None for the first call) and the
    /// bytes read doing it, for a step that asks for them (a `load` with `bytes`).
    #[pyo3(signature = (answer, data = None))]
    fn next<'py>(
        &self,
        py: Python<'py>,
        answer: &Bound<'py, PyAny>,
        data: Option<&[u8]>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let answer = arg(answer, "answer")?;
        let mut job = self.job.lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err("the job's mutex was poisoned")
        })?;
        let asked = core(py, job.next_with(answer, data.map(<[u8]>::to_vec)))?;
        out(py, &asked)
    }
}
