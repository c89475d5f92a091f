"use strict";
/**
 * Append-only JSONL logs (ARCHITECTURE §5): `appendLine` writes one record under the lock (one
 * `write()` ending in `\n`, fsync), repairing a torn last line first (kept as a `.corrupt-`
 * copy); `readLog` drops a torn last line with a warning and never writes. The core parses.
 */
const { define } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { checkOptions, core } = require("./documents.cjs");

/** `YYYYMMDDTHHMMSSmmmZ` for `.corrupt-` copies. */
function compactTimestamp() {
  return lock.nowIso().replace(/[-:.]/g, "");
}

const api = {};

/** appendLine(file, value, {timeout}): one JSONL record under the lock. */
define(api, "appendLine", function* (io, file, value, hostOptions = {}) {
  const { timeout } = checkOptions("append", hostOptions);
  file = String(file);
  const C = core();
  const line = C.logLine(value);
  const held = yield* lock.acquire(io, file, timeout);
  try {
    const bytes = yield io.read(file);
    const warnings = [];
    let copy = null;
    let prefix = "";
    if (bytes !== null) {
      const log = C.parseLog(bytes); // E_LOG_CORRUPT propagates: the file is left alone
      if (log.torn) {
        copy = yield io.copy(`${file}.corrupt-${compactTimestamp()}`, bytes.subarray(log.torn.offset));
        yield io.truncate(file, log.torn.offset);
        warnings.push({
          code: "W_TORN_TAIL",
          path: "",
          message: `line ${log.torn.line} was an incomplete (torn) write; it was moved to ${copy} and the log repaired`,
        });
      } else if (log.needs_newline) {
        prefix = "\n";
      }
    }
    yield io.append(file, prefix + line, bytes === null);
    return { warnings, corruptCopy: copy };
  } finally {
    held.release();
  }
});

/** readLog(file): `{records, torn, warnings}` (a missing file is empty; never writes). */
define(api, "readLog", function* (io, file) {
  const bytes = yield io.read(String(file));
  if (bytes === null) return { records: [], torn: null, warnings: [] };
  const log = core().parseLog(bytes);
  const warnings = log.torn
    ? [
        {
          code: "W_TORN_TAIL",
          path: "",
          message: `line ${log.torn.line} is an incomplete (torn) write and was ignored; the next append repairs it`,
        },
      ]
    : [];
  return { records: log.records, torn: log.torn, warnings };
});

module.exports = api;
