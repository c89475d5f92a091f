"use strict";
/**
 * The sidecar lock protocol of docs/locking.md (Node), byte-compatible with
 * python/statecore/_host/lock.py: a lock on `<file>` is `<file>.lock` holding a JSON owner record,
 * created complete (record written to a temp file, then link()ed into place), broken only
 * when its owner is provably dead (through a `<lock>.break-<id>` marker so that only one
 * process may remove it), and released only by its holder.
 *
 * Every rule is the core's (`lock.*`: the record's bytes, what a lock file says of its owner,
 * the verdict on whether that owner is gone, the timeout error); this file makes the system
 * calls and gathers the facts (the file's stamp, `kill(pid, 0)`, `/proc/<pid>/stat`).
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { unlinkQuiet, requireRegular, readFlags, randomBytes, sys } = require("./atomic.cjs");
const { CONSTANTS } = require("../binding/tables.cjs");

/** A lock whose owner runs on another host is broken only this long after `acquired_at`. */
const LOCK_LEASE_MS = CONSTANTS.lockLeaseMs;
/** A malformed lock record (or break marker) is broken only when its mtime is this old. */
const LOCK_GRACE_MS = CONSTANTS.lockGraceMs;
/** Default time to wait for a lock before `LockTimeoutError`. */
const DEFAULT_TIMEOUT_MS = CONSTANTS.lockTimeoutMs;
/** A waiter claims the next turn (`<lock>.next`) after waiting this long. */
const QUEUE_AFTER_MS = CONSTANTS.lockQueueAfterMs;
/** A turn claim is honoured this long after its mtime; its claimant refreshes it at half. */
const TURN_MS = CONSTANTS.lockTurnMs;
/** A lock record is one short line: a lock file is read up to this many bytes. */
const MAX_RECORD_BYTES = 65536;

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

/**
 * A fresh owner record and the lock file's bytes (`{record, text}`, the core's format), dated
 * `now` (epoch ms; a waiter's claim is dated when it started waiting).
 */
function newRecord(now = Date.now()) {
  return core().lock.record(identity(), randomBytes(CONSTANTS.tokenBytes), now);
}

/**
 * Reads a lock file, break marker or turn claim: `{record, id, foreign, mtimeMs, text}` (the
 * core's reading of it, `id` naming its owner), or null when it does not exist. A FIFO or
 * device there is `E_FILE_TYPE` (opened without blocking, never read).
 */
function readOwner(file) {
  let fd;
  try {
    fd = sys.openSync(file, readFlags(false));
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
  let bytes, stat;
  try {
    stat = sys.fstatSync(fd, { bigint: true });
    requireRegular(file, stat);
    const buffer = Buffer.allocUnsafe(MAX_RECORD_BYTES);
    bytes = buffer.subarray(0, sys.readSync(fd, buffer, 0, MAX_RECORD_BYTES, 0));
  } finally {
    sys.closeSync(fd);
  }
  const owner = core().lock.owner(bytes, `${stat.ino}:${stat.mtimeNs}`);
  return { ...owner, mtimeMs: Number(stat.mtimeNs / 1_000_000n), text: bytes.toString("utf8") };
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

/**
 * The facts the core's verdict needs about the owner of a lock file (or marker, or claim);
 * `liveness: false` (a young claim a waiter peeks at): without probing its process.
 */
function facts(owner, liveness = true) {
  const me = identity();
  const r = owner.record;
  const probe = process.platform !== "win32"; // no kill(pid, 0) there: never guess
  const local = liveness && r !== null && r.host === me.host && probe;
  return {
    now_ms: Date.now(),
    mtime_ms: owner.mtimeMs,
    host: me.host,
    boot: me.boot,
    probe,
    exists: local ? processExists(r.pid) : null,
    stat: local ? procStatText(r.pid) : null,
  };
}

/** Whether a lock (or marker) may be broken: the core's verdict on the facts seen here. */
function ownerDead(owner) {
  return core().lock.verdict(owner.record, facts(owner)).dead;
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
 * Creates `target` holding `mine` (a new record), complete from its first instant: its bytes
 * go to `<target>.<token>.tmp`, which is link()ed to `target` (EEXIST = held by someone else).
 * Returns true when we created it.
 */
function createComplete(target, mine) {
  const tmp = `${target}.${mine.record.token}.tmp`;
  for (let attempt = 0; ; attempt++) {
    try {
      sys.writeFileSync(tmp, mine.text, { flag: "wx", mode: 0o644 });
      sys.linkSync(tmp, target);
      return true;
    } catch (error) {
      if (error.code === "EEXIST") return false;
      // ENOENT: our temp file was swept as litter while we were stopped; write it again.
      if (error.code === "ENOENT" && attempt < 3) continue;
      if (LINK_UNSUPPORTED.has(error.code)) return createExclusive(target, mine.text);
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

/** Unlinks `file` if it still holds exactly our record's bytes; never anyone else's. */
function releaseFile(file, mine) {
  let bytes;
  try {
    bytes = sys.readFileSync(file, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return false;
    throw error;
  }
  if (bytes !== mine.text) return false;
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
      const same = current !== null && !current.foreign && current.id === owner.id;
      if (same && ownerDead(current)) unlinkQuiet(target);
    } finally {
      releaseFile(marker, mine);
    }
    return true;
  }
  const breaker = readOwner(marker);
  if (breaker === null) return true;
  if (depth >= 8 || !ownerDead(breaker)) return false;
  return breakFile(lockPath, marker, breaker, depth + 1);
}

/**
 * One acquisition attempt: `{mine}` (acquired, our record) or `{owner}` (the holder to wait
 * for). A file at the lock path that is not a statecore lock is `E_LOCK_FOREIGN`, untouched.
 */
function tryAcquire(lockPath) {
  let owner = null;
  for (let step = 0; step < 8; step++) {
    // A held lock is judged without making a record, a temp file and a link: a waiter's
    // attempt then changes nothing in the directory (whose fsync the holder is waiting for).
    if (sys.statSync(lockPath, { throwIfNoEntry: false }) === undefined) {
      const mine = newRecord();
      if (createComplete(lockPath, mine)) return { mine };
    }
    owner = readOwner(lockPath);
    if (owner === null) continue; // released meanwhile
    if (owner.foreign) core().lock.foreign(lockPath, owner.text); // throws E_LOCK_FOREIGN
    if (!ownerDead(owner) || !breakFile(lockPath, lockPath, owner)) return { owner };
  }
  return { owner };
}

/**
 * Releases the lock `lockPath` if it still holds exactly our record's bytes (`mine`): to the
 * claimant of the next turn when the core's `lock.turn` says so (its claim file is renamed
 * over the lock, so the lock is never free in between and the claimant, watching its claim,
 * goes on at once), else by unlinking it. Returns true when our lock was released.
 */
function releaseLock(lockPath, mine) {
  const nextPath = `${lockPath}.next`;
  const next = readTurn(lockPath, nextPath, mine.record.token);
  let bytes;
  try {
    bytes = sys.readFileSync(lockPath, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return false;
    throw error;
  }
  if (bytes !== mine.text) return false;
  if (next !== null && next.hand_over) {
    try {
      sys.renameSync(nextPath, lockPath);
      return true;
    } catch {
      // the claim went meanwhile (or cannot be moved): release as usual
    }
  }
  unlinkQuiet(lockPath);
  return true;
}

/** Whether the lock file holds exactly `mine`'s bytes (the lock was handed to our claim). */
function holds(lockPath, mine) {
  try {
    return sys.readFileSync(lockPath, "utf8") === mine.text;
  } catch {
    return false;
  }
}

/** A held lock. `release()` releases the lock file only if it still holds our record. */
class Lock {
  constructor(lockPath, mine) {
    /** The lock file (`<file>.lock`, absolute). */
    this.path = lockPath;
    /** Our owner record (its `token` identifies this holder). */
    this.record = mine.record;
    this.mine = mine;
    this.released = false;
  }

  /**
   * Releases the lock; true when our lock file was removed, false if it was not ours (or this
   * is not the process that took it).
   */
  release() {
    if (this.released || this.record.pid !== process.pid) return false;
    this.released = true;
    try {
      return releaseLock(this.path, this.mine);
    } catch {
      // The file system failed (EIO): the lock stays, ours, until this process exits; the
      // caller's own outcome (or error) is what it must see.
      return false;
    }
  }
}

/**
 * The core's `lock.turn` on what the claim file `<lock>.next` holds (`{wait, hand_over,
 * displace_ms}`), or null when there is none (no crossing then) or it cannot be read: the
 * claim file never makes an acquisition or a release fail. A claim too young to be honoured is
 * judged from its mtime alone by the core's `lock.glance` (`pass`: null), without reading it or
 * checking its claimant's liveness, except by a `waiting` acquirer (one that has waited and
 * holds no claim), which reads it without checking its claimant's liveness (`peek`): it may
 * have waited longer than the claimant (`since`: when it started, epoch ms). A claim whose
 * claimant is gone is broken here. `token`: our own claim's (or lock's) token; `mine`: our
 * claim's state, if we are a waiter: a claim of ours that another file replaced (a longer
 * waiter took it over), or that is gone, is no longer placed.
 */
function readTurn(lockPath, nextPath, token, waiting = false, since = null, mine = null) {
  try {
    // No claim (the case without contention): one stat, no failed open.
    const seen = sys.statSync(nextPath, { throwIfNoEntry: false });
    if (seen === undefined) {
      // Our claim is gone and the lock was not handed to us (checked before): placed again
      // after this attempt, not watched for (a claim renamed over ours and then broken as its
      // dead predecessor's would otherwise leave us watching a file that is not there).
      if (mine !== null) mine.placed = false;
      return null;
    }
    if (mine !== null && mine.placed && seen.ino !== mine.ino) {
      mine.placed = false; // taken over: we wait like the others (and may take it back)
      waiting = true;
    }
    const glance = core().lock.glance(Date.now(), Math.floor(seen.mtimeMs), waiting);
    if (glance === "pass") return null;
    const next = readOwner(nextPath);
    if (next === null) return null;
    const claim = { record: next.record, id: next.id, foreign: next.foreign };
    const seenFacts = facts(next, glance === "judge");
    const turn = core().lock.turn(claim, seenFacts, token, waiting, waiting ? since : null);
    if (turn.dead) breakFile(lockPath, nextPath, next);
    return turn;
  } catch {
    return null;
  }
}

/**
 * Claims or refreshes this waiter's turn (docs/locking.md § Fairness): a waiter that has
 * waited `QUEUE_AFTER_MS` puts its claim record (`claim.mine`, one per acquisition, dated when
 * it started waiting: the lock may be handed to it) in `<lock>.next`; the claim is renewed at
 * half its life. Sets `claim.placed` (whether `<lock>.next` holds it, as far as we know),
 * `claim.at` (our clock) and `claim.dated` (its file's mtime, epoch ms: its age is judged from
 * it, as others do); a claim that cannot be made is no error (this waiter then polls like the
 * others).
 */
function claimTurn(nextPath, claim, waited) {
  try {
    if (claim.placed && performance.now() - claim.at > TURN_MS / 2) {
      releaseFile(nextPath, claim.mine);
      claim.placed = false;
    }
    if (!claim.placed && waited >= QUEUE_AFTER_MS) {
      claim.mine ??= newRecord(claim.since);
      claim.placed = createComplete(nextPath, claim.mine);
      claim.at = performance.now();
      claim.dated = Date.now();
      if (claim.placed) placed(nextPath, claim);
    }
  } catch {
    claim.placed = false;
  }
}

/**
 * Notes what our claim file `nextPath` is: its inode (a claim of ours replaced by a longer
 * waiter's has another) and its age as the others judge it, from its mtime (a coarse clock
 * that can lag ours by a few ms), so that we watch when they start honouring it, not later.
 */
function placed(nextPath, claim) {
  try {
    const seen = sys.statSync(nextPath, { throwIfNoEntry: false });
    if (seen === undefined) return;
    claim.ino = seen.ino;
    claim.dated = Math.floor(seen.mtimeMs);
  } catch {
    // judged from our clock
  }
}

/**
 * Takes the claim to the next turn over from a waiter that started after us (the core's
 * `lock.turn` said `displace_ms`): our claim record goes to a temp file dated `datedMs` (as
 * ripe as the claim it replaces), which is renamed over `<lock>.next`. A releaser renaming the
 * claim over the lock meanwhile hands the lock to whichever claim is there: ours, which we
 * watch. The claimant we replaced sees its claim gone (another inode) and waits again.
 */
function displaceClaim(nextPath, claim, datedMs) {
  claim.mine ??= newRecord(claim.since);
  const tmp = `${nextPath}.${claim.mine.record.token}.tmp`;
  try {
    sys.writeFileSync(tmp, claim.mine.text, { flag: "wx", mode: 0o644 });
    sys.utimesSync(tmp, datedMs / 1000, datedMs / 1000);
    sys.renameSync(tmp, nextPath);
    claim.placed = true;
    claim.dated = datedMs;
    claim.at = performance.now() - Math.max(0, Date.now() - datedMs);
    placed(nextPath, claim);
  } catch {
    claim.placed = false;
  } finally {
    try {
      unlinkQuiet(tmp);
    } catch {
      // It holds our record: swept once this process is gone.
    }
  }
}

const watchCell = new Int32Array(new SharedArrayBuffer(4));
/**
 * A synchronous claimant's pause: up to `ms`, checking every `stepMs` (one `stat` each) that
 * its claim file (and, `lockToo`, the lock file) is still there; it returns as soon as one is
 * gone (the claim renamed over the lock by a releaser handing the lock to us, removed, or
 * replaced by a longer waiter's: `ino` is our claim file's inode; the lock released before our
 * claim was honoured, or broken).
 */
function watchClaim(lockPath, nextPath, ms, stepMs, lockToo, ino) {
  const end = performance.now() + ms;
  const gone = (file) => sys.statSync(file, { throwIfNoEntry: false }) === undefined;
  for (let left = ms; left > 0; left = end - performance.now()) {
    Atomics.wait(watchCell, 0, 0, Math.min(left, stepMs));
    try {
      const next = sys.statSync(nextPath, { throwIfNoEntry: false });
      if (next === undefined || next.ino !== ino || (lockToo && gone(lockPath))) return;
    } catch {
      return;
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
  const nextPath = `${lockPath}.next`;
  const start = performance.now();
  const deadline = start + wait;
  // Our claim to the next turn: one record per acquisition (the lock may be handed to it),
  // dated `since`, when we started waiting: a longer waiter takes the claim over.
  const claim = { mine: null, placed: false, at: 0, dated: 0, ino: 0, since: Date.now() };
  let held = null;
  try {
    for (let attempt = 0; ; attempt++) {
      if (claim.mine !== null && holds(lockPath, claim.mine)) return (held = new Lock(lockPath, claim.mine));
      let result = { owner: null };
      const waiting = attempt > 0 && !claim.placed;
      const turn = readTurn(lockPath, nextPath, claim.mine?.record.token ?? null, waiting, claim.since, claim);
      if (turn !== null && turn.wait) {
        claim.placed = false; // another's claim is there, not ours
        // We have waited longer than its claimant: the claim becomes ours.
        if (turn.displace_ms !== null) displaceClaim(nextPath, claim, turn.displace_ms);
      } else {
        result = tryAcquire(lockPath);
        if (result.mine) return (held = new Lock(lockPath, result.mine));
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        if (claim.mine !== null) {
          unclaim(nextPath, claim);
          if (holds(lockPath, claim.mine)) return (held = new Lock(lockPath, claim.mine));
        }
        const holder = result.owner ?? readOwner(lockPath);
        const owner = holder && { record: holder.record, id: holder.id, text: holder.text };
        core().lock.timeout(lockPath, owner, wait); // throws E_LOCK_TIMEOUT
      }
      // Another's claim is there: ours could not be placed (no temp file, no link to fail).
      if (turn === null || !turn.wait) claimTurn(nextPath, claim, performance.now() - start);
      const age = claim.placed ? Date.now() - claim.dated : null;
      const plan = core().lock.pause(attempt, age, io.sync, Math.random());
      const pause = Math.max(0, Math.min(left, plan.us / 1000));
      if (plan.watch !== "none") {
        watchClaim(lockPath, nextPath, pause, plan.step_us / 1000, plan.watch === "claim_and_lock", claim.ino);
      } else yield io.sleep(pause);
    }
  } finally {
    if (claim.mine !== null) {
      unclaim(nextPath, claim);
      // Handed the lock as we gave up (an error): release it, never keep it unknowingly.
      if (held === null && holds(lockPath, claim.mine)) new Lock(lockPath, claim.mine).release();
    }
  }
}

/** Removes our claim if `<lock>.next` still holds it; never fails (a stale claim of ours is
 * ignored after lockTurnMs, and broken once we are gone). */
function unclaim(nextPath, claim) {
  try {
    releaseFile(nextPath, claim.mine);
  } catch {
    // see above
  }
  claim.placed = false;
}

/**
 * Removes what dead writers left next to `file`; called by the lock holder before writing:
 * `.<name>.tmp-*` (no one else writes while we hold the lock), and lock temp files and break
 * markers whose owners are dead. A file that is not a statecore lock is never removed.
 */
function sweep(file) {
  const dir = path.dirname(file);
  const name = path.basename(file);
  const lockPath = `${file}.lock`;
  let entries;
  try {
    entries = sys.readdirSync(dir);
  } catch {
    return;
  }
  // Only names that contain the file's name (other than it and its lock) can be its litter:
  // no crossing when there are none.
  const own = [name, `${name}.lock`, `${name}.lock.next`];
  const candidates = entries.filter((entry) => !own.includes(entry) && entry.includes(name));
  if (candidates.length === 0) return;
  for (const { entry, what } of core().lock.litter(name, candidates)) {
    const full = path.join(dir, entry);
    if (what === "write_temp") {
      unlinkQuiet(full); // nobody else writes while we hold the lock
      continue;
    }
    // A lock temp file or break marker holds its creator's record: judged like a lock.
    let owner;
    try {
      owner = readOwner(full);
    } catch {
      continue; // not a regular file: not ours to judge
    }
    if (owner === null || owner.foreign || !ownerDead(owner)) continue;
    if (what === "lock_temp") unlinkQuiet(full);
    else breakFile(lockPath, full, owner);
  }
}

module.exports = { acquire, sweep, Lock, LOCK_LEASE_MS, LOCK_GRACE_MS, DEFAULT_TIMEOUT_MS };
