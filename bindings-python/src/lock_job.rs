//! The lock's jobs (docs/locking.md § The lock as a job): the `LockJob` class the Python
//! host's driver runs, a step at a time. Converts and maps errors only.

use crate::convert::{arg, out};
use crate::errors::core;
use pyo3::prelude::*;
use statecore::lock;

/// A lock's acquisition, release or sweep as a job: `first` is its first step, `next(answer)`
/// gives the step after the one answered (a mutex: the thread that drives it need not be the
/// one that drops it).
#[pyclass(module = "statecore._statecore", name = "LockJob", frozen)]
pub(crate) struct LockJob {
    job: std::sync::Mutex<lock::Job>,
    /// The job's first step (`next(None)` gives it too): it may be answered straight away.
    #[pyo3(get)]
    first: Py<PyAny>,
}

impl LockJob {
    /// The job with its first step; a job that ended at once with its error raises it.
    fn of(py: Python<'_>, mut job: lock::Job) -> PyResult<LockJob> {
        let first = match job.first() {
            Some(first) => out(py, first)?,
            None => {
                let end = core(py, job.next(statecore::Value::Null))?;
                out(py, &end)?
            }
        };
        Ok(LockJob {
            job: std::sync::Mutex::new(job),
            first: first.unbind(),
        })
    }
}

#[pymethods]
impl LockJob {
    /// A job taking the lock file `lock` (`identity`: `{pid, start, boot, host}`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)] // the Python signature, flat
    fn acquire(
        py: Python<'_>,
        lock: String,
        identity: &Bound<'_, PyAny>,
        probe: bool,
        watching: bool,
        timeout_ms: f64,
        seed: &[u8],
        now_ms: i64,
        mono_ms: f64,
    ) -> PyResult<LockJob> {
        let identity = arg(identity, "identity")?;
        let job = core(
            py,
            lock::acquire_job(
                lock,
                identity,
                probe,
                watching,
                timeout_ms,
                seed.to_vec(),
                now_ms,
                mono_ms,
            ),
        )?;
        LockJob::of(py, job)
    }

    /// A job releasing the lock file `lock` if it still holds exactly `text`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)] // the Python signature, flat
    fn release(
        py: Python<'_>,
        lock: String,
        text: String,
        identity: &Bound<'_, PyAny>,
        probe: bool,
        seed: &[u8],
        now_ms: i64,
        mono_ms: f64,
    ) -> PyResult<LockJob> {
        let identity = arg(identity, "identity")?;
        let job = core(
            py,
            lock::release_job(lock, text, identity, probe, seed.to_vec(), now_ms, mono_ms),
        )?;
        LockJob::of(py, job)
    }

    /// A job sweeping what dead writers left next to the file `name` (its lock `lock`): the
    /// directory entries `names` (those holding the file's name) at `paths`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)] // the Python signature, flat
    fn sweep(
        py: Python<'_>,
        lock: String,
        name: String,
        names: Vec<String>,
        paths: Vec<String>,
        identity: &Bound<'_, PyAny>,
        probe: bool,
        seed: &[u8],
        now_ms: i64,
        mono_ms: f64,
    ) -> PyResult<LockJob> {
        let identity = arg(identity, "identity")?;
        let entries = names.into_iter().zip(paths).collect();
        let job = core(
            py,
            lock::sweep_job(
                lock,
                name,
                entries,
                identity,
                probe,
                seed.to_vec(),
                now_ms,
                mono_ms,
            ),
        )?;
        LockJob::of(py, job)
    }

    /// The next step, given the answer to the last one (None for the first call).
    fn next<'py>(
        &self,
        py: Python<'py>,
        answer: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let answer = arg(answer, "answer")?;
        let mut job = self.job.lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err("the lock job's mutex was poisoned")
        })?;
        let asked = core(py, job.next(answer))?;
        out(py, &asked)
    }
}
