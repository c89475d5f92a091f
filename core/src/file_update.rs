//! A document's file updated under its lock, as a job (docs/locking.md § The update as a job):
//! the guarded read-change-write of § Files people edit, written once for both hosts. The
//! job decides; the host's driver reads, sleeps, applies, copies and writes as asked:
//!
//! - `{"do": "load", "path", "bytes"?}`: read the file (up to the document limit + 1 bytes)
//!   with its stamp, and keep both; answer `{"missing": true}` or `{"missing": false,
//!   "age_ms"}` (how long ago it last changed), with its bytes when `bytes` is true (a file
//!   people edit: the job judges whether it looks finished);
//! - `{"do": "pause", "ms"}`: sleep, answer `{}`;
//! - `{"do": "apply"}`: the change on the bytes kept (the core's `update_file`, or a
//!   function's update): keep its result, answer `{"changed", "corrupt"}`;
//! - `{"do": "copy", "to"}`: copy the whole file to a new file `to` (or `to-1`, ...), answer
//!   `{"path"}`;
//! - `{"do": "write", "edited"?, "backdate_ms"?}`: replace the file with the kept result's
//!   text, atomically, checking that it is still the one read (its stamp); a file people
//!   edit (`edited`) is stamped `backdate_ms` in the past; answer `{"written"}` (false: it
//!   changed under the writer, nothing was written);
//! - `{"do": "done", "corrupt_copy"?, "warning"?}`: the update is over; the caller gets the
//!   kept result, with the copy kept and `warning` (its `W_CORRUPT_COPY`) added to its
//!   warnings when there is one;
//! - `{"do": "raise", "failed"}`: raise the host's kept failure.
//!
//! A host's failure is answered `{"failed": n}`. The common path (a JSON kind: read, changed,
//! written) is one plan, the job's first step: the update crosses into the core only to start
//! the job and to apply the change.

use crate::document::{corrupt_copy_suffix, corrupt_copy_warning};
use crate::edit::{edit_wait, edited_by_hand, QUIET_MS};
use crate::error::{Code, Error, Result};
use crate::job::{failed, fields, step, Io, Job, Stop};
use crate::shape::{Field, Shape, Ty};
use crate::Value;

/// What a file update job starts from.
pub static SETUP: Shape = Shape::exact(
    "FileUpdateSetup",
    "What a file update job starts from (docs/locking.md § The update as a job).",
    &[
        Field::req("kind", Ty::Kind, "The document's kind."),
        Field::req(
            "path",
            Ty::Str,
            "The file (absolute; its lock is held by the caller).",
        ),
        Field::opt(
            "now_ms",
            Ty::Int,
            "The wall clock (epoch ms) when the update starts: a `.corrupt-` copy's date.",
        ),
    ],
);

/// The job updating the file of `setup` ([`SETUP`]): `E_ARGUMENT` at a field that is not what
/// it says, `E_KIND` for an unknown kind.
pub fn job(setup: &Value) -> Result<Job> {
    crate::options::input(setup, &SETUP, "setup")?;
    let text = |key: &str| setup.get(key).and_then(Value::as_str).unwrap_or_default();
    let now_ms = setup.get("now_ms").and_then(Value::as_i64).unwrap_or(0);
    update_job(text("kind"), text("path").to_owned(), now_ms)
}

/// The job updating `path` (absolute), a document of `kind`, from the wall clock `now_ms`
/// (epoch ms: a `.corrupt-` copy's date), as the bindings start it (no setup to read):
/// `E_KIND` for an unknown kind.
pub fn update_job(kind: &str, path: String, now_ms: i64) -> Result<Job> {
    let edited = edited_by_hand(kind)?;
    let file = File {
        kind: kind.to_owned(),
        path,
        edited,
        apply: None,
        last: None,
        after: None,
    };
    Ok(Job::start(now_ms, 0.0, move |io| update(io, file)))
}

/// The file a job updates.
struct File {
    kind: String,
    path: String,
    /// Whether its kind's files are edited by hand.
    edited: bool,
    /// The change, when the job applies it itself ([`update_within`]); else the host does.
    apply: Option<Apply>,
    /// The change's last result, when the job applies it itself.
    last: Option<Applied>,
    /// What a job applying the change itself plans after the write ([`After`]).
    after: Option<After>,
}

/// What a job that applies its change itself ([`update_within`]) plans after the file's
/// write, so that the write and what follows it are one plan: the steps that follow (the
/// lock's release), and the job's last step made from the change's result and the file
/// update's own last step (`corrupt_copy`, `warning`), when the job ends there. When nothing
/// is written, the steps are the next plan's to take, with that last step ([`Io::then`]).
pub struct After {
    /// The steps after the write, each with the answer it expects.
    pub steps: Vec<(Value, Option<Value>)>,
    /// The job's last step, when the host may end the job after those steps.
    pub last: Option<Last>,
}

/// The job's last step, from the change's result and the file update's last step.
pub type Last = Box<dyn FnOnce(&Applied, &Value) -> Value + Send>;

/// A change applied by the job itself ([`update_within`]): the file's bytes (`None`: missing)
/// and the wall clock as the host read it with them (epoch ms, under the lock) to the new text
/// and what the caller is told.
pub type Apply = Box<dyn FnMut(Option<&[u8]>, i64) -> Result<Applied> + Send>;

/// What a change applied by the job itself gives.
pub struct Applied {
    /// The new text of the file.
    pub text: String,
    /// Whether the text must be written.
    pub changed: bool,
    /// Whether the old bytes were not a document (a `.corrupt-` copy is kept first).
    pub corrupt: bool,
    /// What the caller is told (the etag, the warnings, an operation's result).
    pub meta: crate::Map,
}

/// The update of `path` (absolute; its lock held), a document of `kind`, by `apply`, as a
/// part of a larger job running on `io` (the locked update): the same steps as
/// [`update_job`]'s, but the job applies the change itself, so a `load` asks for the bytes
/// ([`own_load_step`]) and a `copy` and a `write` name the file (`path`), the `write` with the
/// new `text`; `after`: what follows the write in its plan. Gives the update's last step
/// (`corrupt_copy`, `warning`) and the change's last result.
pub async fn update_within(
    io: &Io,
    kind: &str,
    path: String,
    apply: Apply,
    after: Option<After>,
) -> std::result::Result<(Value, Applied), Stop> {
    let mut file = File {
        kind: kind.to_owned(),
        edited: edited_by_hand(kind)?,
        path,
        apply: Some(apply),
        last: None,
        after,
    };
    let done = rounds(&io.nested(), &mut file).await?;
    let applied = file.last.take().ok_or_else(|| {
        Stop::Core(Error::new(
            Code::Argument,
            "",
            "the update ended without applying its change (a statecore bug)",
        ))
    })?;
    Ok((done, applied))
}

/// The update: read, wait while a person may be saving, apply, keep a copy of an unparseable
/// file, write; from the read again when the file changed under the writer.
async fn update(io: Io, mut file: File) -> Result<Value> {
    match rounds(&io, &mut file).await {
        Ok(done) => Ok(done),
        Err(Stop::Core(error)) => Err(error),
        Err(Stop::Host(failure)) => Ok(step("raise", [("failed", failure)])),
    }
}

/// The update's rounds, each from a reading of the file, to its last step.
async fn rounds(io: &Io, file: &mut File) -> std::result::Result<Value, Stop> {
    let mut waited = 0.0;
    let mut restarts: i64 = 0;
    // A change the job applies itself is not a step: no plan goes past the reading.
    let own = file.apply.is_some();
    loop {
        // A JSON kind's first reading is taken as it is: the whole update is one plan.
        let planned = restarts == 0 && !file.edited && !own;
        if planned {
            let mut steps = vec![(load_step(file), None)];
            steps.extend(rest_plan(file));
            io.plan(steps, Some(done(None))).await?;
        }
        let loaded = asked(io, load_step(file)).await?;
        let present = loaded.get("missing").and_then(Value::as_bool) != Some(true);
        let bytes = io.take_bytes();
        if restarts > 0 || (file.edited && present) {
            let age = match loaded.get("age_ms") {
                Some(age) if present && age.as_f64().is_some() => age.clone(),
                _ => Value::Null,
            };
            let facts = fields([
                ("age_ms", age),
                ("waited_ms", waited.into()),
                ("restarts", restarts.into()),
            ]);
            let data = bytes.as_deref().filter(|_| file.edited && present);
            let wait = edit_wait(&file.kind, data, &facts)?;
            let ms = wait.get("wait_ms").and_then(Value::as_i64).unwrap_or(0);
            if ms > 0 {
                asked(io, step("pause", [("ms", ms.into())])).await?;
                waited += ms as f64;
                continue;
            }
        }
        if !planned && !own {
            io.plan(rest_plan(file), Some(done(None))).await?;
        }
        match change(io, file, present, bytes.as_deref()).await? {
            Some(out) => return Ok(out),
            None => restarts = restarts.saturating_add(1),
        }
    }
}

/// The change applied and written: the job's last step, or `None` when the file changed
/// under the writer (nothing written). `bytes`: the file's, read with it (given when the job
/// applies the change itself).
async fn change(
    io: &Io,
    file: &mut File,
    present: bool,
    bytes: Option<&[u8]>,
) -> std::result::Result<Option<Value>, Stop> {
    let (changed, corrupt) = match file.apply.as_mut() {
        // A file read without its bytes is never taken for a missing one (and overwritten).
        Some(_) if present && bytes.is_none() => {
            return Err(Stop::Core(Error::new(
                Code::Argument,
                "/answer",
                "this `load` step asks for the file's bytes: give them with its answer",
            )))
        }
        Some(apply) => {
            let applied = apply(bytes, io.now_ms())?;
            let flags = (applied.changed, applied.corrupt);
            file.last = Some(applied);
            flags
        }
        None => {
            let applied = asked(io, step("apply", [])).await?;
            let flag = |key: &str| applied.get(key).and_then(Value::as_bool) == Some(true);
            (flag("changed"), flag("corrupt"))
        }
    };
    let mut copy = None;
    if corrupt && present && changed {
        let to = format!("{}{}", file.path, corrupt_copy_suffix(io.now_ms())?);
        let mut asking = step("copy", [("to", to.as_str().into())]);
        named(file, &mut asking, None);
        let copied = asked(io, asking).await?;
        copy = Some(
            copied
                .get("path")
                .and_then(Value::as_str)
                .map_or(to, str::to_owned),
        );
    }
    let end = done(copy.as_deref());
    let after = file.after.take().map(|after| {
        let last = match (after.last, file.last.as_ref()) {
            (Some(last), Some(applied)) => Some(last(applied, &end)),
            _ => None,
        };
        (after.steps, last)
    });
    if changed {
        let mut asking = write_step(file);
        let text = file.last.as_ref().map(|applied| applied.text.as_str());
        named(file, &mut asking, text);
        if let Some((steps, last)) = after {
            // The write, then what follows it, in one plan.
            io.then(steps, last);
            let written = fields([("written", true.into())]);
            io.plan(vec![(asking.clone(), Some(written))], None).await?;
        }
        let written = asked(io, asking).await?;
        if written.get("written").and_then(Value::as_bool) != Some(true) {
            return Ok(None);
        }
    } else if let Some((_, last)) = after {
        // Nothing to write: the next plan (the release's) ends the job.
        io.then(Vec::new(), last);
    }
    Ok(Some(end))
}

/// A `copy` or `write` step of a job that applies its change itself, given the file's `path`
/// (and a write, the new `text`): the host keeps nothing of the change.
fn named(file: &File, asking: &mut Value, text: Option<&str>) {
    if let (Some(_), Value::Object(map)) = (&file.apply, asking) {
        map.insert("path".into(), file.path.as_str().into());
        if let Some(text) = text {
            map.insert("text".into(), text.into());
        }
    }
}

/// A step asked, its failure (`{"failed": n}`) as [`Stop::Host`].
async fn asked(io: &Io, asked: Value) -> std::result::Result<Value, Stop> {
    let answer = io.ask(asked).await;
    match failed(&answer) {
        Some(failure) => Err(Stop::Host(failure)),
        None => Ok(answer),
    }
}

/// The steps after a reading judged fit, as planned: the change applied (changed, parseable
/// before), written; then done.
fn rest_plan(file: &File) -> Vec<(Value, Option<Value>)> {
    let applied = fields([("changed", true.into()), ("corrupt", false.into())]);
    let written = fields([("written", true.into())]);
    vec![
        (step("apply", []), Some(applied)),
        (write_step(file), Some(written)),
    ]
}

/// The step reading the file with its stamp (with its bytes for a file people edit, or for a
/// job that applies the change itself: `bytes`).
fn load_step(file: &File) -> Value {
    if file.edited || file.apply.is_some() {
        own_load_step(&file.path)
    } else {
        step("load", [("path", file.path.as_str().into())])
    }
}

/// The first step of [`update_within`]: `path` read with its stamp and its bytes (a job
/// running it may plan it ahead, after the lock's steps).
pub fn own_load_step(path: &str) -> Value {
    step("load", [("path", path.into()), ("bytes", true.into())])
}

/// The step writing the kept result (a file people edit: `edited`, stamped `backdate_ms`
/// ([`QUIET_MS`]) in the past).
fn write_step(file: &File) -> Value {
    if file.edited {
        step(
            "write",
            [("edited", true.into()), ("backdate_ms", QUIET_MS.into())],
        )
    } else {
        step("write", [])
    }
}

/// The job's last step, with `corrupt_copy` (the copy kept) and its `warning` when one was.
fn done(copy: Option<&str>) -> Value {
    match copy {
        Some(copy) => step(
            "done",
            [
                ("corrupt_copy", copy.into()),
                ("warning", corrupt_copy_warning(copy).to_value()),
            ],
        ),
        None => step("done", []),
    }
}

/// The steps a file update job started from `setup` asks for, given `answers` in turn
/// ([`crate::job::script`]; an answer's `data` is the bytes read with it): how the corpus runs
/// one the same way on every surface.
pub fn script(setup: &Value, answers: &[Value]) -> Result<Value> {
    Ok(crate::job::script(job(setup)?, answers))
}
