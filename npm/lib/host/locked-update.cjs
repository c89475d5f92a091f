"use strict";
/**
 * The system calls of the core's locked update (docs/locking.md § The locked update inside a
 * job, § The update as one job): who this process is, the lock's steps (the lock's own
 * driver's, lib/host/lock.cjs), the directory's names that may be litter, the file read with
 * its stamp and bytes, copied, and written atomically if it is still the one read. The core
 * decides everything; the only state kept is each file's stamp from its last `load`, which
 * its `write` checks. Used by the library's update (lib/host/documents.cjs) on any I/O table
 * and by the command line's (lib/cli/locked-write.cjs) on the synchronous one. Python's twin
 * is python/statecore/_host/locked_update.py.
 */
const lock = require("./lock.cjs");
const { sys, randomBytes } = require("./atomic.cjs");
const { CONSTANTS } = require("../binding/tables.cjs");
const { BYTES } = require("./jobs.cjs");

/** A document is read up to the limit + 1 bytes: a larger file is refused, never held. */
const READ_CAP = CONSTANTS.maxDocumentBytes;

/**
 * A `take` for the one job driver (lib/host/jobs.cjs `drive`) performing the locked update's
 * steps on the I/O table `io` (its reads, writes, copies and pauses; the lock's own steps and
 * the listing are synchronous, as the lock's driver makes them): each answer carries the
 * clocks, a failure is answered `{failed: fail(error)}`.
 */
function lockedSteps(io) {
  const stamps = new Map();
  return function* take(step, fail) {
    let answer;
    try {
      answer = yield* one(io, step, stamps);
    } catch (error) {
      answer = { failed: fail(error) };
    }
    answer.now_ms = Date.now();
    answer.mono_ms = performance.now();
    return answer;
  };
}

/** One step performed on `io`: its answer without the clocks. */
function* one(io, step, stamps) {
  switch (step.do) {
    case "identity":
      return { identity: lock.identity(), probe: lock.PROBE, seed: randomBytes(16).toString("hex") };
    case "entries": {
      const other = new Set(step.except);
      return { names: sys.readdirSync(step.path).filter((name) => name.includes(step.containing) && !other.has(name)) };
    }
    case "pause":
      yield io.sleep(step.ms);
      return {};
    case "watch":
      lock.watchClaim(step.lock, `${step.lock}.next`, step.ms, step.step_ms, step.lock_too, step.ino);
      return {};
    case "load": {
      const { bytes, stamp, ageMs } = yield io.readStamp(step.path, READ_CAP);
      stamps.set(step.path, stamp);
      if (bytes === null) return { missing: true };
      return { missing: false, age_ms: ageMs, [BYTES]: bytes };
    }
    case "copy":
      return { path: yield io.copyFile(step.path, step.to) };
    case "write": {
      const guard = { stamp: stamps.get(step.path) ?? null, edited: step.edited === true, backdateMs: step.backdate_ms ?? 0 };
      return { written: yield io.write(step.path, step.text, guard) };
    }
    default:
      return lock.perform(step);
  }
}

module.exports = { lockedSteps, READ_CAP };
