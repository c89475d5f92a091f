//! wasm-bindgen bindings of `statecore` (docs/conventions.md § The wasm boundary and the npm
//! package): a handful of exports that dispatch through the whole operation table
//! (`statecore_cli::TABLE`: the core's rows and the command line's and the viewer's), convert
//! values and map errors; nothing else. No protocol rule lives here.
//!
//! - Arguments cross as the JSON **text** of an argument array, which the JS layer produces
//!   with a checking `JSON.stringify` (npm/lib/binding/api.mjs); file contents and random bytes cross
//!   as **bytes** in byte slots. The core's strict, limited parser reads the text.
//! - A JSON result comes back as compact JSON text that the JS layer turns into objects with
//!   `JSON.parse` (so a `"__proto__"` key stays data). A JS number cannot hold every JSON
//!   number, so each such result is first checked with [`json::check_js_safe`]
//!   (`E_PRECISION` with the path of the first offending number). A text result (`canonical`,
//!   `merge_text`, `serialize`, ...) comes back exactly, so numbers of any size survive.
//! - In big-integer mode ([`set_big_ints`], the JS reader option `bigint`) an integer no
//!   double holds is not an error: its pointer and text are kept for [`take_big_ints`], and
//!   the JS layer puts a `BigInt` at each pointer after `JSON.parse`.
//! - Errors are thrown as a JS string holding the JSON of [`Error::to_value`]:
//!   `{name, code, path, message, details}`; the JS layer turns it into its error class.
//! - The `full` feature (default) exports the table's dispatch; the `web` feature the browser's
//!   module: `call` and `query` only, on a core without its `full` feature (the operations the
//!   table marks `web`; the others raise `E_UNAVAILABLE`); without either only the status
//!   line's function is built (`statusline.rs`), a small module the `statecore-statusline`
//!   script loads on every shell prompt (scripts/build-wasm.sh builds all three).

#![cfg_attr(not(feature = "full"), allow(dead_code))]

use statecore::document::Doc;
use statecore::ops::{Form, Out};
use statecore::value::Json;
use statecore::{json, Error, Value};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

thread_local! {
    /// Whether results may carry integers no double holds (big-integer mode).
    static BIG_INTS: Cell<bool> = const { Cell::new(false) };
    /// The pointers and texts of those integers in the last result.
    static FOUND: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Turns big-integer mode on or off (the JS layer's `bigint` reader option).
#[cfg(any(feature = "full", feature = "web"))]
#[wasm_bindgen]
pub fn set_big_ints(on: bool) {
    BIG_INTS.with(|flag| flag.set(on));
    FOUND.with(|found| found.borrow_mut().clear());
}

/// The `[pointer, text]` pairs of the big integers of the last result, as JSON text; cleared.
#[cfg(any(feature = "full", feature = "web"))]
#[wasm_bindgen]
pub fn take_big_ints() -> String {
    let found = FOUND.with(|found| std::mem::take(&mut *found.borrow_mut()));
    let pairs: Vec<Value> = found
        .into_iter()
        .map(|(at, text)| Value::Array(vec![Value::from(at), Value::from(text)]))
        .collect();
    json::serialize_compact(&Value::Array(pairs))
}

/// Checks that `value` survives as JS numbers (`at`: its pointer in what JS gets back); in
/// big-integer mode, records the integers that need a `BigInt` instead.
#[allow(clippy::result_large_err)] // the core's error, as every core function returns it
fn check_numbers<'a, J: Json<'a>>(value: J, at: &str) -> Result<(), Error> {
    if !BIG_INTS.with(Cell::get) {
        return json::check_js_safe(value);
    }
    let found = json::big_integers(value)?;
    FOUND.with(|all| {
        all.borrow_mut().extend(
            found
                .into_iter()
                .map(|(path, text)| (format!("{at}{path}"), text)),
        );
    });
    Ok(())
}

#[cfg(target_arch = "wasm32")]
mod allocator;
#[cfg(any(feature = "full", feature = "web"))]
mod full;
#[cfg(any(feature = "full", not(feature = "web")))]
mod job;
#[cfg(feature = "full")]
mod logged;
#[cfg(feature = "full")]
mod resident;

/// Size classes over dlmalloc, memory grown geometrically (`allocator.rs`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator::new();
#[cfg(any(feature = "full", not(feature = "web")))]
mod statusline;

/// The error as the JSON text the JS layer parses into a `StatecoreError` subclass.
pub(crate) fn throw(error: Error) -> JsValue {
    JsValue::from_str(&json::serialize_compact(&error.to_value()))
}

/// A core result as the JS layer reads it: JSON text (checked to survive as JS numbers), the
/// exact text of a text result, an update result as [`meta_and_text`], a reader's result as
/// its fields (and the document unless the JS layer can parse the bytes it passed), or `""`
/// for nothing.
pub(crate) fn out(result: statecore::Result<Out>, form: Form) -> Result<String, JsValue> {
    match result.map_err(throw)? {
        Out::Json(value) => {
            check_numbers(&value, "")
                .map_err(|error| throw(json::document_relative(&value, error)))?;
            Ok(json::serialize_compact(&value))
        }
        Out::Text(text) if form == Form::Text => Ok(text),
        Out::Text(text) => Ok(json::serialize_compact(&Value::from(text))),
        Out::Nothing => Ok(String::new()),
        Out::Update {
            document,
            text,
            meta,
            text_is_document,
        } => meta_and_text(document, text, Value::Object(meta), text_is_document),
        Out::Job(_) => Err(throw(Error::new(
            statecore::error::Code::Argument,
            "",
            "this operation starts a job: use startJob",
        ))),
        Out::Loaded {
            document,
            meta,
            as_written,
        } => {
            match &document {
                Doc::Tree(tree) => check_numbers(tree, "/document"),
                Doc::Text(tape) => check_numbers(tape.root(), "/document"),
            }
            .map_err(throw)?;
            let meta = Value::Object(meta);
            check_numbers(&meta, "").map_err(throw)?;
            // `=`: the document is the bytes' own JSON (the JS layer parses them); `+`: it
            // follows the fields, after a newline.
            let mut out = String::from(if as_written { "=" } else { "+" });
            out.push_str(&json::serialize_compact(&meta));
            if !as_written {
                out.push('\n');
                out.push_str(&json::serialize_compact(&document.into_value()));
            }
            Ok(out)
        }
    }
}

/// An update's result: the compact JSON of everything but the document and its text, a
/// newline, then the canonical text (the JS layer parses the document from it). When the
/// text is not the document's JSON (index.md): `~`, the fields, a newline, the document's
/// compact JSON, a newline, then the text; or, when the document was not read back from the
/// text (`null`: `ops::update_unread`), `^`, the fields, a newline, then the text.
fn meta_and_text(
    document: Doc,
    mut text: String,
    meta: Value,
    text_is_document: bool,
) -> Result<String, JsValue> {
    match &document {
        Doc::Tree(tree) => check_numbers(tree, "/document"),
        Doc::Text(tape) => check_numbers(tape.root(), "/document"),
    }
    .map_err(throw)?;
    check_numbers(&meta, "").map_err(throw)?;
    let document = match document {
        Doc::Tree(tree) => tree,
        // A text format's document is always a tree; a JSON kind's is not written here.
        Doc::Text(tape) => {
            drop(tape);
            Value::Null
        }
    };
    let unread = !text_is_document && document.is_null();
    let mut head = String::with_capacity(256);
    match (text_is_document, unread) {
        (true, _) => {}
        (false, true) => head.push('^'),
        (false, false) => head.push('~'),
    }
    head.push_str(&json::serialize_compact(&meta));
    head.push('\n');
    if !text_is_document && !unread {
        head.push_str(&json::serialize_compact(&document));
        head.push('\n');
    }
    // The document is let go first, and the fields go in front of the text in its own buffer
    // (the writer left room): the text is not held twice (docs/performance.md § The update's
    // peak memory).
    drop(document);
    text.insert_str(0, &head);
    Ok(text)
}

/// The host's clock reading (epoch milliseconds) as the core's `now`.
pub(crate) fn now_value(now: f64) -> Value {
    if now.is_finite() && now.fract() == 0.0 && now.abs() <= 9_007_199_254_740_991.0 {
        Value::from(now as i64)
    } else {
        Value::Null
    }
}

/// The one value of `text`, the JSON text of a one-item argument array the JS layer made
/// (`[now]`, `[document]`); `null` for any other value.
pub(crate) fn single_arg(text: &str) -> Result<Value, JsValue> {
    match json::parse_args(text).map_err(throw)? {
        Value::Array(mut items) if items.len() == 1 => Ok(items.pop().unwrap_or_default()),
        _ => Ok(Value::Null),
    }
}
