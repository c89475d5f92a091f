// Loads the pure statecore API for Node: the nodejs-target wasm build (read and instantiated
// synchronously on first require, so a status-line script pays one small instantiate) under
// the JS layer (dist/node/api.cjs: lib/generated/generated.mjs, convert.mjs and api.mjs as CommonJS,
// written by scripts/build-wasm.sh). lib/generated/core-node.cjs lists its names.
"use strict";

let raw, layer;
try {
  raw = require("../../dist/node/statecore.js");
  layer = require("../../dist/node/api.cjs");
} catch (e) {
  if (e && e.code === "MODULE_NOT_FOUND" && /dist[\\/]node/.test(String(e.message))) {
    e.message = `statecore: the wasm build is missing (run scripts/build-wasm.sh): ${e.message}`;
  }
  throw e;
}

module.exports = { ...layer.makeApi(() => raw), ...layer };
