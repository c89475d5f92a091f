//! The whole API (feature `full`): four exports that dispatch through the whole operation
//! table (`statecore_cli::TABLE`); the JS layer (npm/lib/binding/api.mjs) and its generated table name the
//! operation and pass its arguments (`startJob` for a row that starts a job). The browser's
//! module (feature `web`) has `call` and `query`, not `update` or `startJob` (a page reads; it
//! does not write files).

#[cfg(feature = "full")]
use crate::single_arg;
use crate::{now_value, out, throw};
#[cfg(feature = "full")]
use statecore::document::Precondition;
#[cfg(feature = "full")]
use statecore::ops::Form;
use statecore::ops::{self, Args, Out};
use statecore_cli::TABLE;
use std::borrow::Cow;
use wasm_bindgen::prelude::*;

fn slots(slots: [Option<Vec<u8>>; 2]) -> impl Iterator<Item = Option<Cow<'static, [u8]>>> {
    slots.into_iter().map(|slot| slot.map(Cow::Owned))
}

/// Runs the operation `op` (`fctry_start_step`) on `args` (the JSON text of its argument
/// array; bytes and random parameters take `b0`, `b1` in order); `now` fills the `now`
/// parameters left out. Returns JSON text, or the text of a text result.
#[wasm_bindgen]
pub fn call(
    op: &str,
    args: &str,
    b0: Option<Vec<u8>>,
    b1: Option<Vec<u8>>,
    now: Option<f64>,
) -> Result<String, JsValue> {
    let (op, result) = run(op, args, [b0, b1], now)?;
    out(result, op.returns.form)
}

/// Starts the job of the operation `op` (a row whose result is a job: `lock_acquire_job`,
/// `file_update_job`, ...) on `args` as [`call`] takes them: `[job, its first step's JSON
/// text]` (no crossing to ask for the first step).
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = startJob)]
pub fn start_job(
    op: &str,
    args: &str,
    b0: Option<Vec<u8>>,
    b1: Option<Vec<u8>>,
    now: Option<f64>,
) -> Result<Vec<JsValue>, JsValue> {
    let (op, result) = run(op, args, [b0, b1], now)?;
    match result.map_err(throw)? {
        Out::Job(job) => crate::job::started(*job),
        _ => Err(throw(statecore::Error::new(
            statecore::error::Code::Argument,
            "",
            format!("{} does not start a job: use call", op.name()),
        ))),
    }
}

/// The operation named `op` run on its arguments from the wire ([`call`]'s).
fn run(
    op: &str,
    args: &str,
    bytes: [Option<Vec<u8>>; 2],
    now: Option<f64>,
) -> Result<(&'static ops::Op, statecore::Result<Out>), JsValue> {
    let op = TABLE.find(op).map_err(throw)?;
    let mut args = Args::from_wire(op, 0, args, slots(bytes)).map_err(throw)?;
    if let Some(now) = now {
        args.set_now(&now_value(now));
    }
    Ok((op, TABLE.call(op, args)))
}

/// A file update: `data` (the file's bytes; none: missing) read as `kind`, the change `op`
/// applied (`""`: replace with the first argument, `"merge"`: a patch and its options, else
/// a writer of the table with its arguments after the document), validated and serialized.
/// `reset`: replace a file that breaks a limit (else its error). Returns the compact JSON of
/// `{etag, changed, corrupt, warnings, result?, <extra>?}`, a newline, then the document's
/// canonical text (which the JS layer parses for the document; for a text format, `^` first:
/// the JS layer reads the document from the text, as `load_document`, when it is asked for).
#[cfg(feature = "full")]
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)] // flat scalars cross the boundary without an object
pub fn update(
    kind: &str,
    op: &str,
    data: Option<Vec<u8>>,
    args: &str,
    slot: Option<Vec<u8>>,
    now: &str,
    if_match: Option<String>,
    reset: bool,
) -> Result<String, JsValue> {
    let (params, skip) = TABLE.params_of(op).map_err(throw)?;
    let args = Args::from_wire(params, skip, args, slots([slot, None])).map_err(throw)?;
    let change = TABLE.change(op, args).map_err(throw)?;
    let now = single_arg(now)?;
    let pre = Precondition {
        if_match: if_match.as_deref(),
        reset,
    };
    // A text format's document is read from the new text by the JS layer when asked.
    let updated = ops::update_unread(kind, data.as_deref(), change, &now, pre).map_err(throw)?;
    out(Ok(Out::updated(kind, updated.into_parts())), Form::Update)
}

/// Starts the locked update of the file `path` (absolute), a document of `kind`, by the change
/// `op` with `args` (as [`update`] takes them), for `waiter` (the JSON text of the core's
/// `UpdateWaiter`) with the random bytes `seed`: `[job, its first step's JSON text]`, as
/// `startJob` gives a job (docs/locking.md § The update as one job).
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = updateJob)]
#[allow(clippy::too_many_arguments)] // flat scalars cross the boundary without an object
pub fn update_job(
    kind: &str,
    op: &str,
    path: String,
    args: &str,
    slot: Option<Vec<u8>>,
    now: &str,
    if_match: Option<String>,
    reset: bool,
    waiter: &str,
    seed: Vec<u8>,
) -> Result<Vec<JsValue>, JsValue> {
    let (params, skip) = TABLE.params_of(op).map_err(throw)?;
    let args = Args::from_wire(params, skip, args, slots([slot, None])).map_err(throw)?;
    let change = statecore::update_job::Change {
        name: op.to_owned(),
        args,
        now: single_arg(now)?,
        if_match,
        reset,
    };
    let waiter = statecore::json::parse_argument(waiter).map_err(throw)?;
    let job = statecore::update_job::update_job(kind, path, change, &waiter, seed);
    crate::job::started(job.map_err(throw)?)
}

/// A read: `data` (the file's bytes; none: missing) given as the first argument of the
/// reader `op` (its document, or its bytes), with `args` after it. Returns like [`call`].
#[wasm_bindgen]
pub fn query(
    kind: &str,
    op: &str,
    data: Option<Vec<u8>>,
    args: &str,
    b0: Option<Vec<u8>>,
    now: Option<f64>,
) -> Result<String, JsValue> {
    let op = TABLE.find(op).map_err(throw)?;
    let args = Args::from_wire(op, 1, args, slots([b0, None])).map_err(throw)?;
    let now = now.map_or(statecore::Value::Null, now_value);
    out(
        ops::query(kind, data.as_deref(), op, args, &now),
        op.returns.form,
    )
}
