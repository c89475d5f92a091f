"use strict";
/**
 * The generated tables the host layer reads (lib/generated.mjs, as CommonJS in
 * dist/node/api.cjs): host options, protocol helpers, constants. Loading them does not load
 * the wasm module.
 */
const { HOST_OPTIONS, HELPERS, CONSTANTS, OPS } = require("../dist/node/api.cjs");

module.exports = { HOST_OPTIONS, HELPERS, CONSTANTS, OPS };
