//! A document's file updated under its lock as a part of a larger job (the command line's
//! `update`, docs/cli.md § update; docs/locking.md § The locked update inside a job): the
//! host asked who it is, the lock taken, what dead writers left next to the file swept, the
//! file updated by a change the job applies itself ([`crate::file_update::update_within`]),
//! the lock released. Besides the lock's and the file update's steps, it asks:
//!
//! - `{"do": "identity"}`: answer `{"identity": {pid, start, boot, host}, "probe", "seed"}`
//!   (this process, whether processes can be probed here, 16 random bytes in hex), with the
//!   clocks;
//! - `{"do": "entries", "path"}`: the names in the directory `path`, answered `{"names"}` (a
//!   failure: nothing is swept).
//!
//! The host keeps nothing between steps but a `load`'s stamp, which its `write` checks.

use crate::error::Result;
use crate::file_update::{update_within, Applied, Apply};
use crate::job::{failed, step, Io, Stop};
use crate::lock::{hex_bytes, Locking};
use crate::Value;

/// The update of the document of `kind` in the file `path` (absolute) by `apply`, under the
/// file's lock, waited for up to `timeout_ms`, on the job's `io`: the file update's last step
/// (`corrupt_copy`, `warning`) and the change's result; or why it stopped (a lock timeout, a
/// conflict, the host's failure). The lock is released whatever the update's outcome; a
/// release that fails leaves it to its owner's death, as the hosts' own update does.
pub async fn locked_update(
    io: &Io,
    path: &str,
    kind: &str,
    timeout_ms: f64,
    apply: Apply,
) -> std::result::Result<(Value, Applied), Stop> {
    let who = io.ask(step("identity", [])).await;
    if let Some(failure) = failed(&who) {
        return Err(Stop::Host(failure));
    }
    let locking = locking(io, path, &who)?;
    let held = locking.acquire(true, timeout_ms).await?;
    let updated = swept_and_updated(io, &locking, path, kind, apply).await;
    let _released = locking.release(&held).await;
    updated
}

/// The lock of `path` for the process the host's answer `who` describes.
fn locking(io: &Io, path: &str, who: &Value) -> Result<Locking> {
    let identity = who.get("identity").cloned().unwrap_or(Value::Null);
    let probe = who.get("probe").and_then(Value::as_bool) == Some(true);
    let seed = hex_bytes(
        who.get("seed").and_then(Value::as_str).unwrap_or_default(),
        "/answer/seed",
    )?;
    Locking::new(io, format!("{path}.lock"), identity, probe, seed)
}

/// Under the lock: the sweep, then the file's update.
async fn swept_and_updated(
    io: &Io,
    locking: &Locking,
    path: &str,
    kind: &str,
    apply: Apply,
) -> std::result::Result<(Value, Applied), Stop> {
    let (dir, name) = match path.rsplit_once('/') {
        Some(("", name)) => ("/", name),
        Some(split) => split,
        None => (".", path),
    };
    let listed = io.ask(step("entries", [("path", dir.into())])).await;
    if failed(&listed).is_none() {
        let names: Vec<&str> = listed
            .get("names")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        locking.sweep(dir, name, &names).await?;
    }
    update_within(io, kind, path.to_owned(), apply).await
}
