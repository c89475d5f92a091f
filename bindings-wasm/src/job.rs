//! The core's jobs (docs/locking.md § The lock as a job, docs/store.md § The update as a job,
//! docs/cli.md § How it runs): the `Job` class the Node host's drivers run, a step at a time.
//! Converts and maps errors only. The status line's module has the class too, with its own
//! constructor (`statusline.rs`).

#[cfg(feature = "full")]
use crate::arg;
use crate::throw;
use statecore::{job, json};
#[cfg(feature = "full")]
use statecore::{lock, store, Value};
use wasm_bindgen::prelude::*;

/// A job of the core (a lock's acquisition, release or sweep; a store's update; a command
/// line): `next(answer)` gives the next step.
#[wasm_bindgen]
pub struct Job {
    job: job::Job,
}

/// `[job, its first step (JSON text)]`: the first step comes with the job (no crossing to
/// ask for it); a job that ended at once with its error throws it.
pub(crate) fn started(mut job: job::Job) -> Result<Vec<JsValue>, JsValue> {
    let first = match job.first() {
        Some(first) => step_text(first)?,
        None => step_text(&job.next(statecore::Value::Null).map_err(throw)?)?,
    };
    Ok(vec![JsValue::from(Job { job }), JsValue::from_str(&first)])
}

#[cfg(feature = "full")]
#[wasm_bindgen]
impl Job {
    /// A command line's job (docs/cli.md § How it runs): `program` (`statecore`,
    /// `statecore-statusline`) on `request` (JSON text: `{argv, env, facts?}`), with its
    /// first step.
    pub fn cli(program: &str, request: &str) -> Result<Vec<JsValue>, JsValue> {
        let program = statecore_cli::cli::program(program).map_err(throw)?;
        let request = json::parse_argument(request).map_err(throw)?;
        started(statecore_cli::cli::job(program, &request).map_err(throw)?)
    }

    /// A job taking the lock file `lock` (`identity`: JSON text of `{pid, start, boot, host}`),
    /// with its first step.
    #[allow(clippy::too_many_arguments)] // the JS signature, flat
    pub fn acquire(
        lock: String,
        identity: &str,
        probe: bool,
        watching: bool,
        timeout_ms: f64,
        seed: Vec<u8>,
        now_ms: f64,
        mono_ms: f64,
    ) -> Result<Vec<JsValue>, JsValue> {
        let identity = arg(identity)?;
        let job = lock::acquire_job(
            lock,
            identity,
            probe,
            watching,
            timeout_ms,
            seed,
            now_ms as i64,
            mono_ms,
        )
        .map_err(throw)?;
        started(job)
    }

    /// A job releasing the lock file `lock` if it still holds exactly `text`, with its first
    /// step.
    pub fn release(
        lock: String,
        text: String,
        identity: &str,
        probe: bool,
        seed: Vec<u8>,
        now_ms: f64,
        mono_ms: f64,
    ) -> Result<Vec<JsValue>, JsValue> {
        let identity = arg(identity)?;
        let job = lock::release_job(lock, text, identity, probe, seed, now_ms as i64, mono_ms)
            .map_err(throw)?;
        started(job)
    }

    /// A job sweeping what dead writers left next to the file `name` (its lock `lock`): the
    /// directory entries `names` (those holding the file's name) at `paths`; with its first
    /// step.
    #[allow(clippy::too_many_arguments)] // the JS signature, flat
    pub fn sweep(
        lock: String,
        name: String,
        names: Vec<String>,
        paths: Vec<String>,
        identity: &str,
        probe: bool,
        seed: Vec<u8>,
        now_ms: f64,
        mono_ms: f64,
    ) -> Result<Vec<JsValue>, JsValue> {
        let identity = arg(identity)?;
        let entries = names.into_iter().zip(paths).collect();
        let job = lock::sweep_job(
            lock,
            name,
            entries,
            identity,
            probe,
            seed,
            now_ms as i64,
            mono_ms,
        )
        .map_err(throw)?;
        started(job)
    }

    /// A store's job of `kind` (`update`) from `setup` (JSON text: docs/store.md § The
    /// update as a job), with its first step.
    pub fn store(kind: &str, setup: &str) -> Result<Vec<JsValue>, JsValue> {
        let setup = arg(setup)?;
        started(store::job(kind, &setup).map_err(throw)?)
    }

    /// A job updating the file `path` (absolute), a document of `kind`, under its lock
    /// (docs/locking.md § The update as a job); `now_ms`: the wall clock (a `.corrupt-`
    /// copy's date). With its first step.
    #[wasm_bindgen(js_name = fileUpdate)]
    pub fn file_update(kind: &str, path: String, now_ms: f64) -> Result<Vec<JsValue>, JsValue> {
        started(statecore::file_update::update_job(kind, path, now_ms as i64).map_err(throw)?)
    }

    /// A store's update job from its setup's fields (`timeout_ms`: none, wait; `known_etag`:
    /// none, no text kept), with its first step: the store's own path, with no text to read.
    #[wasm_bindgen(js_name = storeUpdate)]
    pub fn store_update(
        key: String,
        kind: String,
        function: bool,
        timeout_ms: Option<f64>,
        known_etag: Option<String>,
        known_trusted: bool,
    ) -> Result<Vec<JsValue>, JsValue> {
        started(store::update_job(store::UpdateSetup {
            key,
            kind,
            function,
            timeout_ms: timeout_ms.map(Value::from),
            known: known_etag.map(|etag| (etag, known_trusted)),
        }))
    }
}

#[wasm_bindgen]
impl Job {
    /// The next step (JSON text), given the answer to the last one (JSON text; `"null"` for
    /// the first call) and the bytes read doing it, for a step that asks for them (a `load`
    /// with `bytes`).
    pub fn next(&mut self, answer: &str, bytes: Option<Vec<u8>>) -> Result<String, JsValue> {
        // An answer may hold whole files' texts (a command line's facts): an argument's limits.
        let answer = json::parse_argument(answer).map_err(throw)?;
        let asked = self.job.next_with(answer, bytes).map_err(throw)?;
        step_text(&asked)
    }
}

/// A step as JSON text for JS: `E_PRECISION` for a number no double holds exactly (JS would
/// read it as another number: a command line's `--set /n=12345678901234567890`). The status
/// line's module leaves the check out: its steps carry paths, texts and an exit code.
fn step_text(step: &statecore::Value) -> Result<String, JsValue> {
    #[cfg(feature = "full")]
    json::check_js_safe(step).map_err(throw)?;
    Ok(json::serialize_compact(step))
}
