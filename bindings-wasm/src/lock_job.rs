//! The lock's jobs (docs/locking.md § The lock as a job): the `LockJob` class the Node host's
//! driver runs, a step at a time. Converts and maps errors only.

use crate::{arg, throw};
use statecore::{json, lock, Value};
use wasm_bindgen::prelude::*;

/// A lock's acquisition or release as a job: `next(answer)` gives the next step.
#[wasm_bindgen]
pub struct LockJob {
    job: lock::Job,
}

/// `[job, its first step (JSON text)]`: the first step comes with the job (no crossing to
/// ask for it); a job that ended at once with its error throws it.
fn started(mut job: lock::Job) -> Result<Vec<JsValue>, JsValue> {
    let first = match job.first() {
        Some(first) => json::serialize_compact(first),
        None => json::serialize_compact(&job.next(Value::Null).map_err(throw)?),
    };
    Ok(vec![
        JsValue::from(LockJob { job }),
        JsValue::from_str(&first),
    ])
}

#[wasm_bindgen]
impl LockJob {
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

    /// The next step (JSON text), given the answer to the last one (JSON text; `"null"` for
    /// the first call).
    pub fn next(&mut self, answer: &str) -> Result<String, JsValue> {
        let answer = arg(answer)?;
        let asked = self.job.next(answer).map_err(throw)?;
        Ok(json::serialize_compact(&asked))
    }
}
