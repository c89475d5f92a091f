"use strict";
/**
 * The sidecar lock protocol of docs/locking.md (Node), byte-compatible with
 * python/statecore/_lock.py: a lock on `<file>` is `<file>.lock` holding a JSON owner record,
 * created complete (record written to a temp file, then link()ed into place), broken only
 * when its owner is provably dead (through a `<lock>.break-<id>` marker so that only one
 * process may remove it), and released only by the holder of its token.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const crypto = require("node:crypto");
const { randomToken, unlinkQuiet } = require("./atomic.cjs");

/** A lock whose owner runs on another host is broken only this long after `acquired_at`. */
const LOCK_LEASE_MS = 60_000;
/** A malformed lock record (or break marker) is broken only when its mtime is this old. */
const LOCK_GRACE_MS = 2_000;
/** Default time to wait for a lock before `LockTimeoutError`. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Polling backoff: 1 ms doubling to this, plus up to 25 % jitter. */
const MAX_BACKOFF_MS = 25;

/** `link()` errors that mean "this file system cannot hard-link": fall back to O_EXCL. */
const LINK_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);
const TOKEN_RE = /^[0-9a-f]{32}$/;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let coreModule = null;
/** The pure API (loaded on first use, so the lock works before the wasm is needed). */
function core() {
  return (coreModule ??= require("./core-node.cjs"));
}

/** RFC 3339 UTC with milliseconds (`2026-11-22T05:43:00.123Z`), the core's format. */
function nowIso() {
  return new Date().toISOString();
}

// ---------------------------------------------------------------------------------------
// Process identity and liveness (docs/locking.md § Liveness)
// ---------------------------------------------------------------------------------------

/** `{state, start}` from `/proc/<pid>/stat` (fields 3 and 22), or null without /proc. */
function procStat(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: parse after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return fields.length > 19 ? { state: fields[0], start: fields[19] } : null;
}

let self = null;
/** This process's `{pid, start, boot, host}` (computed once). */
function identity() {
  if (self === null) {
    let boot = null;
    try {
      boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      boot = null;
    }
    const stat = procStat(process.pid);
    self = { pid: process.pid, start: stat ? stat.start : null, boot, host: os.hostname() };
  }
  return self;
}

/** A fresh owner record; the key order is part of the byte format shared with Python. */
function newRecord() {
  const me = identity();
  return {
    pid: me.pid,
    start: me.start,
    boot: me.boot,
    host: me.host,
    token: randomToken(),
    acquired_at: nowIso(),
  };
}

/** The owner record in `bytes`, or null when it is not a well-formed record. */
function parseRecord(bytes) {
  let r;
  try {
    r = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  const optionalString = (v) => v === null || v === undefined || typeof v === "string";
  const ok =
    r !== null &&
    typeof r === "object" &&
    !Array.isArray(r) &&
    Number.isSafeInteger(r.pid) &&
    r.pid > 0 &&
    r.pid < 2 ** 31 &&
    typeof r.host === "string" &&
    typeof r.token === "string" &&
    TOKEN_RE.test(r.token) &&
    typeof r.acquired_at === "string" &&
    TIMESTAMP_RE.test(r.acquired_at) &&
    !Number.isNaN(Date.parse(r.acquired_at)) &&
    optionalString(r.start) &&
    optionalString(r.boot);
  return ok ? r : null;
}

/**
 * Reads a lock file or break marker: `{record, id, mtimeMs, text}`, or null when it does
 * not exist. `id` names the owner: its token, or for a malformed record `m` + a hash of
 * the inode, mtime (ns) and bytes (the same hash in Python, so both contend for one marker).
 */
function readOwner(file) {
  let fd;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
  let bytes, stat;
  try {
    stat = fs.fstatSync(fd, { bigint: true });
    bytes = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const record = parseRecord(bytes);
  const id =
    record !== null
      ? record.token
      : "m" +
        crypto
          .createHash("sha256")
          .update(`${stat.ino}:${stat.mtimeNs}\n`)
          .update(bytes)
          .digest("hex")
          .slice(0, 32);
  return { record, id, mtimeMs: Number(stat.mtimeNs / 1_000_000n), text: bytes.toString("utf8") };
}

/** True when `pid` is provably not the process that wrote `start` (exited, zombie, reused). */
function processDead(pid, start) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code === "ESRCH") return true;
    if (error.code !== "EPERM") throw error; // EPERM: exists, another user's
  }
  const stat = procStat(pid);
  if (stat === null) return false; // no /proc (or hidden): kill() said it exists
  if (stat.state === "Z" || stat.state === "X") return true;
  return start !== null && start !== undefined && stat.start !== start;
}

/** Whether a lock (or marker) may be broken: its owner is provably gone (docs/locking.md). */
function ownerDead(owner) {
  const r = owner.record;
  if (r === null) return Date.now() - owner.mtimeMs > LOCK_GRACE_MS;
  const me = identity();
  if (r.host !== me.host) return Date.now() - Date.parse(r.acquired_at) > LOCK_LEASE_MS;
  if (r.boot && me.boot && r.boot !== me.boot) return true;
  if (process.platform === "win32") return false; // no kill(pid, 0) there: never guess
  return processDead(r.pid, r.start);
}

// ---------------------------------------------------------------------------------------
// The lock protocol
// ---------------------------------------------------------------------------------------

/** `open(O_CREAT|O_EXCL)` + write: the fallback where link() is unsupported. */
function createExclusive(target, text) {
  let fd;
  try {
    fd = fs.openSync(target, "wx", 0o644);
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Creates `target` holding `record`, complete from its first instant: the record goes to
 * `<target>.<token>.tmp`, which is link()ed to `target` (EEXIST = held by someone else).
 * Returns true when we created it.
 */
function createComplete(target, record) {
  const text = JSON.stringify(record) + "\n";
  const tmp = `${target}.${record.token}.tmp`;
  for (let attempt = 0; ; attempt++) {
    fs.writeFileSync(tmp, text, { flag: "wx", mode: 0o644 });
    try {
      fs.linkSync(tmp, target);
      return true;
    } catch (error) {
      if (error.code === "EEXIST") return false;
      // ENOENT: our temp file was swept as litter while we were stopped; write it again.
      if (error.code === "ENOENT" && attempt < 3) continue;
      if (LINK_UNSUPPORTED.has(error.code)) return createExclusive(target, text);
      throw error;
    } finally {
      unlinkQuiet(tmp);
    }
  }
}

/** Unlinks `file` if it still holds `token`; never removes anyone else's. */
function releaseFile(file, token) {
  const current = readOwner(file);
  if (current === null || current.id !== token) return false;
  unlinkQuiet(file);
  return true;
}

/**
 * Removes `target` (the lock or a break marker) whose owner `owner` was judged dead, if this
 * process wins the marker `<lock>.break-<owner.id>`: the winner re-reads `target`, confirms
 * it still holds the same owner, still dead, and unlinks it. A marker whose own owner is dead
 * is removed the same way one level up (`<lock>.break-<marker's token>`).
 * Returns true after progress (something removed, or gone), false to wait for a live breaker.
 */
function breakFile(lockPath, target, owner, depth = 0) {
  const marker = `${lockPath}.break-${owner.id}`;
  const mine = newRecord();
  if (createComplete(marker, mine)) {
    try {
      const current = readOwner(target);
      if (current !== null && current.id === owner.id && ownerDead(current)) unlinkQuiet(target);
    } finally {
      releaseFile(marker, mine.token);
    }
    return true;
  }
  const breaker = readOwner(marker);
  if (breaker === null) return true;
  if (depth >= 8 || !ownerDead(breaker)) return false;
  return breakFile(lockPath, marker, breaker, depth + 1);
}

/** One acquisition attempt: `{acquired: true}` or `{owner}` (the holder to wait for). */
function tryAcquire(lockPath, record) {
  let owner = null;
  for (let step = 0; step < 8; step++) {
    record.acquired_at = nowIso();
    if (createComplete(lockPath, record)) return { acquired: true };
    owner = readOwner(lockPath);
    if (owner === null) continue; // released meanwhile
    if (!ownerDead(owner) || !breakFile(lockPath, lockPath, owner)) return { owner };
  }
  return { owner };
}

/** A held lock. `release()` unlinks the lock file only if it still holds our token. */
class Lock {
  constructor(lockPath, record) {
    /** The lock file (`<file>.lock`). */
    this.path = lockPath;
    /** Our owner record (its `token` identifies this holder). */
    this.record = record;
    this.released = false;
  }

  /** Releases the lock; true when our lock file was removed, false if it was not ours. */
  release() {
    if (this.released) return false;
    this.released = true;
    return releaseFile(this.path, this.record.token);
  }
}

function lockTimeoutError(lockPath, owner, timeout) {
  const r = owner ? owner.record : null;
  const who = r
    ? `pid ${r.pid} on ${r.host} since ${r.acquired_at}`
    : owner
      ? `a malformed owner record (${JSON.stringify(owner.text.slice(0, 200))})`
      : "another process";
  return core().errorFromRecord({
    name: "LockTimeoutError",
    code: "E_LOCK_TIMEOUT",
    path: "",
    message:
      `timed out after ${timeout} ms waiting for the lock ${lockPath}, held by ${who}; ` +
      `if you know that process is gone, delete ${lockPath}`,
    details: { path: lockPath, owner: r, timeout_ms: timeout },
  });
}

/** Backoff sleep after a failed attempt: 1 ms doubling to 25 ms, + up to 25 % jitter. */
function backoff(attempt, left) {
  const base = Math.min(2 ** attempt, MAX_BACKOFF_MS);
  return Math.max(0, Math.min(left, base * (1 + Math.random() / 4)));
}

/** Takes the lock of `file` (the sidecar `<file>.lock`), waiting up to `timeout` ms. */
function* acquire(io, file, timeout = DEFAULT_TIMEOUT_MS) {
  const lockPath = `${file}.lock`;
  const record = newRecord();
  const deadline = performance.now() + timeout;
  for (let attempt = 0; ; attempt++) {
    const result = tryAcquire(lockPath, record);
    if (result.acquired) return new Lock(lockPath, record);
    const left = deadline - performance.now();
    if (left <= 0) throw lockTimeoutError(lockPath, result.owner, timeout);
    yield io.sleep(backoff(attempt, left));
  }
}

/**
 * Removes what dead writers left next to `file`; called by the lock holder before writing:
 * `.<name>.tmp-*` (no one else writes while we hold the lock), and lock temp files and break
 * markers whose owners are dead.
 */
function sweep(file) {
  const dir = path.dirname(file);
  const name = path.basename(file);
  const lockPath = `${file}.lock`;
  let entries;
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry);
    if (entry.startsWith(`.${name}.tmp-`) && TOKEN_RE.test(entry.slice(name.length + 6))) {
      unlinkQuiet(full);
    } else if (entry.startsWith(`${name}.lock.`) && entry.endsWith(".tmp")) {
      // A lock (or marker) temp file holds its creator's record: judged like a lock.
      const owner = readOwner(full);
      if (owner !== null && ownerDead(owner)) unlinkQuiet(full);
    } else if (entry.startsWith(`${name}.lock.break-`)) {
      const owner = readOwner(full);
      if (owner !== null && ownerDead(owner)) breakFile(lockPath, full, owner);
    }
  }
}

module.exports = { acquire, sweep, Lock, nowIso, LOCK_LEASE_MS, LOCK_GRACE_MS, DEFAULT_TIMEOUT_MS };
