//! A document's file updated under its lock as a part of a larger job (the command line's
//! `update`, docs/cli.md § update; docs/locking.md § The locked update inside a job): the
//! host asked who it is, the lock taken, what dead writers left next to the file swept, the
//! file updated by a change the job applies itself ([`crate::file_update::update_within`]),
//! the lock released. Besides the lock's and the file update's steps, it asks:
//!
//! - `{"do": "identity"}`: answer `{"identity": {pid, start, boot, host}, "probe", "seed"}`
//!   (this process, whether processes can be probed here, 16 random bytes in hex), with the
//!   clocks;
//! - `{"do": "entries", "path", "containing", "except"}`: the names in the directory `path`
//!   that contain `containing` and are not in `except`, answered `{"names"}` (a failure:
//!   nothing is swept).
//!
//! Its common path is two plans: the lock's first attempt, the names and the file's reading
//! (expected: no names, nothing to sweep); then the write and the release.
//! The host keeps nothing between steps but a `load`'s stamp, which its `write` checks.

use crate::error::Result;
use crate::file_update::{own_load_step, update_within, After, Applied, Apply, Last};
use crate::job::{failed, fields, step, Io, Stop};
use crate::lock::{hex_bytes, Held, Locking};
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
    under_lock(io, &locking, path, kind, (timeout_ms, true), apply, None).await
}

/// Whether `path` is absolute on Windows (`C:\`, `\\server`): a host's path that is not
/// resolved against a working directory.
pub fn is_windows_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('\\')
        || (bytes.get(1) == Some(&b':') && bytes.first().is_some_and(u8::is_ascii_alphabetic))
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

/// The update of `path` by `apply` under `locking`'s lock, waited for up to `wait.0` ms
/// (`wait.1`: the host watches its claim while it pauses); `last`: the job's last step, made
/// from the result, when the update ends the job (the host may then end it after the
/// release without crossing back).
pub fn under_lock<'a>(
    io: &'a Io,
    locking: &'a Locking,
    path: &'a str,
    kind: &'a str,
    wait: (f64, bool),
    apply: Apply,
    last: Option<Last>,
) -> Updating<'a> {
    // Boxed: one body for every job that runs it (the command line's and the library's),
    // never inlined into each (a wasm module holds one copy).
    Box::pin(async move {
        let (dir, name) = match path.rsplit_once('/') {
            Some(("", name)) => ("/", name),
            Some(split) => split,
            None => (".", path),
        };
        let entries = entries_step(dir, name);
        // The lock's first plan goes on with the names and the file's reading.
        let nothing = fields([("names", Value::Array(Vec::new()))]);
        io.then(
            vec![
                (entries.clone(), Some(nothing)),
                (own_load_step(path), None),
            ],
            None,
        );
        let held = locking.acquire(wait.1, wait.0).await;
        io.drop_then();
        let held = held?;
        let file = (path, dir, name, entries);
        let updated = swept_and_updated(io, locking, &held, file, kind, apply, last).await;
        let _released = locking.release(&held).await;
        io.drop_then();
        updated
    })
}

/// The locked update under way: the file update's last step and the change's result.
pub type Updating<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = std::result::Result<(Value, Applied), Stop>> + Send + 'a>,
>;

/// The step asking for the names in `dir` that may be what dead writers left next to the
/// file `name` (they hold its name; not the file, its lock or its claim).
fn entries_step(dir: &str, name: &str) -> Value {
    let own = [
        name.to_owned(),
        format!("{name}.lock"),
        format!("{name}.lock.next"),
    ];
    step(
        "entries",
        [
            ("path", dir.into()),
            ("containing", name.into()),
            (
                "except",
                Value::Array(own.into_iter().map(Value::from).collect()),
            ),
        ],
    )
}

/// Under the lock: the sweep, then the file's update, its write planned with the release.
async fn swept_and_updated(
    io: &Io,
    locking: &Locking,
    held: &Held,
    (path, dir, name, entries): (&str, &str, &str, Value),
    kind: &str,
    apply: Apply,
    last: Option<Last>,
) -> std::result::Result<(Value, Applied), Stop> {
    let listed = io.ask(entries).await;
    if failed(&listed).is_none() {
        let names: Vec<&str> = listed
            .get("names")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        locking.sweep(dir, name, &names).await?;
    }
    let after = After {
        steps: locking.release_steps(held),
        last,
    };
    update_within(io, kind, path.to_owned(), apply, Some(after)).await
}
