"use strict";
/**
 * The I/O steps the host helpers (`statecore/fctry`, `statecore/hivemind`,
 * `statecore/agency`) share, as a sync table and an async one, so that each helper is written
 * once and defined as `name` (a Promise) and `nameSync`: `then` sequences a step after a
 * (maybe) Promise, `guard` catches what a (maybe async) step throws, `always` runs `after`
 * however the step ends, `mkdir` creates a directory and its parents.
 */
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const host = require("./host.cjs");

const SYNC = Object.freeze({
  mkdir: (dir) => fs.mkdirSync(dir, { recursive: true }),
  read: host.readDocumentSync,
  update: host.updateDocumentSync,
  then: (value, next) => next(value),
  guard: (run, onError) => {
    try {
      return run();
    } catch (error) {
      return onError(error);
    }
  },
  always: (run, after) => {
    try {
      return run();
    } finally {
      after();
    }
  },
});

const ASYNC = Object.freeze({
  mkdir: (dir) => fsp.mkdir(dir, { recursive: true }),
  read: host.readDocument,
  update: host.updateDocument,
  then: async (value, next) => next(await value),
  guard: async (run, onError) => {
    try {
      return await run();
    } catch (error) {
      return onError(error);
    }
  },
  always: async (run, after) => {
    try {
      return await run();
    } finally {
      await after();
    }
  },
});

/**
 * Returns `both(name, run)`, which defines `ops[name]` (always a Promise) and
 * `ops[name + "Sync"]` from `run(io, ...args)`, `io` being `sync` or `async` (the shared
 * tables above, or a helper's own tables built on them).
 */
function definer(ops, sync = SYNC, async = ASYNC) {
  return (name, run) => {
    ops[name] = async (...args) => run(async, ...args);
    ops[`${name}Sync`] = (...args) => run(sync, ...args);
  };
}

module.exports = { SYNC, ASYNC, definer };
