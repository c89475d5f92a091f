"use strict";
/**
 * The one sync/async mechanism of the Node host layer: each host routine is written once, as
 * a generator over an I/O table that yields what the table's calls return; `runSync` drives it
 * with the synchronous table (`...Sync` exports, for status-line scripts), `runAsync` with the
 * promise-based one (lib/host/drive.cjs). `define(target, name, routine)` makes `target[name]`
 * (a Promise) and `target[name + "Sync"]` from one `routine(io, ...args)`.
 */
const fs = require("node:fs");
const atomic = require("./atomic.cjs");
const { writeAtomic } = require("./replace.cjs");
const copies = require("./copies.cjs");
const { runSync, runAsync } = require("./drive.cjs");

const pick = (variant) =>
  Object.freeze({
    read: atomic.readMaybe[variant],
    readStamp: (file, cap) => atomic.readMaybe[variant](file, cap, false, true),
    write: writeAtomic[variant],
    copy: copies.writeCopy[variant],
    append: atomic.appendOnce[variant],
    writeNew: atomic.writeNew[variant],
    readStamped: atomic.readStamped[variant],
    sleep: atomic.sleep[variant],
    truncate: atomic.truncate[variant],
    copyFile: copies.copyFile[variant],
  });

/** The synchronous I/O table. */
const SYNC = Object.freeze({
  ...pick("sync"),
  sync: true,
  mkdir: (dir) => fs.mkdirSync(dir, { recursive: true }),
  stat: (file) => fs.statSync(file),
  lstat: (file) => fs.lstatSync(file),
  link: (from, to) => fs.linkSync(from, to),
  unlink: (file) => fs.unlinkSync(file),
});

/** The promise-based I/O table (`fs.promises` loads on first use). */
const ASYNC = Object.freeze({
  ...pick("async"),
  sync: false,
  mkdir: (dir) => fs.promises.mkdir(dir, { recursive: true }),
  stat: (file) => fs.promises.stat(file),
  lstat: (file) => fs.promises.lstat(file),
  link: (from, to) => fs.promises.link(from, to),
  unlink: (file) => fs.promises.unlink(file),
});

/**
 * `E_OPTIONS` when an argument of the Sync form `name + "Sync"` is an options object naming a
 * store (`{store}`: a `FileStore` or `PostgresStore`): a store's calls are asynchronous (a `PostgresStore` queries its server),
 * so the message names the async form to await instead.
 */
function refuseStore(name, args) {
  const isStore = (value) => {
    if (value === null || typeof value !== "object") return false;
    const { FileStore, PostgresStore } = require("../store/store.cjs"); // loaded when needed
    return value instanceof FileStore || value instanceof PostgresStore;
  };
  // Only an options object's `store` (a patch's `store` field is data, never a store object).
  if (!args.some((arg) => arg !== null && typeof arg === "object" && isStore(arg.store))) return;
  const C = require("../generated/core-node.cjs"); // loaded when needed: steps.cjs loads first
  throw new C.UsageError(
    `${name}Sync cannot use a store: a store's calls are asynchronous (a PostgresStore queries its server); ` +
      `use the async form, await ${name}(...), with the same arguments (docs/store.md)`,
    { code: "E_OPTIONS", path: "/store", details: { option: "store", async_form: name } },
  );
}

/** Defines `target[name]` (always a Promise) and `target[name + "Sync"]` from one routine. */
function define(target, name, routine) {
  target[name] = (...args) => runAsync(routine(ASYNC, ...args));
  target[`${name}Sync`] = (...args) => {
    refuseStore(name, args);
    return runSync(routine(SYNC, ...args));
  };
}

/**
 * Yields `step` (a call of the I/O table) and returns its result, or `onError(error)` when it
 * fails (use with `yield*`).
 */
function* attempt(step, onError) {
  try {
    return yield step();
  } catch (error) {
    return onError(error);
  }
}

module.exports = { SYNC, ASYNC, runSync, runAsync, define, attempt };
