//! The status line's function, built in every variant of the module (the `statecore-statusline`
//! script loads a module with only this one, so the table's dispatch is left out of it).

use crate::arg;
use wasm_bindgen::prelude::*;

/// fctry: the rendered status line straight from the state file's bytes (`undefined` = none).
#[wasm_bindgen]
pub fn fctry_status_line_text(bytes: Option<Vec<u8>>, options: &str) -> Result<String, JsValue> {
    Ok(statecore::fctry::status_line_text(
        bytes.as_deref(),
        &arg(options)?,
    ))
}
