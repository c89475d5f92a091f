"use strict";
/**
 * The generated tables the host layer reads (lib/generated/generated.mjs, as CommonJS in
 * dist/node/api.cjs): host options, protocol helpers, constants, the directories never walked. Loading them does not load
 * the wasm module.
 */
const { HOST_OPTIONS, HELPERS, CONSTANTS, OPS, SKIPPED_DIRECTORIES } = require("../../dist/node/api.cjs");

/** The event log kept with each kind's file, by kind (its steps append their line to it). */
const LOGS = Object.freeze(
  Object.fromEntries(
    Object.values(HELPERS)
      .flatMap((table) => table.files)
      .filter(([, , , , log]) => log !== null)
      .map(([, kind, , , log]) => [kind, log]),
  ),
);

module.exports = { HOST_OPTIONS, HELPERS, CONSTANTS, OPS, LOGS, SKIPPED_DIRECTORIES };
