//! A command line as a job (docs/cli.md § How it runs): the core keeps the parsed arguments,
//! the facts gathered so far, what a log read in pages carries between rounds and what a
//! command that goes on waits for, and asks the host for one thing at a time: `gather` (the
//! needs of a round, with the output so far and a progress line), `print`, `look` (the records
//! of the watched files), `sleep`, `env` (a new call's environment) and `done`; a round that
//! needs a locked update of a file has the job carry it out, asking for its system calls
//! ([`locked_write`], docs/cli.md § The locked update). The host's driver performs each step
//! and answers it; it never parses, counts rounds or keeps state.

use super::locked_write;
use super::shapes::{ENV, FACTS};
use super::wait::{self, RECORDS};
use super::{checked, ended, env_of, partial, round, Program, Round};
use statecore::error::{Code, Error, Result};
use statecore::job::{step, Io, Job};
use statecore::shape::{Field, Shape, Ty};
use statecore::{Map, Value};

/// How many rounds a call may ask for more before the job gives up (a core bug), not counting
/// the rounds of a log read in pages (those that carry).
const MAX_ROUNDS: usize = 16;

/// The host's answer to `gather`.
static GATHERED: Shape = Shape::exact(
    "CliGathered",
    "The facts of a `gather` step's needs (only those: files read, directories listed, writes carried out, standard input, variables, tmux's sessions, random bytes).",
    &[Field::req("facts", Ty::Object(&FACTS), "The new facts.")],
);

/// The host's answer to `look`.
static LOOKED: Shape = Shape::exact(
    "CliLooked",
    "The records of the watched files (modification time in ns, size and inode; null: missing), and the host's clock when the look began.",
    &[
        Field::req("seen", RECORDS, "The records, by path."),
        Field::req("mono_ms", Ty::Number, "The host's clock, in ms."),
    ],
);

/// The host's answer to `sleep`.
static SLEPT: Shape = Shape::exact(
    "CliSlept",
    "The host's clock after the sleep.",
    &[Field::req(
        "mono_ms",
        Ty::Number,
        "The host's clock, in ms.",
    )],
);

/// The host's answer to `env`.
static ENVIRONED: Shape = Shape::exact(
    "CliEnvironment",
    "Where the next call of a command that goes on runs (the time now, its offset from UTC).",
    &[Field::req("env", Ty::Object(&ENV), "The environment.")],
);

/// The host's answer to `print`.
static PRINTED: Shape = Shape::exact(
    "CliPrinted",
    "The text was printed; with the host's clock after printing, if it gives it.",
    &[Field::opt(
        "mono_ms",
        Ty::Number,
        "The host's clock, in ms.",
    )],
);

/// A job running `request` (`{argv, env, facts?}`, checked) with `program`'s commands: `E_ARGUMENT`
/// or `E_OPTIONS` for a request that is not a command line request.
pub fn job(program: &'static Program, request: &Value) -> Result<Job> {
    if program.goes_on {
        start::<true>(program, request)
    } else {
        start::<false>(program, request)
    }
}

/// The status line's job ([`job`] of [`super::STATUS`]): a module built for it alone links
/// no wait of a command that goes on.
pub fn status_job(request: &Value) -> Result<Job> {
    start::<false>(&super::STATUS, request)
}

/// [`job`]; `FULL`: the whole command line, whose commands may go on (`then`) and write
/// under a lock; else (the status line) a command's first answer ends it, and it never writes.
fn start<const FULL: bool>(program: &'static Program, request: &Value) -> Result<Job> {
    let request = checked(request)?;
    let parsed = (program.parse)(&super::argv_of(request));
    let env = env_of(request).cloned().unwrap_or_default();
    let facts = request
        .get("facts")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let make = move |io| Run {
        io,
        program,
        parsed,
        env,
        facts,
        rounds: 0,
    };
    // Two procedures, chosen here: a module whose jobs never go on links only the second.
    Ok(if FULL {
        Job::start(0, 0.0, move |io| make(io).calls())
    } else {
        Job::start(0, 0.0, move |io| make(io).call())
    })
}

/// Where a call's rounds stopped ([`Run::settle`]).
enum Settled {
    /// The call's answer.
    Output(Map),
    /// The job's last step (a command that kept asking).
    Last(Value),
    /// Locked updates of files to carry out before the next round.
    Writes(Vec<Value>),
}

/// The job's state.
struct Run {
    io: Io,
    program: &'static Program,
    parsed: super::args::Parsed,
    env: Map,
    /// The facts gathered for the current call, with its `event` and `state`, and `carry`.
    facts: Map,
    /// The current call's rounds that asked for more (not counting those that carry).
    rounds: usize,
}

impl Run {
    /// The calls of the command: one, or one per event of a command that goes on.
    async fn calls(mut self) -> Result<Value> {
        let mut waiting = Value::Null;
        loop {
            self.rounds = 0;
            let output = loop {
                match self.settle::<true>().await? {
                    Settled::Output(output) => break output,
                    Settled::Last(done) => return Ok(done),
                    Settled::Writes(needs) => {
                        for need in &needs {
                            self.write(need).await;
                        }
                    }
                }
            };
            let Some(then) = output.get("then").cloned() else {
                return Ok(done(output));
            };
            let seen = self.look(&then).await?;
            waiting = wait::take(&waiting, &then, &seen, &self.clock())?;
            self.answered(printing(&output), &PRINTED).await?;
            let Some((event, now_waiting)) = self.wait(&waiting).await? else {
                // Nothing to wait for: the call's exit code, its output printed.
                let code = output.get("code").cloned().unwrap_or(Value::from(0u64));
                let empty = || Value::from("");
                let last = [("stdout", empty()), ("stderr", empty()), ("code", code)];
                return Ok(step("done", last));
            };
            waiting = now_waiting;
            let mut env = self.answered(step("env", []), &ENVIRONED).await?;
            self.env = take_object(&mut env, "env");
            self.facts = Map::new();
            self.facts.insert("event".into(), event);
            if let Some(state) = then.get("state") {
                self.facts.insert("state".into(), state.clone());
            }
        }
    }

    /// Waits for what `waiting` waits for, looking and sleeping as the wait says (docs/cli.md
    /// § Commands that go on): the event and what is waited for after it, or `None` when
    /// nothing is (idle).
    async fn wait(&self, waiting: &Value) -> Result<Option<(Value, Value)>> {
        let mut next = wait::next(waiting, &self.clock(), &Value::Null)?;
        loop {
            let waited = next.get("waiting").cloned().unwrap_or(Value::Null);
            if let Some(event) = next.get("event") {
                return Ok(Some((event.clone(), waited)));
            }
            if next.get("idle") == Some(&Value::Bool(true)) {
                return Ok(None);
            }
            next = if next.get("look") == Some(&Value::Bool(true)) {
                let seen = self.look(&waited).await?;
                wait::next(&waited, &self.clock(), &seen)?
            } else {
                let ms = next.get("sleep_ms").cloned().unwrap_or(Value::from(0u64));
                self.answered(step("sleep", [("ms", ms)]), &SLEPT).await?;
                wait::next(&waited, &self.clock(), &Value::Null)?
            };
        }
    }

    /// The one call of a command that never goes on (a `then` is not followed): a procedure of
    /// its own, so that a module with only such commands links no wait.
    async fn call(mut self) -> Result<Value> {
        Ok(match self.settle::<false>().await? {
            Settled::Output(output) => done(output),
            Settled::Last(done) => done,
            // Never: a round settled without writes does not ask for them.
            Settled::Writes(_) => kept_asking(self.program),
        })
    }

    /// One call's rounds, each gathering what the last one needs: the call's answer (`{stdout,
    /// stderr, code, then?, serve?}`), the job's last step when the command kept asking (a
    /// statecore bug), or (`WRITES`) the locked updates of files a round needs, which the
    /// caller carries out ([`Run::write`]) before it settles again. Only [`Run::calls`]
    /// writes: a module built for the status line alone links no write.
    async fn settle<const WRITES: bool>(&mut self) -> Result<Settled> {
        loop {
            let Round {
                output,
                needs,
                carry,
                progress,
            } = round(
                self.program,
                &self.parsed,
                Some(&self.facts),
                Some(&self.env),
            );
            if needs.is_empty() {
                self.facts.shift_remove("carry");
                return Ok(Settled::Output(ended(output)));
            }
            if carry.is_empty() {
                self.facts.shift_remove("carry");
                self.rounds = self.rounds.saturating_add(1);
                if self.rounds > MAX_ROUNDS {
                    return Ok(Settled::Last(kept_asking(self.program)));
                }
            } else {
                self.facts.insert("carry".into(), Value::Object(carry));
            }
            if WRITES && needs.iter().any(locked_write::own) {
                // The round runs again once they are done, and asks for the rest.
                let own = needs.into_iter().filter(locked_write::own).collect();
                return Ok(Settled::Writes(own));
            }
            let mut asked = Map::new();
            asked.insert("do".into(), Value::from("gather"));
            asked.insert("needs".into(), Value::Array(needs));
            partial(&mut asked, output, progress);
            let mut answer = self.answered(Value::Object(asked), &GATHERED).await?;
            self.gathered(take_object(&mut answer, "facts"))?;
        }
    }

    /// Carries out the locked update `need` ([`locked_write`]) and keeps its fact.
    async fn write(&mut self, need: &Value) {
        let cwd = self
            .env
            .get("cwd")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let fact = locked_write::fact(&self.io, need, cwd.as_deref()).await;
        let path = need.get("path").and_then(Value::as_str).unwrap_or_default();
        // Kept as a host's gathered write is: beside the others of the call.
        match self.facts.get_mut("writes") {
            Some(Value::Object(kept)) => {
                kept.insert(path.into(), fact);
            }
            _ => {
                let mut writes = Map::new();
                writes.insert(path.into(), fact);
                self.facts.insert("writes".into(), Value::Object(writes));
            }
        }
    }

    /// Adds the facts of a `gather` step to those of the call (a fact given again replaces
    /// the one kept); `E_ARGUMENT` for the facts a host does not gather (`event`, `state`,
    /// `carry`: the job's own).
    fn gathered(&mut self, facts: Map) -> Result<()> {
        for (key, value) in facts {
            match (key.as_str(), value) {
                ("event" | "state" | "carry", _) => {
                    return Err(Error::new(
                        Code::Argument,
                        format!("/facts/{key}"),
                        format!(
                            "`{key}` is the job's to keep, not a fact a host gathers: answer \
                             a `gather` step with the facts of its needs"
                        ),
                    ))
                }
                ("files" | "dirs" | "writes" | "env", Value::Object(new)) => {
                    match self.facts.get_mut(&key) {
                        Some(Value::Object(kept)) => kept.extend(new),
                        _ => {
                            self.facts.insert(key, Value::Object(new));
                        }
                    }
                }
                (_, value) => {
                    self.facts.insert(key, value);
                }
            }
        }
        Ok(())
    }

    /// Asks the host for the records of the files `of` watches (`{watch, names}`).
    async fn look(&self, of: &Value) -> Result<Value> {
        let watch = of.get("watch").cloned().unwrap_or(Value::Array(Vec::new()));
        let names = of.get("names").cloned().unwrap_or(Value::Null);
        let looked = step("look", [("watch", watch), ("names", names)]);
        let mut answer = self.answered(looked, &LOOKED).await?;
        Ok(answer
            .shift_remove("seen")
            .unwrap_or(Value::Object(Map::new())))
    }

    /// Asks the host for `asked` and checks its answer against `shape`.
    async fn answered(&self, asked: Value, shape: &'static Shape) -> Result<Map> {
        // The step's name, for the error: not the step, which may carry a page's output.
        let what = asked
            .get("do")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let answer = self.io.ask(asked).await;
        check(&what, &answer, shape)?;
        match answer {
            Value::Object(map) => Ok(map),
            _ => Ok(Map::new()),
        }
    }

    /// The host's clock as of its last answer, in ms.
    fn clock(&self) -> Value {
        Value::from(self.io.mono_ms())
    }
}

/// The answer to a step `what` checked against its shape: `E_ARGUMENT` (a missing or
/// mistyped field) or `E_OPTIONS` (a misspelt one), at its path in the answer.
fn check(what: &str, answer: &Value, shape: &'static Shape) -> Result<()> {
    let mut report = statecore::report::Report::default();
    statecore::shape::check::walk(&mut report, answer, shape, "");
    if let Some(first) = report.errors.first() {
        return Err(Error::new(
            Code::Argument,
            first.path.clone(),
            format!(
                "the answer to a `{what}` step is a {} (docs/cli.md § How it runs): {}",
                shape.name, first.message
            ),
        ));
    }
    statecore::options::check_deep("answer", answer, shape)
}

/// The object under `key` of `map`, taken out (empty when it is not one).
fn take_object(map: &mut Map, key: &str) -> Map {
    match map.shift_remove(key) {
        Some(Value::Object(object)) => object,
        _ => Map::new(),
    }
}

/// The job's last step when a command kept asking for more (a statecore bug): code 2.
fn kept_asking(program: &Program) -> Value {
    let message = format!(
        "{}: the command kept asking for more files (a statecore bug)\n",
        program.name
    );
    step(
        "done",
        [
            ("stdout", Value::from("")),
            ("stderr", Value::from(message)),
            ("code", Value::from(2u64)),
        ],
    )
}

/// The job's last step for a call's answer: `done` with its output, exit code and `serve`.
fn done(output: Map) -> Value {
    let mut last = Map::new();
    last.insert("do".into(), Value::from("done"));
    for key in ["stdout", "stderr", "code", "serve"] {
        if let Some(value) = output.get(key) {
            last.insert(key.into(), value.clone());
        }
    }
    Value::Object(last)
}

/// The `print` step of a call's answer that goes on.
fn printing(output: &Map) -> Value {
    let text = |key: &str| output.get(key).cloned().unwrap_or(Value::from(""));
    step(
        "print",
        [("stdout", text("stdout")), ("stderr", text("stderr"))],
    )
}
