"use strict";
// The writes the command line's core asks for (docs/cli.md § How it runs), carried out by the
// library's own routines: the locked update, the log append and repair, agency's create-only
// protocol document. Each gives the fact the core reads back (`{etag, changed, warnings,
// corrupt_copy, item?, result?}`, `{torn_line, ...}`) or the error. Loaded by
// bin/statecore.cjs only. Python's twin is `write_fact` in python/statecore/_cli/run.py.
const path = require("node:path");
const { SYNC, runSync } = require("../host/steps.cjs");
const documents = require("../host/documents.cjs");
const logs = require("../host/logs.cjs");

/** A write the core asked for, carried out by the library's routine: its result, or its error. */
function writeFact(need) {
  const options = need.timeout_ms === undefined ? {} : { timeout: need.timeout_ms };
  try {
    if (need.op === "update") {
      const file = path.resolve(need.path);
      // bigint: the file's integers no double holds (another writer's) never stop the update;
      // the command uses the result's etag and flags, not its document.
      const hostOptions = { ...options, ifMatch: need.if_match ?? null, now: need.now ?? null, bigint: true };
      const r = runSync(documents.update(SYNC, file, need.kind, need.change, need.args, hostOptions));
      const fact = { etag: r.etag, changed: r.changed, warnings: r.warnings, corrupt_copy: r.corruptCopy };
      // An update's extra result (an inbox item) and its operation's result (a Hivemind outcome).
      if (r.item !== undefined) fact.item = r.item;
      if (r.result !== undefined) fact.result = r.result;
      return fact;
    }
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
