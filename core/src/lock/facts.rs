//! What the lock's jobs ask the host and make of its answers: a file's stamp, a lock file's
//! owner, its process's liveness, a file created complete, removed only when it holds our
//! record, a dead owner's file broken through a marker. Every verdict is the core's
//! ([`super::owner`], [`super::verdict`]); the host only performs the step.

use super::expect::{holding, missing_or_young};
use super::{foreign_error, new_record, owner, timeout_error, TOKEN_BYTES};
use crate::error::{Code, Error, Result};
use crate::job::{failed, plan_step, step, Ask, Io, Job};
use crate::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

pub(super) use crate::job::Stop;

/// A record of ours: `{record, text}` and its token.
#[derive(Clone)]
pub(super) struct Mine {
    pub record: Value,
    pub text: String,
    pub token: String,
}

impl Mine {
    /// Ours from a lock file's text (a held lock's), when it is a record.
    pub fn from_text(text: &str) -> Option<Mine> {
        let record = super::parse_record(text.as_bytes())?;
        let token = record.get("token")?.as_str()?.to_owned();
        Some(Mine {
            record,
            text: text.to_owned(),
            token,
        })
    }
}

/// A file's stamp: its inode and its mtime (epoch ms).
pub(super) struct Stat {
    pub ino: String,
    pub mtime_ms: i64,
}

/// What a lock file, break marker or turn claim holds, as the core reads it.
pub(super) struct Owner {
    pub record: Value,
    pub id: String,
    pub foreign: bool,
    pub mtime_ms: i64,
    pub text: String,
}

impl Owner {
    /// `{record, id, foreign}`: what the core's rules take.
    pub fn reading(&self) -> Value {
        let mut map = crate::Map::with_capacity(3);
        map.insert("record".into(), self.record.clone());
        map.insert("id".into(), self.id.as_str().into());
        map.insert("foreign".into(), self.foreign.into());
        Value::Object(map)
    }
}

/// What a job needs before its host's [`Io`] exists.
pub(super) struct Setup {
    lock: String,
    identity: Value,
    probe: bool,
    seed: Vec<u8>,
}

impl Setup {
    /// Checks the identity and the seed (`E_ARGUMENT`).
    pub fn new(lock: String, identity: Value, probe: bool, seed: Vec<u8>) -> Result<Setup> {
        if seed.len() < TOKEN_BYTES {
            return Err(Error::new(
                Code::Argument,
                "/seed",
                format!("a job needs {TOKEN_BYTES} random bytes"),
            ));
        }
        super::identity_fields(&identity)?;
        Ok(Setup {
            lock,
            identity,
            probe,
            seed,
        })
    }

    /// A job running `procedure` over this setup's context, its clocks starting at `now_ms`
    /// (epoch) and `mono_ms` (monotonic).
    pub fn job<F, P>(self, now_ms: i64, mono_ms: f64, procedure: P) -> Job
    where
        P: FnOnce(Ctx) -> F,
        F: Future<Output = Result<Value>> + Send + 'static,
    {
        Job::start(now_ms, mono_ms, move |io| procedure(self.with(io)))
    }

    /// The procedures' context over the job's `io`.
    pub(super) fn with(self, io: Io) -> Ctx {
        let next = format!("{}.next", self.lock);
        let text = |key: &str| {
            self.identity
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        Ctx {
            host: text("host"),
            boot: text("boot"),
            io,
            next,
            draws: AtomicU64::new(0),
            prepared: Mutex::new(None),
            setup: self,
        }
    }
}

/// The context of a job's procedures: its paths, its process, its random draws, its host.
pub(super) struct Ctx {
    io: Io,
    setup: Setup,
    next: String,
    host: Option<String>,
    boot: Option<String>,
    draws: AtomicU64,
    /// A record made for a plan's `create`: the one [`Ctx::new_record`] gives while the plan's
    /// answers are given back.
    prepared: Mutex<Option<Mine>>,
}

/// A procedure's part as its own future (boxed, never inlined: a job's poll stays small, which
/// keeps the JIT of a wasm engine quick, and a recursive part possible).
pub(super) type Step<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A part of a procedure that may stop it.
pub(super) type Boxed<'a, T> = Step<'a, std::result::Result<T, Stop>>;

impl Ctx {
    pub fn io(&self) -> &Io {
        &self.io
    }

    /// The lock file.
    pub fn lock(&self) -> &str {
        &self.setup.lock
    }

    /// The claim file of the next turn.
    pub fn next_path(&self) -> &str {
        &self.next
    }

    /// Asks for `step`; the host's failure stops the procedure.
    pub fn ask(&self, asked: Value) -> Asked {
        Asked(self.io.ask(asked))
    }

    /// 16 new random bytes: the host's seed hashed, keyed by a counter.
    fn random(&self) -> [u8; 16] {
        let n = self.draws.fetch_add(1, Ordering::Relaxed);
        xxhash_rust::xxh3::xxh3_128_with_seed(&self.setup.seed, n).to_le_bytes()
    }

    /// A number in [0, 1) for a pause's jitter.
    pub fn jitter(&self) -> f64 {
        let bytes = self.random();
        let word = u64::from_le_bytes(
            <[u8; 8]>::try_from(bytes.get(..8).unwrap_or_default()).unwrap_or_default(),
        );
        (word >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A new record of ours, dated now; while a plan's answers are given back, the record made
    /// for it ([`Ctx::prepare`]).
    pub fn new_record(&self) -> Result<Mine> {
        let prepared = self
            .prepared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match prepared {
            Some(mine) if self.io.replaying() => Ok(mine),
            _ => self.record_dated(self.io.now_ms()),
        }
    }

    /// A record made now for a plan that creates a file: [`Ctx::new_record`] gives it when the
    /// procedure reaches that step on the plan's answers (dated when the plan was made: at
    /// most one pause before the file is created).
    pub fn prepare(&self) -> Result<Mine> {
        let mine = self.record_dated(self.io.now_ms())?;
        *self.prepared.lock().unwrap_or_else(PoisonError::into_inner) = Some(mine.clone());
        Ok(mine)
    }

    /// Asks for `steps` in one plan ([`Io::plan`]), ending with `done` when the host gets that
    /// far. None while another plan's answers are still given back.
    pub async fn plan(
        &self,
        steps: Vec<(Value, Option<Value>)>,
        done: Option<Value>,
    ) -> std::result::Result<(), Stop> {
        if self.io.replaying() {
            return Ok(());
        }
        Ok(self.io.plan(steps, done).await?)
    }

    /// A new record of ours dated `at` (epoch ms; a claim is dated when its waiter started).
    pub fn record_dated(&self, at: i64) -> Result<Mine> {
        new_record(&self.setup.identity, &self.random(), at)
    }

    /// A file's stamp, or `None` when there is none.
    pub async fn stat(&self, path: &str) -> std::result::Result<Option<Stat>, Stop> {
        let answer = self.ask(stat_step(path)).await?;
        if answer.get("missing").is_some() {
            return Ok(None);
        }
        Ok(Some(Stat {
            ino: answer
                .get("ino")
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .unwrap_or_default(),
            mtime_ms: answer.get("mtime_ms").and_then(Value::as_i64).unwrap_or(0),
        }))
    }

    /// What a lock file (or marker, or claim) holds, or `None` when it does not exist. The
    /// host reads it without blocking (a FIFO there is its `E_FILE_TYPE` failure).
    pub async fn read_owner(&self, path: &str) -> std::result::Result<Option<Owner>, Stop> {
        let answer = self.ask(read_step(path)).await?;
        if answer.get("missing").is_some() {
            return Ok(None);
        }
        let bytes = bytes_of(&answer);
        let key = answer
            .get("key")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let read = owner(&bytes, key);
        Ok(Some(Owner {
            record: read.get("record").cloned().unwrap_or(Value::Null),
            id: read
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            foreign: read
                .get("foreign")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            mtime_ms: answer.get("mtime_ms").and_then(Value::as_i64).unwrap_or(0),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }))
    }

    /// The facts the core's verdict needs about an owner; with `liveness`, its process probed
    /// (only on this host, where processes can be probed).
    pub async fn facts(&self, owner: &Owner, liveness: bool) -> std::result::Result<Value, Stop> {
        let record_host = owner.record.get("host").and_then(Value::as_str);
        let pid = owner.record.get("pid").cloned();
        let local = liveness
            && self.setup.probe
            && record_host.is_some()
            && record_host == self.host.as_deref();
        let (exists, stat) = match pid.filter(|_| local) {
            Some(pid) => {
                let answer = self.ask(step("probe", [("pid", pid)])).await?;
                let field = |key: &str| answer.get(key).cloned().unwrap_or(Value::Null);
                (field("exists"), field("stat"))
            }
            None => (Value::Null, Value::Null),
        };
        let mut map = crate::Map::with_capacity(7);
        map.insert("now_ms".into(), self.io.now_ms().into());
        map.insert("mtime_ms".into(), owner.mtime_ms.into());
        map.insert(
            "host".into(),
            self.host.clone().map_or(Value::Null, Value::from),
        );
        map.insert(
            "boot".into(),
            self.boot.clone().map_or(Value::Null, Value::from),
        );
        map.insert("probe".into(), self.setup.probe.into());
        map.insert("exists".into(), exists);
        map.insert("stat".into(), stat);
        Ok(Value::Object(map))
    }

    /// Whether an owner is provably gone (the core's verdict on the facts seen here).
    pub async fn dead(&self, owner: &Owner, liveness: bool) -> std::result::Result<bool, Stop> {
        let facts = self.facts(owner, liveness).await?;
        let verdict = super::verdict(&owner.record, &facts)?;
        Ok(verdict
            .get("dead")
            .and_then(Value::as_bool)
            .unwrap_or(false))
    }

    /// Creates `target` holding `mine`, complete from its first instant (a temp file linked
    /// into place, or created exclusively where links are unsupported): true when we did.
    pub async fn create(&self, target: &str, mine: &Mine) -> std::result::Result<bool, Stop> {
        let answer = self.ask(create_step(target, mine)).await?;
        Ok(answer
            .get("created")
            .and_then(Value::as_bool)
            .unwrap_or(false))
    }

    /// Removes `path` (gone already is fine).
    pub async fn unlink(&self, path: &str) -> std::result::Result<(), Stop> {
        self.ask(unlink_step(path)).await?;
        Ok(())
    }

    /// Removes `path` if it still holds exactly our record's bytes; never anyone else's.
    pub async fn release_file(&self, path: &str, mine: &Mine) -> std::result::Result<bool, Stop> {
        let answer = self.ask(read_step(path)).await?;
        if !holds_text(&answer, mine) {
            return Ok(false);
        }
        self.unlink(path).await?;
        Ok(true)
    }

    /// Whether the lock file holds exactly our record (the lock was handed to our claim).
    pub async fn holds(&self, mine: &Mine) -> bool {
        matches!(self.ask(read_step(self.lock())).await, Ok(answer) if holds_text(&answer, mine))
    }

    /// Removes `target` (the lock, a marker or a claim) whose owner `owner` was judged dead,
    /// if this job wins the marker `<lock>.break-<owner id>`: the winner reads `target` again,
    /// confirms it still holds the same owner, still dead, and removes it. A marker whose own
    /// owner is dead is removed the same way one level up. True after progress (something
    /// removed, or gone); false to wait for a live breaker.
    pub fn break_file<'a>(
        &'a self,
        target: &'a str,
        owner: &'a Owner,
        depth: u32,
    ) -> Boxed<'a, bool> {
        Box::pin(async move {
            let marker = format!("{}.break-{}", self.lock(), owner.id);
            let mine = self.new_record()?;
            if self.create(&marker, &mine).await? {
                let result = self.confirm_and_remove(target, owner).await;
                // Released whatever happened; its failure is the first one's or its own.
                let released = self.release_file(&marker, &mine).await;
                result?;
                released?;
                return Ok(true);
            }
            let Some(breaker) = self.read_owner(&marker).await? else {
                return Ok(true);
            };
            if depth >= 8 || !self.dead(&breaker, true).await? {
                return Ok(false);
            }
            self.break_file(&marker, &breaker, depth.saturating_add(1))
                .await
        })
    }

    /// Removes `target` if it still holds `owner`, still dead.
    async fn confirm_and_remove(
        &self,
        target: &str,
        owner: &Owner,
    ) -> std::result::Result<(), Stop> {
        if let Some(current) = self.read_owner(target).await? {
            if !current.foreign && current.id == owner.id && self.dead(&current, true).await? {
                self.unlink(target).await?;
            }
        }
        Ok(())
    }

    /// `E_LOCK_TIMEOUT` naming the holder, if it was read.
    pub fn timeout(&self, holder: Option<&Owner>, timeout_ms: f64) -> Error {
        let owner = holder.map_or(Value::Null, |h| {
            let mut map = crate::Map::with_capacity(3);
            map.insert("record".into(), h.record.clone());
            map.insert("id".into(), h.id.as_str().into());
            map.insert("text".into(), h.text.as_str().into());
            Value::Object(map)
        });
        let whole = match timeout_ms.round() {
            ms if (0.0..9.0e15).contains(&ms) => Value::from(ms as i64),
            ms => Value::from(ms),
        };
        timeout_error(self.lock(), &owner, &whole)
    }

    /// `E_LOCK_FOREIGN`: the lock path holds another tool's file.
    pub fn foreign(&self, owner: &Owner) -> Error {
        foreign_error(self.lock(), &owner.text)
    }

    /// The release's first plan (the first step of its job, [`super::release_job`]): the
    /// claim file missing, the lock holding `mine`, the lock removed, done.
    pub fn release_plan(&self, mine: &Mine) -> (Vec<(Value, Option<Value>)>, Option<Value>) {
        let steps = vec![
            (stat_step(self.next_path()), missing_or_young()),
            (read_step(self.lock()), holding(&mine.text)),
            (unlink_step(self.lock()), None),
        ];
        (steps, Some(step("done", [("released", true.into())])))
    }

    /// The acquisition's last step: the lock is ours, holding `mine` (`record`, `text`), and
    /// `release`, the release's first plan, which the host may take without a job.
    pub fn done_step(&self, mine: Mine) -> Value {
        let (steps, done) = self.release_plan(&mine);
        step(
            "done",
            [
                ("record", mine.record),
                ("text", mine.text.into()),
                ("release", plan_step(steps, done)),
            ],
        )
    }

    /// A procedure's end as the job's last step.
    pub fn finish(&self, result: std::result::Result<Mine, Stop>) -> Result<Value> {
        match result {
            Ok(mine) => Ok(self.done_step(mine)),
            Err(stop) => self.stopped(stop),
        }
    }

    /// A stop as the job's last step: the core's error, or the host's failure to raise.
    pub fn stopped(&self, stop: Stop) -> Result<Value> {
        match stop {
            Stop::Core(error) => Err(error),
            Stop::Host(failure) => Ok(step("raise", [("failed", failure)])),
        }
    }
}

/// The step asking for a file's stamp.
pub(super) fn stat_step(path: &str) -> Value {
    step("stat", [("path", path.into())])
}

/// The step asking for a file's bytes, read without blocking.
pub(super) fn read_step(path: &str) -> Value {
    step("read", [("path", path.into())])
}

/// The step creating `target` complete, holding our record (through a temp file of its token).
pub(super) fn create_step(target: &str, mine: &Mine) -> Value {
    let tmp = format!("{target}.{}.tmp", mine.token);
    step(
        "create",
        [
            ("path", target.into()),
            ("tmp", tmp.into()),
            ("text", mine.text.as_str().into()),
        ],
    )
}

/// The step removing a file.
pub(super) fn unlink_step(path: &str) -> Value {
    step("unlink", [("path", path.into())])
}

/// The bytes a `read` answer gives: its `latin1` text, one character per byte (exact whatever
/// the bytes are: an owner's id hashes them, the same in every host); none when missing.
fn bytes_of(answer: &Value) -> Vec<u8> {
    let text = answer
        .get("latin1")
        .and_then(Value::as_str)
        .unwrap_or_default();
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

/// Whether a `read` answer is exactly our record's bytes.
pub(super) fn holds_text(answer: &Value, mine: &Mine) -> bool {
    if answer.get("missing").is_some() {
        return false;
    }
    match answer.get("latin1").and_then(Value::as_str) {
        // ASCII characters are their bytes: compared as they are.
        Some(latin1) if latin1.is_ascii() => latin1 == mine.text,
        _ => bytes_of(answer) == mine.text.as_bytes(),
    }
}

/// A step whose failure stops the procedure ([`Stop::Host`]).
pub(super) struct Asked(Ask);

impl Future for Asked {
    type Output = std::result::Result<Value, Stop>;

    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|answer| match failed(&answer) {
                Some(failure) => Err(Stop::Host(failure)),
                None => Ok(answer),
            })
    }
}
