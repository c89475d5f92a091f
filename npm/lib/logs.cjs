"use strict";
/**
 * Append-only JSONL logs (ARCHITECTURE §5): `appendLine` writes one record under the lock (one
 * `write()` ending in `\n`, fsync), repairing a torn last line first (kept as a `.corrupt-`
 * copy); `repairLog` does that repair alone; `readLog` drops a torn last line with a warning
 * and never writes. The core parses.
 */
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { checkOptions, core } = require("./documents.cjs");
const { resolvePath } = require("./paths.cjs");

const api = {};

/**
 * Runs the routine `step(bytes)` on the log's bytes under its lock, `hostOptions` checked
 * first. A symbolic link is refused (`E_FILE_TYPE`): a writer never modifies a link's target.
 */
function* underLock(io, file, hostOptions, step) {
  const { timeout } = checkOptions("append", hostOptions);
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    return yield* step(yield io.read(file, null, true));
  } finally {
    held.release();
  }
}

/**
 * Moves the torn last line the core's `plan` names (`truncate_at`, `torn_line`) to a
 * `.corrupt-` copy and cuts it off: `{warnings, corruptCopy}` (nothing done when none).
 */
function* cutTornTail(io, file, bytes, plan) {
  if (plan.truncate_at === null || bytes === null) return { warnings: [], corruptCopy: null };
  const C = core();
  const copy = yield io.copy(`${file}${C.corruptCopySuffix(Date.now())}`, bytes.subarray(plan.truncate_at), file);
  yield io.truncate(file, plan.truncate_at);
  return { warnings: [C.logRepaired(plan.torn_line, copy)], corruptCopy: copy };
}

/**
 * appendLine(file, value, {timeout}): one JSONL record under the lock (the core's plan; a torn
 * last line is cut off first); the log must be a regular file, not a symbolic link.
 * `E_LOG_CORRUPT` propagates and the file is left alone.
 */
define(api, "appendLine", function* (io, file, value, hostOptions = {}) {
  file = resolvePath(file);
  return yield* underLock(io, file, hostOptions, function* (bytes) {
    const plan = core().logAppend(bytes, value);
    const cut = yield* cutTornTail(io, file, bytes, plan);
    yield io.append(file, plan.text, bytes === null);
    return cut;
  });
});

/**
 * repairLog(file, {timeout}): under the lock, a torn last line is copied to a `.corrupt-` file
 * and cut off (the core's plan; `tornLine` null when there is none); `E_LOG_CORRUPT` (a bad
 * line that is not the last) leaves the file alone. The log must be a regular file.
 */
define(api, "repairLog", function* (io, file, hostOptions = {}) {
  file = resolvePath(file);
  return yield* underLock(io, file, hostOptions, function* (bytes) {
    const plan = core().logRepair(bytes);
    const cut = yield* cutTornTail(io, file, bytes, plan);
    return { tornLine: cut.corruptCopy === null ? null : plan.torn_line, ...cut };
  });
});

/** readLog(file): `{records, torn, warnings}` (a missing file is empty; never writes). */
define(api, "readLog", function* (io, file) {
  return core().logRead(yield io.read(resolvePath(file)));
});

module.exports = api;
