"use strict";
/**
 * The sidecar lock protocol of docs/locking.md (Node), byte-compatible with
 * python/statecore/_host/lock.py: a lock on `<file>` is `<file>.lock` holding a JSON owner record,
 * created complete (record written to a temp file, then link()ed into place), broken only
 * when its owner is provably dead (through a `<lock>.break-<id>` marker so that only one
 * process may remove it), and released only by its holder.
 *
 * The protocol is the core's: its acquisition (with the fair queue), its release and the
 * holder's sweep are jobs (started by the table's rows `lock.acquireJob`, `releaseJob`,
 * `sweepJob`: docs/locking.md § The lock as a job) that ask for one system call at a time. This file is their driver: it performs each step (stat, a lock file
 * read without blocking, `kill(pid, 0)` and `/proc/<pid>/stat`, a file created complete, a
 * rename, a pause) and answers with what it saw.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { unlinkQuiet, requireRegular, readFlags, randomBytes, sys } = require("./atomic.cjs");
const { CONSTANTS } = require("../binding/tables.cjs");
const jobs = require("./jobs.cjs");

/** A lock whose owner runs on another host is broken only this long after `acquired_at`. */
const LOCK_LEASE_MS = CONSTANTS.lockLeaseMs;
/** A malformed lock record (or break marker) is broken only when its mtime is this old. */
const LOCK_GRACE_MS = CONSTANTS.lockGraceMs;
/** Default time to wait for a lock before `LockTimeoutError`. */
const DEFAULT_TIMEOUT_MS = CONSTANTS.lockTimeoutMs;
/** A lock record is one short line: a lock file is read up to this many bytes. */
const MAX_RECORD_BYTES = 65536;
/** Processes can be probed here (no `kill(pid, 0)` on Windows: never guess). */
const PROBE = process.platform !== "win32";

/** `link()` errors that mean "this file system cannot hard-link": fall back to O_EXCL. */
const LINK_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

let coreModule = null;
/** The pure API (loaded on first use). */
function core() {
  return (coreModule ??= require("../generated/core-node.cjs"));
}

/** The text of `/proc/<pid>/stat`, or null (no /proc, or no such process). */
function procStatText(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
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
    const text = procStatText(process.pid);
    const stat = text === null ? null : core().lock.procStat(text);
    self = { pid: process.pid, start: stat ? stat.start : null, boot, host: os.hostname() };
  }
  return self;
}

/** Whether `pid` exists (`kill(pid, 0)`; another user's process exists too). */
function processExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if (error.code === "ESRCH") return false;
    if (error.code === "EPERM") return true;
    throw error;
  }
}

/** The buffer a record is read into (reads are synchronous: one is enough). */
const RECORD_BUFFER = Buffer.allocUnsafe(MAX_RECORD_BYTES);

/**
 * A lock file, break marker or turn claim as the job reads it: `{latin1, key, mtime_ms}` (its
 * bytes one character each, `key` its `inode:mtime_ns`), or `{missing}`. A FIFO or device
 * there is `E_FILE_TYPE` (opened without blocking, never read). A missing file is found by a
 * `stat` first: Node's failed `open` costs an exception, dearer than the `stat`.
 */
function read(file) {
  if (sys.statSync(file, { throwIfNoEntry: false }) === undefined) return { missing: true };
  let fd;
  try {
    fd = sys.openSync(file, readFlags(false));
  } catch (error) {
    if (error.code === "ENOENT") return { missing: true };
    throw error;
  }
  let bytes, stat;
  try {
    stat = sys.fstatSync(fd, { bigint: true });
    requireRegular(file, stat);
    bytes = RECORD_BUFFER.subarray(0, sys.readSync(fd, RECORD_BUFFER, 0, MAX_RECORD_BYTES, 0));
  } finally {
    sys.closeSync(fd);
  }
  return { latin1: bytes.toString("latin1"), key: `${stat.ino}:${stat.mtimeNs}`, mtime_ms: Number(stat.mtimeNs / 1_000_000n) };
}

/** `open(O_CREAT|O_EXCL)` + write: the fallback where link() is unsupported. */
function createExclusive(target, text) {
  let fd;
  try {
    fd = sys.openSync(target, "wx", 0o644);
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  }
  try {
    sys.writeSync(fd, text);
  } finally {
    sys.closeSync(fd);
  }
  return true;
}

/**
 * Creates `target` holding `text`, complete from its first instant: the bytes go to `tmp`,
 * which is link()ed to `target` (EEXIST = someone else's). True when we created it.
 */
function createComplete(target, tmp, text) {
  for (let attempt = 0; ; attempt++) {
    try {
      sys.writeFileSync(tmp, text, { flag: "wx", mode: 0o644 });
      sys.linkSync(tmp, target);
      return true;
    } catch (error) {
      if (error.code === "EEXIST") return false;
      // ENOENT: our temp file was swept as litter while we were stopped; write it again.
      if (error.code === "ENOENT" && attempt < 3) continue;
      if (LINK_UNSUPPORTED.has(error.code)) return createExclusive(target, text);
      throw error;
    } finally {
      try {
        unlinkQuiet(tmp);
      } catch {
        // It holds our record: harmless, and swept once this process is gone.
      }
    }
  }
}

/** Our claim record in a temp file dated `datedMs`, renamed over the claim file `target`. */
function displace(target, tmp, text, datedMs) {
  try {
    sys.writeFileSync(tmp, text, { flag: "wx", mode: 0o644 });
    sys.utimesSync(tmp, datedMs / 1000, datedMs / 1000);
    sys.renameSync(tmp, target);
  } finally {
    try {
      unlinkQuiet(tmp);
    } catch {
      // It holds our record: swept once this process is gone.
    }
  }
}

/** A step of a lock job, performed: what the job is answered (without the clocks). */
function perform(step) {
  switch (step.do) {
    case "stat": {
      const seen = sys.statSync(step.path, { throwIfNoEntry: false });
      return seen === undefined ? { missing: true } : { ino: String(seen.ino), mtime_ms: Math.floor(seen.mtimeMs) };
    }
    case "read":
      return read(step.path);
    case "probe":
      return { exists: processExists(step.pid), stat: procStatText(step.pid) };
    case "create":
      return { created: createComplete(step.path, step.tmp, step.text) };
    case "unlink":
      unlinkQuiet(step.path);
      return {};
    case "rename":
      sys.renameSync(step.from, step.to);
      return {};
    case "displace":
      displace(step.path, step.tmp, step.text, step.dated_ms);
      return {};
    default:
      throw new TypeError(`statecore: a lock job asked for an unknown step ${JSON.stringify(step.do)}`);
  }
}

const watchCell = new Int32Array(new SharedArrayBuffer(4));
/**
 * A synchronous claimant's pause: up to `ms`, checking every `stepMs` (one `stat` each) that
 * its claim file (and, `lockToo`, the lock file) is still there; it returns as soon as one is
 * gone or the claim file is another (`ino`: ours).
 */
function watchClaim(lockPath, nextPath, ms, stepMs, lockToo, ino) {
  const end = performance.now() + ms;
  const gone = (file) => sys.statSync(file, { throwIfNoEntry: false }) === undefined;
  for (let left = ms; left > 0; left = end - performance.now()) {
    Atomics.wait(watchCell, 0, 0, Math.min(left, stepMs));
    try {
      const next = sys.statSync(nextPath, { throwIfNoEntry: false });
      if (next === undefined || String(next.ino) !== ino || (lockToo && gone(lockPath))) return;
    } catch {
      return;
    }
  }
}

/** `answer` with the clocks the job reads. */
function clocked(answer) {
  answer.now_ms = Date.now();
  answer.mono_ms = performance.now();
  return answer;
}

/**
 * Runs a lock job to its end from its first step on the one job driver (lib/host/jobs.cjs;
 * `io`: the I/O table, whose `sleep` a pause yields): each step performed and answered with
 * the clocks, a failure answered as `{failed}`. Returns the job's last step (`done`).
 */
function drive(io, lockPath, job) {
  return jobs.drive(job, function* (step, fail) {
    if (step.do === "pause") {
      yield io.sleep(step.ms);
      return clocked({});
    }
    if (step.do === "watch") {
      watchClaim(lockPath, `${lockPath}.next`, step.ms, step.step_ms, step.lock_too, step.ino);
      return clocked({});
    }
    try {
      return clocked(perform(step));
    } catch (error) {
      return clocked({ failed: fail(error) });
    }
  });
}

/** Runs a job that never pauses (a release, a sweep) to its end. */
function run(lockPath, job) {
  const steps = drive({ sleep: () => undefined }, lockPath, job);
  for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
}

/**
 * A job known by its first step (`first`, which the core gave ahead: a release's, with the
 * lock), made by `make` only if that step does not end it.
 */
function ahead(first, make) {
  let made = null;
  return {
    first,
    next: (answer) => (made ??= make()).next(answer),
    free: () => made?.free(),
  };
}

/** A held lock. `release()` releases the lock file only if it still holds our record. */
class Lock {
  constructor(lockPath, mine, release) {
    /** The lock file (`<file>.lock`, absolute). */
    this.path = lockPath;
    /** Our owner record (its `token` identifies this holder). */
    this.record = mine.record;
    this.mine = mine;
    /** The release job's first step, which the core gave ahead. */
    this.releaseStep = release;
    this.released = false;
  }

  /**
   * Releases the lock; true when our lock file was removed (or handed to the next turn's
   * claimant), false if it was not ours (or this is not the process that took it).
   */
  release() {
    if (this.released || this.record.pid !== process.pid) return false;
    this.released = true;
    try {
      // The release's first plan came with the lock: a job only if it does not end there.
      const make = () => core().lock.releaseJob(this.path, this.mine.text, identity(), PROBE, randomBytes(16), Date.now(), performance.now());
      return run(this.path, ahead(this.releaseStep, make)).released;
    } catch {
      // The file system failed (EIO): the lock stays, ours, until this process exits; the
      // caller's own outcome (or error) is what it must see.
      return false;
    }
  }
}

/**
 * Takes the lock of `file` (the sidecar `<file>.lock`, `file` absolute), waiting up to
 * `timeout` ms (null or undefined: the default; 0: one attempt). Callers checked `timeout`.
 */
function* acquire(io, file, timeout = DEFAULT_TIMEOUT_MS) {
  const wait = timeout ?? DEFAULT_TIMEOUT_MS;
  const lockPath = `${file}.lock`;
  const taking = core().lock.acquireJob(lockPath, io.sync, wait, identity(), PROBE, randomBytes(16), Date.now(), performance.now());
  const done = yield* drive(io, lockPath, taking);
  return new Lock(lockPath, { record: done.record, text: done.text }, done.release);
}

/**
 * Removes what dead writers left next to `file`; called by the lock holder before writing:
 * `.<name>.tmp-*` (no one else writes while we hold the lock), and lock temp files and break
 * markers whose owners are dead. A file that is not a statecore lock is never removed.
 */
function sweep(file) {
  const dir = path.dirname(file);
  const name = path.basename(file);
  let entries;
  try {
    entries = sys.readdirSync(dir);
  } catch {
    return;
  }
  // Only names that contain the file's name (other than it and its lock) can be its litter:
  // no crossing when there are none.
  const own = [name, `${name}.lock`, `${name}.lock.next`];
  const names = entries.filter((entry) => !own.includes(entry) && entry.includes(name));
  if (names.length === 0) return;
  const paths = names.map((entry) => path.join(dir, entry));
  const lockPath = `${file}.lock`;
  run(lockPath, core().lock.sweepJob(lockPath, name, names, paths, identity(), PROBE, randomBytes(16), Date.now(), performance.now()));
}

module.exports = { acquire, sweep, perform, watchClaim, identity, Lock, PROBE, LOCK_LEASE_MS, LOCK_GRACE_MS, DEFAULT_TIMEOUT_MS };
