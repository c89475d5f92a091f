//! The library's locked update of a document's file as one job (docs/locking.md § The update
//! as one job): what `updateDocument` / `update_document` and every protocol helper's write
//! run for a patch or a writer of the table. It is the command line's locked update
//! ([`crate::locked_update::under_lock`]) with the change given at the start: the lock taken,
//! the sweep, the guarded read-change-write, the lock released, on the steps of the lock's and
//! the file update's jobs and `entries`. Its common path is two plans, the second ending with
//! the job's last step, so the host crosses into the core twice: to start it and to answer
//! its first plan.
//!
//! It ends with `{"do": "done", etag, changed, warnings, corrupt_copy, result?, <extra>?}`
//! and, as its host asked, `document` (the new document) or `text` with `text_is_document`
//! (whether the text is the document's JSON, or a text format's to read as its kind).

use crate::document::Doc;
use crate::document::Precondition;
use crate::error::{Code, Error, Result};
use crate::file_update::{Applied, Apply};
use crate::job::{step, Job, Stop};
use crate::lock::Locking;
use crate::locked_update::under_lock;
use crate::ops::{self, Args};
use crate::shape::common::NOW;
use crate::shape::{Enum, Field, Shape, Ty};
use crate::value::Json;
use crate::{Map, Value};

/// Who waits for the lock, and how: what a host gives beside the change.
pub static WAITER: Shape = Shape::exact(
    "UpdateWaiter",
    "Who takes the lock of an update job, how long it waits and what it is given back \
     (docs/locking.md § The update as one job).",
    &[
        Field::req(
            "identity",
            Ty::Object(&crate::lock::shapes::IDENTITY),
            "This process.",
        ),
        Field::req("probe", Ty::Bool, "Whether processes can be probed here."),
        Field::req(
            "watching",
            Ty::Bool,
            "Whether the host watches its claim while it pauses (a synchronous host).",
        ),
        Field::req(
            "timeout_ms",
            Ty::Number,
            "How long to wait for the lock (0: one attempt).",
        ),
        Field::req(
            "with_document",
            Ty::Bool,
            "Whether the last step carries the new document (else its text, which the host reads).",
        ),
        Field::req(
            "numbers",
            Ty::Enum(&NUMBERS),
            "How the host reads numbers: a change whose document or result it could not hold is \
             refused (`E_PRECISION`) before anything is written.",
        ),
        Field::req("now_ms", Ty::Int, "The wall clock (epoch ms)."),
        Field::req("mono_ms", Ty::Number, "The monotonic clock (ms)."),
    ],
);

/// How a host reads the numbers of a step.
pub static NUMBERS: Enum = Enum {
    name: "UpdateNumbers",
    doc: "How a host reads numbers: `js` as doubles (an integer no double holds is refused), \
          `js_bigint` as doubles with the document's big integers as `BigInt`s, `python` with \
          exact integers and floats that must fit a double.",
    values: &["js", "js_bigint", "python"],
};

/// What an update job starts from, as the corpus gives it ([`script`]).
pub static SETUP: Shape = Shape::exact(
    "UpdateJobSetup",
    "What an update job starts from, as the conformance corpus gives it (docs/locking.md \
     § The update as one job): the file, the change with its arguments and options, the \
     waiter and the random bytes.",
    &[
        Field::req("kind", Ty::Kind, "The document's kind."),
        Field::req("path", Ty::Str, "The file (absolute)."),
        Field::req(
            "change",
            Ty::Str,
            "`\"\"` (replace with `args[0]`), `\"merge\"` (`args`: a patch and its options) or \
             a writer of the table.",
        ),
        Field::req(
            "args",
            Ty::List(&Ty::Json),
            "The change's arguments after the document.",
        ),
        Field::opt(
            "now",
            Ty::Nullable(&Ty::Alias(&NOW)),
            "The time for stamps (default: the clock read with the file's bytes).",
        ),
        Field::opt(
            "if_match",
            Ty::Nullable(&Ty::Str),
            "The etag the file must have.",
        ),
        Field::opt("reset", Ty::Bool, "Replace a file that breaks a limit."),
        Field::req(
            "waiter",
            Ty::Object(&WAITER),
            "Who takes the lock, and how.",
        ),
        Field::req("seed", Ty::Str, "16 random bytes in hex."),
    ],
);

/// The steps the update job started from `setup` ([`SETUP`]) asks for, given `answers` in
/// turn ([`crate::job::script`]; an answer's `data` is the bytes read with it): how the corpus
/// runs one the same way on every surface.
pub fn script(setup: &Value, answers: &[Value]) -> Result<Value> {
    crate::options::input(setup, &SETUP, "setup")?;
    let text = |key: &str| setup.get(key).and_then(Value::as_str).unwrap_or_default();
    let args = setup
        .get("args")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let change = Change {
        name: text("change").to_owned(),
        args: Args::values(args),
        now: setup.get("now").cloned().unwrap_or(Value::Null),
        if_match: setup
            .get("if_match")
            .and_then(Value::as_str)
            .map(str::to_owned),
        reset: setup.get("reset").and_then(Value::as_bool) == Some(true),
    };
    let seed = crate::lock::hex_bytes(text("seed"), "/setup/seed")?;
    let waiter = setup.get("waiter").cloned().unwrap_or(Value::Null);
    let job = update_job(text("kind"), text("path").to_owned(), change, &waiter, seed)?;
    Ok(crate::job::script(job, answers))
}

/// The change of an update job: the change `name` of the table (`""`, `"merge"`, a writer)
/// with its arguments, converted by the binding as for a file update.
pub struct Change {
    /// The change's name.
    pub name: String,
    /// Its arguments after the document.
    pub args: Args<'static>,
    /// The clock that fills stamps and `now` arguments (`null`: the host's, as it read it
    /// with the file's bytes, under the lock).
    pub now: Value,
    /// The etag the file must have.
    pub if_match: Option<String>,
    /// Whether a file that breaks a limit is replaced (else its error).
    pub reset: bool,
}

/// The update job of the file `path` (absolute), a document of `kind`, by `change`, for the
/// waiter `waiter` ([`WAITER`]) with the random bytes `seed` (at least 16: the lock's tokens
/// and pauses). `E_KIND` for an unknown kind and `E_ARGUMENT` for a waiter or a seed the lock
/// refuses, before any step.
pub fn update_job(
    kind: &str,
    path: String,
    change: Change,
    waiter: &Value,
    seed: Vec<u8>,
) -> Result<Job> {
    crate::options::input(waiter, &WAITER, "waiter")?;
    crate::edit::edited_by_hand(kind)?;
    if !path.starts_with('/') && !crate::locked_update::is_windows_absolute(&path) {
        return Err(Error::new(
            Code::Argument,
            "/path",
            format!("an update job's path is absolute (the host resolves it first), not {path:?}"),
        ));
    }
    let field = |key: &str| waiter.get(key).cloned().unwrap_or(Value::Null);
    let flag = |key: &str| waiter.get(key).and_then(Value::as_bool) == Some(true);
    let identity = field("identity");
    let probe = flag("probe");
    let wait = (
        waiter
            .get("timeout_ms")
            .and_then(Value::as_f64)
            .unwrap_or(0.0),
        flag("watching"),
    );
    let with_document = flag("with_document");
    let numbers = waiter
        .get("numbers")
        .and_then(Value::as_str)
        .unwrap_or("js")
        .to_owned();
    let now_ms = waiter.get("now_ms").and_then(Value::as_i64).unwrap_or(0);
    let mono_ms = waiter.get("mono_ms").and_then(Value::as_f64).unwrap_or(0.0);
    let kind = kind.to_owned();
    // A refused identity or seed ends the job before its first step: raised here.
    let job = Job::start(now_ms, mono_ms, move |io| async move {
        let locking = Locking::new(&io, format!("{path}.lock"), identity, probe, seed)?;
        let apply = applying(kind.clone(), change, (with_document, numbers));
        let last: crate::file_update::Last =
            Box::new(move |applied, end| finished(applied, end, with_document));
        match under_lock(&io, &locking, &path, &kind, wait, apply, Some(last)).await {
            Ok((end, applied)) => Ok(finished(&applied, &end, with_document)),
            Err(Stop::Core(error)) => Err(error),
            Err(Stop::Host(failure)) => Ok(step("raise", [("failed", failure)])),
        }
    });
    job.opened()
}

/// The change applied to the file's bytes by the job itself: the table's change rebuilt from
/// its arguments for each reading (a file that changed under the writer is read again). The
/// new document and the change's result are checked against how the host reads numbers
/// (`form.1`, [`NUMBERS`]) here, before a write is planned: the last step must convert.
fn applying(kind: String, change: Change, form: (bool, String)) -> Apply {
    let (with_document, numbers) = form;
    Box::new(move |bytes, now_ms| {
        let applied = ops::CORE.change(&change.name, change.args.clone())?;
        // No clock given: the host's, read with the bytes under the lock.
        let now = match &change.now {
            Value::Null => Value::from(now_ms),
            given => given.clone(),
        };
        let pre = Precondition {
            if_match: change.if_match.as_deref(),
            reset: change.reset,
        };
        let updated = if with_document {
            ops::update_read(&kind, bytes, applied, &now, pre)?
        } else {
            ops::update_unread(&kind, bytes, applied, &now, pre)?
        };
        let (document, text, mut meta) = updated.into_parts();
        held(&document, &meta, &numbers)?;
        let flag = |key: &str| meta.get(key).and_then(Value::as_bool) == Some(true);
        let (changed, corrupt) = (flag("changed"), flag("corrupt"));
        meta.shift_remove("corrupt");
        if with_document {
            meta.insert("document".into(), document.into_value());
        } else {
            let json = crate::kinds::text_is_document(&kind);
            meta.insert("text_is_document".into(), json.into());
        }
        Ok(Applied {
            text,
            changed,
            corrupt,
            meta,
        })
    })
}

/// `E_PRECISION` when the host that reads numbers as `numbers` could not hold a number of the
/// document or of the other fields (as its binding would refuse them).
fn held(document: &Doc, meta: &Map, numbers: &str) -> Result<()> {
    match document {
        Doc::Tree(tree) => held_in(tree, meta, numbers),
        Doc::Text(tape) => held_in(tape.root(), meta, numbers),
    }
}

/// [`held`] on the document read either way.
fn held_in<'a, J: Json<'a>>(document: J, meta: &Map, numbers: &str) -> Result<()> {
    match numbers {
        "python" => crate::json::check_float_range(document)?,
        // Big integers are given as `BigInt`s in the document, never in the other fields.
        "js_bigint" => crate::json::big_integers(document).map(drop)?,
        _ => crate::json::check_js_safe(document)?,
    }
    if numbers == "python" {
        meta.values().try_for_each(crate::json::check_float_range)
    } else {
        meta.values().try_for_each(crate::json::check_js_safe)
    }
}

/// The job's last step: the change's result (`applied`) with the file update's last step
/// (`end`: the copy kept and its warning) and the new document or its text.
fn finished(applied: &Applied, end: &Value, with_document: bool) -> Value {
    let mut done = Map::with_capacity(applied.meta.len().saturating_add(4));
    done.insert("do".into(), "done".into());
    for (key, value) in &applied.meta {
        done.insert(key.clone(), value.clone());
    }
    if let (Some(Value::Array(warnings)), Some(warning)) =
        (done.get_mut("warnings"), end.get("warning"))
    {
        warnings.push(warning.clone());
    }
    let copy = end.get("corrupt_copy").cloned().unwrap_or(Value::Null);
    done.insert("corrupt_copy".into(), copy);
    if !with_document {
        done.insert("text".into(), applied.text.as_str().into());
    }
    Value::Object(done)
}
