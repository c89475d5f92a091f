//! The status line's command, built in every variant of the module but the browser's: `fctry
//! status` alone as a job (`statecore_cli::cli::job` with `STATUS`), so the
//! `statecore-statusline` script loads a module without the table's dispatch or the other
//! commands. Its steps and answers are the command line's (docs/cli.md § How it runs), as JSON
//! text.

use crate::throw;
use wasm_bindgen::prelude::*;

/// `fctry status` run as a job on a command line request (`{argv, env, facts?}`, JSON text):
/// `[job, its first step (JSON text)]`.
#[wasm_bindgen]
pub fn fctry_status_job(request: &str) -> Result<Vec<JsValue>, JsValue> {
    let request = statecore::json::parse_argument(request).map_err(throw)?;
    let job = statecore_cli::cli::status_job(&request).map_err(throw)?;
    crate::job::started(job)
}
