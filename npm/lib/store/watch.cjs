"use strict";
/**
 * `PostgresStore.watch` (docs/store.md § Watching): each change of a document or log under a
 * key prefix, read and checked as its kind, woken by the store's `pg_notify` triggers
 * (`LISTEN statecore`) on a connection of the watcher's own; a lost connection is reported
 * (`E_STORE`) and made again, and what changed meanwhile reported. What a row's text is is the
 * core's (`watchTarget`, `watchRead`): a change reported here is the same `WatchChange` a
 * file watcher reports. The Python twin is python/statecore/_store/watch.py.
 */
const documents = require("../host/documents.cjs");

const core = () => documents.core();

/**
 * The waits before each attempt to connect again after the connection was lost, in ms (the
 * last one repeats until it connects or is closed).
 */
const RECONNECT_MS = [100, 200, 500, 1000, 2000, 5000];

/** The watcher's connection's `application_name` (as `pg_stat_activity` shows it). */
const APPLICATION = "statecore watch";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches `store`'s rows under `prefix` (of `kind` only, when given) and calls
 * `callback(change)`; `options`: `initial` (true: each reported as it first is), `onError`.
 * Resolves with `{close}` once the rows as they first were are reported.
 */
async function watchStore(store, prefix, kind, callback, options = {}) {
  if (typeof callback !== "function") throw new TypeError("watch: callback must be a function");
  const { onError, ...rest } = options ?? {};
  core().checkOptions("store_watch", rest, true, ["onError"]);
  if (onError !== undefined && typeof onError !== "function") throw new TypeError("watch: onError must be a function");
  const initial = rest.initial ?? true;
  const { Client } = require("pg");
  const { failure, schemaError } = require("./store.cjs");
  const sql = store.schema.statements;
  const seen = new Map(); // key -> {target, etag, seq, line}
  let client = null; // null while the connection is lost
  let closed = false;
  let queue = Promise.resolve();
  // With the connection lost meanwhile, a statement fails as one on a lost connection does.
  const run = (name, ...params) =>
    client === null ? Promise.reject(new Error("the watcher's connection was lost")) : client.query(sql[name], params);

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

  /** Runs `job`; a lost connection is handled as one, anything else goes to `onError`. */
  const guarded = async (job) => {
    try {
      await job();
    } catch (error) {
      if (failure(error) === "unavailable") return lost(client, error);
      try {
        schemaError(error, "watch", prefix);
      } catch (schema) {
        return fail(schema);
      }
      fail(error);
    }
  };

  /** Runs `job` after every earlier one, unless closed or the connection is lost. */
  const enqueue = (job) => {
    queue = queue.then(() => (closed || client === null ? undefined : guarded(job)));
    return queue;
  };

  /** Reads every document and log under the prefix, reporting each that changed (`report`). */
  const sync = async (report) => {
    const documentsNow = await run("list_documents", prefix);
    const logsNow = await run("list_logs", prefix);
    for (const { key } of documentsNow.rows) await guarded(() => readDocument(key, report));
    for (const { log } of logsNow.rows) await guarded(() => readLog(log, report));
  };

  const notified = (note) => {
    let payload;
    try {
      payload = JSON.parse(note.payload ?? "{}");
    } catch (error) {
      fail(error);
      return;
    }
    if (typeof payload.key === "string") enqueue(() => readDocument(payload.key, true));
    else if (typeof payload.log === "string") enqueue(() => readLog(payload.log, true));
  };

  /** A connection of the watcher's own that listens (before anything is read). */
  const connect = async () => {
    const next = new Client({ ...store.options, application_name: APPLICATION });
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next, new Error("Connection ended")));
    next.on("notification", notified);
    try {
      await next.connect();
      await store.keepalives(next);
      await next.query(sql.listen);
    } catch (error) {
      next.removeAllListeners();
      next.on("error", () => {});
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };

  /**
   * The connection `which` was lost: reported (the core's retryable `E_STORE`), then made
   * again after `RECONNECT_MS`, and what changed meanwhile reported.
   */
  function lost(which, error) {
    if (closed || which === null || which !== client) return;
    client = null;
    which.removeAllListeners();
    which.on("error", () => {});
    which.end().catch(() => {});
    try {
      core().storeUnavailable("watch", prefix, String(error?.message ?? error));
    } catch (unavailable) {
      fail(unavailable);
    }
    queue = queue.then(async () => {
      for (let attempt = 0; !closed && client === null; attempt++) {
        await sleep(RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]);
        if (closed) return;
        try {
          await connect();
          await sync(true);
        } catch (failed) {
          if (failure(failed) !== "unavailable") fail(failed);
          if (client !== null) lost(client, failed);
        }
      }
    });
  }

  /** Stops watching; no callback is called once the Promise resolves. */
  const close = async () => {
    closed = true;
    await queue;
    const last = client;
    client = null;
    if (last) {
      last.removeAllListeners();
      last.on("error", () => {});
      await last.end().catch(() => {});
    }
  };

  // A connection lost before the rows are first read is the retryable `E_STORE` of this call,
  // and nothing keeps running; one lost while they are read is reported and made again.
  try {
    await connect();
    await sync(initial);
    await queue;
  } catch (error) {
    await close();
    if (failure(error) === "unavailable") core().storeUnavailable("watch", prefix, String(error?.message ?? error));
    schemaError(error, "watch", prefix);
    throw error;
  }

  return { close };
}

module.exports = { watchStore };
