//! Sans-I/O jobs (docs/locking.md § The lock as a job, docs/store.md § Updates): a procedure of
//! a protocol written as straight-line async code that asks the host for one system call at a
//! time. The host's driver calls [`Job::next`] with what it saw and gets the next thing to do
//! (the lock's `stat`, `read`, `create`, `pause`, ...; the store's `statement`, `apply`, ...;
//! then `done`); nothing here waits, reads a clock or touches a file. The future is polled by hand with a no-op waker: a step is pending exactly while the
//! host has not answered it.
//!
//! A procedure may ask for a *plan* ([`Io::plan`]): the steps it will take if each answer is
//! the one it expects, in one `{"do": "all"}` step. The host performs them in order and stops
//! at the first answer that is not what the step `expect`s (or a failure); the answers are then
//! replayed to the procedure, which takes its usual path and asks the host again only where it
//! leaves the plan. A plan saves crossings, never changes what the procedure does.

mod expect;
mod script;

pub(crate) use expect::fields;
pub use expect::meets;
pub use script::script;

use crate::error::{Code, Error, Result};
use crate::{Map, Value};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

/// What the job asked and what the host answered, shared by the job and its procedures.
#[derive(Default)]
struct Slot {
    asked: Option<Value>,
    answer: Option<Value>,
    /// A plan's steps the host performed and its answers, in order, not yet asked again.
    replay: VecDeque<(Value, Value)>,
    /// Whether the procedure left a plan before the host's answers to it were all taken.
    strayed: bool,
    /// The bytes the host gave with its last answer (a file's, to a step that asks for them).
    bytes: Option<Vec<u8>>,
    /// Steps the next plan asked on the job takes after its own, and the step it then ends
    /// with ([`Io::then`]).
    then: Option<Tail>,
}

/// Steps a plan takes after its own, each with the answer it expects, and its last step.
type Tail = (Vec<(Value, Option<Value>)>, Option<Value>);

/// Why a procedure stopped short of its end: the core's error, or a system call's failure
/// (the host's answer `{"failed": ...}`'s value), which the host raises or reports.
#[derive(Debug)]
pub enum Stop {
    /// The core's error (a timeout, a conflict, a document it refuses).
    Core(Error),
    /// The host's failure, as it answered it.
    Host(Value),
}

impl From<Error> for Stop {
    fn from(error: Error) -> Stop {
        Stop::Core(error)
    }
}

/// The job's side of the host: asks for steps, and knows the clocks as of the last answer.
#[derive(Clone)]
pub struct Io {
    slot: Arc<Mutex<Slot>>,
    /// Wall clock (epoch ms) and monotonic clock (ms) as of the last answer.
    clock: Arc<Mutex<(i64, f64)>>,
    /// Whether the procedure runs inside a larger job ([`Io::nested`]): its plans then end
    /// without the procedure's `done`, which is not the job's.
    nested: bool,
}

impl Io {
    /// Asks the host to do `step` (`{"do": ...}`); resolves to its answer.
    pub fn ask(&self, step: Value) -> Ask {
        Ask {
            io: self.clone(),
            step: Some(step),
        }
    }

    /// This side of the host for a procedure run inside a larger job (the command line's
    /// locked update runs the lock's and the file update's): the same steps and clocks, but a
    /// plan never ends with the procedure's `done`, which is not the job's last step.
    pub fn nested(&self) -> Io {
        Io {
            nested: true,
            ..self.clone()
        }
    }

    /// Makes the next plan asked on this job ([`Io::plan`], by this procedure or one it runs)
    /// go on with `steps` after its own, and end with `done` instead of its own last step:
    /// how a job that runs several procedures in a row (the locked update: the lock, the file
    /// update, the release) plans past the end of one into the next, so that its common path
    /// crosses into the core once per plan. The steps are asked again, in order, after that
    /// procedure's (their answers given back then); [`Io::drop_then`] when no plan took them.
    pub fn then(&self, steps: Vec<(Value, Option<Value>)>, done: Option<Value>) {
        self.slot().then = Some((steps, done));
    }

    /// Forgets the steps [`Io::then`] left for the next plan, if no plan took them.
    pub fn drop_then(&self) {
        self.slot().then = None;
    }

    /// Asks the host to take `steps` (each with the answer it is expected to give, if any) in
    /// one `{"do": "all"}` step, ending with `done` (the job's last step) when the host gets
    /// that far: their answers are then given back, in order, as the procedure asks for the
    /// same steps again. The steps [`Io::then`] left go after these, with their last step.
    /// `E_ARGUMENT` when the host's answer is not one answer per step it took.
    pub(crate) async fn plan(
        &self,
        mut steps: Vec<(Value, Option<Value>)>,
        done: Option<Value>,
    ) -> Result<()> {
        let then = self.slot().then.take();
        let done = match then {
            Some((tail, last)) => {
                steps.extend(tail);
                last
            }
            None if self.nested => None,
            None => done,
        };
        // The steps go to the host; the job keeps them, to know them when they are asked again.
        let planned = steps.clone();
        let mut answer = self.ask(plan_step(steps, done)).await;
        let answers = match answer.get_mut("answers") {
            Some(Value::Array(answers))
                if answers.len() <= planned.len() && answers.iter().all(Value::is_object) =>
            {
                std::mem::take(answers)
            }
            _ => return Err(not_answers()),
        };
        went_on(&answers, &planned)?;
        let mut slot = self.slot();
        slot.replay = planned
            .into_iter()
            .map(|(asked, _)| asked)
            .zip(answers)
            .collect();
        Ok(())
    }

    /// Whether the host's answers to a plan are still being given back (a record made for the
    /// plan is then the one its steps carry).
    pub(crate) fn replaying(&self) -> bool {
        !self.slot().replay.is_empty()
    }

    /// Whether the procedure left a plan while answers the host gave to it were still to be
    /// taken (a step performed and never known to the procedure: a fault of the plan).
    pub(crate) fn strayed(&self) -> bool {
        self.slot().strayed
    }

    /// The bytes the host gave with its last answer ([`Job::next_with`]), taken once: `None`
    /// when it gave none.
    pub(crate) fn take_bytes(&self) -> Option<Vec<u8>> {
        self.slot().bytes.take()
    }

    /// The clocks as of the host's last answer.
    fn clocks(&self) -> (i64, f64) {
        *self.clock.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The wall clock (epoch ms) as of the host's last answer.
    pub fn now_ms(&self) -> i64 {
        self.clocks().0
    }

    /// The monotonic clock (ms) as of the host's last answer.
    pub fn mono_ms(&self) -> f64 {
        self.clocks().1
    }

    /// Takes the clocks from an answer (`now_ms`, `mono_ms`; each kept when absent).
    fn tick(&self, answer: &Value) {
        let (now, mono) = self.clocks();
        let now = answer.get("now_ms").and_then(Value::as_i64).unwrap_or(now);
        let mono = answer
            .get("mono_ms")
            .and_then(Value::as_f64)
            .unwrap_or(mono);
        *self.clock.lock().unwrap_or_else(PoisonError::into_inner) = (now, mono);
    }

    /// The shared slot of steps and answers.
    fn slot(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A step asked of the host: pending until it answers.
pub struct Ask {
    io: Io,
    step: Option<Value>,
}

impl Future for Ask {
    type Output = Value;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Value> {
        if let Some(step) = self.step.take() {
            let mut slot = self.io.slot();
            if slot
                .replay
                .front()
                .is_some_and(|(planned, _)| *planned == step)
            {
                if let Some((_, answer)) = slot.replay.pop_front() {
                    drop(slot);
                    self.io.tick(&answer);
                    return Poll::Ready(answer);
                }
            }
            if !slot.replay.is_empty() {
                slot.replay.clear();
                slot.strayed = true;
            }
            slot.asked = Some(step);
            return Poll::Pending;
        }
        let answer = self.io.slot().answer.take();
        match answer {
            Some(answer) => Poll::Ready(answer),
            None => Poll::Pending,
        }
    }
}

/// A procedure's result: the last step's value (`{"do": "done", ...}`), or its error.
type Task = Pin<Box<dyn Future<Output = Result<Value>> + Send>>;

/// A job: a procedure of the protocol, resumed once per answer of the host.
pub struct Job {
    io: Io,
    task: Option<Task>,
    /// The first step (or the job's end, when it ended at once), until the host asks for it
    /// or answers it.
    first: Option<Result<Value>>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("first", &self.first).finish()
    }
}

impl Job {
    /// A job running `procedure` (given the job's [`Io`]), its clocks starting at `now_ms`
    /// (epoch) and `mono_ms` (monotonic), run up to its first step.
    pub fn start<F, P>(now_ms: i64, mono_ms: f64, procedure: P) -> Job
    where
        P: FnOnce(Io) -> F,
        F: Future<Output = Result<Value>> + Send + 'static,
    {
        let io = Io {
            slot: Arc::new(Mutex::new(Slot::default())),
            clock: Arc::new(Mutex::new((now_ms, mono_ms))),
            nested: false,
        };
        let task: Task = Box::pin(procedure(io.clone()));
        let mut job = Job {
            io,
            task: Some(task),
            first: None,
        };
        job.first = Some(job.resume());
        job
    }

    /// The job, once it is known to have a first step: its own error when it ended at once
    /// (a setup it refused), which a binding raises instead of giving a job.
    pub fn opened(mut self) -> Result<Job> {
        match self.first.take() {
            Some(Err(error)) => Err(error),
            first => {
                self.first = first;
                Ok(self)
            }
        }
    }

    /// The job's first step, a function of its setup alone: a host may take it from here (the
    /// bindings give it with the job) and answer it without asking [`Job::next`] for it.
    pub fn first(&self) -> Option<&Value> {
        self.first.as_ref().and_then(|first| first.as_ref().ok())
    }

    /// The next step, given what the host saw doing the last one (`null` for the first step,
    /// which may also be taken from [`Job::first`] and answered straight away): `{"do": "stat"
    /// | "read" | "probe" | "create" | "unlink" | "rename" | "displace" | "pause" | "watch" |
    /// "all" | "done" | "raise", ...}` (docs/locking.md § The lock as a job). The job's own
    /// error (a timeout, a foreign lock) ends it; a call after its end is `E_ARGUMENT`.
    pub fn next(&mut self, answer: Value) -> Result<Value> {
        self.next_with(answer, None)
    }

    /// [`Job::next`], with the bytes the host read doing the step (a file's, for a step that
    /// asks for them: `{"do": "load", "bytes": true}`), which no JSON answer could carry
    /// exactly (they need not be UTF-8).
    pub fn next_with(&mut self, answer: Value, bytes: Option<Vec<u8>>) -> Result<Value> {
        if answer.is_null() {
            return self.first.take().unwrap_or_else(|| {
                Err(Error::new(
                    Code::Argument,
                    "/answer",
                    "null asks for the first step, which was given: answer the step before \
                     (an object: what the host saw doing it)",
                ))
            });
        }
        self.first = None;
        if self.task.is_none() {
            return Err(Error::new(
                Code::Argument,
                "",
                "this job is over: it gave its last step",
            ));
        }
        if !answer.is_object() {
            return Err(Error::new(
                Code::Argument,
                "/answer",
                "an answer is an object: what the host saw doing the step before",
            ));
        }
        self.io.tick(&answer);
        {
            let mut slot = self.io.slot();
            slot.answer = Some(answer);
            slot.bytes = bytes;
        }
        self.resume()
    }

    /// Runs the procedure to its next step (or its end).
    fn resume(&mut self) -> Result<Value> {
        let Some(task) = self.task.as_mut() else {
            return Err(Error::new(
                Code::Argument,
                "",
                "this job is over: it gave its last step",
            ));
        };
        let mut context = Context::from_waker(Waker::noop());
        match task.as_mut().poll(&mut context) {
            Poll::Ready(result) => {
                self.task = None;
                result
            }
            Poll::Pending => {
                let asked = self.io.slot().asked.take();
                asked.ok_or_else(|| {
                    Error::new(
                        Code::Argument,
                        "",
                        "the job waits without asking for a step",
                    )
                })
            }
        }
    }
}

impl Job {
    /// Whether the job left a plan while answers the host gave to it were still to be taken
    /// (the conformance runner reports it: a plan must be the path its procedure takes).
    pub(crate) fn strayed(&self) -> bool {
        self.io.strayed()
    }
}

/// `E_ARGUMENT`: the answer to an `all` step is not its answers.
fn not_answers() -> Error {
    Error::new(
        Code::Argument,
        "/answer/answers",
        "the answer to an `all` step is {\"answers\": [...]}: one answer (an object) per step \
         the host took, in order, stopping after the first that is not what its step expects",
    )
}

/// `E_ARGUMENT` when the host went on with a plan past an answer that failed or that its step
/// did not expect ([`meets`]): a driver stops there, and a step taken after it
/// may be one the procedure would not take.
fn went_on(answers: &[Value], steps: &[(Value, Option<Value>)]) -> Result<()> {
    let taken = answers.len().saturating_sub(1);
    for (n, (answer, (_, expect))) in answers.iter().zip(steps).take(taken).enumerate() {
        let why = if failed(answer).is_some() {
            "failed"
        } else if !meets(answer, expect.as_ref().unwrap_or(&Value::Null)) {
            "is not what its step expects"
        } else {
            continue;
        };
        return Err(Error::new(
            Code::Argument,
            format!("/answer/answers/{}", n.saturating_add(1)),
            format!(
                "the host went on with a plan after answer {n}, which {why}: a driver stops \
                 at the first answer that fails or is not what its step `expect`s \
                 (docs/locking.md § Plans)"
            ),
        ));
    }
    Ok(())
}

/// The step `{"do": "all", steps}` of a plan: `steps`, each with the answer it expects (its
/// `expect`), then `done` (the job's last step, when the host gets that far).
pub(crate) fn plan_step(steps: Vec<(Value, Option<Value>)>, done: Option<Value>) -> Value {
    let mut sent = Vec::with_capacity(steps.len().saturating_add(1));
    for (mut asked, expect) in steps {
        if let (Value::Object(map), Some(expect)) = (&mut asked, expect) {
            map.insert("expect".into(), expect);
        }
        sent.push(asked);
    }
    sent.extend(done);
    step("all", [("steps", Value::Array(sent))])
}

/// A step `{"do": what, ...fields}`.
pub fn step<'a>(what: &str, fields: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
    let fields = fields.into_iter();
    // `do`, the fields, and room for the `expect` a plan adds (no second allocation).
    let mut map = Map::with_capacity(fields.size_hint().0.saturating_add(2));
    map.insert("do".into(), what.into());
    for (key, value) in fields {
        map.insert(key.into(), value);
    }
    Value::Object(map)
}

/// The host's failure in an answer (`{"failed": n}`: the n-th error it kept), if any.
pub(crate) fn failed(answer: &Value) -> Option<Value> {
    answer.get("failed").cloned()
}

#[cfg(test)]
mod tests {
    use super::{fields, step, Io, Job};
    use crate::Value;

    /// A job that plans a read, then (having left `then` for the next plan) plans a write, and
    /// asks for each step again: what [`Io::then`] adds to which plan.
    fn job(tail: bool) -> Job {
        Job::start(0, 0.0, move |io: Io| async move {
            let read = step("read", [("path", "/f".into())]);
            let write = step("write", [("path", "/f".into())]);
            if tail {
                io.then(
                    vec![(write.clone(), None)],
                    Some(step("done", [("by", "then".into())])),
                );
            }
            io.nested()
                .plan(vec![(read.clone(), None)], Some(step("done", [])))
                .await?;
            io.drop_then();
            io.ask(read).await;
            let answer = io.ask(write).await;
            Ok(step("done", [("last", answer)]))
        })
    }

    fn first_steps(job: &Job) -> Vec<String> {
        let first = job.first().cloned().unwrap_or_default();
        let steps = first.get("steps").and_then(Value::as_array).cloned();
        steps
            .unwrap_or_default()
            .iter()
            .map(|s| {
                s.get("do")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn then_goes_on_after_the_next_plan_and_ends_it_with_its_step() {
        // A nested procedure's plan ends without its `done`; the tail's `done` ends it.
        assert_eq!(first_steps(&job(false)), ["read"]);
        assert_eq!(first_steps(&job(true)), ["read", "write", "done"]);
        // The tail's answers are given back when the job asks for its steps: no other crossing.
        let mut taken = job(true);
        let answers = fields([(
            "answers",
            Value::Array(vec![fields([("n", 1.into())]), fields([("n", 2.into())])]),
        )]);
        let last = taken.next(answers).ok().unwrap_or_default();
        assert_eq!(
            last.get("last").and_then(|a| a.get("n")),
            Some(&Value::from(2))
        );
        assert!(!taken.strayed());
        // Without the tail, the write is asked on its own.
        let mut alone = job(false);
        let asked = alone.next(fields([("answers", Value::Array(vec![fields([])]))]));
        assert_eq!(
            asked.ok().and_then(|s| s.get("do").cloned()),
            Some(Value::from("write"))
        );
    }
}
