//! A hive session's step in a store as a job (docs/store.md § Hive sessions): the state's row
//! read `FOR UPDATE` and the log's length in one transaction, the change applied
//! (`update_logged`, as on files), the log replayed from where the state stops when it does
//! not fold it whole (an unreadable row's text kept first), the event line appended and the
//! state written, committed together; run again when another writer got in between. The host
//! only runs the steps and applies the change: the texts stay with it, and a statement's
//! parameter `{"line": "result"}` names the apply's event line (without its line breaks).

use super::steps::{applied_inside, count, ended, inside, is_true, of, outside, rollback};
use super::steps::{lock_timeout_step, statement, write};
use super::steps::{Failed, Target};
use super::{replay_failed, unavailable, update::CREATE_RETRIES};
use crate::error::{Code, Error, Result};
use crate::job::{failed, fields, step, Io, Job};
use crate::Value;

/// How many log lines one `feed` step reads.
pub const PAGE: u64 = 1000;
/// How many replays one step may take: from the state's offset, then the whole log (a line
/// after the offset that cannot be applied).
const REPLAYS: usize = 2;

/// What a session's job starts from: the state's key and kind, where its log is, and how long
/// it waits for a row another writer's transaction holds.
pub(super) struct SessionSetup {
    key: String,
    kind: String,
    log: String,
    record: String,
    timeout_ms: Option<Value>,
    /// Read first, without a lock: a step runs only when the state does not fold its log.
    read: bool,
}

impl SessionSetup {
    /// The setup of `setup` (checked): `E_ARGUMENT` when the key names no session, or when
    /// the kind is not kept with a log.
    pub(super) fn read(setup: &Value, read: bool) -> Result<SessionSetup> {
        let text = |key: &str| setup.get(key).and_then(Value::as_str).unwrap_or_default();
        let (key, kind) = (text("key"), text("kind"));
        let place = super::logged(key, kind)?;
        let at = |name: &str| place.get(name).and_then(Value::as_str).map(str::to_owned);
        let (Some(log), Some(record)) = (at("log"), at("record")) else {
            return Err(Error::new(
                Code::Argument,
                "/setup/kind",
                format!("{kind} is not kept with a log: a session's job is a hive session's"),
            ));
        };
        Ok(SessionSetup {
            key: super::key(key)?,
            kind: kind.to_owned(),
            log,
            record,
            timeout_ms: setup.get("timeout_ms").filter(|t| !t.is_null()).cloned(),
            read,
        })
    }

    /// What the job's failed steps name (`op`: `read` or `update`).
    fn target<'a>(&'a self, op: &'a str) -> Target<'a> {
        Target {
            op,
            key: &self.key,
            timeout_ms: self.timeout_ms.as_ref(),
        }
    }
}

/// The job of a session's step (or of its state's read) from `setup`.
pub(super) fn session_job(setup: SessionSetup) -> Job {
    Job::start(0, 0.0, move |io| session(io, setup))
}

/// The read without a lock when asked for it, done when the state folds its whole log; else
/// the step in its transaction, again when another writer got in between.
async fn session(io: Io, s: SessionSetup) -> Result<Value> {
    let outcome = async {
        if s.read && unlocked(&io, &s).await? {
            return Ok(done());
        }
        for _ in 0..CREATE_RETRIES {
            if locked(&io, &s).await? {
                return Ok(done());
            }
        }
        Err(Failed::Error(unavailable(
            "update",
            &s.key,
            "other writers kept changing the session meanwhile",
        )))
    };
    ended(outcome.await)
}

/// The state's row and the log's length read in one statement, the change (a read: none)
/// applied: whether the state folds the whole log.
async fn unlocked(io: &Io, s: &SessionSetup) -> std::result::Result<bool, Failed> {
    let read = statement("read_logged", vec![key(s), log(s)], true);
    let found = outside(io, &s.target("read"), read).await?;
    let out = applied(io.ask(apply_step("row", bytes(&found))).await)?;
    Ok(replay_from(&out).is_none())
}

/// The step in its transaction: true when committed, false when another writer got in between
/// (rolled back, to be run again).
async fn locked(io: &Io, s: &SessionSetup) -> std::result::Result<bool, Failed> {
    let t = s.target("update");
    let mut opening = vec![(step("begin", []), None)];
    if let Some(timeout) = &s.timeout_ms {
        opening.push((lock_timeout_step(timeout), None));
    }
    opening.push((statement("read_for_update", vec![key(s)], true), None));
    opening.push((statement("log_bytes", vec![log(s)], false), None));
    // The transaction's opening in one step: every answer is taken unless one fails.
    io.plan(opening.clone(), None).await?;
    let mut answers = Vec::with_capacity(opening.len());
    for (asked, _) in opening {
        answers.push(inside(io, &t, asked).await?);
    }
    let sized = answers.pop().unwrap_or_default();
    let read = answers.pop().unwrap_or_default();
    let row = (count(&read) > 0).then(|| text_of(&read, "etag"));
    let mut out = applied_inside(io, &t, apply_step("row", bytes(&sized))).await?;
    let mut kept = false;
    let mut replays: usize = 0;
    while let Some(from) = replay_from(&out) {
        replays = replays.saturating_add(1);
        if replays > REPLAYS {
            let why = "the log's replay asked for a third replay";
            return Err(rolled_back(io, &t, why).await);
        }
        let corrupt = is_true(&out, "corrupt");
        if corrupt && row.is_some() && !kept {
            let keep = vec![key(s), of("text", "row")];
            inside(io, &t, statement("keep_corrupt", keep, false)).await?;
            kept = true;
        }
        let replay = step(
            "replay",
            [("from", from.into()), ("corrupt", corrupt.into())],
        );
        inside(io, &t, replay).await?;
        feed(io, s, &t, from).await?;
        out = applied_inside(io, &t, step("apply", [("on", "replay".into())])).await?;
        if is_true(&out, "torn") {
            let why = "a line of the session's log was read torn";
            return Err(rolled_back(io, &t, why).await);
        }
    }
    finish(io, s, &t, &out, row.as_deref()).await
}

/// The log's lines from byte `from` on fed to the replay, a page of [`PAGE`] lines a step.
async fn feed(
    io: &Io,
    s: &SessionSetup,
    t: &Target<'_>,
    from: u64,
) -> std::result::Result<(), Failed> {
    let mut at = from;
    loop {
        let params = vec![log(s), at.into(), PAGE.into()];
        let page = step(
            "feed",
            [
                ("name", "read_log_from".into()),
                ("params", Value::Array(params)),
                ("from", at.into()),
            ],
        );
        let answer = inside(io, t, page).await?;
        if let Some(end) = answer.get("end_offset").and_then(Value::as_u64) {
            at = end;
        }
        if count(&answer) < PAGE {
            return Ok(());
        }
    }
}

/// The event line appended (where the core put it: else another line got in first), the state
/// written (on the row read: else another writer got in first), committed; in one step, its
/// end planned. False when another writer got in between: rolled back.
async fn finish(
    io: &Io,
    s: &SessionSetup,
    t: &Target<'_>,
    out: &Value,
    row: Option<&str>,
) -> std::result::Result<bool, Failed> {
    let mut steps = Vec::new();
    if is_true(out, "line") {
        let params = vec![
            log(s),
            s.record.as_str().into(),
            Value::Null,
            of("line", "result"),
        ];
        let offset = out.get("log_offset").cloned().unwrap_or_default();
        let expect = fields([("end_offset", offset)]);
        steps.push((statement("append", params, false), Some(expect)));
    }
    if is_true(out, "write") {
        let expect = fields([("count", 1.into())]);
        steps.push((write(&s.key, &s.kind, row), Some(expect)));
    }
    steps.push((step("commit", []), None));
    io.plan(steps.clone(), Some(done())).await?;
    for (asked, expect) in steps {
        let answer = inside(io, t, asked).await?;
        let met = match &expect {
            Some(expect) => crate::job::meets(&answer, expect),
            None => true,
        };
        if !met {
            rollback(io, t).await?;
            return Ok(false);
        }
    }
    Ok(true)
}

/// The transaction rolled back, then `E_STORE` (not retryable) saying `why`.
async fn rolled_back(io: &Io, t: &Target<'_>, why: &str) -> Failed {
    if let Err(lost) = rollback(io, t).await {
        return lost;
    }
    Failed::Error(replay_failed(t.key, why))
}

/// The change applied outside a transaction: its answer, or the host's own error raised.
fn applied(answer: Value) -> std::result::Result<Value, Failed> {
    match failed(&answer) {
        None => Ok(answer),
        Some(number) => Err(Failed::Raise(number)),
    }
}

/// `{"do": "apply", "on": on, "size": size}`: the change applied to the row's text (`row`:
/// the last row read), the log `size` bytes long (`update_logged`).
fn apply_step(on: &str, size: Value) -> Value {
    step("apply", [("on", on.into()), ("size", size)])
}

/// The log's length in an answer (`bytes`; none: 0).
fn bytes(answer: &Value) -> Value {
    let size = answer.get("bytes").and_then(Value::as_u64).unwrap_or(0);
    size.into()
}

/// Where the apply asks for a replay to start, if it does.
fn replay_from(out: &Value) -> Option<u64> {
    out.get("replay_from").and_then(Value::as_u64)
}

/// The text of an answer's `field` (none: empty).
fn text_of(answer: &Value, field: &str) -> String {
    let text = answer.get(field).and_then(Value::as_str);
    text.unwrap_or_default().to_owned()
}

/// The state's key as a parameter.
fn key(s: &SessionSetup) -> Value {
    s.key.as_str().into()
}

/// The log's key as a parameter.
fn log(s: &SessionSetup) -> Value {
    s.log.as_str().into()
}

/// The job's end: the host gives the last apply's result.
fn done() -> Value {
    step("done", [("cache", "leave".into())])
}
