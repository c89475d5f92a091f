// The session helpers of `statecore-js/hive` on real files (docs/hive.md § Files): a session's
// directory, its steps (each appends its event line, then writes the state), reads that
// rebuild a state that is missing, unreadable, behind its log or left with a torn line, the
// health of a directory of sessions, and the errors. python/tests/test_hive_host.py is its twin.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const hive = require("../lib/host/hive.cjs");
const core = require("../lib/generated/core-node.cjs");
const atomic = require("../lib/host/atomic.cjs");

const at = (m) => `2026-11-24T10:${String(m).padStart(2, "0")}:00Z`;

/** A session with two planned workers, alpha spawned. */
function session(t) {
  const root = tempDir(t);
  hive.createSessionDirSync(root, "s1", "research", { now: at(0) });
  const dir = path.join(root, "s1");
  hive.planWorkersSync(dir, [{ name: "alpha", task: "read" }, { name: "beta", task: "write" }], "two", { now: at(1) });
  hive.spawnWorkerSync(dir, "alpha", { now: at(2) });
  return { root, dir, state: path.join(dir, "STATE.json"), log: path.join(dir, "EVENTS.jsonl") };
}

const recovered = (log) => core.hive.recoverState(fs.readFileSync(log), "s1").state;

test("steps append their line and write the state that folds the log", async (t) => {
  const { dir, state, log } = session(t);
  const out = await hive.heartbeat(dir, "alpha", { now: at(3) });
  assert.equal(out.result.event.type, "worker_heartbeat");
  assert.equal(out.changed, true);
  assert.equal(out.recovered, null);
  assert.deepEqual(out.document, JSON.parse(fs.readFileSync(state, "utf8")));
  assert.equal(out.document.session_metadata.log_offset, fs.statSync(log).size);
  assert.deepEqual(out.document, recovered(log));
  assert.equal(out.etag, core.etag(fs.readFileSync(state)));
  assert.equal(fs.readFileSync(log, "utf8").trim().split("\n").length, 4);
  assert.deepEqual(fs.readdirSync(dir).sort(), ["EVENTS.jsonl", "STATE.json"]);
});

test("a refused step writes nothing", (t) => {
  const { state, log, dir } = session(t);
  const before = [fs.readFileSync(state), fs.readFileSync(log)];
  assert.throws(() => hive.heartbeatSync(dir, "beta"), (e) => e.code === "E_ARGUMENT" && e.path === "/worker_states/beta");
  assert.deepEqual([fs.readFileSync(state), fs.readFileSync(log)], before);
});

test("a crash between the append and the write: the next read brings the state up to its log", (t) => {
  const { dir, state, log } = session(t);
  atomic.setFaultInjector((step) => {
    if (step === "rename") throw Object.assign(new Error("injected"), { code: "EIO" });
  });
  try {
    assert.throws(() => hive.heartbeatSync(dir, "alpha", { now: at(3) }), /injected/);
  } finally {
    atomic.setFaultInjector(null);
  }
  const behind = JSON.parse(fs.readFileSync(state, "utf8"));
  assert.ok(behind.session_metadata.log_offset < fs.statSync(log).size, "the line is in the log, the state behind");
  const read = hive.readStateSync(dir);
  assert.equal(read.changed, true);
  assert.equal(read.recovered.events, 1);
  assert.equal(read.document.worker_states.alpha.last_heartbeat, at(3));
  assert.deepEqual(read.document, recovered(log));
  assert.deepEqual(JSON.parse(fs.readFileSync(state, "utf8")), read.document);
});

test("a read of a current state takes no lock and writes nothing", (t) => {
  const { dir, state } = session(t);
  const mtime = fs.statSync(state).mtimeMs;
  const read = hive.readStateSync(dir);
  assert.equal(read.changed, false);
  assert.equal(read.recovered, null);
  assert.equal(fs.statSync(state).mtimeMs, mtime);
  assert.equal(fs.existsSync(`${state}.lock`), false);
});

test("a missing state is rebuilt from the log; a torn last line is cut off and kept", (t) => {
  const { dir, state, log } = session(t);
  const whole = fs.readFileSync(log);
  fs.unlinkSync(state);
  fs.appendFileSync(log, '{"timestamp":"2026-11-24T10:0');
  const read = hive.readStateSync(dir);
  assert.equal(read.recovered.events, 3);
  assert.deepEqual(read.recovered.torn, { line: 4, offset: whole.length });
  assert.deepEqual(read.warnings.map((w) => w.code), ["W_TORN_TAIL"]);
  assert.deepEqual(fs.readFileSync(log), whole, "the torn line was cut off");
  const copy = fs.readdirSync(dir).find((f) => f.startsWith("EVENTS.jsonl.corrupt-"));
  assert.equal(fs.readFileSync(path.join(dir, copy), "utf8"), '{"timestamp":"2026-11-24T10:0');
  assert.deepEqual(JSON.parse(fs.readFileSync(state, "utf8")), recovered(log));
});

test("an unreadable state is kept as a copy and rebuilt; the step goes on", (t) => {
  const { dir, state, log } = session(t);
  fs.writeFileSync(state, "{not json");
  const out = hive.heartbeatSync(dir, "alpha", { now: at(3) });
  assert.ok(out.corruptCopy.startsWith(`${state}.corrupt-`));
  assert.equal(fs.readFileSync(out.corruptCopy, "utf8"), "{not json");
  assert.equal(out.recovered.events, 3);
  assert.deepEqual(out.warnings.map((w) => w.code), ["W_CORRUPT_COPY"]);
  assert.deepEqual(out.document, recovered(log));
});

test("createSessionDir refuses an existing session and an id that is not a directory name", (t) => {
  const { root } = session(t);
  assert.throws(() => hive.createSessionDirSync(root, "s1", "again"), (e) => e.code === "E_ARGUMENT");
  for (const id of ["..", "a/b", "", "a\nb"]) {
    assert.throws(() => hive.createSessionDirSync(root, id, "t"), (e) => e.code === "E_ARGUMENT", id);
  }
  assert.throws(() => hive.readStateSync(path.join(root, "nope")), (e) => e.code === "E_NO_SESSION");
  assert.throws(() => hive.heartbeatSync(path.join(root, "s1"), "alpha", { tiemout: 5 }), (e) => e.code === "E_OPTIONS");
  // A step appends to a log: there is no compare-and-swap or reset of the state to ask for.
  for (const option of [{ ifMatch: "x" }, { reset: true }]) {
    assert.throws(() => hive.heartbeatSync(path.join(root, "s1"), "alpha", option), (e) => e.code === "E_OPTIONS");
  }
});

test("checkSessions: the health of each session of a directory, or why it cannot be read", (t) => {
  const { root, dir } = session(t);
  hive.createSessionDirSync(root, "s2", "idle", { now: at(0) });
  fs.mkdirSync(path.join(root, "not-a-session"));
  fs.mkdirSync(path.join(root, "broken"));
  fs.writeFileSync(path.join(root, "broken", "EVENTS.jsonl"), "garbage\n");
  const health = hive.checkSessionsSync(root, { now: at(30) });
  assert.deepEqual(
    health.map((h) => [h.session, h.health?.unhealthy.map((u) => [u.worker, u.problem]) ?? h.error.code]),
    [
      ["broken", "E_LOG_CORRUPT"],
      ["s1", [["alpha", "timeout"]]],
      ["s2", []],
    ],
  );
  // On a session directory, the health check reads its state (at the clock's now).
  const own = hive.checkWorkerHealthSync(dir, 60_000);
  assert.deepEqual([own.checked, own.timeout_ms, own.unhealthy.length], [1, 60_000, 1]);
  assert.throws(() => hive.checkSessionsSync(root, { timeout_ms: 5 }), (e) => e.code === "E_OPTIONS");
  // A reader whose answer depends on the time takes `now`, as Python's does (sync and async).
  const at1 = hive.checkWorkerHealthSync(dir, null, { now: at(3) });
  assert.deepEqual([at1.checked, at1.unhealthy.length], [1, 0]);
  assert.equal(hive.checkWorkerHealthSync(dir, null, { now: at(30) }).unhealthy[0].worker, "alpha");
  return hive.checkWorkerHealth(dir, null, { now: at(30) }).then((late) => assert.equal(late.unhealthy.length, 1));
});

test("a reader that reads no clock refuses `now` (E_OPTIONS), as any other key", (t) => {
  const { dir } = session(t);
  const fctry = require("../lib/host/fctry.cjs");
  assert.throws(() => fctry.inboxCountsSync(dir, { now: at(1) }), (e) => e.code === "E_OPTIONS" && e.path === "/now");
});

test("a plain document write of STATE.json is refused: the log would fall behind", (t) => {
  const { state } = session(t);
  const host = require("../lib/host/host.cjs");
  assert.throws(() => host.updateDocumentSync(state, "hive.state", { task: "x" }), (e) => e.code === "E_ARGUMENT");
});

test("a session whose only file is a log the original template wrote is rebuilt from it, and steps go on", async (t) => {
  const dir = path.join(tempDir(t), "s1");
  fs.mkdirSync(dir);
  // The original's log_event: details as text, no plan line, the worker named by its agent; the
  // queen's and the worker's own worker_spawned; a retried append with an id.
  const lines = [
    { timestamp: at(0), type: "session_created", agent: "queen-orchestrator", details: "Session initialized" },
    { timestamp: at(1), type: "worker_spawned", agent: "backend-worker", details: "{'note': 'spawned'}" },
    { timestamp: at(1), type: "worker_spawned", agent: "backend-worker", details: "starting", id: "e-3" },
    { id: "e-3", details: "starting", agent: "backend-worker", type: "worker_spawned", timestamp: at(1) },
    { timestamp: at(2), type: "worker_failed", agent: "backend-worker", details: "timed out", status: "failed" },
    { timestamp: at(3), type: "worker_spawned", agent: "backend-worker", details: "retry" },
  ];
  fs.writeFileSync(path.join(dir, "EVENTS.jsonl"), lines.map((l) => JSON.stringify(l) + "\n").join(""));
  const read = hive.readStateSync(dir);
  assert.equal(read.recovered.events, 5);
  assert.equal(read.recovered.duplicates, 1);
  const worker = read.document.worker_states["backend-worker"];
  assert.equal(worker.status, "active");
  assert.equal(worker.spawned_at, at(3));
  assert.deepEqual(read.document.coordination_status.workers_failed, []);
  await hive.completeWorker(dir, "backend-worker", { notes: "notes/backend.md" }, null, { now: at(4) });
  const state = JSON.parse(fs.readFileSync(path.join(dir, "STATE.json"), "utf8"));
  assert.equal(state.worker_states["backend-worker"].status, "completed");
  assert.deepEqual(state, recovered(path.join(dir, "EVENTS.jsonl")));
});
