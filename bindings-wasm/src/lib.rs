//! wasm-bindgen bindings of `statecore::api`: JSON text in, JSON text out (ARCHITECTURE §6).
//!
//! One exported function per core function, nothing else: no protocol rule lives here.
//!
//! - Documents cross the boundary as JSON **text** (`&str`), which the JS layer produces with a
//!   checking `JSON.stringify`; they are parsed here with the core's strict, limited parser.
//!   File contents cross as **bytes** (`&[u8]`, or `Option<Vec<u8>>` where `null` means "no
//!   file").
//! - Every function that returns a *document-like value* returns compact JSON text that the JS
//!   layer turns into objects with `JSON.parse` (so a `"__proto__"` key stays data). Because a
//!   JS number cannot hold every JSON number, each such result is first checked with
//!   [`json::check_js_safe`] (`E_PRECISION` with the path of the first offending number).
//!   These are the "object API" functions.
//! - The "text API" functions (`canonical`, `serialize`, `merge_text`, `log_line`,
//!   `machine_diagram`, `etag`, `format_timestamp`) return their text exactly, so numbers of any
//!   size and precision survive.
//! - Errors are thrown as a JS string holding the JSON of [`Error::to_value`]:
//!   `{name, code, path, message, details}`; the JS layer turns it into an error class.

//! - The `full` feature (default) exports the whole API; without it only the status line's
//!   function is built (`statusline.rs`), a small module the `statecore-statusline` script
//!   loads on every shell prompt (scripts/build-wasm.sh builds both).

#![cfg_attr(not(feature = "full"), allow(dead_code))]

use statecore::{json, Error, Value};
use wasm_bindgen::prelude::*;

#[cfg(feature = "full")]
mod full;
mod statusline;

/// The error as the JSON text the JS layer parses into a `StatecoreError` subclass.
pub(crate) fn throw(error: Error) -> JsValue {
    JsValue::from_str(&json::serialize_compact(&error.to_value()))
}

/// A core result of a document-like value as compact JSON text for `JSON.parse`, refused
/// with `E_PRECISION` when a number in it would not survive as a JS number.
pub(crate) fn object_out(result: statecore::Result<Value>) -> Result<String, JsValue> {
    let value = result.map_err(throw)?;
    json::check_js_safe(&value).map_err(throw)?;
    Ok(json::serialize_compact(&value))
}

/// A core result that is text, returned exactly.
pub(crate) fn text_out(result: statecore::Result<String>) -> Result<String, JsValue> {
    result.map_err(throw)
}

/// A JSON text argument produced by the JS layer (checked by the core's parser and limits).
pub(crate) fn arg(text: &str) -> Result<Value, JsValue> {
    json::parse_str(text).map_err(throw)
}
