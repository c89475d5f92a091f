// `require("statecore-js")`: the pure API (./core-node.cjs) plus the host I/O layer (./host.cjs:
// files, locks, atomic writes, logs).
"use strict";

// host.cjs may not exist yet in a development tree; only its own absence is tolerated.
let hasHost = true;
try {
  require.resolve("./host/host.cjs");
} catch (e) {
  if (!(e && e.code === "MODULE_NOT_FOUND")) throw e;
  hasHost = false;
}

// The last assignment is written with plain `...require()` spreads so that Node's ESM loader
// (cjs-module-lexer) finds every name for lib/node.mjs; do not restructure it.
if (!hasHost) module.exports = { ...require("./generated/core-node.cjs") };
else module.exports = { ...require("./generated/core-node.cjs"), ...require("./host/host.cjs") };
