"use strict";
/**
 * Documents on files (ARCHITECTURE §5): `readDocument`, `updateDocument`, and `update`, the
 * one update routine every writer uses (`updateDocument`'s patches and the protocol helpers
 * of lib/helpers.cjs): under the lock of the file, its bytes and the change cross into the
 * core once (`updateFile`: one parse, one validation, one serialization), then a `.corrupt-`
 * copy of unparseable old bytes is kept and the new text written atomically. Host options are
 * checked: an unknown key is `E_OPTIONS` naming the nearest valid one (the core's error).
 */
const path = require("node:path");
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { HOST_OPTIONS } = require("./tables.cjs");

let coreModule = null;
/** The pure API (loaded on first use). */
function core() {
  return (coreModule ??= require("./core-node.cjs"));
}

/**
 * `options` checked against the host options `set` (`update`, `append`) and `extra` keys:
 * an unknown key raises the core's `E_OPTIONS` (`UsageError`) naming the nearest valid one.
 */
function checkOptions(set, options, extra = []) {
  if (options === null || options === undefined) return {};
  const known = HOST_OPTIONS[set];
  const fine =
    typeof options === "object" &&
    !Array.isArray(options) &&
    Object.keys(options).every((key) => known.includes(key) || extra.includes(key));
  if (!fine) core().checkOptions(set, options, true, extra); // raises the core's E_OPTIONS
  return options;
}

/**
 * After the core's update: keeps a `.corrupt-` copy of unparseable old bytes before they are
 * replaced, writes the new text when it changed, and returns what the caller gets.
 */
function* finish(io, file, bytes, update) {
  const { text: _text, corrupt, warnings, ...rest } = update;
  const out = { ...rest, warnings: [...warnings], corruptCopy: null };
  if (corrupt && bytes !== null && update.changed) {
    const C = core();
    out.corruptCopy = yield io.copy(`${file}${C.corruptCopySuffix(Date.now())}`, bytes);
    out.warnings.push(C.corruptCopyWarning(out.corruptCopy));
  }
  if (update.changed) yield io.write(file, update.text);
  return out;
}

/**
 * The one update routine: under the lock of `file`, its bytes and `change` (a writer of the
 * table, "" to replace the document, "merge" for a patch) with `args` go to the core once.
 */
function* update(io, file, kind, change, args, options) {
  const { ifMatch = null, now = null, timeout } = options;
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    const bytes = yield io.read(file);
    const result = core().updateFile(kind, change, bytes, args, { now, ifMatch });
    return yield* finish(io, file, bytes, result);
  } finally {
    held.release();
  }
}

/**
 * An update by a function of the current document (it returns the new one, or changes it and
 * returns undefined): the core loads the bytes, the function runs, the core finishes.
 */
function* updateWith(io, file, kind, fn, options) {
  const { ifMatch = null, timeout } = options;
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    const bytes = yield io.read(file);
    const C = core();
    const loaded = C.loadDocument(kind, bytes);
    C.checkIfMatch(loaded.etag, ifMatch);
    const returned = yield fn(loaded.document);
    const result = C.finishUpdate(kind, bytes, returned === undefined ? loaded.document : returned, null);
    return yield* finish(io, file, bytes, result);
  } finally {
    held.release();
  }
}

const api = {};

/** readDocument(file, kind): the core's `loadDocument` over the file's bytes (never writes). */
define(api, "readDocument", function* (io, file, kind) {
  return core().loadDocument(kind, yield io.read(String(file)));
});

/**
 * updateDocument(file, kind, patchOrFunction, mergeOptions, {ifMatch, now, timeout}): a locked
 * read-merge-validate-write. A patch is merged with `mergeOptions`; a function gets the
 * current document and returns the new one (or changes it and returns undefined).
 */
define(api, "updateDocument", function* (io, file, kind, patchOrFunction, mergeOptions = null, hostOptions = {}) {
  const options = checkOptions("update", hostOptions);
  if (typeof patchOrFunction === "function") {
    if (mergeOptions !== null && mergeOptions !== undefined) {
      throw new TypeError("merge options apply to a patch; an update function builds the document itself");
    }
    return yield* updateWith(io, String(file), kind, patchOrFunction, options);
  }
  return yield* update(io, String(file), kind, "merge", [patchOrFunction, mergeOptions], options);
});

/** Creates the directory of `file` (and its parents) first. */
function* inDirectory(io, file, routine) {
  yield io.mkdir(path.dirname(file));
  return yield* routine;
}

module.exports = { ...api, update, updateWith, inDirectory, checkOptions, core };
