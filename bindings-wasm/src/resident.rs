//! Resident documents (feature `full`): a `Document` class holding a core
//! [`Resident`](statecore::ops::Resident) in wasm memory. Its methods convert and map errors
//! like the free functions (`full.rs`); the JS layer (npm/lib/binding/api.mjs) wraps it.

use crate::{check_numbers, now_value, out, single_arg, throw};
use statecore::json;
use statecore::ops::{Args, Resident};
use statecore_cli::TABLE;
use std::borrow::Cow;
use wasm_bindgen::prelude::*;

/// A document kept in wasm memory between calls.
#[wasm_bindgen]
pub struct Document {
    resident: Resident,
    /// The compact JSON of `{etag, corrupt, valid, errors, warnings}` of the read that opened
    /// it (`open`), taken once by the JS layer.
    opened: String,
}

/// Checks that `value` survives as JS numbers and writes its compact JSON.
fn json_out(value: &statecore::Value) -> Result<String, JsValue> {
    check_numbers(value, "").map_err(|error| throw(json::document_relative(value, error)))?;
    Ok(json::serialize_compact(value))
}

#[wasm_bindgen]
impl Document {
    /// Reads `data` (a file's bytes; none: missing) as a document of `kind`, as a reader does.
    pub fn open(kind: &str, data: Option<Vec<u8>>) -> Result<Document, JsValue> {
        let (resident, meta) = Resident::open(kind, data.as_deref()).map_err(throw)?;
        let opened = json_out(&meta)?;
        Ok(Document { resident, opened })
    }

    /// A document of `kind` holding the value of `args`, the JSON text of `[document]`.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: &str, args: &str) -> Result<Document, JsValue> {
        let document = single_arg(args)?;
        let resident = Resident::new(kind, document).map_err(throw)?;
        Ok(Document {
            resident,
            opened: String::new(),
        })
    }

    /// The fields of the read that opened the document (once; then `""`).
    pub fn take_opened(&mut self) -> String {
        std::mem::take(&mut self.opened)
    }

    /// The document's kind.
    pub fn kind(&self) -> String {
        self.resident.kind().to_owned()
    }

    /// The compact JSON of the value at the JSON pointer `pointer` (`null` when none).
    pub fn get(&self, pointer: &str) -> Result<String, JsValue> {
        json_out(&self.resident.get(pointer).map_err(throw)?)
    }

    /// The canonical text of the document.
    pub fn text(&self) -> Result<String, JsValue> {
        self.resident.text().map_err(throw)
    }

    /// The compact JSON of the document's validation report.
    pub fn validate(&self) -> Result<String, JsValue> {
        json_out(&self.resident.validate().map_err(throw)?.to_value())
    }

    /// Applies the change `op` (`""`: replace, `"merge"`, or a writer of the table) with
    /// `args` (the JSON text of its arguments after the document; a bytes or random
    /// parameter takes `slot`); `now` is the host's clock (Unix ms). Returns the compact JSON
    /// of `{changed, warnings, result?, <extra>?}`.
    pub fn change(
        &mut self,
        op: &str,
        args: &str,
        slot: Option<Vec<u8>>,
        now: f64,
    ) -> Result<String, JsValue> {
        let (params, skip) = TABLE.params_of(op).map_err(throw)?;
        let slots = [slot.map(Cow::Owned), None];
        let args = Args::from_wire(params, skip, args, slots.into_iter()).map_err(throw)?;
        let change = TABLE.change(op, args).map_err(throw)?;
        let now = now_value(now);
        json_out(&self.resident.change(change, &now).map_err(throw)?)
    }

    /// Runs the reader `op` of the table on the document with `args` after it. Returns like
    /// the free function `call`.
    pub fn query(
        &self,
        op: &str,
        args: &str,
        b0: Option<Vec<u8>>,
        now: Option<f64>,
    ) -> Result<String, JsValue> {
        let op = TABLE.find(op).map_err(throw)?;
        let slots = [b0.map(Cow::Owned), None];
        let args = Args::from_wire(op, 1, args, slots.into_iter()).map_err(throw)?;
        let now = now.map_or(statecore::Value::Null, now_value);
        out(self.resident.query(op, args, &now), op.returns.form)
    }
}
