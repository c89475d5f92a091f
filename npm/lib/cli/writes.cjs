"use strict";
// The writes the command line's core asks for (docs/cli.md § How it runs), carried out by the
// library's own routines: the log append and repair, agency's create-only protocol document
// (a file's locked update is the job's own: lib/cli/locked-write.cjs). Each gives the fact the
// core reads back (`{warnings, corrupt_copy}`, `{torn_line, ...}`, `{changed}`) or the error.
// Loaded by bin/statecore.cjs only. Python's twin is `write_fact` in
// python/statecore/_cli/run.py.
const logs = require("../host/logs.cjs");

/** A write the core asked for, carried out by the library's routine: its result, or its error. */
function writeFact(need) {
  const options = need.timeout_ms === undefined ? {} : { timeout: need.timeout_ms };
  try {
    if (need.op === "protocol_document") {
      return { changed: require("../host/agency.cjs").writeProtocolDocumentSync(need.path) === "created" };
    }
    if (need.op === "append") {
      const r = logs.appendLineSync(need.path, need.record, options);
      return { warnings: r.warnings, corrupt_copy: r.corruptCopy };
    }
    const r = logs.repairLogSync(need.path, options);
    return { torn_line: r.tornLine, warnings: r.warnings, corrupt_copy: r.corruptCopy };
  } catch (error) {
    if (typeof error?.code === "string" && error.code.startsWith("E_") && typeof error.path === "string") {
      return { error: { code: error.code, path: error.path, message: error.message } };
    }
    return { error: { code: String(error?.code ?? "EIO") } };
  }
}

module.exports = { writeFact };
