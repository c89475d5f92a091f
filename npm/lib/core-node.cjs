// The pure statecore API for Node (CommonJS): the nodejs-target wasm build, which loads and
// instantiates the .wasm synchronously on first require, wrapped by the shared API layer
// (lib/api.mjs, whose CommonJS copy scripts/build-wasm.sh writes to dist/node/api.cjs).
// The host I/O layer (lib/host.cjs) builds on this module; lib/node.cjs adds it.
"use strict";

let raw, layer;
try {
  raw = require("../dist/node/statecore.js");
  layer = require("../dist/node/api.cjs");
} catch (e) {
  if (e && e.code === "MODULE_NOT_FOUND" && /dist[\\/]node/.test(String(e.message))) {
    e.message = `statecore: the wasm build is missing (run scripts/build-wasm.sh): ${e.message}`;
  }
  throw e;
}

const {
  parse,
  canonical,
  serialize,
  merge,
  mergeText,
  validate,
  validateText,
  kinds,
  defaultDocument,
  schema,
  limits,
  etag,
  loadDocument,
  prepareDocument,
  applyUpdate,
  finishUpdate,
  checkIfMatch,
  parseLog,
  logLine,
  parseTimestamp,
  formatTimestamp,
  machine,
  fctry,
  hivemind,
  agency,
} = layer.makeApi(() => raw);

const {
  StatecoreError,
  ParseError,
  LimitError,
  DataError,
  UsageError,
  MergeError,
  TimestampError,
  ValidationError,
  TransitionError,
  LogCorruptError,
  ConflictError,
  LockTimeoutError,
  errorFromRecord,
} = layer;

// Listed one by one so Node's ESM loader sees the names (lib/node.mjs re-exports them).
module.exports = {
  parse,
  canonical,
  serialize,
  merge,
  mergeText,
  validate,
  validateText,
  kinds,
  defaultDocument,
  schema,
  limits,
  etag,
  loadDocument,
  prepareDocument,
  applyUpdate,
  finishUpdate,
  checkIfMatch,
  parseLog,
  logLine,
  parseTimestamp,
  formatTimestamp,
  machine,
  fctry,
  hivemind,
  agency,
  StatecoreError,
  ParseError,
  LimitError,
  DataError,
  UsageError,
  MergeError,
  TimestampError,
  ValidationError,
  TransitionError,
  LogCorruptError,
  ConflictError,
  LockTimeoutError,
  errorFromRecord,
};
