"use strict";
/**
 * `statecore-js/hive`: hive sessions (docs/hive.md) in a directory of their own,
 * `<sessions>/<session_id>/STATE.json` with its `EVENTS.jsonl`.
 *
 * The steps (`planWorkers`, `spawnWorker`, `heartbeat`, `completeWorker`, `failWorker`,
 * `updateState`, `changePhase`, ...) and `readState` / `checkWorkerHealth` come from the table
 * (lib/host/helpers.cjs): each step is one locked update that appends its event line and writes
 * the state (lib/host/sessions.cjs). Written here: `createSessionDir` (the session's directory) and
 * `checkSessions` (the health of every session of a directory). Each exists as `name` (a
 * Promise) and `nameSync`. The Python twin is `statecore.hive`.
 */
const path = require("node:path");
const { define, attempt } = require("./steps.cjs");
const { sys, sysp } = require("./atomic.cjs");
const documents = require("./documents.cjs");
const sessions = require("./sessions.cjs");
const { HELPERS } = require("../binding/tables.cjs");
const { resolvePath } = require("./paths.cjs");
const { helpers, inStore } = require("./helpers.cjs");

const ops = helpers("hive");

const [[, KIND, [STATE_FILE], , LOG_FILE]] = HELPERS.hive.files;
/** The document kind of `STATE.json`. */
ops.KIND = KIND;

/**
 * createSessionDir(sessionsDir, sessionId, task, {now, timeout}): makes
 * `<sessionsDir>/<sessionId>/` with the session's first event line and its STATE.json;
 * refused when the session exists (a state or a log).
 */
define(ops, "createSessionDir", function* (io, sessionsDir, sessionId, task, options) {
  const { store, ...rest } = options ?? {};
  const checked = documents.checkOptions("logged", rest);
  const C = documents.core();
  C.hive.checkSessionId(String(sessionId)); // E_ARGUMENT unless one path component
  if (store !== undefined && store !== null) {
    const { key } = inStore(sessionsDir, [String(sessionId), STATE_FILE], { store });
    return yield store.change(key, KIND, "hive_create_session", [task, checked.now ?? null], checked);
  }
  const dir = path.join(resolvePath(sessionsDir, "directory"), String(sessionId));
  yield io.mkdir(dir);
  const args = [task, checked.now ?? null];
  return yield* sessions.step(io, path.join(dir, STATE_FILE), LOG_FILE, KIND, "hive_create_session", args, checked);
});

const readdir = {
  sync: (dir) => sys.readdirSync(dir, { withFileTypes: true }),
  async: (dir) => sysp().readdir(dir, { withFileTypes: true }),
};

/**
 * checkSessions(sessionsDir, {now, timeoutMs, timeout}): `hive.checkWorkerHealth` of every
 * session of `sessionsDir` (a directory holding a STATE.json or an EVENTS.jsonl), by name:
 * `{session, health}`, or `{session, error}` for a session that cannot be read (its `code`,
 * `message`). A session whose state must be rebuilt from its log is rebuilt under its lock
 * (`timeout`: how long to wait for it).
 */
define(ops, "checkSessions", function* (io, sessionsDir, options = {}) {
  const { timeoutMs = null, store, ...rest } = options ?? {};
  const { now = null, timeout } = documents.checkOptions("logged", rest);
  const C = documents.core();
  if (store !== undefined && store !== null) {
    return yield checkStored(store, String(sessionsDir), { now, timeout, timeoutMs });
  }
  const root = resolvePath(sessionsDir, "directory");
  const entries = yield sessions.variant(io, readdir)(root);
  const out = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dir = path.join(root, entry.name);
    const has = (name) => attempt(() => io.lstat(path.join(dir, name)), () => null);
    if ((yield* has(STATE_FILE)) === null && (yield* has(LOG_FILE)) === null) continue;
    try {
      const read = yield* sessions.read(io, path.join(dir, STATE_FILE), LOG_FILE, KIND, { timeout });
      out.push({ session: entry.name, health: C.hive.checkWorkerHealth(read.document, now, timeoutMs) });
    } catch (error) {
      if (!(error instanceof C.StatecoreError)) throw error;
      out.push({ session: entry.name, error: { code: error.code, message: error.message } });
    }
  }
  return out;
});

/** `checkSessions` of the sessions under the key prefix `prefix` of `store`. */
async function checkStored(store, prefix, { now, timeout, timeoutMs }) {
  const C = documents.core();
  const { FileStore } = require("../store/store.cjs");
  inStore(prefix, [STATE_FILE], { store }); // a store of either class
  const base = C.storeFileKey(prefix, [STATE_FILE]).slice(0, -STATE_FILE.length); // "" or ".../"
  if (store instanceof FileStore) {
    return ops.checkSessions(path.join(store.root, ...base.split("/")), { now, timeout, timeoutMs });
  }
  const names = new Set();
  for (const key of await store.keys(base)) {
    const [name, file, more] = key.slice(base.length).split("/");
    if (more === undefined && (file === STATE_FILE || file === LOG_FILE)) names.add(name);
  }
  const out = [];
  for (const name of [...names].sort()) {
    try {
      const read = await store.read(`${base}${name}/${STATE_FILE}`, KIND, { timeout });
      out.push({ session: name, health: C.hive.checkWorkerHealth(read.document, now, timeoutMs) });
    } catch (error) {
      if (!(error instanceof C.StatecoreError)) throw error;
      out.push({ session: name, error: { code: error.code, message: error.message } });
    }
  }
  return out;
}

module.exports = ops;
