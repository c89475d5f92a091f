"use strict";
// The system calls of the command line's locked update (docs/cli.md § How it runs; the
// core's cli/src/cli/locked_write.rs decides it): who this process is, the lock's steps (the
// lock's own driver's, lib/host/lock.cjs), the directory's names for the holder's sweep, the
// file read with its stamp and bytes, copied, and written atomically if it is still the one
// read. Each answer carries the clocks; a failure is answered `{failed}` with the system
// error's name, or the statecore error the routine raised. The only state kept is each file's
// stamp from its last `load`, which its `write` checks. Loaded by bin/statecore.cjs when the
// job first asks for one of these steps. Python's twin is python/statecore/_cli/locked_write.py.
const fs = require("node:fs");
const lock = require("../host/lock.cjs");
const { SYNC } = require("../host/steps.cjs");
const { randomBytes } = require("../host/atomic.cjs");
const { CONSTANTS } = require("../binding/tables.cjs");
const { BYTES } = require("../host/jobs.cjs");

/** A document is read up to the limit + 1 bytes: a larger file is refused, never held. */
const READ_CAP = CONSTANTS.maxDocumentBytes;

/** A performer of the locked update's steps (`perform(step)` gives its answer). */
function lockedWrite() {
  const stamps = new Map();
  return function perform(step) {
    let answer;
    try {
      answer = one(step, stamps);
    } catch (error) {
      answer = { failed: failure(error) };
    }
    answer.now_ms = Date.now();
    answer.mono_ms = performance.now();
    return answer;
  };
}

/** A failure as the core reads it: a statecore error's fields, or the system error's name. */
function failure(error) {
  if (typeof error?.code === "string" && error.code.startsWith("E_") && typeof error.path === "string") {
    return { code: error.code, path: error.path, message: error.message };
  }
  return String(error?.code ?? "EIO");
}

/** One step performed: its answer without the clocks. */
function one(step, stamps) {
  switch (step.do) {
    case "identity":
      return { identity: lock.identity(), probe: lock.PROBE, seed: randomBytes(16).toString("hex") };
    case "entries": {
      const other = new Set(step.except);
      return { names: fs.readdirSync(step.path).filter((name) => name.includes(step.containing) && !other.has(name)) };
    }
    case "pause":
      SYNC.sleep(step.ms);
      return {};
    case "watch":
      lock.watchClaim(step.lock, `${step.lock}.next`, step.ms, step.step_ms, step.lock_too, step.ino);
      return {};
    case "load": {
      const { bytes, stamp, ageMs } = SYNC.readStamp(step.path, READ_CAP);
      stamps.set(step.path, stamp);
      if (bytes === null) return { missing: true };
      return { missing: false, age_ms: ageMs, [BYTES]: bytes };
    }
    case "copy":
      return { path: SYNC.copyFile(step.path, step.to) };
    case "write": {
      const guard = { stamp: stamps.get(step.path) ?? null, edited: step.edited === true, backdateMs: step.backdate_ms ?? 0 };
      return { written: SYNC.write(step.path, step.text, guard) };
    }
    default:
      return lock.perform(step);
  }
}

module.exports = { lockedWrite };
