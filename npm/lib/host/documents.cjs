"use strict";
/**
 * Documents on files (docs/locking.md): `readDocument`, `updateDocument`, and `update`, the
 * one update routine every writer uses (`updateDocument`'s patches and the protocol helpers
 * of lib/host/helpers.cjs): the core's update job (docs/locking.md § The update as one job)
 * takes the lock, reads, changes, keeps a `.corrupt-` copy of unparseable old bytes, writes
 * atomically and releases the lock, asking for the system calls; an update by a function runs
 * the lock's and the file update's jobs one by one. Host options are checked: an unknown key
 * is `E_OPTIONS` naming the nearest valid one (the core's error).
 */
const path = require("node:path");
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { HOST_OPTIONS, CONSTANTS } = require("../binding/tables.cjs");
const { resolvePath } = require("./paths.cjs");
const { drive, BYTES } = require("./jobs.cjs");
const { lockedSteps } = require("./locked-update.cjs");
const { randomBytes } = require("./atomic.cjs");

/** A document is read up to the limit + 1 bytes: a larger file is refused, never held. */
const READ_CAP = CONSTANTS.maxDocumentBytes;

let coreModule = null;
/** The pure API (loaded on first use). */
function core() {
  return (coreModule ??= require("../generated/core-node.cjs"));
}

/** A `timeout` the core accepts: absent, null, or a finite number ≥ 0. */
const goodTimeout = (t) => t === undefined || t === null || (typeof t === "number" && t >= 0 && t < Infinity);

/** An absent or null option, or one that `ok` accepts. */
const nullOr = (ok) => (value) => value === undefined || value === null || ok(value);

/**
 * The fast path of the core's check of an option's value, by key (`now` and a helper's own
 * keys are checked where they are used); a value refused here is checked by the core, which
 * has the final word and the message.
 */
const FAST = {
  timeout: goodTimeout,
  reset: (value) => value === undefined || typeof value === "boolean",
  bigint: (value) => value === undefined || typeof value === "boolean",
  ifMatch: nullOr((value) => typeof value === "string"),
  id: nullOr((value) => typeof value === "string"),
  initial: nullOr((value) => typeof value === "boolean"),
  after: nullOr((value) => Number.isSafeInteger(value) && value >= 0),
  limit: nullOr((value) => Number.isSafeInteger(value) && value >= 0),
};

/** Options as JSON can carry them: a number JSON cannot hold (`NaN`) as its text. */
function asJson(options) {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return options;
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    out[key] = typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
  }
  return out;
}

/**
 * `options` checked against the host options `set` (`update`, `append`) and `extra` keys:
 * an unknown key or a bad value (a `timeout` that is not a finite number ≥ 0) raises the
 * core's `E_OPTIONS` (`UsageError`), naming the nearest valid key.
 */
function checkOptions(set, options, extra = []) {
  if (options === null || options === undefined) return {};
  const known = HOST_OPTIONS[set];
  const fine =
    typeof options === "object" &&
    !Array.isArray(options) &&
    Object.entries(options).every(([key, value]) => (known.includes(key) || extra.includes(key)) && (FAST[key]?.(value) ?? true));
  if (!fine) core().checkOptions(set, asJson(options), true, extra); // raises the core's E_OPTIONS
  return options;
}

/** `run()` (core calls) in big-integer mode when `bigint` (docs/api.md § Host values). */
const numbers = (bigint, run) => (bigint === true ? core().withBigInts(run) : run());

/**
 * The guarded read-change-write of docs/locking.md § Files people edit, under the lock the
 * caller holds, as the core's file update job decides it (§ The update as a job, run on the
 * one job driver): `file` is read with its stamp (`load`), waited on while a person may be
 * saving it (`pause`), `change(bytes)` computes the core's update (`apply`), an unparseable
 * file is copied (`copy`) before the new text is written, on the condition that the file is
 * still the one read (`write`); from the read again when it is not. Returns what the caller
 * gets: the update's result with the copy and its warning.
 */
function* guarded(io, file, kind, change) {
  const kept = { bytes: null, stamp: null, result: null };
  const job = core().fileUpdateJob(kind, file, Date.now());
  const done = yield* drive(job, function* (step, fail) {
    try {
      switch (step.do) {
        case "load": {
          const { bytes, stamp, ageMs } = yield io.readStamp(step.path, READ_CAP);
          Object.assign(kept, { bytes, stamp });
          if (bytes === null) return { missing: true };
          return { missing: false, age_ms: ageMs, [BYTES]: step.bytes === true ? bytes : undefined };
        }
        case "pause":
          yield io.sleep(step.ms);
          return {};
        case "apply":
          kept.result = yield* change(kept.bytes);
          return { changed: kept.result.changed, corrupt: kept.result.corrupt };
        case "copy":
          // From the file, whole: the bytes read stop at the limit + 1.
          return { path: yield io.copyFile(file, step.to) };
        case "write": {
          const guard = { stamp: kept.stamp, edited: step.edited === true, backdateMs: step.backdate_ms ?? 0 };
          return { written: yield io.write(file, kept.result.text, guard) };
        }
        default:
          throw new TypeError(`statecore: a file update job asked for an unknown step ${JSON.stringify(step.do)}`);
      }
    } catch (error) {
      return { failed: fail(error) };
    }
  });
  const { text: _text, corrupt: _corrupt, warnings, ...rest } = kept.result;
  const all = done.warning === undefined ? [...warnings] : [...warnings, done.warning];
  return { ...rest, warnings: all, corruptCopy: done.corrupt_copy ?? null };
}

/**
 * The one update routine: the core's update job (docs/locking.md § The update as one job) on
 * `file`, a document of `kind`, by `change` (a writer of the table, "" to replace the
 * document, "merge" for a patch) with `args`: the job takes the lock, sweeps, reads, applies
 * the change, keeps a copy of an unparseable file, writes and releases the lock, asking `io`
 * for the system calls (lib/host/locked-update.cjs); its common path crosses into the core
 * twice.
 */
function* update(io, file, kind, change, args, options) {
  const { ifMatch = null, now = null, timeout, reset = false, bigint } = options;
  const waiter = {
    identity: lock.identity(),
    probe: lock.PROBE,
    watching: io.sync === true,
    timeout_ms: timeout ?? lock.DEFAULT_TIMEOUT_MS,
    with_document: false,
    numbers: bigint === true ? "js_bigint" : "js",
    now_ms: Date.now(),
    mono_ms: performance.now(),
  };
  const job = core().updateJob(kind, change, file, args, { now, ifMatch, reset }, waiter, randomBytes(16));
  const done = yield* drive(job, lockedSteps(io));
  return core().updateOutcome(kind, done, bigint === true);
}

/**
 * An update by a function of the current document (it returns the new one, or changes it and
 * returns undefined): the core loads the bytes, the function runs, the core finishes (the
 * function runs again on the new text when the file changed under it).
 */
function* updateWith(io, file, kind, fn, options) {
  const { ifMatch = null, timeout, reset = false, bigint } = options;
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    return yield* guarded(io, file, kind, function* (bytes) {
      const C = core();
      const loaded = numbers(bigint, () => C.loadDocument(kind, bytes));
      C.checkIfMatch(loaded.etag, ifMatch);
      const returned = yield fn(loaded.document);
      const document = returned === undefined ? loaded.document : returned;
      // JS numbers are doubles: the ones the function did not change keep the file's text.
      return numbers(bigint, () => C.finishUpdate(kind, bytes, document, null, reset, true));
    });
  } finally {
    held.release();
  }
}

const api = {};

/**
 * readDocument(file, kind, {bigint}): the core's `loadDocument` over the file's bytes (never
 * writes); `bigint`: integers no double holds come back as `BigInt`.
 */
define(api, "readDocument", function* (io, file, kind, options = {}) {
  file = resolvePath(file);
  const { bigint } = checkOptions("read", options);
  const bytes = yield io.read(file, READ_CAP);
  return numbers(bigint, () => core().loadDocument(kind, bytes));
});

/**
 * updateDocument(file, kind, patchOrFunction, mergeOptions, {ifMatch, now, timeout, reset}): a
 * locked read-merge-validate-write. A patch is merged with `mergeOptions`; a function gets the
 * current document and returns the new one (or changes it and returns undefined).
 */
define(api, "updateDocument", function* (io, file, kind, patchOrFunction, mergeOptions = null, hostOptions = {}) {
  file = resolvePath(file);
  const options = checkOptions("update", hostOptions, ["bigint"]);
  if (typeof patchOrFunction === "function") {
    if (mergeOptions !== null && mergeOptions !== undefined) {
      // The core's check first: an update option given here (`timeout`) is told where it goes.
      core().merge({}, {}, mergeOptions);
      throw new TypeError("merge options apply to a patch; an update function builds the document itself");
    }
    return yield* updateWith(io, file, kind, patchOrFunction, options);
  }
  return yield* update(io, file, kind, "merge", [patchOrFunction, mergeOptions], options);
});

/** Creates the directory of `file` (and its parents) first. */
function* inDirectory(io, file, routine) {
  yield io.mkdir(path.dirname(file));
  return yield* routine;
}

module.exports = { ...api, update, updateWith, inDirectory, checkOptions, core, READ_CAP };
