"use strict";
/**
 * Append-only JSONL logs (ARCHITECTURE §5): `appendLine` writes one record under the lock (one
 * `write()` ending in `\n`, fsync), repairing a torn last line first (kept as a `.corrupt-`
 * copy); `readLog` drops a torn last line with a warning and never writes. The core parses.
 */
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { checkOptions, core } = require("./documents.cjs");

const api = {};

/** appendLine(file, value, {timeout}): one JSONL record under the lock (the core's plan). */
define(api, "appendLine", function* (io, file, value, hostOptions = {}) {
  const { timeout } = checkOptions("append", hostOptions);
  file = String(file);
  const C = core();
  const held = yield* lock.acquire(io, file, timeout);
  try {
    const bytes = yield io.read(file);
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
  return core().logRead(yield io.read(String(file)));
});

module.exports = api;
