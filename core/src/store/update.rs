//! A PostgreSQL store's update as a job (docs/store.md § Updates, § The update as a job): which
//! statements run, in which transaction, when the text the store kept for the key is trusted,
//! when a compare-and-swap that missed goes to a locked transaction, how often a lost race to
//! create the row is tried again, and what a failed statement means. The host only runs what
//! it is asked (`statement`, `begin`, `commit`, `rollback`, `drop`) and applies the change
//! (`apply`: one crossing into `update_file`, or a function's update): the texts stay with the
//! host, and a statement's parameter `{"text": "result"}`, `{"etag": "result"}` or
//! `{"text": "row"}` names the apply's new text or etag, or the text of the row read.

use super::steps::{applied_inside, count, ended, inside, is_true, of, outside, rollback};
use super::steps::{lock_timeout_step, statement, Failed, Target};
use super::unavailable;
use crate::error::Result;
use crate::job::{failed, fields, step, Io, Job};
use crate::Value;

/// How many times an update that lost a race to create the row (or whose row was removed
/// under it) runs its transaction again before `E_STORE`.
pub const CREATE_RETRIES: usize = 8;

/// What an update job starts from: `setup` of `shapes::UPDATE_SETUP`, read ([`super::job`]) or given
/// field by field by a binding ([`update_job`]).
pub struct UpdateSetup {
    /// The document's key in the store.
    pub key: String,
    /// The document's kind.
    pub kind: String,
    /// The change is a function of the document (the host calls it): no compare-and-swap.
    pub function: bool,
    /// How long to wait for a row another writer's transaction holds (none: wait).
    pub timeout_ms: Option<Value>,
    /// The etag of the text the host kept for the key, and whether it is trusted.
    pub known: Option<(String, bool)>,
}

/// What the host saw of a row: none, or its etag.
type Row = Option<String>;

impl UpdateSetup {
    /// What the job's failed steps name.
    fn target(&self) -> Target<'_> {
        Target {
            op: "update",
            key: &self.key,
            timeout_ms: self.timeout_ms.as_ref(),
        }
    }
}

/// The setup of an update job, from `setup` (its shape checked).
pub(super) fn read_setup(setup: &Value) -> UpdateSetup {
    let text = |key: &str| {
        setup
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let known = setup.get("known").filter(|k| k.is_object()).map(|k| {
        let etag = k.get("etag").and_then(Value::as_str).unwrap_or_default();
        let trusted = k.get("trusted").and_then(Value::as_bool).unwrap_or(false);
        (etag.to_owned(), trusted)
    });
    UpdateSetup {
        key: text("key"),
        kind: text("kind"),
        function: setup
            .get("function")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        timeout_ms: setup.get("timeout_ms").filter(|t| !t.is_null()).cloned(),
        known,
    }
}

/// The job of an update of the document at `setup.key` (docs/store.md § The update as a job),
/// from a setup a binding built field by field (no text to read: the store's own path).
pub fn update_job(setup: UpdateSetup) -> Job {
    Job::start(0, 0.0, move |io| update(io, setup))
}

/// The update: a compare-and-swap without a transaction when it can be one, else (or when it
/// missed) the locked transaction, again when it lost a race to create the row.
async fn update(io: Io, setup: UpdateSetup) -> Result<Value> {
    let outcome = async {
        let swapped = setup.timeout_ms.is_none() && !setup.function;
        if swapped {
            if let Some(done) = optimistic(&io, &setup).await? {
                return Ok(done);
            }
        }
        // A compare-and-swap that missed has forgotten the kept text.
        let unchanged = if swapped { "forget" } else { "leave" };
        for _ in 0..CREATE_RETRIES {
            if let Some(done) = locked(&io, &setup, unchanged).await? {
                return Ok(done);
            }
        }
        Err(Failed::Error(unavailable(
            "update",
            &setup.key,
            "the row was created and removed again meanwhile",
        )))
    };
    ended(outcome.await)
}

/// The compare-and-swap with no lock held: on the text the host kept, when trusted, one
/// statement (`update_known`, which gives the row back when it changed since), planned with
/// the apply so that a hit costs no crossing; else, or then, the row read, the change applied
/// to it and the row written on the condition that its etag is still the one read. `None`
/// when another writer changed or created the row meanwhile, or when an unreadable row's
/// text must be kept first: the locked transaction then runs.
async fn optimistic(io: &Io, s: &UpdateSetup) -> std::result::Result<Option<Value>, Failed> {
    let known = s.known.as_ref();
    let mut tried = None;
    if let Some((etag, true)) = known {
        let applied = fields([("changed", true.into()), ("corrupt", false.into())]);
        let written = fields([("written", true.into())]);
        // The path of a hit, in one step: the change applied to the kept text, the swap
        // written, done.
        let steps = vec![
            (apply_step("known"), Some(applied)),
            (update_known(s, etag), Some(written)),
        ];
        io.plan(steps, Some(done("result", true))).await?;
        let applied = io.ask(apply_step("known")).await;
        match failed(&applied) {
            None => tried = Some(applied),
            // The kept text may be stale: a change the core refuses on it is tried on the row.
            Some(_) if is_true(&applied, "refused") => {}
            Some(number) => return Err(Failed::Raise(number)),
        }
    }
    let row = match &tried {
        Some(t) if is_true(t, "changed") && !is_true(t, "corrupt") => {
            let answer = outside(io, &s.target(), update_known(s, known_etag(known))).await?;
            if count(&answer) > 0 && is_true(&answer, "written") {
                return Ok(Some(done("result", true)));
            }
            row_of(&answer)
        }
        _ => row_of(&outside(io, &s.target(), read(s, "read")).await?),
    };
    // Trusted while the row is still the one the store last saw (no other writer since), or
    // when this store creates it.
    let trusted = row.is_none() || row.as_deref() == known.map(|(etag, _)| etag.as_str());
    // The rest of the way, in one step: the change applied to the row, written, done.
    let applied = fields([("changed", true.into()), ("corrupt", false.into())]);
    let written = fields([("count", 1.into())]);
    let steps = vec![
        (apply_step("row"), Some(applied)),
        (write(s, &row), Some(written)),
    ];
    io.plan(steps, Some(done("result", trusted))).await?;
    let applied = apply(io, "row").await?;
    if !is_true(&applied, "changed") {
        return Ok(Some(match row {
            Some(_) => done("row", trusted),
            None => cache("forget"),
        }));
    }
    if is_true(&applied, "corrupt") && row.is_some() {
        return Ok(None);
    }
    let written = outside(io, &s.target(), write(s, &row)).await?;
    Ok((count(&written) == 1).then(|| done("result", trusted)))
}

/// The update in a transaction: the row read and locked, the change applied, the row written
/// (an unreadable row's text kept first). `None` when another writer created (or removed) the
/// row meanwhile: rolled back, to be run again. `unchanged`: what the host does with the text
/// it kept when the change changed nothing.
async fn locked(
    io: &Io,
    s: &UpdateSetup,
    unchanged: &str,
) -> std::result::Result<Option<Value>, Failed> {
    inside(io, &s.target(), step("begin", [])).await?;
    if let Some(timeout) = &s.timeout_ms {
        inside(io, &s.target(), lock_timeout_step(timeout)).await?;
    }
    let row = row_of(&inside(io, &s.target(), read(s, "read_for_update")).await?);
    let applied = applied_inside(io, &s.target(), apply_step("row")).await?;
    if !is_true(&applied, "changed") {
        inside(io, &s.target(), step("commit", [])).await?;
        return Ok(Some(cache(unchanged)));
    }
    if row.is_some() && is_true(&applied, "corrupt") {
        let kept = vec![s.key.as_str().into(), of("text", "row")];
        inside(io, &s.target(), statement("keep_corrupt", kept, false)).await?;
    }
    let written = inside(io, &s.target(), write(s, &row)).await?;
    if count(&written) != 1 {
        rollback(io, &s.target()).await?;
        return Ok(None);
    }
    inside(io, &s.target(), step("commit", [])).await?;
    Ok(Some(done("result", false)))
}

/// The change applied: its answer, or the job ended with the host's error.
async fn apply(io: &Io, on: &str) -> std::result::Result<Value, Failed> {
    let answer = io.ask(apply_step(on)).await;
    match failed(&answer) {
        None => Ok(answer),
        Some(number) => Err(Failed::Raise(number)),
    }
}

/// `{"do": "apply", "on": on}`: the change applied to the text the host kept (`known`) or to
/// the row's (`row`: the last row read; none: no row).
fn apply_step(on: &str) -> Value {
    step("apply", [("on", on.into())])
}

/// The row read (`read`, or `read_for_update`), kept by the host.
fn read(s: &UpdateSetup, name: &str) -> Value {
    statement(name, vec![s.key.as_str().into()], true)
}

/// The compare-and-swap on the kept text (its etag `known`), writing the apply's text and
/// etag; the row as it is comes back, kept, when it changed since.
fn update_known(s: &UpdateSetup, known: &str) -> Value {
    let params = vec![
        s.key.as_str().into(),
        s.kind.as_str().into(),
        of("text", "result"),
        of("etag", "result"),
        known.into(),
    ];
    statement("update_known", params, true)
}

/// The apply's text written to the row read as `row` ([`super::steps::write`]).
fn write(s: &UpdateSetup, row: &Row) -> Value {
    super::steps::write(&s.key, &s.kind, row.as_deref())
}

/// The job's end: the result of the last apply, and the host's kept text set to the
/// `result`'s or the `row`'s (trusted or not).
fn done(keep: &str, trusted: bool) -> Value {
    let kept = fields([("keep", keep.into()), ("trusted", trusted.into())]);
    step("done", [("cache", kept)])
}

/// The job's end with the kept text forgotten (`forget`) or left as it was (`leave`).
fn cache(what: &str) -> Value {
    step("done", [("cache", what.into())])
}

/// The etag of the kept text.
fn known_etag(known: Option<&(String, bool)>) -> &str {
    known.map(|(etag, _)| etag.as_str()).unwrap_or_default()
}

/// The row of a statement's answer that keeps one: none when it found no row.
fn row_of(answer: &Value) -> Row {
    if count(answer) == 0 {
        return None;
    }
    Some(
        answer
            .get("etag")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    )
}
