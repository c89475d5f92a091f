//! The core's jobs (docs/locking.md § The lock as a job, docs/store.md § The update as a job,
//! docs/cli.md § How it runs): the `Job` class the Node host's drivers run, a step at a time,
//! which the table's job rows give (`startJob`, full.rs). Converts and maps errors only. The
//! status line's module has the class too, with its own constructor (`statusline.rs`).

use crate::throw;
use statecore::{job, json};
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
