// Hive sessions in a store (docs/store.md § Hive sessions): a session's steps, reads and health
// through FileStore and PostgresStore give what they give on files; a state behind its log or
// unreadable is rebuilt from the log's rows; 4 Node + 4 Python workers on one session in
// PostgreSQL lose no step. The Python twin is python/tests/test_store_hive.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { Child, HERE, PYTHON, REPO, tempDir } from "./helpers/procs.mjs";
import { database, psql } from "./helpers/pg.mjs";

const require = createRequire(import.meta.url);
const hive = require("../lib/host/hive.cjs");
const core = require("../lib/generated/core-node.cjs");
const { FileStore, PostgresStore } = require("../lib/store/store.cjs");

const at = (minute) => `2026-11-25T10:${String(minute).padStart(2, "0")}:00Z`;

/** A store on the test's database. */
const connect = (env) =>
  PostgresStore.connect({ host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER, database: env.PGDATABASE });

/** A session's life through the helpers (its first `count` steps): what each step returned. */
async function sessionSteps(base, extra, count = 7) {
  const dir = base;
  const workers = [
    { name: "alpha", task: "read" },
    { name: "beta", task: "write" },
  ];
  const steps = [
    () => hive.createSessionDir(path.dirname(base), path.basename(base), "research", { now: at(0), ...extra }),
    () => hive.planWorkers(dir, workers, "two", { now: at(1), ...extra }),
    () => hive.spawnWorker(dir, "alpha", { now: at(2), ...extra }),
    () => hive.heartbeat(dir, "alpha", { now: at(3), ...extra }),
    () => hive.recordProgress(dir, "alpha", { metrics: { files_created: 2 } }, { now: at(4), ...extra }),
    () => hive.completeWorker(dir, "alpha", { notes: "a.md" }, null, { now: at(5), ...extra }),
    () => hive.changePhase(dir, "planning", { now: at(6), ...extra }),
  ];
  const out = [];
  for (const step of steps.slice(0, count)) out.push(await step());
  return out;
}

/** The log's rows as the text of a file of its lines. */
const storedLog = (env, key) =>
  psql(env, `SELECT string_agg(text || E'\\n', '' ORDER BY seq) FROM statecore_log_lines WHERE log = '${key}'`) + "\n";

/** An event line without its `event_id`, and a log's lines so. */
const withoutId = ({ event_id: _, ...rest }) => rest;
const linesWithoutIds = (text) => text.trim().split("\n").map((l) => withoutId(JSON.parse(l)));

test("a session in a store is the session on files", async (t) => {
  const env = database(t);
  const root = tempDir(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const outcomes = [];
  for (const store of [null, new FileStore(path.join(root, "store")), pg]) {
    const base = store === null ? path.join(root, "files", "s1") : "sessions/s1";
    const extra = store === null ? {} : { store };
    const steps = await sessionSteps(base, extra);
    const read = await hive.readState(base, extra);
    const health = await hive.checkWorkerHealth(base, 60_000, extra); // the clock's now
    const every = await hive.checkSessions(path.dirname(base), { now: at(30), timeoutMs: 60_000, ...extra });
    const events = steps.map((s) => s.result.event);
    // Every line carries its own event id (random: it differs between the three runs).
    assert.ok(events.every((e) => /^[0-9a-f]{24}$/.test(e.event_id)));
    assert.equal(new Set(events.map((e) => e.event_id)).size, events.length);
    outcomes.push([read.document, read.etag, events.map(withoutId), health, every]);
  }
  assert.deepEqual(outcomes[1], outcomes[0]);
  assert.deepEqual(outcomes[2], outcomes[0]);
  const onDisk = fs.readFileSync(path.join(root, "files", "s1", "EVENTS.jsonl"), "utf8");
  const stored = storedLog(env, "sessions/s1/EVENTS.jsonl");
  assert.deepEqual(linesWithoutIds(stored), linesWithoutIds(onDisk));
  assert.equal(Buffer.byteLength(stored), Buffer.byteLength(onDisk));
  assert.equal(psql(env, "SELECT text FROM statecore_documents"), fs.readFileSync(path.join(root, "files", "s1", "STATE.json"), "utf8").trim());
  assert.equal(outcomes[2][0].session_metadata.log_offset, Buffer.byteLength(onDisk));
  await assert.rejects(hive.createSessionDir("sessions", "s1", "again", { now: at(7), store: pg }), (e) => e.code === "E_ARGUMENT");
  await assert.rejects(hive.heartbeat("sessions/s1", "alpha", { store: pg, ifMatch: "x" }), (e) => e.code === "E_OPTIONS");
  assert.throws(() => hive.readStateSync("sessions/s1", { store: pg }), /use the async form/);
  assert.equal(storedLog(env, "sessions/s1/EVENTS.jsonl"), stored, "nothing appended by the refusals");
});

test("a state behind its log or unreadable is rebuilt from the log's rows", async (t) => {
  const env = database(t);
  const root = tempDir(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const line = { timestamp: at(9), type: "heartbeat", agent: "alpha", details: {} };
  const results = [];
  for (const store of [null, pg]) {
    const base = store === null ? path.join(root, "s1") : "sessions/s1";
    const extra = store === null ? {} : { store };
    await sessionSteps(base, extra, 3); // alpha spawned
    if (store === null) fs.appendFileSync(path.join(base, "EVENTS.jsonl"), core.logLine(line));
    else await pg.append("sessions/s1/EVENTS.jsonl", "hive.event", line);
    const behind = await hive.readState(base, extra);
    assert.ok(behind.recovered !== null && behind.changed);
    results.push([behind.document, behind.etag]);
  }
  assert.deepEqual(results[1], results[0]);
  psql(env, "UPDATE statecore_documents SET text = '{' WHERE key = 'sessions/s1/STATE.json'");
  const beat = await hive.heartbeat("sessions/s1", "alpha", { now: at(10), store: pg });
  assert.ok(beat.recovered !== null);
  assert.equal(beat.document.metrics.total_events_logged, 5);
  assert.equal(psql(env, "SELECT text FROM statecore_corrupt"), "{");
  assert.equal((await hive.readState("sessions/s1", { store: pg })).recovered, null);
});

test("4 Node + 4 Python workers on one session in PostgreSQL lose no step", { timeout: 300_000 }, async (t) => {
  const env = database(t);
  const pg = await connect(env);
  t.after(() => pg.close());
  const workers = ["node0", "py0", "node1", "py1", "node2", "py2", "node3", "py3"];
  const rounds = 40;
  await hive.createSessionDir("sessions", "s1", "both languages", { now: at(0), store: pg });
  await hive.planWorkers("sessions/s1", workers.map((name) => ({ name, task: "t" })), "eight", { now: at(1), store: pg });
  const agentEnv = { ...env, STATECORE_AGENT_STORE: "postgres" };
  const agents = workers.map((w) =>
    w.startsWith("py")
      ? new Child(t, PYTHON, [path.join(REPO, "python", "tests", "helpers", "hive_agent.py"), "sessions/s1", w, String(rounds)], agentEnv)
      : new Child(t, process.execPath, [path.join(HERE, "hive_agent.cjs"), "sessions/s1", w, String(rounds)], agentEnv),
  );
  for (const agent of agents) await agent.waitLine((l) => l === "ready", 60_000);
  for (const agent of agents) agent.send("go\n");
  for (const agent of agents) await agent.waitLine((l) => l === "done", 240_000);
  const state = await hive.readState("sessions/s1", { store: pg });
  assert.equal(state.recovered, null, "the state folds its whole log");
  const records = await pg.readLog("sessions/s1/EVENTS.jsonl");
  assert.equal(records.length, 2 + workers.length * rounds);
  assert.equal(state.document.metrics.total_events_logged, records.length);
  for (const worker of workers) {
    const mine = records.filter((e) => e.agent === worker);
    assert.equal(mine.length, rounds, worker);
    const progress = mine.filter((e) => e.type === "worker_progress").map((e) => e.details.metrics.files_created);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b), `${worker}: in order`);
  }
  const log = Buffer.from(storedLog(env, "sessions/s1/EVENTS.jsonl"));
  assert.deepEqual(core.hive.recoverState(log, "s1").state, state.document, "the state is the recovery of its log");
  assert.deepEqual([...state.document.coordination_status.workers_completed].sort(), [...workers].sort());
});
