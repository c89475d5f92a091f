"use strict";
/**
 * Documents on files (docs/locking.md): `readDocument`, `updateDocument`, and `update`, the
 * one update routine every writer uses (`updateDocument`'s patches and the protocol helpers
 * of lib/host/helpers.cjs): under the lock of the file, its bytes and the change cross into the
 * core once (`updateFile`: one parse, one validation, one serialization), then a `.corrupt-`
 * copy of unparseable old bytes is kept and the new text written atomically. Host options are
 * checked: an unknown key is `E_OPTIONS` naming the nearest valid one (the core's error).
 */
const path = require("node:path");
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { HOST_OPTIONS, CONSTANTS } = require("../binding/tables.cjs");
const { resolvePath } = require("./paths.cjs");

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
 * After the core's update: keeps a `.corrupt-` copy of unparseable old bytes before they are
 * replaced, writes the new text when it changed, and returns what the caller gets; null when
 * the file is no longer the one read (`guard`, see lib/host/replace.cjs `writeAtomic`), nothing
 * written: the caller starts over.
 */
function* finish(io, file, bytes, update, guard) {
  const { text: _text, corrupt, warnings, ...rest } = update;
  const out = { ...rest, warnings: [...warnings], corruptCopy: null };
  if (corrupt && bytes !== null && update.changed) {
    const C = core();
    // From the file, whole: the bytes read stop at the limit + 1.
    out.corruptCopy = yield io.copyFile(file, `${file}${C.corruptCopySuffix(Date.now())}`);
    out.warnings.push(C.corruptCopyWarning(out.corruptCopy));
  }
  if (update.changed && !(yield io.write(file, update.text, guard))) return null;
  return out;
}

const EDITED = new Map();
/** Whether the files of `kind` are edited by hand (the core's answer, asked once per kind). */
function editedByHand(kind) {
  let edited = EDITED.get(kind);
  if (edited === undefined) {
    edited = core().editWait(kind, null, {}).edited;
    EDITED.set(kind, edited);
  }
  return edited;
}

/**
 * The guarded read-change-write of docs/locking.md § Files people edit, under the lock the
 * caller holds: `file` is read with its stamp; a file people edit is waited on while it is
 * still changing (the core's `editWait`); `change(bytes)` computes the core's update; the
 * write checks that the file is still the one read, and the whole starts over from the new
 * text when it is not (`editWait` raises `E_CONFLICT` when that happens too often).
 */
function* guarded(io, file, kind, change) {
  const edited = editedByHand(kind);
  let waited = 0;
  let restarts = 0;
  for (;;) {
    const { bytes, stamp, ageMs } = yield io.readStamp(file, READ_CAP);
    if (restarts > 0 || (edited && bytes !== null)) {
      const facts = { age_ms: ageMs, waited_ms: waited, restarts };
      const { wait_ms: wait } = core().editWait(kind, edited ? bytes : null, facts);
      if (wait > 0) {
        yield io.sleep(wait);
        waited += wait;
        continue;
      }
    }
    const result = yield* change(bytes);
    const out = yield* finish(io, file, bytes, result, { stamp, edited, backdateMs: CONSTANTS.editQuietMs });
    if (out !== null) return out;
    restarts += 1;
  }
}

/**
 * The one update routine: under the lock of `file`, its bytes and `change` (a writer of the
 * table, "" to replace the document, "merge" for a patch) with `args` go to the core once
 * (again from the new text when the file changed under it: {@link guarded}).
 */
function* update(io, file, kind, change, args, options) {
  const { ifMatch = null, now = null, timeout, reset = false, bigint } = options;
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    return yield* guarded(io, file, kind, function* (bytes) {
      return numbers(bigint, () => core().updateFile(kind, change, bytes, args, { now, ifMatch, reset }));
    });
  } finally {
    held.release();
  }
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
