"use strict";
/**
 * The Node host layer (ARCHITECTURE §5): locked, atomic file I/O around the pure core.
 *
 * Every rule (parsing, merging, validation, etags, JSONL) is the core's; this file only
 * reads and writes bytes, holds the sidecar lock of docs/locking.md and supplies the clock.
 * The protocol is byte-compatible with python/statecore/_lock.py: keep the two in step.
 *
 * Each operation is written once, as a generator that yields its I/O steps; `runSync`
 * drives it with synchronous fs calls (`...Sync` exports) and `runAsync` with promises.
 */
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const os = require("node:os");
const path = require("node:path");
const crypto = require("node:crypto");

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
/** Directory fsync errors of platforms that cannot fsync a directory. */
const DIR_FSYNC_UNSUPPORTED = new Set(["EINVAL", "EISDIR", "EPERM", "ENOTSUP", "EBADF"]);
const TOKEN_RE = /^[0-9a-f]{32}$/;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let coreModule = null;
/** The pure API (loaded on first use, so the lock functions work without the wasm). */
function core() {
  return (coreModule ??= require("./core-node.cjs"));
}

// ---------------------------------------------------------------------------------------
// Small file helpers
// ---------------------------------------------------------------------------------------

function randomToken() {
  return crypto.randomBytes(16).toString("hex");
}

/** RFC 3339 UTC with milliseconds (`2026-11-22T05:43:00.123Z`), the core's format. */
function nowIso() {
  return new Date().toISOString();
}

function unlinkQuiet(file) {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
}

function readMaybeSync(file) {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
}

async function readMaybe(file) {
  try {
    return await fsp.readFile(file);
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms) {
  Atomics.wait(sleepCell, 0, 0, ms);
}
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function fsyncDirSync(dir) {
  let fd;
  try {
    fd = fs.openSync(dir, "r");
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(error.code)) return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (!DIR_FSYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    fs.closeSync(fd);
  }
}

async function fsyncDir(dir) {
  let handle;
  try {
    handle = await fsp.open(dir, "r");
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(error.code)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!DIR_FSYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    await handle.close();
  }
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

function* acquireSteps(file, timeout) {
  const lockPath = `${file}.lock`;
  const record = newRecord();
  const deadline = performance.now() + timeout;
  for (let attempt = 0; ; attempt++) {
    const result = tryAcquire(lockPath, record);
    if (result.acquired) return new Lock(lockPath, record);
    const left = deadline - performance.now();
    if (left <= 0) throw lockTimeoutError(lockPath, result.owner, timeout);
    yield { sleep: backoff(attempt, left) };
  }
}

/** Takes the lock of `file` (the sidecar `<file>.lock`), waiting up to `timeout` ms. */
function acquireLockSync(file, timeout = DEFAULT_TIMEOUT_MS) {
  const steps = acquireSteps(String(file), timeout);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    sleepSync(step.value.sleep);
  }
}

/** Async `acquireLockSync`: waits without blocking the event loop. */
async function acquireLock(file, timeout = DEFAULT_TIMEOUT_MS) {
  const steps = acquireSteps(String(file), timeout);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await sleep(step.value.sleep);
  }
}

// ---------------------------------------------------------------------------------------
// I/O steps, sync and async
// ---------------------------------------------------------------------------------------

/** `YYYYMMDDTHHMMSSmmmZ` for `.corrupt-` copies. */
function compactTimestamp() {
  return nowIso().replace(/[-:.]/g, "");
}

function corruptCopySync(file, bytes) {
  const base = `${file}.corrupt-${compactTimestamp()}`;
  for (let n = 0; ; n++) {
    const copy = n === 0 ? base : `${base}-${n}`;
    let fd;
    try {
      fd = fs.openSync(copy, "wx", 0o644);
    } catch (error) {
      if (error.code === "EEXIST") continue;
      throw error;
    }
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fsyncDirSync(path.dirname(copy));
    return copy;
  }
}

async function corruptCopy(file, bytes) {
  const base = `${file}.corrupt-${compactTimestamp()}`;
  for (let n = 0; ; n++) {
    const copy = n === 0 ? base : `${base}-${n}`;
    let handle;
    try {
      handle = await fsp.open(copy, "wx", 0o644);
    } catch (error) {
      if (error.code === "EEXIST") continue;
      throw error;
    }
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsyncDir(path.dirname(copy));
    return copy;
  }
}

/** The temp file name of an atomic write: `<dir>/.<name>.tmp-<token>`. */
function tempPath(file) {
  return path.join(path.dirname(file), `.${path.basename(file)}.tmp-${randomToken()}`);
}

/** The mode to give a replacement: the target's if it exists, else null (umask decides). */
function existingMode(stat) {
  return stat ? Number(stat.mode) & 0o7777 : null;
}

/** Atomic replace: temp file, fsync, rename over `file`, fsync the directory. */
function writeAtomicSync(file, text) {
  let stat = null;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  const mode = existingMode(stat);
  const tmp = tempPath(file);
  const fd = fs.openSync(tmp, "wx", 0o666);
  try {
    try {
      if (mode !== null) fs.fchmodSync(fd, mode);
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (error) {
    unlinkQuiet(tmp);
    throw error;
  }
  fsyncDirSync(path.dirname(file));
}

async function writeAtomic(file, text) {
  let stat = null;
  try {
    stat = await fsp.stat(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  const mode = existingMode(stat);
  const tmp = tempPath(file);
  const handle = await fsp.open(tmp, "wx", 0o666);
  try {
    try {
      if (mode !== null) await handle.chmod(mode);
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (error) {
    unlinkQuiet(tmp);
    throw error;
  }
  await fsyncDir(path.dirname(file));
}

/** One O_APPEND write() of `text`, fsync; fsyncs the directory when the file is new. */
function appendOnceSync(file, text, created) {
  const fd = fs.openSync(file, "a", 0o666);
  try {
    const buffer = Buffer.from(text, "utf8");
    let done = fs.writeSync(fd, buffer);
    // A short write only happens on a full disk or similar; finish it (or fail) honestly.
    while (done < buffer.length) done += fs.writeSync(fd, buffer, done);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (created) fsyncDirSync(path.dirname(file));
}

async function appendOnce(file, text, created) {
  const handle = await fsp.open(file, "a", 0o666);
  try {
    const buffer = Buffer.from(text, "utf8");
    let done = (await handle.write(buffer)).bytesWritten;
    while (done < buffer.length) done += (await handle.write(buffer, done)).bytesWritten;
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await fsyncDir(path.dirname(file));
}

function truncateSync(file, length) {
  fs.truncateSync(file, length);
}

const syncIO = {
  acquire: acquireLockSync,
  read: readMaybeSync,
  copy: corruptCopySync,
  write: writeAtomicSync,
  truncate: truncateSync,
  append: appendOnceSync,
};
const asyncIO = {
  acquire: acquireLock,
  read: readMaybe,
  copy: corruptCopy,
  write: writeAtomic,
  truncate: (file, length) => fsp.truncate(file, length),
  append: appendOnce,
};

function isThenable(value) {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof value.then === "function";
}

/** Drives a step generator synchronously (the yielded values are already results). */
function runSync(steps) {
  let step = steps.next();
  while (!step.done) {
    step = isThenable(step.value)
      ? steps.throw(
          new TypeError("the update function returned a Promise: use updateDocument (async), not updateDocumentSync"),
        )
      : steps.next(step.value);
  }
  return step.value;
}

/** Drives a step generator, awaiting each yielded value (errors are thrown back into it). */
async function runAsync(steps) {
  let step = steps.next();
  while (!step.done) {
    let value;
    try {
      value = await step.value;
    } catch (error) {
      step = steps.throw(error);
      continue;
    }
    step = steps.next(value);
  }
  return step.value;
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

// ---------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------

/** `options` with `stamp.now` filled from `now` or the clock when a stamp lacks it. */
function withNow(options, now) {
  if (options === null || options === undefined) return null;
  const stamp = options.stamp;
  if (stamp === null || typeof stamp !== "object" || (stamp.now !== undefined && stamp.now !== null)) {
    return options;
  }
  return { ...options, stamp: { ...stamp, now: now ?? nowIso() } };
}

function* updateSteps(io, file, kind, patchOrFunction, options, hostOptions) {
  const C = core();
  const { ifMatch = null, now = null, timeout = DEFAULT_TIMEOUT_MS } = hostOptions ?? {};
  const isFunction = typeof patchOrFunction === "function";
  if (isFunction && options !== null && options !== undefined) {
    throw new TypeError("merge options apply to a patch; an update function builds the document itself");
  }
  const lock = yield io.acquire(file, timeout);
  try {
    sweep(file);
    const bytes = yield io.read(file);
    let result;
    if (isFunction) {
      const loaded = C.loadDocument(kind, bytes);
      C.checkIfMatch(loaded.etag, ifMatch);
      const returned = yield patchOrFunction(loaded.document);
      result = C.finishUpdate(kind, bytes, returned === undefined ? loaded.document : returned, null);
    } else {
      result = C.applyUpdate(kind, bytes, patchOrFunction, withNow(options, now), ifMatch);
    }
    const warnings = [...result.warnings];
    let copy = null;
    if (result.corrupt && bytes !== null) {
      copy = yield io.copy(file, bytes);
      warnings.push({
        code: "W_CORRUPT_COPY",
        path: "",
        message: `the unparseable file was kept as ${copy} before being replaced`,
      });
    }
    if (result.changed) yield io.write(file, result.text);
    return { document: result.document, etag: result.etag, changed: result.changed, warnings, corruptCopy: copy };
  } finally {
    lock.release();
  }
}

/** Reads a document: the core's `loadDocument` over the file's bytes (never writes). */
function readDocumentSync(file, kind) {
  return core().loadDocument(kind, readMaybeSync(String(file)));
}

/** Async `readDocumentSync`. */
async function readDocument(file, kind) {
  const bytes = await readMaybe(String(file));
  return core().loadDocument(kind, bytes);
}

/**
 * Locked read-merge-validate-write of `file`. `patchOrFunction` is a patch (merged with
 * `options`) or a function given the current document that returns the new one (or
 * mutates it and returns undefined). `hostOptions`: `{ifMatch, now, timeout}` (ms).
 */
function updateDocumentSync(file, kind, patchOrFunction, options = null, hostOptions = {}) {
  return runSync(updateSteps(syncIO, String(file), kind, patchOrFunction, options, hostOptions));
}

/** Async `updateDocumentSync`; the function may return a Promise. */
function updateDocument(file, kind, patchOrFunction, options = null, hostOptions = {}) {
  return runAsync(updateSteps(asyncIO, String(file), kind, patchOrFunction, options, hostOptions));
}

// ---------------------------------------------------------------------------------------
// Append-only logs
// ---------------------------------------------------------------------------------------

function* appendSteps(io, file, value, hostOptions) {
  const C = core();
  const { timeout = DEFAULT_TIMEOUT_MS } = hostOptions ?? {};
  const line = C.logLine(value);
  const lock = yield io.acquire(file, timeout);
  try {
    const bytes = yield io.read(file);
    const warnings = [];
    let copy = null;
    let prefix = "";
    if (bytes !== null) {
      const log = C.parseLog(bytes); // E_LOG_CORRUPT propagates: the file is left alone
      if (log.torn) {
        copy = yield io.copy(file, bytes.subarray(log.torn.offset));
        yield io.truncate(file, log.torn.offset);
        warnings.push({
          code: "W_TORN_TAIL",
          path: "",
          message: `line ${log.torn.line} was an incomplete (torn) write; it was moved to ${copy} and the log repaired`,
        });
      } else if (log.needs_newline) {
        prefix = "\n";
      }
    }
    yield io.append(file, prefix + line, bytes === null);
    return { warnings, corruptCopy: copy };
  } finally {
    lock.release();
  }
}

/** Appends one JSONL record under the lock, repairing a torn tail first (keeping a copy). */
function appendLineSync(file, value, hostOptions = {}) {
  return runSync(appendSteps(syncIO, String(file), value, hostOptions));
}

/** Async `appendLineSync`. */
function appendLine(file, value, hostOptions = {}) {
  return runAsync(appendSteps(asyncIO, String(file), value, hostOptions));
}

function logResult(bytes) {
  if (bytes === null) return { records: [], torn: null, warnings: [] };
  const log = core().parseLog(bytes);
  const warnings = log.torn
    ? [
        {
          code: "W_TORN_TAIL",
          path: "",
          message: `line ${log.torn.line} is an incomplete (torn) write and was ignored; the next append repairs it`,
        },
      ]
    : [];
  return { records: log.records, torn: log.torn, warnings };
}

/** Reads a JSONL log: `{records, torn, warnings}` (missing file = empty; never writes). */
function readLogSync(file) {
  return logResult(readMaybeSync(String(file)));
}

/** Async `readLogSync`. */
async function readLog(file) {
  return logResult(await readMaybe(String(file)));
}

module.exports = {
  readDocument,
  readDocumentSync,
  updateDocument,
  updateDocumentSync,
  appendLine,
  appendLineSync,
  readLog,
  readLogSync,
  acquireLock,
  acquireLockSync,
  Lock,
  LOCK_LEASE_MS,
  LOCK_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
};
