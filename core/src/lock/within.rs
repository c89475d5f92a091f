//! The lock's procedures as parts of a larger job (the command line's locked update, docs/cli.md
//! § update): the acquisition, the holder's sweep and the release of the lock's own jobs
//! (docs/locking.md § The lock as a job), asked on that job's steps.

use super::acquire::{acquire, release};
use super::facts::{Ctx, Mine, Setup};
use super::sweep::sweep;
use crate::error::Result;
use crate::job::{Io, Stop};
use crate::Value;

/// The lock of one file, taken and given back inside a larger job.
pub struct Locking {
    ctx: Ctx,
}

/// A lock taken by [`Locking::acquire`]: its record, for the release.
pub struct Held(Mine);

impl Locking {
    /// The lock file `lock` (absolute) on the job's `io`, for the process `identity` (`probe`:
    /// processes can be probed here; `seed`: random bytes), as [`super::acquire_job`] takes
    /// them: `E_ARGUMENT` for an identity or seed it refuses.
    pub fn new(
        io: &Io,
        lock: String,
        identity: Value,
        probe: bool,
        seed: Vec<u8>,
    ) -> Result<Locking> {
        let setup = Setup::new(lock, identity, probe, seed)?;
        Ok(Locking {
            ctx: setup.with(io.nested()),
        })
    }

    /// Takes the lock, waiting up to `timeout_ms` (`watching`: the host watches its claim
    /// while it pauses): [`super::acquire_job`]'s procedure.
    pub async fn acquire(
        &self,
        watching: bool,
        timeout_ms: f64,
    ) -> std::result::Result<Held, Stop> {
        acquire(&self.ctx, watching, timeout_ms).await.map(Held)
    }

    /// Removes what dead writers left next to the file named `name` in the directory `dir`,
    /// among the directory's `entries` (their names): [`super::sweep_job`]'s procedure, over
    /// the names that hold the file's (other than the file, its lock and its claim).
    pub async fn sweep(
        &self,
        dir: &str,
        name: &str,
        entries: &[&str],
    ) -> std::result::Result<(), Stop> {
        let own = [
            name.to_owned(),
            format!("{name}.lock"),
            format!("{name}.lock.next"),
        ];
        let candidates: Vec<(String, String)> = entries
            .iter()
            .filter(|entry| entry.contains(name) && !own.iter().any(|o| o == *entry))
            .map(|entry| {
                (
                    (*entry).to_owned(),
                    format!("{}/{entry}", dir.trim_end_matches('/')),
                )
            })
            .collect();
        if candidates.is_empty() {
            return Ok(());
        }
        sweep(&self.ctx, name, &candidates).await
    }

    /// The release's first plan for `held` (the steps [`Locking::release`] asks first, each
    /// with the answer it expects), for a job to plan them ahead of the release.
    pub fn release_steps(&self, held: &Held) -> Vec<(Value, Option<Value>)> {
        self.ctx.release_plan(&held.0).0
    }

    /// Releases the lock if its file still holds our record: [`super::release_job`]'s
    /// procedure. True when it was released.
    pub async fn release(&self, held: &Held) -> std::result::Result<bool, Stop> {
        release(&self.ctx, &held.0).await
    }
}
