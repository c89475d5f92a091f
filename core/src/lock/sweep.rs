//! The lock holder's sweep, as a job: what dead writers left next to a file (an atomic
//! write's temp file, a lock's temp file, a break marker), removed before the holder writes. A
//! file that is not a statecore lock is never removed.

use super::facts::{Ctx, Setup, Stop};
use super::litter;
use crate::error::Result;
use crate::job::{step, Job};
use crate::Value;

/// A job sweeping next to the file named `name` whose lock is `lock`, among `entries` (each
/// `(name, path)`: a directory entry whose name holds the file's, and its path as the host
/// joins it). Ends with `{"do": "done"}` or `{"do": "raise", "failed"}`.
#[allow(clippy::too_many_arguments)]
pub fn sweep_job(
    lock: String,
    name: String,
    entries: Vec<(String, String)>,
    identity: Value,
    probe: bool,
    seed: Vec<u8>,
    now_ms: i64,
    mono_ms: f64,
) -> Result<Job> {
    let setup = Setup::new(lock, identity, probe, seed)?;
    Ok(setup.job(now_ms, mono_ms, move |ctx| async move {
        match sweep(&ctx, &name, &entries).await {
            Ok(()) => Ok(step("done", [])),
            Err(stop) => ctx.stopped(stop),
        }
    }))
}

/// The sweep next to the file named `name`, among `entries` (`(name, path)`), on `ctx`.
pub(super) async fn sweep(
    ctx: &Ctx,
    name: &str,
    entries: &[(String, String)],
) -> std::result::Result<(), Stop> {
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    let found = litter(name, &names);
    for item in found.as_array().map(Vec::as_slice).unwrap_or_default() {
        let entry = item
            .get("entry")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let what = item.get("what").and_then(Value::as_str).unwrap_or_default();
        let Some((_, path)) = entries.iter().find(|(n, _)| n == entry) else {
            continue;
        };
        if what == "write_temp" {
            ctx.unlink(path).await?; // nobody else writes while we hold the lock
            continue;
        }
        // A lock temp file or break marker holds its creator's record: judged like a
        // lock; one that cannot be read (not a regular file) is not ours to judge.
        let Ok(Some(owner)) = ctx.read_owner(path).await else {
            continue;
        };
        if owner.foreign || !ctx.dead(&owner, true).await? {
            continue;
        }
        if what == "lock_temp" {
            ctx.unlink(path).await?;
        } else {
            ctx.break_file(path, &owner, 0).await?;
        }
    }
    Ok(())
}
