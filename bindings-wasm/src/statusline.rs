//! The status line's command, built in every variant of the module: `fctry status` alone
//! (`statecore_cli::cli::run_status`), so the `statecore-statusline` script loads a module without
//! the table's dispatch. Its requests and answers are the command line's (docs/cli.md § How
//! it runs), as JSON text.

use crate::{arg, throw};
use statecore::json;
use wasm_bindgen::prelude::*;

/// `fctry status` run on a command line request (`{argv, env, facts}`, JSON text): the answer
/// (`{needs}` or `{stdout, stderr, code}`) as JSON text.
#[wasm_bindgen]
pub fn fctry_status_run(request: &str) -> Result<String, JsValue> {
    let answer = statecore_cli::cli::run_status(&arg(request)?).map_err(throw)?;
    Ok(json::serialize_compact(&answer))
}
