//! The steps a store's jobs share (docs/store.md § The update as a job): a statement run
//! outside or inside the transaction, what a failed one means (`store_failure`: the connection
//! dropped, the transaction rolled back, `E_STORE`, `E_LOCK_TIMEOUT`, or the host's own error
//! raised), and the small readers of a statement's answer.

use super::{failure, lock_timeout, schema_mismatch, unavailable};
use crate::error::Error;
use crate::job::{failed, fields, step, Io};
use crate::Value;

/// What a job's failed step names: its operation (`update`, `read`), the key, and how long it
/// waits for a locked row (none: it waits).
pub(super) struct Target<'a> {
    /// The operation an `E_STORE` names.
    pub op: &'a str,
    /// The document's key.
    pub key: &'a str,
    /// The `timeout` an `E_LOCK_TIMEOUT` names.
    pub timeout_ms: Option<&'a Value>,
}

/// How a failed step ends the job.
pub(super) enum Failed {
    /// The job's own error.
    Error(Error),
    /// The host's own error (its `failed` number): `{"do": "raise", "failed": n}`.
    Raise(Value),
}

impl From<Error> for Failed {
    fn from(error: Error) -> Failed {
        Failed::Error(error)
    }
}

/// The job's end from its procedure's `outcome`: its last step, its own error, or the host's
/// error raised (`{"do": "raise", "failed": n}`).
pub(super) fn ended(outcome: std::result::Result<Value, Failed>) -> crate::error::Result<Value> {
    match outcome {
        Ok(done) => Ok(done),
        Err(Failed::Error(error)) => Err(error),
        Err(Failed::Raise(number)) => Ok(step("raise", [("failed", number)])),
    }
}

/// The change applied inside the transaction (`asked`: the job's `apply`): its answer; a
/// failure, not a statement's (a change the core refuses, an update function's own error),
/// rolls the transaction back and is raised.
pub(super) async fn applied_inside(
    io: &Io,
    t: &Target<'_>,
    asked: Value,
) -> std::result::Result<Value, Failed> {
    in_transaction(io, t, asked, false).await
}

/// Runs `step` outside a transaction; a failure ends the job (the connection dropped when it
/// was lost).
pub(super) async fn outside(
    io: &Io,
    t: &Target<'_>,
    step: Value,
) -> std::result::Result<Value, Failed> {
    let answer = io.ask(step).await;
    match failed(&answer) {
        None => Ok(answer),
        Some(number) => Err(fail(io, t, &answer, number).await),
    }
}

/// Runs `step` inside the transaction; a failure rolls it back, then ends the job.
pub(super) async fn inside(
    io: &Io,
    t: &Target<'_>,
    step: Value,
) -> std::result::Result<Value, Failed> {
    in_transaction(io, t, step, true).await
}

/// Runs `step` inside the transaction: its answer, or, when it failed, the transaction rolled
/// back and the job ended by what the failure means (a `statement`'s by its answer; anything
/// else's as the host's own error).
async fn in_transaction(
    io: &Io,
    t: &Target<'_>,
    step: Value,
    statement: bool,
) -> std::result::Result<Value, Failed> {
    let answer = io.ask(step).await;
    match failed(&answer) {
        None => Ok(answer),
        Some(number) => {
            let seen = if statement { &answer } else { &Value::Null };
            Err(abort(io, t, seen, number).await)
        }
    }
}

/// What a failed step inside the transaction ends with: the connection dropped when it was
/// lost; else the transaction rolled back (a rollback that fails: the connection is lost),
/// then what the failure means ([`fail`]).
async fn abort(io: &Io, t: &Target<'_>, answer: &Value, number: Value) -> Failed {
    if verdict(answer) == "unavailable" {
        return fail(io, t, answer, number).await;
    }
    if let Err(lost) = rollback(io, t).await {
        return lost;
    }
    fail(io, t, answer, number).await
}

/// Rolls the transaction back: `E_STORE` (the connection dropped) when that fails.
pub(super) async fn rollback(io: &Io, t: &Target<'_>) -> std::result::Result<(), Failed> {
    let answer = io.ask(step("rollback", [])).await;
    if failed(&answer).is_none() {
        return Ok(());
    }
    io.ask(step("drop", [])).await;
    Err(Failed::Error(unavailable(t.op, t.key, message(&answer))))
}

/// What a failed statement means (the store's [`failure`] of its SQLSTATE): a lost
/// connection dropped and `E_STORE`, a row held too long `E_LOCK_TIMEOUT`, a partial schema
/// its `E_STORE`; anything else the host's own error, raised.
async fn fail(io: &Io, t: &Target<'_>, answer: &Value, number: Value) -> Failed {
    match verdict(answer) {
        "unavailable" => {
            io.ask(step("drop", [])).await;
            Failed::Error(unavailable(t.op, t.key, message(answer)))
        }
        "lock_timeout" => {
            let waited = t.timeout_ms.cloned().unwrap_or_else(|| Value::from(0));
            Failed::Error(lock_timeout(t.key, &waited))
        }
        "schema" => {
            let sqlstate = answer.get("sqlstate").and_then(Value::as_str);
            let sqlstate = sqlstate.unwrap_or_default();
            Failed::Error(schema_mismatch(t.op, t.key, sqlstate, message(answer)))
        }
        _ => Failed::Raise(number),
    }
}

/// The store's [`failure`] of a failed step's answer (`sqlstate`, `connection`).
fn verdict(answer: &Value) -> &'static str {
    let sqlstate = answer.get("sqlstate").and_then(Value::as_str);
    failure(sqlstate, is_true(answer, "connection"))
}

/// The driver's message of a failed step.
fn message(answer: &Value) -> &str {
    answer
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the driver gave no message")
}

/// `{"do": "statement", name, params}`; `row`: the host keeps the first row's text and etag
/// (none when no row) as the row.
pub(super) fn statement(name: &str, params: Vec<Value>, row: bool) -> Value {
    let mut asked = vec![("name", name.into()), ("params", Value::Array(params))];
    if row {
        asked.push(("row", true.into()));
    }
    step("statement", asked)
}

/// The `lock_timeout` statement of a transaction that waits `timeout_ms` for a row another
/// writer's transaction holds: in whole ms, at least 1.
pub(super) fn lock_timeout_step(timeout_ms: &Value) -> Value {
    let ms = timeout_ms.as_f64().unwrap_or(0.0).round().max(1.0);
    statement("lock_timeout", vec![format!("{ms}ms").into()], false)
}

/// A parameter that is the `text` (or `etag`; a session's `line`) of the apply's `result` or
/// of the `row` kept.
pub(super) fn of(what: &str, which: &str) -> Value {
    fields([(what, which.into())])
}

/// How many rows a statement gave or changed (`count` of its answer).
pub(super) fn count(answer: &Value) -> u64 {
    answer.get("count").and_then(Value::as_u64).unwrap_or(0)
}

/// Whether the answer's `key` is `true`.
pub(super) fn is_true(answer: &Value, key: &str) -> bool {
    answer.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The apply's text written to the row of `key` read with the etag `row` (none: an `INSERT`):
/// the answer's `count` is 1 when written, 0 when another writer changed or created it
/// meanwhile.
pub(super) fn write(key: &str, kind: &str, row: Option<&str>) -> Value {
    let mut params = vec![
        key.into(),
        kind.into(),
        of("text", "result"),
        of("etag", "result"),
    ];
    match row {
        Some(etag) => {
            params.push(etag.into());
            statement("update", params, false)
        }
        None => statement("insert", params, false),
    }
}
