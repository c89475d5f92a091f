// Hive sessions on files across languages and crashes (docs/hive.md § Files): 4 Node + 4
// Python workers take 100 milestones each on one session at once, and 100 rounds of a worker
// killed with SIGKILL in the middle of its steps. Every event line is in the log exactly once,
// every raw read of STATE.json parses, the state is the recovery of its log, and recovery
// always rebuilds a valid state holding every line that was fully written.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { Child, HERE, PYTHON, REPO, sleep, supervise, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const hive = require("../lib/host/hive.cjs");
const core = require("../lib/generated/core-node.cjs");

const AGENT = {
  node: path.join(HERE, "hive_agent.cjs"),
  python: path.join(REPO, "python", "tests", "helpers", "hive_agent.py"),
};
const MILESTONES = 100;
const DEADLINE_MS = 150_000;
const WORKERS = ["node0", "py0", "node1", "py1", "node2", "py2", "node3", "py3"];

/** A worker process: `lang` "node" or "python" (by default, from the worker's name). */
function start(t, worker, dir, rounds, lang = worker.startsWith("py") ? "python" : "node") {
  const args = [AGENT[lang], dir, worker, String(rounds)];
  const child = lang === "python" ? new Child(t, PYTHON, args) : new Child(t, process.execPath, args);
  child.name = worker;
  return child;
}

/** The complete lines of a log (a line being appended may be cut short). */
const completeLines = (bytes) => bytes.toString("utf8").split("\n").slice(0, -1);

test(
  "hive: 4 Node + 4 Python workers x 100 milestones on one session",
  { timeout: DEADLINE_MS + 10_000 },
  async (t) => {
    const root = tempDir(t);
    hive.createSessionDirSync(root, "s1", "research the API");
    const dir = path.join(root, "s1");
    hive.planWorkersSync(dir, WORKERS.map((name) => ({ name, task: `task of ${name}` })), "both languages");

    const agents = WORKERS.map((w) => start(t, w, dir, MILESTONES));
    let reads = 0;
    let logged = 0;
    const failure = await supervise(agents, DEADLINE_MS, async () => {
      const state = JSON.parse(await fsp.readFile(path.join(dir, "STATE.json"), "utf8")); // a torn file throws
      const count = state.metrics.total_events_logged;
      assert.ok(count >= logged, `total_events_logged went back to ${count} from ${logged}`);
      logged = count;
      for (const line of completeLines(await fsp.readFile(path.join(dir, "EVENTS.jsonl")))) JSON.parse(line);
      reads++;
    });
    assert.equal(failure, null, failure ?? "");

    const log = fs.readFileSync(path.join(dir, "EVENTS.jsonl"));
    const lines = completeLines(log);
    assert.equal(lines.length, 2 + WORKERS.length * MILESTONES, "lines lost or added");
    assert.equal(new Set(lines).size, lines.length, "a line appended twice");
    const events = lines.map((l) => JSON.parse(l));
    for (const worker of WORKERS) {
      const mine = events.filter((e) => e.agent === worker);
      assert.equal(mine.length, MILESTONES, worker);
      assert.equal(mine[0].type, "worker_spawned", worker);
      assert.equal(mine.at(-1).type, "worker_completed", worker);
      const progress = mine.filter((e) => e.type === "worker_progress").map((e) => e.details.metrics.files_created);
      const expected = [];
      for (let r = 1; r < MILESTONES - 1; r += 2) expected.push(r);
      assert.deepEqual(progress, expected, `${worker}: progress lines, in order`);
    }
    const state = JSON.parse(fs.readFileSync(path.join(dir, "STATE.json"), "utf8"));
    assert.deepEqual(core.hive.recoverState(log, "s1").state, state, "the state is the recovery of its log");
    assert.deepEqual([...state.coordination_status.workers_completed].sort(), [...WORKERS].sort());
  assert.deepEqual(state.coordination_status.workers_active, []);
    for (const worker of WORKERS) assert.equal(state.worker_states[worker].metrics.events_logged, MILESTONES);
    assert.equal(core.validate("hive.state", state).valid, true);
    assert.ok(reads > 0);
    t.diagnostic(`${reads} raw reads while ${WORKERS.length} workers wrote, all parsed`);
    assert.deepEqual(fs.readdirSync(dir).sort(), ["EVENTS.jsonl", "STATE.json"]);
  },
);

test("hive: a worker killed (SIGKILL) mid-step, 100 rounds, Node and Python in turn", { timeout: 240_000 }, async (t) => {
  const root = tempDir(t);
  hive.createSessionDirSync(root, "s1", "crash");
  const dir = path.join(root, "s1");
  const logFile = path.join(dir, "EVENTS.jsonl");
  hive.planWorkersSync(dir, [{ name: "w", task: "beat" }]);
  hive.spawnWorkerSync(dir, "w");
  let torn = 0;
  let behind = 0;
  for (let round = 0; round < 100; round++) {
    const child = start(t, "w", dir, "loop", round % 2 === 0 ? "node" : "python");
    await child.waitLine((l) => l === "ready");
    child.send("go\n");
    await child.waitLine((l) => l === "go");
    await sleep(Math.floor(Math.random() * 15));
    child.kill("SIGKILL");
    await child.exited;

    const log = fs.readFileSync(logFile);
    const complete = completeLines(log).filter((l) => l.trim() !== "");
    const recovered = core.hive.recoverState(log, "s1"); // raises if the log cannot be rebuilt
    assert.equal(recovered.events, complete.length, `round ${round}: every complete line applied`);
    assert.equal(core.validate("hive.state", recovered.state).valid, true);
    if (recovered.torn !== null) torn++;
    const state = JSON.parse(fs.readFileSync(path.join(dir, "STATE.json"), "utf8"));
    if (state.session_metadata.log_offset < log.length) behind++;
    // The next reader repairs the log and brings the state up to it.
    const read = hive.readStateSync(dir);
    const repaired = fs.readFileSync(logFile);
    assert.deepEqual(read.document, core.hive.recoverState(repaired, "s1").state, `round ${round}`);
    assert.equal(read.document.metrics.total_events_logged, complete.length);
  }
  t.diagnostic(`${torn} rounds left a torn line, ${behind} a state behind its log`);
  const copies = fs.readdirSync(dir).filter((f) => f.includes(".corrupt-"));
  assert.equal(copies.length, torn, "each torn line kept as a copy");
});
