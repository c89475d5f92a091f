"use strict";
/**
 * `PostgresStore.watch` (docs/store.md § Watching): each change of a document or log under a
 * key prefix, read and checked as its kind, woken by the store's `pg_notify` triggers
 * (`LISTEN statecore`) on a connection of the watcher's own. What a row's text is is the
 * core's (`watchTarget`, `watchRead`): a change reported here is the same `WatchChange` a
 * file watcher reports. The Python twin is python/statecore/_store_watch.py.
 */
const documents = require("./documents.cjs");

const core = () => documents.core();

/**
 * Watches `store`'s rows under `prefix` (of `kind` only, when given) and calls
 * `callback(change)`; `options`: `initial` (true: each reported as it first is), `onError`.
 * Resolves with `{close}` once the rows as they first were are reported.
 */
async function watchStore(store, prefix, kind, callback, options = {}) {
  if (typeof callback !== "function") throw new TypeError("watch: callback must be a function");
  const { initial = true, onError } = options ?? {};
  const { Client } = require("pg");
  const client = new Client(store.options);
  const sql = store.schema.statements;
  const run = (name, ...params) => client.query(sql[name], params);
  const seen = new Map(); // key -> {target, etag, seq, line}
  let closed = false;
  let queue = Promise.resolve();

  const fail = (error) => {
    if (typeof onError === "function") {
      try {
        onError(error);
        return;
      } catch (thrown) {
        error = thrown;
      }
    }
    console.error("statecore store watch:", error);
  };

  const stateOf = (key) => {
    if (!seen.has(key)) {
      const target = key.startsWith(prefix) ? core().watchTarget(key, kind ?? null, false) : null;
      seen.set(key, { target, etag: null, seq: 0, line: 0 });
    }
    return seen.get(key);
  };

  /** Reads the row of `key`; reports it when its text changed (`report`: else remembers it). */
  const readDocument = async (key, report) => {
    const state = stateOf(key);
    if (!state.target) return;
    const { rows } = await run("read", key);
    const data = rows.length ? rows[0].text : null;
    const answer = core().watchRead(state.target, data, { attempt: 0, locked: false, etag: state.etag });
    state.etag = answer.etag;
    if (report && answer.action === "report" && answer.change) callback(answer.change);
  };

  /** Reads the lines of `log` after the last one reported, and reports them. */
  const readLog = async (log, report) => {
    const state = stateOf(log);
    if (!state.target) return;
    const { rows } = await run("read_log", log, state.seq, null);
    if (!rows.length) return;
    const data = rows.map((r) => `${r.text}\n`).join("");
    const answer = core().watchRead(state.target, data, { attempt: 0, locked: false, line: state.line });
    state.seq = Number(rows.at(-1).seq);
    state.line = answer.line;
    if (report && answer.action === "report" && answer.change) callback(answer.change);
  };

  /** Runs `job` after every earlier one; what it throws goes to `onError`. */
  const enqueue = (job) => {
    queue = queue.then(() => (closed ? undefined : job())).catch(fail);
    return queue;
  };

  await client.connect();
  client.on("error", fail);
  client.on("notification", (note) => {
    let payload;
    try {
      payload = JSON.parse(note.payload ?? "{}");
    } catch (error) {
      fail(error);
      return;
    }
    if (typeof payload.key === "string") enqueue(() => readDocument(payload.key, true));
    else if (typeof payload.log === "string") enqueue(() => readLog(payload.log, true));
  });
  await run("listen");
  const documentsNow = await run("list_documents", prefix);
  const logsNow = await run("list_logs", prefix);
  for (const { key } of documentsNow.rows) enqueue(() => readDocument(key, initial));
  for (const { log } of logsNow.rows) enqueue(() => readLog(log, initial));
  await queue;

  return {
    /** Stops watching; no callback is called once the Promise resolves. */
    async close() {
      closed = true;
      await queue;
      await client.end();
    },
  };
}

module.exports = { watchStore };
