"use strict";
/**
 * Append-only JSONL logs (ARCHITECTURE §5): `appendLine` writes one record under the lock (one
 * `write()` ending in `\n`, fsync), repairing a torn last line first (kept as a `.corrupt-`
 * copy); `readLog` drops a torn last line with a warning and never writes. The core parses.
 */
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { checkOptions, core } = require("./documents.cjs");
const { resolvePath } = require("./paths.cjs");

const api = {};

/**
 * appendLine(file, value, {timeout}): one JSONL record under the lock (the core's plan); the
 * log must be a regular file, not a symbolic link (`E_FILE_TYPE`).
 */
define(api, "appendLine", function* (io, file, value, hostOptions = {}) {
  file = resolvePath(file);
  const { timeout } = checkOptions("append", hostOptions);
  const C = core();
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    // A symbolic link is refused (E_FILE_TYPE): an appender never modifies a link's target.
    const bytes = yield io.read(file, null, true);
    const plan = C.logAppend(bytes, value); // E_LOG_CORRUPT propagates: the file is left alone
    const warnings = [];
    let copy = null;
    if (plan.truncate_at !== null && bytes !== null) {
      copy = yield io.copy(`${file}${C.corruptCopySuffix(Date.now())}`, bytes.subarray(plan.truncate_at));
      yield io.truncate(file, plan.truncate_at);
      warnings.push(C.logRepaired(plan.torn_line, copy));
    }
    yield io.append(file, plan.text, bytes === null);
    return { warnings, corruptCopy: copy };
  } finally {
    held.release();
  }
});

/** readLog(file): `{records, torn, warnings}` (a missing file is empty; never writes). */
define(api, "readLog", function* (io, file) {
  return core().logRead(yield io.read(resolvePath(file)));
});

module.exports = api;
