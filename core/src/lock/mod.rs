//! The rules of the sidecar lock protocol (docs/locking.md), as pure functions of the facts a
//! host gathers: the owner record a lock file holds, what a lock file's bytes say about its
//! owner, whether that owner is provably gone (the only case where a lock may be broken), and
//! the timeout error. The hosts only make the system calls (create, link, read, stat,
//! `kill(pid, 0)`, `/proc/<pid>/stat`) and call these.

use crate::error::{Code, Error, Result};
use crate::time::{format_timestamp, parse_timestamp};
use crate::{json, Map, Value};

/// A lock whose owner runs on another host is broken only this long after `acquired_at`.
pub const LEASE_MS: i64 = 60_000;
/// A malformed lock record (or break marker) is broken only when its file is this old.
pub const GRACE_MS: i64 = 2_000;
/// How long a host waits for a lock by default before `E_LOCK_TIMEOUT`.
pub const DEFAULT_TIMEOUT_MS: i64 = 10_000;
/// A waiter that has waited this long claims the next turn (`<file>.lock.next`).
pub const QUEUE_AFTER_MS: i64 = 10;
/// A turn claim is honoured this long after its file's mtime; its live claimant refreshes it
/// sooner, so only a stopped claimant's claim goes stale (and is then ignored).
pub const TURN_MS: i64 = 1_000;
/// How many random bytes a host passes for a new record's token.
pub const TOKEN_BYTES: usize = 16;
/// A waiter's first pause between attempts, in ms; each further pause doubles, up to
/// [`POLL_MAX_MS`], plus up to 25 % random jitter.
pub const POLL_MIN_MS: i64 = 1;
/// The longest pause of a waiter that does not hold the claim to the next turn, in ms.
pub const POLL_MAX_MS: i64 = 25;
/// How often the claimant of the next turn tries the lock in full (reads it, breaks a dead
/// holder's) when it cannot watch (an async host's timer), in ms.
pub const CLAIM_POLL_MS: i64 = 1;
/// A claim is honoured (others let its claimant go first, a releaser hands it the lock) only
/// once it is this old, in ms: until then the holder keeps re-taking the lock, so that the
/// lock changes hands once per this many ms at most, not once per update.
pub const CLAIM_RIPE_MS: i64 = 20;
/// While its claim is younger than [`CLAIM_RIPE_MS`] a watching (synchronous) claimant checks
/// its claim file only this often, in µs: a releaser hands it the lock that early only when its
/// clock (or the file system's coarse mtime) runs ahead, and checking every
/// [`CLAIM_WATCH_US`] for the whole wait took a sixth of a core from the holder's machine.
pub const CLAIM_YOUNG_WATCH_US: i64 = 1_000;
/// A watching (synchronous) claimant checks this often, in µs, whether its claim file is gone
/// (a releaser hands the lock over by renaming the claim over the lock) or the lock file is
/// (released before the claim appeared): one `stat` each. Either ends its pause at once; it
/// tries the lock in full only then, or every [`POLL_MAX_MS`] (to see a holder that died).
pub const CLAIM_WATCH_US: i64 = 100;

/// Lowercase hex of bytes.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len().saturating_mul(2));
    for b in bytes {
        for nibble in [b >> 4, b & 0x0f] {
            if let Some(d) = DIGITS.get(usize::from(nibble)) {
                out.push(char::from(*d));
            }
        }
    }
    out
}

/// The fields of a process's identity `{pid, start, boot, host}`, checked (`E_ARGUMENT`): its
/// pid (1 to 2^31 - 1), `start` and `boot` (strings or null) and `host` (a string).
pub(crate) fn identity_fields(identity: &Value) -> Result<(u64, Value, Value, Value)> {
    let field = |key: &str| identity.get(key).cloned().unwrap_or(Value::Null);
    let text_or_null = |key: &str| match field(key) {
        v @ (Value::String(_) | Value::Null) => Ok(v),
        _ => Err(Error::new(
            Code::Argument,
            format!("/identity/{key}"),
            format!("{key} must be a string or null"),
        )),
    };
    let pid = field("pid")
        .as_u64()
        .filter(|p| (1..1 << 31).contains(p))
        .ok_or_else(|| {
            Error::new(
                Code::Argument,
                "/identity/pid",
                "pid must be a whole number from 1 to 2^31 - 1",
            )
        })?;
    let host = field("host");
    if !host.is_string() {
        return Err(Error::new(
            Code::Argument,
            "/identity/host",
            "host must be a string",
        ));
    }
    Ok((pid, text_or_null("start")?, text_or_null("boot")?, host))
}

/// A new owner record `{pid, start, boot, host, token, acquired_at}` (the key order is part
/// of the byte format) for the process `identity` (`{pid, start, boot, host}`), its token the
/// hex of the host's random bytes: `{record, text}`, `text` being the lock file's bytes
/// (compact JSON and a newline).
pub fn record(identity: &Value, random: &[u8], now_ms: i64) -> Result<Value> {
    let made = new_record(identity, random, now_ms)?;
    let mut out = Map::with_capacity(2);
    out.insert("record".into(), made.record);
    out.insert("text".into(), made.text.into());
    Ok(Value::Object(out))
}

/// [`record`] as its parts (its value, text and token), each made once: a lock job makes one
/// per attempt.
fn new_record(identity: &Value, random: &[u8], now_ms: i64) -> Result<facts::Mine> {
    let (pid, start, boot, host) = identity_fields(identity)?;
    if random.len() < TOKEN_BYTES {
        return Err(Error::new(
            Code::Argument,
            "/random",
            format!("a token needs {TOKEN_BYTES} random bytes"),
        ));
    }
    let token = hex(random.get(..TOKEN_BYTES).unwrap_or_default());
    let mut map = Map::with_capacity(6);
    map.insert("pid".into(), pid.into());
    map.insert("start".into(), start);
    map.insert("boot".into(), boot);
    map.insert("host".into(), host);
    map.insert("token".into(), token.as_str().into());
    map.insert("acquired_at".into(), format_timestamp(now_ms)?.into());
    let record = Value::Object(map);
    let mut text = crate::json::serialize_compact(&record);
    text.push('\n');
    Ok(facts::Mine {
        record,
        text,
        token,
    })
}

/// The owner record in a lock file's bytes, or `None` when they are not a well-formed record:
/// an object with a whole `pid` in 1..2^31 (`1.0` counts: JSON readers differ on it), string
/// `host`, a 32-hex-digit `token`, an RFC 3339 `acquired_at`, and `start`/`boot` strings or
/// null.
pub fn parse_record(bytes: &[u8]) -> Option<Value> {
    let value = crate::json::parse(bytes).ok()?;
    let map = value.as_object()?;
    let pid = map.get("pid")?.as_f64()?;
    let token = map.get("token")?.as_str()?;
    let ok = pid.fract() == 0.0
        && (1.0..2_147_483_648.0).contains(&pid)
        && map.get("host")?.is_string()
        && is_token(token)
        && parse_timestamp(map.get("acquired_at")?.as_str()?).is_ok()
        && ["start", "boot"]
            .iter()
            .all(|k| map.get(*k).is_none_or(|v| v.is_null() || v.is_string()));
    ok.then_some(value)
}

/// True when a lock path's bytes are not a statecore lock at all: neither a record, nor empty
/// (a lock being created where `link()` is unsupported), nor zeros (what a crash can leave of
/// a new file), nor a damaged record (`{"pid":` at its start). Such a file (`poetry.lock`) is
/// never removed: `E_LOCK_FOREIGN`.
pub fn is_foreign(bytes: &[u8], record: Option<&Value>) -> bool {
    record.is_none() && !bytes.iter().all(|&b| b == 0) && !bytes.starts_with(b"{\"pid\":")
}

/// What a lock file (or break marker) holds: `{record, id, foreign}`. `id` names the owner:
/// the record's token, or for a malformed record `m` and the hash of `stamp` (the host's
/// `inode:mtime_ns` of the file) and the bytes, so every host contends for one marker.
/// `foreign`: the file is not a statecore lock ([`is_foreign`]): never judged, never removed.
pub fn owner(bytes: &[u8], stamp: &str) -> Value {
    let record = parse_record(bytes);
    let id = match record
        .as_ref()
        .and_then(|r| r.get("token"))
        .and_then(Value::as_str)
    {
        Some(token) => token.to_owned(),
        None => {
            let mut keyed =
                Vec::with_capacity(stamp.len().saturating_add(bytes.len()).saturating_add(1));
            keyed.extend_from_slice(stamp.as_bytes());
            keyed.push(b'\n');
            keyed.extend_from_slice(bytes);
            format!("m{}", crate::json::etag(&keyed))
        }
    };
    let foreign = is_foreign(bytes, record.as_ref());
    let mut map = Map::new();
    map.insert("record".into(), record.unwrap_or(Value::Null));
    map.insert("id".into(), id.into());
    map.insert("foreign".into(), foreign.into());
    Value::Object(map)
}

/// `{state, start}` from the text of `/proc/<pid>/stat` (fields 3 and 22; the command name,
/// field 2, may hold spaces and parentheses, so fields are read after the last `)`), or null.
pub fn proc_stat(text: &str) -> Value {
    let Some(close) = text.rfind(')') else {
        return Value::Null;
    };
    let fields: Vec<&str> = text
        .get(close.saturating_add(2)..)
        .unwrap_or_default()
        .split(' ')
        .collect();
    match (fields.first(), fields.get(19)) {
        (Some(state), Some(start)) => {
            let mut map = Map::new();
            map.insert("state".into(), (*state).into());
            map.insert("start".into(), (*start).into());
            Value::Object(map)
        }
        _ => Value::Null,
    }
}

/// Whether the owner of a lock file (or marker) is provably gone, from the facts the host
/// gathered: `{dead, reason}`. `facts`: `now_ms`, `mtime_ms` (the file's), `host` and `boot`
/// (this machine's), `probe` (false where processes cannot be probed: never guess), and the
/// record's process as the host saw it: `exists` (`kill(pid, 0)` found it; `null` when not
/// probed) and `stat` (`/proc/<pid>/stat`'s text, or null). A live but slow owner is never
/// dead: it is waited for.
pub fn verdict(record: &Value, facts: &Value) -> Result<Value> {
    let fact = |key: &str| facts.get(key).unwrap_or(&Value::Null);
    let now = fact("now_ms").as_i64().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "/facts/now_ms",
            "now_ms must be a whole number",
        )
    })?;
    let (dead, reason) = match record {
        Value::Object(r) => {
            let host = r.get("host").and_then(Value::as_str);
            let boot = r
                .get("boot")
                .and_then(Value::as_str)
                .filter(|b| !b.is_empty());
            let my_boot = fact("boot").as_str().filter(|b| !b.is_empty());
            if host != fact("host").as_str() {
                // The lease runs from the earlier of `acquired_at` and the file's mtime, so a
                // record stamped in the future (a skewed or bogus clock) still expires.
                let acquired = r
                    .get("acquired_at")
                    .and_then(Value::as_str)
                    .and_then(|t| parse_timestamp(t).ok())
                    .unwrap_or(0);
                let start = fact("mtime_ms")
                    .as_i64()
                    .map_or(acquired, |mtime| mtime.min(acquired));
                (
                    now.saturating_sub(start) > LEASE_MS,
                    "another host's lock: broken only after its lease",
                )
            } else if boot.is_some() && my_boot.is_some() && boot != my_boot {
                (true, "taken before this machine restarted")
            } else if fact("probe") == &Value::Bool(false) {
                (false, "processes cannot be probed here: never guessed")
            } else {
                process_gone(r, fact("exists"), fact("stat"))
            }
        }
        _ => {
            let mtime = fact("mtime_ms").as_i64().unwrap_or(now);
            (
                now.saturating_sub(mtime) > GRACE_MS,
                "a malformed owner record: broken only after the grace period",
            )
        }
    };
    let mut map = Map::new();
    map.insert("dead".into(), dead.into());
    map.insert("reason".into(), reason.into());
    Ok(Value::Object(map))
}

/// What a turn claim whose file's mtime is `mtime_ms` means at `now_ms`, before anyone reads
/// it: `judge` (read it, check its claimant's liveness and ask [`turn`]), or, while it is
/// younger than [`CLAIM_RIPE_MS`] (not honoured yet, whoever made it, nor broken: its
/// claimant's liveness is checked once it is ripe), `pass` for an acquirer that has not waited
/// yet or a releaser (go on as if there were none: the holder keeps re-taking the lock), and
/// `peek` for a `waiting` acquirer (one that has already waited and does not hold the claim):
/// read it, without checking its claimant's liveness (facts without `exists` and `stat`), and
/// ask [`turn`] whether it lets the claimant go first or, having waited longer, takes the claim
/// over. A claim dated in the future (another clock) is judged. One `stat` and this call then
/// spare an acquirer and a releaser the claim's read and its claimant's liveness check
/// (`kill`, `/proc`) at every update while a claim ripens, and a waiter the liveness check.
pub fn glance(now_ms: i64, mtime_ms: i64, waiting: bool) -> &'static str {
    if !young(now_ms.saturating_sub(mtime_ms)) {
        "judge"
    } else if waiting {
        "peek"
    } else {
        "pass"
    }
}

/// A claim of this age (ms) is not honoured yet: at least 0 and under [`CLAIM_RIPE_MS`].
fn young(age_ms: i64) -> bool {
    (0..CLAIM_RIPE_MS).contains(&age_ms)
}

/// Whether an acquirer must let the claimant of the next turn go first, and whether a releaser
/// hands the lock to it: `{wait, hand_over, dead, displace_ms}`. `claim` is what
/// `<file>.lock.next` holds (`{record, id, foreign}` of [`owner`], or null when there is none),
/// `facts` as for [`verdict`], `token` the acquirer's (or releaser's) own claim's token (or
/// null). Wait, and hand over, when a live claimant other than us claimed it at least
/// [`CLAIM_RIPE_MS`] and at most [`TURN_MS`] ago (a stopped claimant's claim goes stale: the
/// lock is never handed to it), except that a malformed claim is waited for but never handed
/// the lock; `dead`: its claimant is gone, break the claim. A claim younger than
/// [`CLAIM_RIPE_MS`] is nothing yet, not even a dead claimant's ([`glance`]: it need not be
/// read), except that a `waiting` acquirer (one that has waited and holds no claim) defers to
/// it: the lock changes hands when the claim is honoured, not whenever a waiter's poll finds it
/// free between two updates of its holder. A foreign file is ignored, never removed nor moved.
///
/// The next turn goes to the longest waiter: a claim's record is dated (`acquired_at`) when its
/// claimant started waiting, and a `waiting` acquirer that started waiting at `since_ms`
/// (epoch ms), before the claimant did, takes the claim over: `displace_ms` is then the mtime
/// (epoch ms) to give its own claim, which it renames over the one there. That is the claim's
/// own mtime, or, for a ripe one, [`CLAIM_RIPE_MS`] ago: the claim stays as ripe as it was
/// (just ripe), so taking it over delays no hand-over, and a claim renewed every half turn from
/// then never goes stale. Otherwise `displace_ms` is null: a claim of the same age, a
/// malformed, dead, stale or foreign one is never taken over.
pub fn turn(
    claim: &Value,
    facts: &Value,
    token: Option<&str>,
    waiting: bool,
    since_ms: Option<i64>,
) -> Result<Value> {
    let record = claim.get("record").unwrap_or(&Value::Null);
    let foreign = claim
        .get("foreign")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let ours = token.is_some() && record.get("token").and_then(Value::as_str) == token;
    // Without `now_ms` there is no age: the verdict below refuses the facts.
    let now = facts.get("now_ms").and_then(Value::as_i64);
    let mtime = facts.get("mtime_ms").and_then(Value::as_i64);
    let age = now.map(|now| now.saturating_sub(mtime.unwrap_or(now)));
    let (wait, dead) = if claim.is_null() || foreign || ours {
        (false, false)
    } else if age.is_some_and(young) {
        (waiting, false)
    } else if verdict(record, facts)?.get("dead") == Some(&Value::Bool(true)) {
        (false, true)
    } else {
        let age = age.unwrap_or(0);
        ((CLAIM_RIPE_MS..=TURN_MS).contains(&age), false)
    };
    // Only a well-formed, ripe record is handed the lock: a claim being written (where
    // `link()` is unsupported) or a damaged one would make the lock malformed for everyone.
    let hand_over = wait && record.is_object() && !age.is_some_and(young);
    let claimed_since = record
        .get("acquired_at")
        .and_then(Value::as_str)
        .and_then(|t| parse_timestamp(t).ok());
    let displace = match (now, claimed_since, since_ms) {
        (Some(now), Some(claimed), Some(since)) if wait && waiting && since < claimed => {
            let dated = mtime.unwrap_or(now);
            Value::from(dated.max(now.saturating_sub(CLAIM_RIPE_MS)))
        }
        _ => Value::Null,
    };
    Ok(json!({"wait": wait, "hand_over": hand_over, "dead": dead, "displace_ms": displace}))
}

/// How long a waiter pauses before its next attempt, and what it watches meanwhile, how often:
/// `{us, watch, step_us}`. `claim_age_ms`: the age of the waiter's own claim to the next turn (null: it
/// holds none); `watching`: it can watch files while it pauses (a synchronous host). A claim
/// younger than [`CLAIM_RIPE_MS`] is not honoured yet: its claimant sleeps until it is, waking
/// only if the lock is handed to it (`claim`, checked every [`CLAIM_YOUNG_WATCH_US`]). A ripe
/// claim's claimant watches its claim and the lock every [`CLAIM_WATCH_US`] for up to
/// [`POLL_MAX_MS`] (`claim_and_lock`: either gone ends the pause), or,
/// when it cannot watch, tries again after [`CLAIM_POLL_MS`]. Any other waiter pauses
/// [`POLL_MIN_MS`] doubling with each `attempt` (0, 1, ...) up to [`POLL_MAX_MS`], times
/// `1 + jitter / 4` (`jitter`: the host's random number in [0, 1); outside it counts as 0 or
/// 1), so that waiters started together spread out. The host sleeps at most the time left
/// before its timeout.
pub fn pause(attempt: u32, claim_age_ms: Option<i64>, watching: bool, jitter: f64) -> Value {
    const US: i64 = 1_000;
    let (ms, watch, step) = match claim_age_ms {
        Some(age) if age < CLAIM_RIPE_MS => (
            CLAIM_RIPE_MS.saturating_sub(age.max(0)),
            if watching { "claim" } else { "none" },
            CLAIM_YOUNG_WATCH_US,
        ),
        Some(_) if watching => (POLL_MAX_MS, "claim_and_lock", CLAIM_WATCH_US),
        Some(_) => (CLAIM_POLL_MS, "none", 0),
        None => {
            let base = POLL_MIN_MS
                .checked_shl(attempt.min(16))
                .unwrap_or(POLL_MAX_MS)
                .min(POLL_MAX_MS)
                .saturating_mul(US)
                .unsigned_abs();
            let jitter = if jitter.is_nan() {
                0.0
            } else {
                jitter.clamp(0.0, 1.0)
            };
            // At most a quarter more: 25 ms × 1.25 in µs fits any integer type.
            let extra = (base as f64 * jitter / 4.0).floor() as u64;
            return json!({"us": base.saturating_add(extra), "watch": "none", "step_us": 0});
        }
    };
    let step = if watch == "none" { 0 } else { step };
    json!({"us": ms.saturating_mul(US).unsigned_abs(), "watch": watch, "step_us": step})
}

/// This host's process of a record: gone when `kill(pid, 0)` found none, when it is a zombie,
/// or when its start time is not the record's (the pid was reused).
fn process_gone(record: &Map, exists: &Value, stat: &Value) -> (bool, &'static str) {
    if exists == &Value::Bool(false) {
        return (true, "the process is gone");
    }
    let stat = match stat {
        Value::String(text) => proc_stat(text),
        _ => Value::Null,
    };
    let Some(stat) = stat.as_object() else {
        return (false, "the process exists");
    };
    if matches!(stat.get("state").and_then(Value::as_str), Some("Z" | "X")) {
        return (true, "the process has exited (zombie)");
    }
    match (
        record.get("start").and_then(Value::as_str),
        stat.get("start"),
    ) {
        (Some(start), Some(Value::String(now))) if start != now => {
            (true, "the pid belongs to another process now")
        }
        _ => (false, "the process is alive"),
    }
}

/// The `E_LOCK_TIMEOUT` error: the lock `lock_path` was held by `owner` (`{record, text}` of
/// what the lock file held, or null) for `timeout_ms`.
pub fn timeout_error(lock_path: &str, owner: &Value, timeout_ms: &Value) -> Error {
    let record = owner.get("record").filter(|r| r.is_object());
    let who = match (record, owner.get("text").and_then(Value::as_str)) {
        (Some(r), _) => format!(
            "pid {} on {} since {}",
            r.get("pid").map_or_else(String::new, Value::to_string),
            r.get("host").and_then(Value::as_str).unwrap_or("?"),
            r.get("acquired_at").and_then(Value::as_str).unwrap_or("?")
        ),
        (None, Some(text)) => format!(
            "a malformed owner record ({})",
            Value::String(text.chars().take(200).collect())
        ),
        (None, None) => "another process".to_owned(),
    };
    Error::new(
        Code::LockTimeout,
        "",
        format!(
            "timed out after {timeout_ms} ms waiting for the lock {lock_path}, held by {who}; \
             if you know that process is gone, delete {lock_path}"
        ),
    )
    .with_detail("path", lock_path)
    .with_detail("owner", record.cloned().unwrap_or(Value::Null))
    .with_detail("timeout_ms", timeout_ms.clone())
}

/// The `E_LOCK_FOREIGN` error: the lock path `lock_path` holds `text`, which is not a
/// statecore lock (another tool's file, such as `poetry.lock`); it is left alone.
pub fn foreign_error(lock_path: &str, text: &str) -> Error {
    let start: String = text.chars().take(80).collect();
    Error::new(
        Code::LockForeign,
        "",
        format!(
            "{lock_path} is not a statecore lock (it begins {}), so it was left alone and the \
             file it would lock was not touched; statecore locks a file through <file>.lock: \
             move or rename the file, or that other file",
            Value::from(start)
        ),
    )
    .with_detail("path", lock_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_lowercase_two_digits_a_byte() {
        assert_eq!(hex(&[0, 15, 16, 255]), "000f10ff");
    }
}

/// What a lock holder may clean up next to the file `name`, among its directory's `entries`:
/// `[{entry, what}]` in `entries` order. `what` is `write_temp` (an atomic write's
/// `.<name>.tmp-<32 hex>`: nobody else writes while the lock is held, so remove it),
/// `lock_temp` (`<name>.lock.<...>.tmp`, a lock or marker being created: remove it when its
/// owner is dead) or `marker` (`<name>.lock.break-<id>`: break it when its owner is dead).
pub fn litter(name: &str, entries: &[&str]) -> Value {
    let write_temp = format!(".{name}{WRITE_TEMP}");
    let lock_prefix = format!("{name}{LOCK}.");
    let marker = format!("{name}{LOCK}.break-");
    let found = entries.iter().filter_map(|&entry| {
        let what = if entry.strip_prefix(&write_temp).is_some_and(is_token) {
            "write_temp"
        } else if entry.starts_with(&lock_prefix) && entry.ends_with(".tmp") {
            "lock_temp"
        } else if entry.starts_with(&marker) {
            "marker"
        } else {
            return None;
        };
        Some(json!({"entry": entry, "what": what}))
    });
    Value::Array(found.collect())
}

/// What a file's lock adds to its name (`<name>.lock`; its temp files and markers
/// `<name>.lock.<...>`).
const LOCK: &str = ".lock";
/// What an atomic write's temp file adds to its file's name, after a leading dot
/// (`.<name>.tmp-<token>`).
const WRITE_TEMP: &str = ".tmp-";

/// Whether `entry` is a file the writers of the file `name` leave next to it: its lock
/// (`<name>.lock`), the lock's temp files and break markers (`<name>.lock.<...>`), an atomic
/// write's temp file (`.<name>.tmp-<...>`) or a `.corrupt-` copy (`<name>.corrupt-<...>`).
pub fn written_beside(name: &str, entry: &str) -> bool {
    if let Some(rest) = entry.strip_prefix(name) {
        let in_lock = rest
            .strip_prefix(LOCK)
            .is_some_and(|more| more.is_empty() || more.starts_with('.'));
        return in_lock || rest.starts_with(crate::document::CORRUPT_COPY);
    }
    entry
        .strip_prefix('.')
        .and_then(|e| e.strip_prefix(name))
        .is_some_and(|rest| rest.starts_with(WRITE_TEMP))
}

/// A token: 32 lowercase hex digits (`TOKEN_BYTES` random bytes).
fn is_token(text: &str) -> bool {
    text.len() == 2 * TOKEN_BYTES
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

mod acquire;
mod expect;
mod facts;
mod script;
pub mod shapes;
mod sweep;
mod within;

pub use crate::job::{meets, Job};
pub use acquire::{acquire_job, release_job};
pub(crate) use script::hex as hex_bytes;
pub use script::script;
pub use sweep::sweep_job;
pub use within::{Held, Locking};
