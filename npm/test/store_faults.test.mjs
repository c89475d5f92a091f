// A PostgreSQL store whose connection the server ends (docs/store.md § Failures): the server
// terminates the backend (`pg_terminate_backend`, from a second connection) at the moment each
// statement of an update, an append, a hive step and a watch is sent, or while it runs. The
// process lives on (no unhandled 'error' event), the call raises the retryable `E_STORE`, and
// the next call works. Also: a partial schema is a `StoreError` that says what to do, and no
// message shows a store URL's password. The twin of python/tests/test_store_faults.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { database, psql } from "./helpers/pg.mjs";

const require = createRequire(import.meta.url);
const { PostgresStore } = require("../lib/store/store.cjs");
const pg = require("pg");

const connect = (env, extra = {}) =>
  PostgresStore.connect({ host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER, database: env.PGDATABASE, ...extra });

/**
 * Every statement any pg Client sends passes through `hook` while one is set (a test hook
 * around the driver, not the library): `hook.onSend(client, send)` sends it.
 */
let hook = null;
const realQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, values, callback) {
  if (hook === null || typeof callback === "function" || typeof values === "function") return realQuery.call(this, config, values, callback);
  return hook.onSend(this, () => realQuery.call(this, config, values));
};

/** Ends `client`'s session from a second connection, and waits until it is gone (10 s at most). */
function terminate(env, client) {
  psql(env, `SELECT pg_terminate_backend(${Number(client.processID)}, 10000)`);
}

/**
 * A hook that ends the session of the `target`-th statement sent by a client `which` accepts:
 * `before` (the session ended, then the statement sent) or `during` (sent, then ended while it
 * is on its way or running). `fired`: whether it came to that statement.
 */
function terminator(env, target, mode, which = () => true) {
  const state = { sent: 0, fired: false };
  state.onSend = (client, send) => {
    if (!which(client) || state.fired || ++state.sent !== target) return send();
    state.fired = true;
    if (mode === "before") {
      terminate(env, client);
      return send();
    }
    const sent = send();
    terminate(env, client);
    return sent;
  };
  return state;
}

const isStoreError = (e) => e?.name === "StoreError" && e.code === "E_STORE" && e.details?.retryable === true;

/**
 * Runs `operation` with the session ended at its 1st, 2nd, ... statement (`before` and
 * `during`) until it runs to its end without reaching that statement: each time it raises the
 * retryable `E_STORE` (or, ended after the statement was answered, succeeds), `check` holds
 * after it, and the next call works. The number of statements covered.
 */
async function everyStatement(env, operation, check = async () => {}, prepare = async () => {}) {
  let target = 1;
  for (; target < 40; target++) {
    let reached = false;
    for (const mode of ["before", "during"]) {
      await prepare();
      hook = terminator(env, target, mode);
      let outcome = "done";
      try {
        await operation();
      } catch (error) {
        outcome = error;
      } finally {
        reached ||= hook.fired;
        hook = null;
      }
      if (outcome !== "done") assert.ok(isStoreError(outcome), `statement ${target} (${mode}): ${outcome?.stack ?? outcome}`);
      if (mode === "before" && reached) assert.notEqual(outcome, "done", `statement ${target} (before): the call succeeded`);
      await check(outcome);
      await operation(); // the next call works
    }
    if (!reached) break;
  }
  return target - 1;
}

test("a session ended during any statement of an update, an append or a hive step: E_STORE, the process lives, the next call works", { timeout: 600_000 }, async (t) => {
  const env = database(t);
  const store = await connect(env, { max: 2 });
  t.after(() => store.close());
  let n = 0;
  // A patch, tried on the kept text (one statement) or on the row read (two).
  const patched = await everyStatement(env, () => store.update("a.json", "json", { n: ++n }));
  assert.ok(patched >= 1);
  // An update function: the locked transaction (BEGIN, SELECT ... FOR UPDATE, UPDATE, COMMIT).
  let before = null;
  const locked = await everyStatement(
    env,
    () => store.update("b.json", "json", (doc) => ({ ...doc, n: (doc.n ?? 0) + 1 })),
    async (outcome) => {
      // Done: applied once. Failed: applied once or not at all (the session ended after
      // the COMMIT was sent), never half.
      const after = (await store.read("b.json", "json")).document.n ?? 0;
      if (outcome === "done") assert.equal(after, before + 1);
      else assert.ok(after === before || after === before + 1, `${before} -> ${after}`);
    },
    async () => {
      before = (await store.read("b.json", "json")).document.n ?? 0;
    },
  );
  assert.ok(locked >= 4, `the locked update sent ${locked} statements`);
  // With a timeout: the lock_timeout statement too.
  await everyStatement(env, () => store.update("c.json", "json", { n: ++n }, null, { timeout: 5000 }));
  // An append, exactly once with an id: retried after E_STORE, it is in the log once.
  let i = 0;
  await everyStatement(env, async () => {
    i++;
    try {
      await store.append("s/EVENTS.jsonl", "hive.event", { timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: "w", details: { i } }, { id: `w-${i}` });
    } catch (error) {
      await store.append("s/EVENTS.jsonl", "hive.event", { timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: "w", details: { i } }, { id: `w-${i}` });
      throw error;
    }
  });
  const seen = (await store.readLog("s/EVENTS.jsonl")).map((r) => r.details.i);
  assert.deepEqual(seen, [...new Set(seen)].sort((a, b) => a - b), "each append once, in order");
  // A hive step: the state's row locked, the log's length, the line appended, the row written.
  const hive = require("../lib/host/hive.cjs");
  await hive.createSessionDir("sessions", "s1", "research", { store });
  await hive.planWorkers("sessions/s1", [{ name: "alpha", task: "read" }], "one", { store });
  await hive.spawnWorker("sessions/s1", "alpha", { store });
  const steps = await everyStatement(env, () => hive.heartbeat("sessions/s1", "alpha", { store }));
  assert.ok(steps >= 5, `a hive step sent ${steps} statements`);
  const state = await hive.readState("sessions/s1", { store });
  assert.equal(state.document.session_metadata.log_offset, Number(psql(env, "SELECT bytes FROM statecore_logs WHERE log = 'sessions/s1/EVENTS.jsonl'")));
});

test("a watcher's session ended during any of its statements: reported as E_STORE, connected again, every change reported", { timeout: 600_000 }, async (t) => {
  const env = database(t);
  const store = await connect(env);
  t.after(() => store.close());
  const watching = (client) => client.connectionParameters?.application_name === "statecore watch";
  const event = (i) => ({ timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: "w", details: { i } });
  await store.update("p/.fctry/state.json", "fctry.state", { specVersion: "0" });
  await store.append("p/s/EVENTS.jsonl", "hive.event", event(0));
  let target = 1;
  for (; target < 40; target++) {
    const changes = [];
    const errors = [];
    const state = terminator(env, target, target % 2 ? "before" : "during", watching);
    hook = state;
    let watcher = null;
    try {
      watcher = await store.watch("p/", null, (c) => changes.push(c), { onError: (e) => errors.push(e) });
    } catch (error) {
      assert.ok(isStoreError(error), `watch, statement ${target}: ${error?.stack ?? error}`);
    }
    try {
      if (watcher === null) {
        hook = null;
        watcher = await store.watch("p/", null, (c) => changes.push(c), { onError: (e) => errors.push(e) });
      }
      await store.update("p/.fctry/state.json", "fctry.state", { specVersion: String(target) });
      await store.append("p/s/EVENTS.jsonl", "hive.event", event(target));
      const until = Date.now() + 30_000;
      const done = () =>
        changes.some((c) => c.path === "p/.fctry/state.json" && c.document.specVersion === String(target)) &&
        changes.some((c) => c.path === "p/s/EVENTS.jsonl" && c.records.some((r) => r.details.i === target));
      while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      assert.ok(done(), `statement ${target}: the changes made were reported (${JSON.stringify(changes.map((c) => c.path))}, ${errors.map(String)})`);
      for (const error of errors) assert.ok(isStoreError(error), `statement ${target}: ${error?.stack ?? error}`);
    } finally {
      await watcher?.close();
    }
    const reached = state.fired;
    hook = null;
    if (!reached) break;
  }
  assert.ok(target > 5, `the watcher sent ${target - 1} statements`);
  console.log(`watch statements covered: ${target - 1}`);
});

test("a partial schema is a StoreError that says what to do", async (t) => {
  const env = database(t);
  await (await connect(env)).close();
  const cases = [
    ["the version row removed", "DELETE FROM statecore_meta"],
    ["version 1 on version 2 tables", "UPDATE statecore_meta SET value = '1'"],
  ];
  for (const [what, sql] of cases) {
    psql(env, sql);
    await assert.rejects(connect(env), (e) => {
      assert.equal(e.name, "StoreError", `${what}: ${e.stack}`);
      assert.equal(e.code, "E_STORE");
      assert.equal(e.details.retryable, false);
      assert.match(e.message, /statecore_meta|schema/);
      assert.match(e.message, /restore|by hand|set/i);
      return true;
    });
    psql(env, "INSERT INTO statecore_meta VALUES ('schema_version', '2') ON CONFLICT (name) DO UPDATE SET value = '2'");
  }
  psql(env, "ALTER TABLE statecore_documents DROP COLUMN etag");
  const store = await connect(env);
  t.after(() => store.close());
  for (const call of [() => store.read("a.json", "json"), () => store.update("a.json", "json", { v: 1 }), () => store.update("a.json", "json", (d) => d)]) {
    await assert.rejects(call(), (e) => {
      assert.equal(e.name, "StoreError", e.stack);
      assert.equal(e.details.retryable, false);
      assert.equal(e.details.sqlstate, "42703");
      assert.match(e.message, /etag/);
      return true;
    });
  }
  psql(env, "DROP FUNCTION statecore_append(text, text, text, text)");
  await assert.rejects(store.append("l.jsonl", "json", {}), (e) => e.name === "StoreError" && e.details.sqlstate === "42883");
});

test("no store message or detail shows a URL's password", async (t) => {
  const env = database(t);
  const secret = "s3cr3t-pw";
  const url = `postgresql://${env.PGUSER}:${secret}@${env.PGHOST}:1/${env.PGDATABASE}`;
  await assert.rejects(PostgresStore.connect({ connectionString: url }), (e) => {
    assert.equal(e.code, "E_STORE");
    assert.ok(!JSON.stringify({ m: e.message, d: e.details, s: e.stack }).includes(secret), e.message);
    assert.match(e.message, /postgresql:\/\/[^:@/]+:\*+@/);
    return true;
  });
  // The command line: its error names the URL without the password.
  const cli = spawnSync(process.execPath, [require.resolve("../bin/statecore.cjs"), "show", `${url}/proj/.fctry/state.json`], { encoding: "utf8" });
  assert.equal(cli.status, 2, cli.stderr);
  assert.match(cli.stdout + cli.stderr, /E_STORE/);
  assert.ok(!(cli.stdout + cli.stderr).includes(secret), cli.stdout + cli.stderr);
});
