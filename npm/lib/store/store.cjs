"use strict";
/**
 * Document stores (docs/store.md): the same documents and logs in a directory (`FileStore`)
 * or in PostgreSQL (`PostgresStore`), behind one interface: `read`, `update` (a patch or a
 * function, with `ifMatch`), `append` (exactly once with an `id`) and `readLog`. The rules are
 * the core's: an update crosses into it once (`updateFile` over the file's or the row's text),
 * and the SQL both languages run is the core's (`storeSchema`). `pg` (node-postgres) is an
 * optional peer dependency, loaded when a `PostgresStore` is made. The Python twin is
 * python/statecore/store.py.
 */
const fs = require("node:fs");
const path = require("node:path");
const documents = require("../host/documents.cjs");
const logs = require("../host/logs.cjs");
const sessions = require("../host/sessions.cjs");
const storeSessions = require("./sessions.cjs");
const { runAsync, ASYNC } = require("../host/steps.cjs");
const { CONSTANTS, LOGS } = require("../binding/tables.cjs");
const { Known } = require("./known-rows.cjs");
const { runUpdate } = require("./update-job.cjs");
const { facts, runJob } = require("./job.cjs");

/** A pool client's promise of its connection's keepalives (`PostgresStore#checkout`). */
const SET_UP = Symbol("statecore keepalives");
/** The error that ended a pool client's connection while it was checked out, if one did. */
const LOST = Symbol("statecore lost");

const core = () => documents.core();

/** Refuses a record its kind's rules refuse (`E_INVALID`), before anything is written. */
function checkRecord(kind, value) {
  const report = core().validate(kind, value);
  if (report.valid) return;
  const first = report.errors[0];
  const { ValidationError } = core();
  throw new ValidationError(
    `refused to append an invalid ${kind} record: ${first.code} at ${JSON.stringify(first.path)}: ${first.message}; nothing was written`,
    { code: "E_INVALID", path: first.path, details: report },
  );
}

/** Documents and logs as files under `root`: a key is a path below it (docs/locking.md). */
class FileStore {
  constructor(root = ".") {
    this.root = path.resolve(String(root));
  }

  /** The file of `key` (checked: `E_PATH_UNSAFE`). */
  path(key) {
    return path.join(this.root, ...core().storeKey(key).split("/"));
  }

  /**
   * The document at `key` with its etag (the default document when there is none); a hive
   * session's state as `readState` reads it, rebuilt from its log when behind (`options`:
   * `{timeout}` of the lock that takes; other reads take no lock).
   */
  async read(key, kind, options = {}) {
    const file = this.path(key);
    const checked = documents.checkOptions("logged", options);
    if (kind in LOGS) {
      return runAsync(sessions.read(ASYNC, file, LOGS[kind], kind, checked));
    }
    return documents.readDocument(file, kind);
  }

  /** A reader of the table (`"fctry_context_health"`) on the document at `key`, `args` after it. */
  async query(key, kind, op, args = []) {
    const file = this.path(key);
    if (kind in LOGS) {
      const read = await runAsync(sessions.read(ASYNC, file, LOGS[kind], kind, {}));
      return core().queryFile(kind, op, read[sessions.TEXT], args);
    }
    const bytes = await runAsync((function* () {
      return yield ASYNC.read(file, documents.READ_CAP);
    })());
    return core().queryFile(kind, op, bytes, args);
  }

  /** A locked read-merge-validate-write of the file (`updateDocument`). */
  async update(key, kind, patchOrFunction, mergeOptions = null, hostOptions = {}) {
    const file = this.path(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return documents.updateDocument(file, kind, patchOrFunction, mergeOptions, hostOptions);
  }

  /**
   * A change the core names applied to the file under its lock (as `PostgresStore.change`);
   * `hostOptions`: `{now, ifMatch, timeout, reset}`.
   */
  async change(key, kind, change, args = [], hostOptions = {}) {
    const file = this.path(key);
    if (kind in LOGS) {
      const options = documents.checkOptions("logged", hostOptions);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      return runAsync(sessions.step(ASYNC, file, LOGS[kind], kind, change, args, options));
    }
    const options = documents.checkOptions("update", hostOptions);
    return runAsync(documents.inDirectory(ASYNC, file, documents.update(ASYNC, file, kind, change, args, options)));
  }

  /**
   * Validates `value` as `kind` and appends it to the log's file in one write, under its lock
   * (`hostOptions`: `{timeout}`; no `id`: exactly once is `PostgresStore`'s).
   */
  async append(log, kind, value, hostOptions = {}) {
    const options = documents.checkOptions("append", hostOptions);
    checkRecord(kind, value);
    const file = this.path(log);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return logs.appendLine(file, value, options);
  }

  /** The log's records, in order (a torn last line is left out). */
  async readLog(log) {
    return (await logs.readLog(this.path(log))).records;
  }

  /** Nothing to release. */
  async close() {}
}

/**
 * What a failed statement means (the core's `storeFailure`, as in Python): from its SQLSTATE
 * and whether node-postgres says the connection failed (lib/store/update-job.cjs `facts`).
 */
function failure(error) {
  const { sqlstate, connection } = facts(error);
  return core().storeFailure(sqlstate, connection);
}

/**
 * Raises the core's `E_STORE` of a partial schema (docs/store.md § Failures) when `error` is
 * a statement's that found a statecore table, column or function missing or already there.
 */
function schemaError(error, operation, key) {
  if (failure(error) === "schema") core().storeSchemaMismatch(operation, key, error.code, String(error.message));
}

/** What an update's caller gets of the core's result. */
function outcome(result) {
  const { text: _text, corrupt: _corrupt, warnings, ...rest } = result;
  return { ...rest, warnings: [...warnings], corruptCopy: null };
}

/**
 * Documents and logs in PostgreSQL (docs/store.md): one row per document, updated in one
 * transaction that locks the row (`SELECT ... FOR UPDATE`) for the time of one core crossing;
 * logs as an append-only table with a per-log sequence. `options`: node-postgres pool options
 * (`connectionString`, `max`, ...); by default the usual `PG*` environment variables. Make it
 * with `await PostgresStore.connect(options)`, which creates or migrates the schema.
 */
class PostgresStore {
  #known = new Known();

  constructor(options = {}) {
    let pg;
    try {
      pg = require("pg");
    } catch (error) {
      throw new Error(`PostgresStore needs the pg package (npm install pg): ${error.message}`);
    }
    this.schema = core().storeSchema();
    // The client's side of each connection sends keepalives (after the core's idle time; the
    // probes' interval and count are libuv's), the server's is set by `keepalives`.
    this.options = { keepAlive: true, keepAliveInitialDelayMillis: CONSTANTS.storeKeepaliveIdleS * 1000, ...options };
    delete this.options.max;
    delete this.options.idleTimeoutMillis;
    // Idle connections are kept until `close()`, as Python's one connection is (an idle
    // timer set and cleared around each checkout costs an update about a tenth).
    this.pool = new pg.Pool({ max: 4, idleTimeoutMillis: 0, ...this.options, ...options });
    this.pool.on("error", () => {}); // an idle client's lost connection: the next checkout replaces it
    // Queued before the first statement on each new connection; awaited (and its error
    // raised) at each checkout (`#checkout`). A checked-out client's lost connection (the
    // pool listens only to idle ones) is kept, never an unhandled 'error' event that would
    // end the process: its statement fails, the operation raises `E_STORE` and the client
    // is dropped at its release (docs/store.md § Failures).
    this.pool.on("connect", (client) => {
      client.on("error", (error) => {
        client[LOST] ??= error;
      });
      client[SET_UP] = this.keepalives(client);
      client[SET_UP].catch(() => {});
    });
    this.shown = options.connectionString ?? "(PG* environment)";
  }

  /**
   * Sets the server's side of `client`'s connection to send keepalives and to give up on data
   * left unacknowledged (docs/store.md § Failures): a host that vanished inside a transaction
   * has its session ended and its row locks released within seconds, while a live but slow
   * one answers and is waited for.
   */
  keepalives(client) {
    const { storeKeepaliveIdleS, storeKeepaliveIntervalS, storeKeepaliveCount, storeTcpUserTimeoutMs } = CONSTANTS;
    const values = [storeKeepaliveIdleS, storeKeepaliveIntervalS, storeKeepaliveCount, storeTcpUserTimeoutMs];
    return client.query(this.schema.statements.keepalives, values.map(String));
  }

  /** A store whose schema is created or migrated. */
  static async connect(options = {}) {
    const store = new PostgresStore(options);
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Closes the pool. */
  async close() {
    await this.pool.end();
  }

  /**
   * Runs `body(run, client)` on one client of the pool, each statement its own transaction
   * unless `body` begins one (`run(name, ...params)` runs a statement of the schema, named, so
   * that each connection parses and plans it once); `recover(error)` may answer a failure
   * first (it returns the error that broke the connection, if one did). A lost connection is
   * the core's retryable `E_STORE`, and the client is then dropped; a partial schema the
   * core's `E_STORE` that says what to do.
   */
  async #withClient(operation, key, body, recover = (error) => (failure(error) === "unavailable" ? error : null)) {
    const client = await this.#checkout();
    const run = (name, ...params) => client.query({ name: `statecore_${name}`, text: this.schema.statements[name], values: params });
    let broken = null;
    try {
      return await body(run, client);
    } catch (error) {
      broken = await recover(error, client);
      if (broken) core().storeUnavailable(operation, key, String((client[LOST] ?? broken)?.message ?? broken));
      schemaError(error, operation, key);
      throw error;
    } finally {
      client.release(broken ?? undefined);
    }
  }

  /**
   * A client of the pool whose connection's keepalives are set. A checkout that fails drops
   * the client: `E_STORE` when the connection failed, else the statement's own error (as
   * Python's store raises it on connecting).
   */
  async #checkout() {
    let client = null;
    try {
      client = await this.pool.connect();
      await client[SET_UP];
      return client;
    } catch (error) {
      client?.release(error);
      if (client === null || failure(error) === "unavailable") {
        core().storeUnavailable("connect", this.shown, String(error?.message ?? error));
      }
      throw error;
    }
  }

  /**
   * Runs `body(run)` in one transaction on a client of the pool (`run(name, ...params)` runs a
   * statement of the schema); a lost connection is the core's retryable `E_STORE`, a row held
   * past `timeout` ms `E_LOCK_TIMEOUT`.
   */
  async transaction(operation, key, body, timeout = null) {
    const rollback = async (error, client) => {
      const verdict = failure(error);
      if (verdict === "unavailable") return error;
      let broken = null;
      await client.query("ROLLBACK").catch((e) => (broken = e));
      if (!broken && verdict === "lock_timeout") core().storeLockTimeout(key, timeout ?? 0);
      return broken;
    };
    return this.#withClient(
      operation,
      key,
      async (run, client) => {
        await client.query("BEGIN");
        const out = await body(run, client);
        await client.query("COMMIT");
        return out;
      },
      rollback,
    );
  }

  /**
   * Runs the statement `name` of the schema on its own (no transaction: one round trip),
   * named so that each connection prepares it once; a lost connection is `E_STORE`.
   */
  async statement(operation, key, name, ...params) {
    return this.#withClient(operation, key, (run) => run(name, ...params));
  }

  /** Creates or migrates the schema, one migrator at a time (an advisory lock). */
  async migrate() {
    await this.transaction("migrate", "schema", async (run, client) => {
      await run("lock_migrations", String(this.schema.migration_lock));
      await client.query(this.schema.bootstrap);
      const { rows } = await run("read_version");
      for (const migration of core().storeMigrations(rows.length ? rows[0].value : null)) {
        await client.query(migration.sql);
        await run("write_version", String(migration.version));
      }
    });
  }

  /**
   * The document at `key` with its etag (the default document when there is none); a hive
   * session's state as `readState` reads it, rebuilt from its log when behind (`options`:
   * `{timeout}`, ms to wait for its row then).
   */
  async read(key, kind, options = {}) {
    key = core().storeKey(key);
    const checked = documents.checkOptions("logged", options);
    if (kind in LOGS) {
      return (await storeSessions.read(this.#drive, key, kind, checked)).answer;
    }
    return core().loadDocument(kind, await this.#text(key));
  }

  /** The text of the row at `key` (checked), null when there is none. */
  async #text(key) {
    const { rows } = await this.statement("read", key, "read", key);
    return rows.length ? rows[0].text : null;
  }

  /** A reader of the table (`"fctry_context_health"`) on the document at `key`, `args` after it. */
  async query(key, kind, op, args = []) {
    key = core().storeKey(key);
    if (kind in LOGS) {
      return core().queryFile(kind, op, (await storeSessions.read(this.#drive, key, kind, {})).text, args);
    }
    return core().queryFile(kind, op, await this.#text(key), args);
  }

  /** The keys of the documents and logs that start with `prefix`, in order (for the helpers). */
  async keys(prefix) {
    const found = [
      ...(await this.statement("list", prefix, "list_documents", prefix)).rows.map((r) => r.key),
      ...(await this.statement("list", prefix, "list_logs", prefix)).rows.map((r) => r.log),
    ];
    return [...new Set(found)].sort();
  }

  /**
   * One transaction: the row read and locked, the change applied by the core (a patch merged
   * with `mergeOptions`, or a function of the document), validated, and written when it
   * changed; `ifMatch` requires the row's etag (`ConflictError`).
   */
  async update(key, kind, patchOrFunction, mergeOptions = null, hostOptions = {}) {
    if (typeof patchOrFunction === "function") {
      if (mergeOptions !== null && mergeOptions !== undefined) {
        throw new TypeError("merge options apply to a patch; an update function builds the document itself");
      }
      return this.#transact(key, kind, patchOrFunction, [], hostOptions);
    }
    return this.#transact(key, kind, "merge", [patchOrFunction, mergeOptions], hostOptions);
  }

  /**
   * A change the core names applied to the document at `key` in one transaction: `change` is
   * a writer of the table (`"fctry_start_step"`, `args` after the document), `""` (replace
   * with `args[0]`) or `"merge"` (`args` = `[patch, options]`), as `updateFile` takes it.
   */
  async change(key, kind, change, args = [], hostOptions = {}) {
    if (kind in LOGS) {
      const options = documents.checkOptions("logged", hostOptions);
      return (await storeSessions.step(this.#drive, core().storeKey(key), kind, String(change), args, options)).answer;
    }
    return this.#transact(key, kind, String(change), args, hostOptions);
  }

  /**
   * The update as the core's job (docs/store.md § The update as a job): a compare-and-swap on
   * the text this store kept, or on the row read, or the locked transaction; this only runs the
   * statements it asks for on one client and applies the change.
   */
  async #transact(key, kind, change, args, hostOptions) {
    key = core().storeKey(key);
    const { ifMatch = null, now = null, reset = false, timeout = null } = documents.checkOptions("update", hostOptions);
    const C = core();
    const apply =
      typeof change === "function"
        ? async (data) => {
            const loaded = C.loadDocument(kind, data);
            C.checkIfMatch(loaded.etag, ifMatch);
            const returned = await change(loaded.document);
            // JS numbers are doubles: the ones the function did not change keep the row's text.
            return C.finishUpdate(kind, data, returned === undefined ? loaded.document : returned, null, reset, true);
          }
        : (data) => C.updateFile(kind, change, data, args, { now: now ?? Date.now(), ifMatch, reset });
    const known = this.#known.recall(key);
    const setup = {
      key,
      kind,
      function: typeof change === "function",
      timeout_ms: timeout,
      known: known ? { etag: known.etag, trusted: known.trusted } : null,
    };
    const result = await runUpdate(this.#drive, setup, apply, known, this.#known);
    return outcome(result);
  }

  /**
   * Runs `job`, a store job of the core, on a client of the pool (lib/store/job.cjs `runJob`;
   * `act` performs its own steps): `{done, kept}`. The update's and the hive sessions' driver.
   */
  #drive = async (job, act) => {
    let client;
    try {
      client = await this.#checkout();
    } catch (error) {
      job.free();
      throw error;
    }
    return runJob(client, this.schema.statements, job, act, (c) => c[LOST] ?? null);
  };

  /**
   * Validates `value` as `kind` and appends it to the log: `{seq, appended}`. With `id`,
   * exactly once: a record already appended with that id is not appended again.
   */
  async append(log, kind, value, options = {}) {
    log = core().storeKey(log);
    const { id = null } = documents.checkOptions("store_append", options);
    checkRecord(kind, value);
    const line = core().logLine(value).replace(/\n$/, "");
    const [row] = (await this.statement("append", log, "append", log, kind, id, line)).rows;
    return { seq: Number(row.seq), appended: row.appended };
  }

  /**
   * Calls `callback(change)` for each change of a document or log whose key starts with
   * `prefix` and that the viewer would show (of `kind` only, when given), as `watch` does for
   * files (docs/store.md § Watching); `options`: `initial` (true), `onError`. Resolves with
   * `{close}` once the rows as they first were are reported.
   */
  async watch(prefix, kind, callback, options = {}) {
    return require("./watch.cjs").watchStore(this, String(prefix), kind, callback, options);
  }

  /** The log's records after sequence number `after`, in order. */
  async readLog(log, options = {}) {
    log = core().storeKey(log);
    const { after = 0, limit = null } = documents.checkOptions("read_log", options);
    const { rows } = await this.statement("read_log", log, "read_log", log, after, limit);
    return rows.map((r) => core().parse(r.text));
  }
}

module.exports = { FileStore, PostgresStore, failure, schemaError };
