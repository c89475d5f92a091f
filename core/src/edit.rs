//! Files people edit (docs/locking.md § Files people edit): the rules a writer follows so that
//! a person's save is never lost. A person's editor takes no lock and often saves in place
//! (truncate, then write, sometimes in pieces), so a writer may read a file the person has not
//! finished saving. The kinds whose format is text (index.md, `specify.index`) are edited by
//! hand; for them:
//!
//! - an existing file that is empty, has no structure at all, or ends in a table row cut short
//!   is never "absent": a writer refuses it with `E_CONFLICT` (`details.reason`), never
//!   replaces it with a default ([`refusal`], called by every update's read);
//! - a writer waits while the file is still changing ([`edit_wait`]): until it has been left
//!   alone for [`QUIET_MS`] (one that looks unfinished, [`SETTLE_MS`]), at most
//!   [`MAX_WAIT_MS`] in all;
//! - and, for every kind, a writer checks just before its atomic replace that the file is still
//!   the one it read (device, inode, size and modification time to the nanosecond: an
//!   equality the host tests) and starts over from the new text when it is not, at most
//!   [`MAX_RESTARTS`] times ([`edit_wait`] raises after that); for a file people edit it also
//!   checks just after the replace, and puts the person's file back when they wrote it in
//!   between;
//! - a writer stamps its own write of a file people edit [`QUIET_MS`] in the past, so that
//!   the next writer does not wait on it (a person's save is waited on, a tool's is not).
//!
//! Pure: the host gathers the facts (the file's bytes, how long ago it changed, how long it
//! has waited, how often it started over) and sleeps or reads again as told.

use crate::error::{Code, Error, Result};
use crate::kinds::{self, Format};
use crate::shape::{Field, Shape, Ty};
use crate::{Map, Value};

/// A file people edit must have been left alone this long (ms) before a writer replaces it:
/// far longer than an editor pauses between the pieces of one save, even on a loaded machine
/// (a tool's own writes are not waited on: they are stamped this far in the past).
pub const QUIET_MS: i64 = 250;
/// A file that looks unfinished (empty, no structure, its last line without a line break)
/// must have been left alone this long (ms) before a writer judges it: an editor saving in
/// pieces writes the rest well within it.
pub const SETTLE_MS: i64 = 1000;
/// The longest a writer waits in all (ms) for a file that keeps changing, then `E_CONFLICT`.
pub const MAX_WAIT_MS: i64 = 5000;
/// How often a writer starts over because the file changed under it, then `E_CONFLICT`.
pub const MAX_RESTARTS: i64 = 50;

/// The facts a host gives [`edit_wait`].
pub static FACTS: Shape = Shape::exact(
    "EditFacts",
    "What a writer saw of a file before replacing it (docs/locking.md § Files people edit).",
    &[
        Field::opt(
            "age_ms",
            Ty::Nullable(&Ty::Number),
            "How long ago the file last changed (the host's clock minus its mtime), in ms; \
             negative when its mtime is ahead; null: no file.",
        ),
        Field::opt(
            "waited_ms",
            Ty::Number,
            "How long this write has waited for the file already, in ms (default 0).",
        ),
        Field::opt(
            "restarts",
            Ty::Int,
            "How often this write started over because the file changed under it (default 0).",
        ),
    ],
);

/// The answer of [`edit_wait`].
pub static WAIT: Shape = Shape::exact(
    "EditWait",
    "What a writer does next with a file people edit.",
    &[
        Field::req(
            "wait_ms",
            Ty::Int,
            "Sleep this long (ms), then read the file again; 0: go ahead with this reading.",
        ),
        Field::req(
            "edited",
            Ty::Bool,
            "Whether the kind's files are edited by hand (a host asks once per kind, without \
             data, and asks again with the data only for those).",
        ),
    ],
);

/// True when `kind`'s files are edited by hand (a text format: index.md).
pub fn edited_by_hand(kind: &str) -> Result<bool> {
    Ok(matches!(kinds::kind(kind)?.format, Format::Text { .. }))
}

/// What the bytes of a file of `kind` lack of a finished save (`None`: nothing, a JSON kind,
/// no file, or bytes that are not UTF-8, which their own error refuses).
pub fn lacks(kind: &str, bytes: Option<&[u8]>) -> Result<Option<&'static str>> {
    let Format::Text { lacks, .. } = &kinds::kind(kind)?.format else {
        return Ok(None);
    };
    Ok(bytes
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(lacks))
}

/// The `E_CONFLICT` a writer raises for a file of `kind` that lacks `reason` of a finished
/// save: it is left as it is.
pub fn incomplete_error(kind: &str, reason: &str) -> Result<Error> {
    let name = match &kinds::kind(kind)?.format {
        Format::Text { name, .. } => *name,
        Format::Json => "the file",
    };
    let what = match reason {
        "empty" => "is empty",
        "no_structure" => "has no heading and no table",
        "torn_row" => "ends in a table row cut short (fewer cells than its header, no line break)",
        _ => "looks unfinished",
    };
    Ok(Error::new(
        Code::Conflict,
        "",
        format!(
            "{name} {what}: a person may be saving it, or it was emptied by hand; it was left \
             unchanged (statecore never rewrites a file from a reading the person did not \
             finish): finish or restore the file, remove it to start anew, or update with \
             reset to write over it"
        ),
    )
    .with_detail("reason", reason)
    .with_detail("kind", kind))
}

/// The refusal a writer's read of `bytes` gets (`None`: none): a file people edit that is
/// empty, has no structure, or ends in a row cut short. A missing file is no refusal (it is
/// absent), and neither is a last line without a line break once the file is settled
/// ([`edit_wait`] waits for it before).
pub fn refusal(kind: &str, bytes: Option<&[u8]>) -> Result<Option<Error>> {
    match lacks(kind, bytes)? {
        Some(reason @ ("empty" | "no_structure" | "torn_row")) => {
            Ok(Some(incomplete_error(kind, reason)?))
        }
        _ => Ok(None),
    }
}

/// What a writer does next with the file of `kind` it read as `bytes` (`None`: missing),
/// given `facts` ([`FACTS`]): `{wait_ms, edited}`, `wait_ms` 0 to go ahead, `edited` whether
/// the kind's files are edited by hand. A file people edit that changed
/// within [`QUIET_MS`] (one that looks unfinished: [`SETTLE_MS`]) is waited on, a poll at a
/// time; a file whose mtime is further ahead than that is not (its clock cannot be judged).
/// `E_CONFLICT` (`details.reason`: `changing`) once the wait would pass [`MAX_WAIT_MS`], and
/// (`changed`, for every kind) once the write started over more than [`MAX_RESTARTS`] times.
pub fn edit_wait(kind: &str, bytes: Option<&[u8]>, facts: &Value) -> Result<Value> {
    let number = |key: &str| facts.get(key).and_then(Value::as_f64);
    let restarts = facts.get("restarts").and_then(Value::as_i64).unwrap_or(0);
    let waited = number("waited_ms").unwrap_or(0.0);
    if restarts > MAX_RESTARTS {
        return Err(Error::new(
            Code::Conflict,
            "",
            format!(
                "the file changed under the writer {restarts} times in a row (another program \
                 keeps writing it without the lock); nothing was written: try again when it \
                 is left alone"
            ),
        )
        .with_detail("reason", "changed")
        .with_detail("restarts", restarts));
    }
    let edited = edited_by_hand(kind)?;
    let wait = match (edited, bytes, number("age_ms")) {
        (true, Some(_), Some(age)) if age.is_finite() => {
            let need = if lacks(kind, bytes)?.is_some() {
                SETTLE_MS
            } else {
                QUIET_MS
            } as f64;
            if age > -need && age < need {
                (need - age).clamp(1.0, QUIET_MS as f64).ceil()
            } else {
                0.0
            }
        }
        _ => 0.0,
    };
    if wait > 0.0 && waited + wait > MAX_WAIT_MS as f64 {
        return Err(Error::new(
            Code::Conflict,
            "",
            format!(
                "the file kept changing for {waited:.0} ms (a person or another program is \
                 writing it); nothing was written: try again when it is left alone"
            ),
        )
        .with_detail("reason", "changing")
        .with_detail("waited_ms", waited));
    }
    let mut map = Map::new();
    // A whole number of ms in 1..=QUIET_MS (or 0): exact as an integer.
    map.insert("wait_ms".into(), Value::from(wait as i64));
    map.insert("edited".into(), edited.into());
    Ok(Value::Object(map))
}
