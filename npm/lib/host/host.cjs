"use strict";
/**
 * The Node host layer (docs/locking.md): locked, atomic file I/O around the pure core, in
 * modules: lib/host/lock.cjs (the lock protocol of docs/locking.md), lib/host/atomic.cjs (atomic
 * replaces, copies, appends), lib/host/documents.cjs (documents: one core crossing per update),
 * lib/host/logs.cjs (JSONL logs), lib/host/watch.cjs (watchers), over the one sync/async mechanism of lib/host/steps.cjs. Every rule
 * is the core's; these files read and write bytes, hold locks and supply the clock.
 */
const { runAsync, runSync, ASYNC, SYNC } = require("./steps.cjs");
const lock = require("./lock.cjs");
const documents = require("./documents.cjs");
const logs = require("./logs.cjs");
const { resolvePath } = require("./paths.cjs");
const { watch } = require("./watch.cjs");

/** `file` resolved and `timeout` checked (a finite number ≥ 0, or null: the default). */
function lockArgs(file, timeout) {
  const path = resolvePath(file);
  documents.checkOptions("append", timeout === undefined ? {} : { timeout });
  return [path, timeout];
}

/** Takes the sidecar lock `<file>.lock`, waiting up to `timeout` ms (default 10000). */
function acquireLock(file, timeout) {
  try {
    return runAsync(lock.acquire(ASYNC, ...lockArgs(file, timeout)));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Synchronous `acquireLock`. */
function acquireLockSync(file, timeout) {
  return runSync(lock.acquire(SYNC, ...lockArgs(file, timeout)));
}

const { readDocument, readDocumentSync, updateDocument, updateDocumentSync } = documents;
const { appendLine, appendLineSync, repairLog, repairLogSync, readLog, readLogSync } = logs;
const { Lock, LOCK_LEASE_MS, LOCK_GRACE_MS, DEFAULT_TIMEOUT_MS } = lock;

module.exports = {
  readDocument,
  readDocumentSync,
  updateDocument,
  updateDocumentSync,
  appendLine,
  appendLineSync,
  repairLog,
  repairLogSync,
  readLog,
  readLogSync,
  acquireLock,
  acquireLockSync,
  Lock,
  LOCK_LEASE_MS,
  LOCK_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
  watch,
};
