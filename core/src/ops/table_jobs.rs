//! The table: the core's jobs (docs/locking.md § The lock as a job, § The update as a job;
//! docs/store.md § The update as a job). Each row starts a job, which its host runs on its
//! one job driver a step at a time: JS gets `{first, next(answer, bytes?), free()}`, Python a
//! `Job` (`first`, `next(answer, data=None)`). The `*_script` rows run the same jobs over
//! answers given in advance, as the conformance corpus does.

use super::{Access, Args, Module, Op, Out, Param, Returns};
use crate::error::Result;
use crate::lock::{self, shapes as l};
use crate::shape::Ty;
use crate::store::shapes as s;

/// The parameters every lock job ends with, after its own.
macro_rules! lock_params {
    ($($own:expr),* $(,)?) => {
        &[
            Param::text("lock", Ty::Str),
            $($own,)*
            Param::value("identity", Ty::Object(&l::IDENTITY)),
            Param::value("probe", Ty::Bool),
            Param::bytes("seed"),
            Param::value("now_ms", Ty::Number),
            Param::value("mono_ms", Ty::Number),
        ]
    };
}

/// A lock job's common arguments after its `own` ones: the lock, the identity, `probe`, the
/// seed and the two clocks.
struct LockArgs {
    lock: String,
    identity: crate::Value,
    probe: bool,
    seed: Vec<u8>,
    now_ms: i64,
    mono_ms: f64,
}

/// [`LockArgs`] from `a` (the identity moved out of it), whose lock job has `own` parameters
/// of its own after the lock.
fn lock_args(a: &mut Args<'_>, own: usize) -> Result<LockArgs> {
    let at = own.saturating_add(1);
    Ok(LockArgs {
        lock: a.text(0)?.to_owned(),
        identity: a.take(at),
        probe: a.flag(at.saturating_add(1))?,
        seed: a.bytes(at.saturating_add(2))?.to_vec(),
        now_ms: a.millis(at.saturating_add(3))?,
        mono_ms: a.number(at.saturating_add(4))?,
    })
}

/// The jobs' rows.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Lock,
        method: "acquire_job",
        doc: "A job taking the lock file `lock` (`<file>.lock`, absolute), waiting up to \
              `timeout_ms` (0: one attempt) in the fair queue and breaking a dead owner's lock \
              (docs/locking.md § The lock as a job): `identity` is this process, `probe` whether \
              processes can be probed here, `watching` whether the host watches its claim while \
              it pauses (a synchronous host), `seed` at least 16 random bytes (the records' \
              tokens and the pauses' jitter), `now_ms` and `mono_ms` the clocks. Ends with \
              `{do: \"done\", record, text, release}` (`release`: the release's first step), \
              `E_LOCK_TIMEOUT`, `E_LOCK_FOREIGN` or `{do: \"raise\", failed}`.",
        params: lock_params![
            Param::value("watching", Ty::Bool),
            Param::value("timeout_ms", Ty::Number),
        ],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let c = lock_args(a, 2)?;
            Out::job(lock::acquire_job(
                c.lock,
                c.identity,
                c.probe,
                a.flag(1)?,
                a.number(2)?,
                c.seed,
                c.now_ms,
                c.mono_ms,
            ))
        },
    },
    Op {
        module: Module::Lock,
        method: "release_job",
        doc: "A job releasing the lock file `lock` if it still holds exactly `text` (our \
              record's bytes): to the claimant of the next turn, or by removing it \
              (docs/locking.md § The lock as a job); the other parameters as `acquire_job`'s. \
              Ends with `{do: \"done\", released}` or `{do: \"raise\", failed}`.",
        params: lock_params![Param::text("text", Ty::Str)],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let c = lock_args(a, 1)?;
            let text = a.text(1)?.to_owned();
            Out::job(lock::release_job(
                c.lock, text, c.identity, c.probe, c.seed, c.now_ms, c.mono_ms,
            ))
        },
    },
    Op {
        module: Module::Lock,
        method: "sweep_job",
        doc: "A job sweeping what dead writers left next to the file `name` whose lock is \
              `lock`: the directory entries `names` (those holding the file's name) at `paths` \
              (docs/locking.md § Read-modify-write, step 1); the other parameters as \
              `acquire_job`'s. Ends with `{do: \"done\"}` or `{do: \"raise\", failed}`.",
        params: lock_params![
            Param::text("name", Ty::Str),
            Param::value("names", Ty::List(&Ty::Str)),
            Param::value("paths", Ty::List(&Ty::Str)),
        ],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let c = lock_args(a, 3)?;
            let names = a.texts(2)?;
            let entries = names
                .into_iter()
                .zip(a.texts(3)?)
                .map(|(name, path)| (name.to_owned(), path.to_owned()))
                .collect();
            Out::job(lock::sweep_job(
                c.lock,
                a.text(1)?.to_owned(),
                entries,
                c.identity,
                c.probe,
                c.seed,
                c.now_ms,
                c.mono_ms,
            ))
        },
    },
    Op {
        module: Module::Root,
        method: "store_job",
        doc: "A store job (`update`: a document's update, docs/store.md § The update as a job; \
              `session_step`, `session_read`: a hive session's step or its state's read, § Hive \
              sessions) started from `setup`, run by a store's driver.",
        params: &[
            Param::text("job", Ty::Enum(&s::JOB_KIND)),
            Param::value("setup", Ty::Object(&s::UPDATE_SETUP)),
        ],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| Out::job(crate::store::job(a.text(0)?, a.get(1))),
    },
    Op {
        module: Module::Root,
        method: "file_update_job",
        doc: "A job updating the file `path` (absolute), a document of `kind`, under the lock \
              its caller holds (docs/locking.md § The update as a job): read, wait while a \
              person may be saving, apply the change, copy an unparseable file, write, from the \
              read again when the file changed under it; `now_ms`: the wall clock (a \
              `.corrupt-` copy's date). Its `next(answer, bytes)` takes the file's bytes beside \
              the answer to a `load` that asks for them.",
        params: &[
            Param::text("kind", Ty::Kind),
            Param::text("path", Ty::Str),
            Param::value("now_ms", Ty::Number),
        ],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let path = a.text(1)?.to_owned();
            Out::job(crate::file_update::update_job(
                a.text(0)?,
                path,
                a.millis(2)?,
            ))
        },
    },
]);
