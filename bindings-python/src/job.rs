//! The core's jobs (docs/locking.md § The lock as a job, docs/store.md § The update as a job):
//! the `Job` class the Python host's drivers run, a step at a time. Converts and maps errors
//! only.

use crate::convert::{arg, out};
use crate::errors::core;
use pyo3::prelude::*;
use statecore::{job, lock, store};

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
    /// The job with its first step; a job that ended at once with its error raises it.
    fn of(py: Python<'_>, mut job: job::Job) -> PyResult<Job> {
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
    ) -> PyResult<Job> {
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
        Job::of(py, job)
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
    ) -> PyResult<Job> {
        let identity = arg(identity, "identity")?;
        let job = core(
            py,
            lock::release_job(lock, text, identity, probe, seed.to_vec(), now_ms, mono_ms),
        )?;
        Job::of(py, job)
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
    ) -> PyResult<Job> {
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
        Job::of(py, job)
    }

    /// A store's job of `kind` (`update`) from `setup` (docs/store.md § The update as a job).
    #[staticmethod]
    fn store(py: Python<'_>, kind: &str, setup: &Bound<'_, PyAny>) -> PyResult<Job> {
        let setup = arg(setup, "setup")?;
        let job = core(py, store::job(kind, &setup))?;
        Job::of(py, job)
    }

    /// A job updating the file `path` (absolute), a document of `kind`, under its lock
    /// (docs/locking.md § The update as a job); `now_ms`: the wall clock (a `.corrupt-`
    /// copy's date).
    #[staticmethod]
    fn file_update(py: Python<'_>, kind: &str, path: String, now_ms: i64) -> PyResult<Job> {
        let job = core(py, statecore::file_update::update_job(kind, path, now_ms))?;
        Job::of(py, job)
    }

    /// A command line's job (docs/cli.md § How it runs): `program` (`statecore`,
    /// `statecore-statusline`) on `request` (`{argv, env, facts?}`).
    #[staticmethod]
    fn cli(py: Python<'_>, program: &str, request: &Bound<'_, PyAny>) -> PyResult<Job> {
        let request = arg(request, "request")?;
        let program = core(py, statecore_cli::cli::program(program))?;
        let job = core(py, statecore_cli::cli::job(program, &request))?;
        Job::of(py, job)
    }

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
