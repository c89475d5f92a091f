// The document stores (docs/store.md): PostgresStore against a throwaway PostgreSQL server
// (helpers/pg.mjs), and the same operations through FileStore giving the same documents and
// etags. Concurrency (Node and Python writers together), kill -9 inside a transaction and
// dropped connections use real processes and pg_terminate_backend.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { PYTHON, REPO } from "./helpers/procs.mjs";
import { database, psql } from "./helpers/pg.mjs";

const require = createRequire(import.meta.url);
const sc = require("../lib/node.cjs");
const { FileStore, PostgresStore } = require("../lib/store/store.cjs");
const NODE_WRITER = path.join(import.meta.dirname, "helpers", "store_writer.cjs");
const PY_WRITER = path.join(REPO, "python", "tests", "helpers", "store_writer.py");

/** A store on the test's database. */
const connect = (env) =>
  PostgresStore.connect({ host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER, database: env.PGDATABASE });

/** Runs a writer (`node` or `python`) with `args` to its end; its standard output. */
function writer(lang, args, env) {
  const command = lang === "node" ? [process.execPath, NODE_WRITER] : [PYTHON, PY_WRITER];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), ...args], { env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("exit", (code) => (code === 0 && out.trim().endsWith("done") ? resolve(out) : reject(new Error(`${lang} writer: exit ${code}: ${out}`))));
  });
}

test("the schema is created once and a newer one is refused", async (t) => {
  const env = database(t);
  await (await connect(env)).close();
  assert.equal(psql(env, "SELECT value FROM statecore_meta WHERE name = 'schema_version'"), "2");
  const again = await connect(env);
  assert.deepEqual((await again.read("a.json", "json")).document, {});
  await again.close();
  psql(env, "UPDATE statecore_meta SET value = '99' WHERE name = 'schema_version'");
  await assert.rejects(connect(env), (e) => e.name === "StoreError" && e.code === "E_STORE" && e.details.retryable === false);
});

test("updates and reads match the file store", async (t) => {
  const env = database(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-store-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pg = await connect(env);
  t.after(() => pg.close());
  for (const store of [new FileStore(dir), pg]) {
    const key = "proj/.fctry/state.json";
    assert.ok((await store.update(key, "fctry.state", { workflowStep: "interviewer" })).changed);
    const second = await store.update(key, "fctry.state", { activeSection: "#a", activeSectionNumber: "1" });
    const same = await store.update(key, "fctry.state", { workflowStep: "interviewer" });
    assert.deepEqual([same.changed, same.etag], [false, second.etag]);
    const read = await store.read(key, "fctry.state");
    assert.deepEqual([read.document, read.etag], [second.document, second.etag]);
    const started = await store.change(key, "fctry.state", "fctry_start_command", ["init", "2026-11-25T10:00:00Z"]);
    assert.equal(started.document.currentCommand, "init");
    const added = await store.change("proj/.fctry/inbox.json", "fctry.inbox", "fctry_inbox_add", ["evolve", "x", "2026-11-25T10:00:00Z", "abc123"]);
    assert.equal(added.item.status, "pending");
  }
  for (const key of ["proj/.fctry/state.json", "proj/.fctry/inbox.json"]) {
    const onDisk = fs.readFileSync(path.join(dir, ...key.split("/")), "utf8");
    assert.equal(psql(env, `SELECT etag FROM statecore_documents WHERE key = '${key}'`), sc.etag(onDisk));
    assert.equal(psql(env, `SELECT text FROM statecore_documents WHERE key = '${key}'`) + "\n", onDisk);
  }
});

test("an update the core refuses writes nothing", async (t) => {
  const pg = await connect(database(t));
  t.after(() => pg.close());
  const made = await pg.update("s.json", "fctry.state", { specVersion: "1" });
  await assert.rejects(pg.update("s.json", "fctry.state", { chunkProgress: { current: "x" } }), { name: "ValidationError" });
  await assert.rejects(pg.update("s.json", "fctry.state", { specVersion: "2" }, null, { ifMatch: "0".repeat(32) }), { name: "ConflictError" });
  await assert.rejects(pg.update("s.json", "fctry.state", () => { throw new RangeError("x"); }), RangeError);
  await assert.rejects(pg.update("s.json", "json", {}, null, { ifmatch: "x" }), { code: "E_OPTIONS" });
  assert.equal((await pg.read("s.json", "fctry.state")).etag, made.etag);
  await assert.rejects(pg.update("../s.json", "json", {}), { name: "PathUnsafeError" });
  assert.ok((await pg.update("s.json", "fctry.state", { specVersion: "2" }, null, { ifMatch: made.etag })).changed);
});

test("the text a store keeps is only a first try: another writer's change is never lost", async (t) => {
  const env = database(t);
  const [a, b] = [await connect(env), await connect(env)];
  t.after(() => Promise.all([a.close(), b.close()]));
  const key = "proj/.fctry/state.json";
  const statements = [];
  const query = a.pool.Client.prototype.query;
  a.pool.Client.prototype.query = function (config, ...rest) {
    if (typeof config?.name === "string") statements.push(config.name.replace("statecore_", ""));
    return query.call(this, config, ...rest);
  };
  t.after(() => (a.pool.Client.prototype.query = query));
  const row = () => psql(env, `SELECT etag FROM statecore_documents WHERE key = '${key}'`);

  await a.update(key, "fctry.state", { workflowStep: "interviewer" });
  statements.length = 0;
  const alone = await a.update(key, "fctry.state", { specVersion: "1" });
  assert.deepEqual(statements, ["update_known"], "an uncontended update is one statement");
  assert.equal(alone.etag, row());

  await b.update(key, "fctry.state", { activeSection: "#a", activeSectionNumber: "1" });
  statements.length = 0;
  const after = await a.update(key, "fctry.state", { specVersion: "2" });
  assert.deepEqual(statements, ["update_known", "update"], "the row comes back with the missed swap");
  assert.deepEqual([after.document.activeSection, after.document.specVersion, after.etag], ["#a", "2", row()]);
  // After a missed swap the row is read first, until it is still the one this store wrote.
  statements.length = 0;
  await a.update(key, "fctry.state", { specVersion: "2.1" });
  await a.update(key, "fctry.state", { specVersion: "2.2" });
  assert.deepEqual(statements, ["read", "update", "update_known"]);

  // Unchanged on the kept text, changed in the row: written.
  await b.update(key, "fctry.state", { workflowStep: "researcher" });
  const back = await a.update(key, "fctry.state", { workflowStep: "interviewer" });
  assert.deepEqual([back.changed, (await b.read(key, "fctry.state")).document.workflowStep], [true, "interviewer"]);
  // Unchanged in the row: not written.
  assert.equal((await a.update(key, "fctry.state", { workflowStep: "interviewer" })).changed, false);

  // ifMatch is the row's etag, whatever the store kept.
  const kept = back.etag;
  const moved = await b.update(key, "fctry.state", { specVersion: "3" });
  assert.ok((await a.update(key, "fctry.state", { specVersion: "4" }, null, { ifMatch: moved.etag })).changed);
  await assert.rejects(a.update(key, "fctry.state", { specVersion: "5" }, null, { ifMatch: kept }), { name: "ConflictError" });
  const final = (await b.read(key, "fctry.state")).document;
  assert.deepEqual([final.specVersion, final.workflowStep, final.activeSection], ["4", "interviewer", "#a"]);
});

test("appends are in order, and exactly once with an id", async (t) => {
  const pg = await connect(database(t));
  t.after(() => pg.close());
  const event = { timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: "w", details: {} };
  assert.deepEqual(await pg.append("s/EVENTS.jsonl", "hive.event", event, { id: "a" }), { seq: 1, appended: true });
  assert.equal((await pg.append("s/EVENTS.jsonl", "hive.event", { ...event, agent: "x" })).seq, 2);
  assert.deepEqual(await pg.append("s/EVENTS.jsonl", "hive.event", event, { id: "a" }), { seq: 1, appended: false });
  await assert.rejects(pg.append("s/EVENTS.jsonl", "hive.event", { type: "progress" }), { name: "ValidationError" });
  assert.deepEqual((await pg.readLog("s/EVENTS.jsonl")).map((r) => r.agent), ["w", "x"]);
  assert.deepEqual((await pg.readLog("s/EVENTS.jsonl", { after: 1 })).map((r) => r.agent), ["x"]);
  // Misspelt or mistyped options are refused, never ignored.
  await assert.rejects(pg.append("s/EVENTS.jsonl", "hive.event", event, { Id: "b" }), (e) => e.code === "E_OPTIONS" && e.details.nearest === "id");
  await assert.rejects(pg.append("s/EVENTS.jsonl", "hive.event", event, { id: 7 }), { code: "E_OPTIONS", path: "/id" });
  await assert.rejects(pg.readLog("s/EVENTS.jsonl", { afer: 1 }), (e) => e.code === "E_OPTIONS" && e.details.nearest === "after");
  await assert.rejects(pg.readLog("s/EVENTS.jsonl", { limit: -1 }), { code: "E_OPTIONS", path: "/limit" });
  await assert.rejects(pg.watch("s/", null, () => {}, { debounceMs: 5 }), { code: "E_OPTIONS" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-store-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(new FileStore(dir).append("s/EVENTS.jsonl", "hive.event", event, { id: "a" }), { code: "E_OPTIONS", path: "/id" });
  assert.equal((await pg.readLog("s/EVENTS.jsonl")).length, 2);
});

test("4 Node + 4 Python writers × 250 updates: exactly 2000", async (t) => {
  const env = database(t);
  const langs = ["node", "python", "node", "python", "node", "python", "node", "python"];
  await Promise.all(langs.map((lang) => writer(lang, ["update", "counter.json", "250"], env)));
  const pg = await connect(env);
  t.after(() => pg.close());
  assert.deepEqual((await pg.read("counter.json", "json")).document, { n: 2000 });
});

test("4 Node + 4 Python writers × 100 inbox items, compare-and-swap first: exactly 800", { timeout: 300_000 }, async (t) => {
  const env = database(t);
  const key = "proj/.fctry/inbox.json";
  const writers = [0, 1, 2, 3].flatMap((w) => [["node", ["inbox", key, "100", `n${w}`]], ["python", ["inbox", key, "100", `p${w}`]]]);
  await Promise.all(writers.map(([lang, args]) => writer(lang, args, env)));
  const pg = await connect(env);
  t.after(() => pg.close());
  const items = (await pg.read(key, "fctry.inbox")).document;
  assert.equal(items.length, 800, "no item lost or added twice");
  for (const w of ["n0", "p0", "n1", "p1", "n2", "p2", "n3", "p3"]) {
    const mine = items.filter((item) => item.content.startsWith(`${w} `)).map((item) => Number(item.content.split(" ")[1]));
    assert.deepEqual(mine, [...mine].sort((a, b) => b - a), `${w}: newest first, in order`);
    assert.equal(mine.length, 100, w);
  }
});

test("4 Node + 4 Python appenders × 500: 4000 lines, each writer's in order", async (t) => {
  const env = database(t);
  const langs = ["node", "python", "node", "python", "node", "python", "node", "python"];
  await Promise.all(langs.map((lang, w) => writer(lang, ["append", "s/EVENTS.jsonl", "500", `${lang}${w}`], env)));
  const pg = await connect(env);
  t.after(() => pg.close());
  const records = await pg.readLog("s/EVENTS.jsonl");
  assert.equal(records.length, 4000);
  langs.forEach((lang, w) => {
    const mine = records.filter((r) => r.agent === `${lang}${w}`).map((r) => r.details.i);
    assert.deepEqual(mine, [...Array(500).keys()]);
  });
});

test("a writer killed inside its transaction leaves the old document (×50)", async (t) => {
  const env = database(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const before = await pg.update("held.json", "json", { v: 1 });
  for (let i = 0; i < 50; i++) {
    const child = spawn(process.execPath, [NODE_WRITER, "hold", "held.json"], { env: { ...process.env, ...env } });
    await new Promise((resolve) => child.stdout.once("data", resolve)); // "holding": the row is locked
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    assert.equal((await pg.read("held.json", "json")).etag, before.etag);
  }
  assert.deepEqual((await pg.update("held.json", "json", { v: 2 })).document, { v: 2 });
});

test("a dropped connection is a retryable error, nothing half-applied", async (t) => {
  const env = database(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const before = await pg.update("d.json", "json", { v: 1 });
  const drop = (doc) => {
    psql(env, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle in transaction'");
    return { ...doc, v: 2 };
  };
  await assert.rejects(pg.update("d.json", "json", drop), (e) => e.name === "StoreError" && e.details.retryable === true);
  assert.equal((await pg.read("d.json", "json")).etag, before.etag);
  assert.deepEqual((await pg.update("d.json", "json", { v: 3 })).document, { v: 3 });
});

test("the protocol helpers, writers and readers, take a store", async (t) => {
  const env = database(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-store-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pg = await connect(env);
  t.after(() => pg.close());
  const fctry = require("../lib/host/fctry.cjs");
  const hivemind = require("../lib/host/hivemind.cjs");
  const now = "2026-11-25T10:00:00Z";
  const results = [];
  for (const store of [null, new FileStore(path.join(dir, "store")), pg]) {
    const base = store === null ? path.join(dir, "files", "proj") : "proj";
    const extra = store === null ? {} : { store };
    await fctry.startCommand(base, "init", { now, ...extra });
    await fctry.startStep(base, "interviewer", { now, ...extra });
    await fctry.updateState(base, { activeSection: "#a", activeSectionNumber: "1" }, extra);
    const done = await fctry.completeStep(base, "interviewer", null, { now, ...extra });
    const moved = await hivemind.writeState(base, { state: "idle" }, extra);
    const read = await fctry.readState(base, extra);
    const health = await fctry.contextHealth(base, null, extra);
    const summary = (await hivemind.readState(base, extra)).document;
    results.push([done.document, done.etag, moved.etag, [read.document, read.etag, health, summary]]);
  }
  assert.deepEqual(results[1], results[0]);
  assert.deepEqual(results[2], results[0]);
  assert.equal(psql(env, "SELECT string_agg(key, ',' ORDER BY key) FROM statecore_documents"), "proj/.fctry/state.json,proj/workspace/state.json");
  const hive = require("../lib/host/hive.cjs");
  await assert.rejects(hive.spawnWorker("s1", "w1", { store: pg }), { code: "E_NO_SESSION" }); // steps take a store too
  await assert.rejects(fctry.readState("proj", { stor: pg }), { code: "E_OPTIONS" });
  assert.throws(() => fctry.readStateSync("proj", { store: pg }), /use the async form/);
  await assert.rejects(fctry.startStep("/abs/proj", "interviewer", { store: pg }), { name: "PathUnsafeError" });
});

test("an update waits for a locked row at most its timeout", async (t) => {
  const env = database(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const before = await pg.update("held.json", "json", { v: 1 });
  const child = spawn(process.execPath, [NODE_WRITER, "hold", "held.json"], { env: { ...process.env, ...env } });
  t.after(() => child.kill("SIGKILL"));
  await new Promise((resolve) => child.stdout.once("data", resolve));
  await assert.rejects(pg.update("held.json", "json", { v: 2 }, null, { timeout: 300 }), (e) => e.name === "LockTimeoutError" && e.details.key === "held.json");
  assert.equal((await pg.read("held.json", "json")).etag, before.etag);
});

test("a store is watched like files (LISTEN/NOTIFY)", async (t) => {
  const pg = await connect(database(t));
  t.after(() => pg.close());
  const event = { timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: "w", details: {} };
  await pg.update("proj/.fctry/state.json", "fctry.state", { specVersion: "1" });
  await pg.append("proj/s1/EVENTS.jsonl", "hive.event", event);
  const changes = [];
  const watcher = await pg.watch("proj/", null, (c) => changes.push(c));
  t.after(() => watcher.close());
  assert.deepEqual(changes.map((c) => c.path), ["proj/.fctry/state.json", "proj/s1/EVENTS.jsonl"]);
  assert.deepEqual(changes[1].records, [event]);
  await pg.update("other/.fctry/state.json", "fctry.state", { specVersion: "9" });
  await pg.update("proj/.fctry/state.json", "fctry.state", { specVersion: "2" });
  await pg.update("proj/.fctry/state.json", "fctry.state", { specVersion: "2" }); // unchanged
  await pg.append("proj/s1/EVENTS.jsonl", "hive.event", { ...event, agent: "x" });
  const end = Date.now() + 10_000;
  while (changes.length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual([changes[2].path, changes[2].document], ["proj/.fctry/state.json", { specVersion: "2" }]);
  assert.deepEqual(changes[3].records.map((r) => r.agent), ["x"]);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(changes.length, 4);
});

test("a store watcher connects again after a lost connection", async (t) => {
  const env = database(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const changes = [];
  const errors = [];
  const watcher = await pg.watch("proj/", null, (c) => changes.push(c), { initial: false, onError: (e) => errors.push(e) });
  t.after(() => watcher.close());
  const until = async (check, what) => {
    for (let waited = 0; !check(); waited += 20) {
      if (waited > 20_000) throw new Error(`waited 20 s for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  assert.equal(psql(env, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'statecore watch'"), "t");
  await pg.update("proj/.fctry/state.json", "fctry.state", { specVersion: "1" });
  await until(() => errors.length > 0, "the loss to be reported");
  assert.equal(errors[0].code, "E_STORE");
  assert.equal(errors[0].details.retryable, true);
  await until(() => changes.length > 0, "the change made meanwhile");
  assert.deepEqual(changes[0].document, { specVersion: "1" });
  await pg.update("proj/.fctry/state.json", "fctry.state", { specVersion: "2" });
  await until(() => changes.length > 1, "the change made after");
  assert.deepEqual(changes[1].document, { specVersion: "2" });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(changes.length, 2, "each change reported once");
  assert.equal(errors.length, 1);
});

test("a store's read checks its options whatever the kind: a misspelt one is E_OPTIONS", async (t) => {
  const env = database(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-store-"));
  const pg = await connect(env);
  try {
    for (const store of [new FileStore(dir), pg]) {
      for (const kind of ["json", "fctry.state", "hive.state"]) {
        await assert.rejects(store.read("s/a.json", kind, { timout: 5 }), (e) => e.code === "E_OPTIONS", `${kind}`);
      }
      assert.deepEqual((await store.read("a.json", "json", { timeout: 5 })).document, {});
    }
  } finally {
    await pg.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
