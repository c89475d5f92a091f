//! A sans-I/O job (docs/locking.md § The lock as a job): a procedure of the lock protocol
//! written as straight-line async code that asks the host for one system call at a time. The
//! host's driver calls [`Job::next`] with what it saw and gets the next thing to do (`stat`,
//! `read`, `create`, `pause`, ..., `done`); nothing here waits, reads a clock or touches a
//! file. The future is polled by hand with a no-op waker: a step is pending exactly while the
//! host has not answered it.

use crate::error::{Code, Error, Result};
use crate::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

/// What the job asked and what the host answered, shared by the job and its procedures.
#[derive(Default)]
struct Slot {
    asked: Option<Value>,
    answer: Option<Value>,
}

/// The job's side of the host: asks for steps, and knows the clocks as of the last answer.
#[derive(Clone)]
pub(super) struct Io {
    slot: Arc<Mutex<Slot>>,
    /// Wall clock (epoch ms) and monotonic clock (ms) as of the last answer.
    clock: Arc<Mutex<(i64, f64)>>,
}

impl Io {
    /// Asks the host to do `step` (`{"do": ...}`); resolves to its answer.
    pub(super) fn ask(&self, step: Value) -> Ask {
        Ask {
            io: self.clone(),
            step: Some(step),
        }
    }

    /// The clocks as of the host's last answer.
    fn clocks(&self) -> (i64, f64) {
        *self.clock.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The wall clock (epoch ms) as of the host's last answer.
    pub(super) fn now_ms(&self) -> i64 {
        self.clocks().0
    }

    /// The monotonic clock (ms) as of the host's last answer.
    pub(super) fn mono_ms(&self) -> f64 {
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
pub(super) struct Ask {
    io: Io,
    step: Option<Value>,
}

impl Future for Ask {
    type Output = Value;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Value> {
        if let Some(step) = self.step.take() {
            self.io.slot().asked = Some(step);
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
    /// True once the first step was asked.
    started: bool,
}

impl Job {
    /// A job running `procedure` (given the job's [`Io`]), its clocks starting at `now_ms`
    /// (epoch) and `mono_ms` (monotonic).
    pub(super) fn start<F, P>(now_ms: i64, mono_ms: f64, procedure: P) -> Job
    where
        P: FnOnce(Io) -> F,
        F: Future<Output = Result<Value>> + Send + 'static,
    {
        let io = Io {
            slot: Arc::new(Mutex::new(Slot::default())),
            clock: Arc::new(Mutex::new((now_ms, mono_ms))),
        };
        let task: Task = Box::pin(procedure(io.clone()));
        Job {
            io,
            task: Some(task),
            started: false,
        }
    }

    /// The next step, given what the host saw doing the last one (`null` for the first
    /// call): `{"do": "stat" | "read" | "probe" | "create" | "unlink" | "rename" | "displace"
    /// | "pause" | "watch" | "done" | "raise", ...}` (docs/locking.md § The lock as a job).
    /// The job's own error (a timeout, a foreign lock) ends it; a call after its end is
    /// `E_ARGUMENT`.
    pub fn next(&mut self, answer: Value) -> Result<Value> {
        let Some(task) = self.task.as_mut() else {
            return Err(Error::new(
                Code::Argument,
                "",
                "this job is over: it gave its last step",
            ));
        };
        if answer.is_null() == self.started || !(answer.is_null() || answer.is_object()) {
            return Err(Error::new(
                Code::Argument,
                "/answer",
                "the first call takes null, every later one the answer to the step before \
                 (an object: what the host saw doing it)",
            ));
        }
        self.started = true;
        if !answer.is_null() {
            self.io.tick(&answer);
            self.io.slot().answer = Some(answer);
        }
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

/// A step `{"do": what, ...fields}`.
pub(super) fn step(what: &str, fields: &[(&str, Value)]) -> Value {
    let mut map = Map::with_capacity(fields.len().saturating_add(1));
    map.insert("do".into(), what.into());
    for (key, value) in fields {
        map.insert((*key).into(), value.clone());
    }
    Value::Object(map)
}

/// The host's failure in an answer (`{"failed": n}`: the n-th error it kept), if any.
pub(super) fn failed(answer: &Value) -> Option<Value> {
    answer.get("failed").cloned()
}
