// Adversarial: a hive session met by other writers and damaged files (issue 35, items 2–4;
// docs/hive.md § Files). One session, one lock: a generic append to a session's log is the
// session's step; a state whose offset falls inside a line is rebuilt, never wedged; a
// refused record is reported as a reader's problem and set aside by a repair; a missing log
// is its own error and failing reads copy nothing; every line carries its own event id, so
// the live fold and the replay agree. python/tests/test_hive_wedge.py is its twin.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PYTHON, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const hive = require("../lib/host/hive.cjs");
const host = require("../lib/host/host.cjs");
const core = require("../lib/generated/core-node.cjs");

const at = (m) => `2026-11-24T10:${String(m).padStart(2, "0")}:00Z`;

function session(t) {
  const root = tempDir(t);
  hive.createSessionDirSync(root, "s1", "research", { now: at(0) });
  const dir = path.join(root, "s1");
  hive.planWorkersSync(dir, [{ name: "alpha", task: "read" }], "one", { now: at(1) });
  hive.spawnWorkerSync(dir, "alpha", { now: at(2) });
  return { root, dir, state: path.join(dir, "STATE.json"), log: path.join(dir, "EVENTS.jsonl") };
}

const recovered = (log) => core.hive.recoverState(fs.readFileSync(log), "s1").state;
const copies = (dir) => fs.readdirSync(dir).filter((f) => f.includes(".corrupt-"));
const note = (m) => ({ timestamp: at(m), type: "note", agent: "queen", details: "checked" });

test("an outside append between a step's read and its append: the next read repairs the offset", (t) => {
  const { dir, state, log } = session(t);
  const before = fs.readFileSync(log);
  hive.heartbeatSync(dir, "alpha", { now: at(3) });
  const stepLine = fs.readFileSync(log).subarray(before.length);
  // The other writer's line landed first: the state's log_offset now falls inside a line.
  const outside = Buffer.from(`${JSON.stringify(note(3))}\n`);
  fs.writeFileSync(log, Buffer.concat([before, outside, stepLine]));
  const offset = JSON.parse(fs.readFileSync(state, "utf8")).session_metadata.log_offset;
  assert.notEqual(fs.readFileSync(log)[offset - 1], 0x0a, "the offset is inside a line");
  for (let round = 0; round < 2; round++) {
    const read = hive.readStateSync(dir);
    assert.deepEqual(read.document, recovered(log));
    assert.equal(read.document.metrics.total_events_logged, 5);
  }
  assert.deepEqual(copies(dir), []);
  const out = hive.heartbeatSync(dir, "alpha", { now: at(4) });
  assert.equal(out.document.metrics.total_events_logged, 6);
  assert.deepEqual(out.document, recovered(log));
});

test("a generic append to a session's log takes the session's lock and is the session's step", async (t) => {
  const { dir, state, log } = session(t);
  const out = host.appendLineSync(log, note(3));
  assert.deepEqual(out.warnings, []);
  const read = hive.readStateSync(dir);
  assert.equal(read.changed, false, "the state was written with the line");
  assert.equal(read.document.metrics.total_events_logged, 4);
  assert.deepEqual(read.document, recovered(log));
  // The lock it waits for is STATE.json's, the one every step takes.
  const held = host.acquireLockSync(state, 1000);
  try {
    assert.throws(() => host.appendLineSync(log, note(4), { timeout: 200 }), (e) => e.code === "E_LOCK_TIMEOUT");
  } finally {
    held.release();
  }
});

test("a record that is not a hive.event is refused by the append; the session goes on", (t) => {
  const { dir, log } = session(t);
  const before = fs.readFileSync(log);
  // The README's old example.
  assert.throws(() => host.appendLineSync(log, { type: "note" }), (e) => e.code === "E_INVALID");
  assert.deepEqual(fs.readFileSync(log), before);
  assert.equal(hive.heartbeatSync(dir, "alpha", { now: at(3) }).document.metrics.total_events_logged, 4);
});

test("a refused record written by another tool: a reader's error with the file's line; repair sets it aside", (t) => {
  const { dir, log } = session(t);
  const whole = fs.readFileSync(log);
  fs.appendFileSync(log, '{"type": "note"}\n');
  for (const call of [() => hive.readStateSync(dir), () => hive.heartbeatSync(dir, "alpha", { now: at(3) })]) {
    assert.throws(call, (e) => {
      assert.equal(e.code, "E_INVALID");
      assert.doesNotMatch(e.message, /refused to write/);
      assert.match(e.message, /line 4 of the log/);
      assert.equal(e.details.line, 4, "the file's line, not counted from the state's offset");
      assert.match(e.message, /log repair/);
      return true;
    });
  }
  const repaired = host.repairLogSync(log);
  assert.ok(repaired.corruptCopy.startsWith(`${log}.corrupt-`));
  assert.equal(fs.readFileSync(repaired.corruptCopy, "utf8"), '{"type": "note"}\n');
  assert.deepEqual(repaired.warnings.map((w) => w.code), ["W_SET_ASIDE"]);
  assert.deepEqual(fs.readFileSync(log), whole);
  assert.equal(hive.heartbeatSync(dir, "alpha", { now: at(3) }).document.metrics.total_events_logged, 4);
  assert.equal(host.repairLogSync(log).corruptCopy, null, "nothing left to repair");
});

test("a bad line after the state's offset is named by its line in the file", (t) => {
  const { dir, log } = session(t);
  fs.appendFileSync(log, `${JSON.stringify(note(3))}\noops\n`);
  assert.throws(
    () => hive.readStateSync(dir),
    (e) => e.code === "E_LOG_CORRUPT" && e.details.line === 5 && /line 5 of the log/.test(e.message),
  );
});

test("a missing log is its own error and failing reads copy nothing", (t) => {
  const { root, dir, log } = session(t);
  fs.unlinkSync(log);
  for (let i = 0; i < 21; i++) {
    assert.throws(
      () => hive.readStateSync(dir),
      (e) => e.code === "E_LOG_CORRUPT" && e.details.reason === "log_missing" && /missing/.test(e.message),
    );
    assert.equal(hive.checkSessionsSync(root)[0].error.code, "E_LOG_CORRUPT");
  }
  assert.deepEqual(copies(dir), []);
  // Rotated: a log that starts no session. Every read fails; none copies the state.
  fs.writeFileSync(log, `${JSON.stringify(note(9))}\n`);
  for (let i = 0; i < 5; i++) {
    assert.throws(() => hive.readStateSync(dir), (e) => e.code === "E_NO_SESSION");
  }
  assert.deepEqual(copies(dir), []);
});

test("an unreadable state is copied once, when it is replaced; never by a read that fails", (t) => {
  const { dir, state, log } = session(t);
  fs.writeFileSync(state, "{not json");
  fs.appendFileSync(log, "oops\n");
  for (let i = 0; i < 5; i++) assert.throws(() => hive.readStateSync(dir), (e) => e.code === "E_LOG_CORRUPT");
  assert.deepEqual(copies(dir), []);
  // The repair brings the state up to the log: the state is replaced, so copied (once).
  const repaired = host.repairLogSync(log);
  assert.deepEqual(repaired.warnings.map((w) => w.code), ["W_SET_ASIDE", "W_CORRUPT_COPY"]);
  const kept = copies(dir).filter((f) => f.startsWith("STATE.json"));
  assert.equal(kept.length, 1);
  assert.equal(fs.readFileSync(path.join(dir, kept[0]), "utf8"), "{not json");
  assert.equal(hive.readStateSync(dir).changed, false);
  assert.equal(copies(dir).filter((f) => f.startsWith("STATE.json")).length, 1);
});

test("identical steps (an explicit now) count the same live and replayed: each line has its own id", (t) => {
  const { dir, log } = session(t);
  for (let i = 0; i < 2; i++) hive.heartbeatSync(dir, "alpha", { now: at(3) });
  for (let i = 0; i < 2; i++) hive.applyEventSync(dir, note(4));
  const live = hive.readStateSync(dir).document;
  assert.equal(live.metrics.total_events_logged, 7);
  assert.deepEqual(recovered(log), live);
  const ids = fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l).event_id);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.every((id) => /^[0-9a-f]{24}$/.test(id)));
  // A retried append (the same line twice) is still one event; lines without ids still read.
  const lines = fs.readFileSync(log, "utf8").trim().split("\n");
  const replayed = core.hive.recoverState(Buffer.from(`${[...lines, lines.at(-1)].join("\n")}\n`), "s1");
  assert.equal(replayed.duplicates, 1);
  const plain = lines.map((l) => {
    const { event_id: _, ...rest } = JSON.parse(l);
    return JSON.stringify(rest);
  });
  assert.equal(core.hive.recoverState(Buffer.from(`${plain.join("\n")}\n`), "s1").state.metrics.total_events_logged > 0, true);
});

// The command line: the README's `log append` example, run as written on a session; the old
// example refused; `hive status` and `validate` report a log the state does not agree with.
const { spawnSync } = require("node:child_process");
const bin = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "bin", "statecore.cjs");
const cli = (cwd, ...argv) => spawnSync(process.execPath, [bin, ...argv], { cwd, encoding: "utf8" });

test("the README's log append example appends an event under the session's lock", (t) => {
  const { root, dir, log } = session(t);
  fs.mkdirSync(path.join(root, "sessions"));
  fs.renameSync(dir, path.join(root, "sessions", "s1"));
  const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const [, record] = readme.match(/statecore log append sessions\/s1\/EVENTS\.jsonl \\\n\s+'([^']+)'/);
  const appended = cli(root, "log", "append", "sessions/s1/EVENTS.jsonl", record);
  assert.equal(appended.status, 0, appended.stderr);
  const state = hive.readStateSync(path.join(root, "sessions", "s1"));
  assert.equal(state.changed, false);
  assert.equal(state.document.metrics.total_events_logged, 4);
  const old = cli(root, "log", "append", "sessions/s1/EVENTS.jsonl", '{"type": "note"}');
  assert.notEqual(old.status, 0);
  assert.match(old.stderr + old.stdout, /E_INVALID|hive\.event/);
  assert.equal(cli(root, "hive", "status", "sessions/s1", "--heartbeat-ms", "1000000000000").status, 0);
  void log;
});

test("hive status and validate report a log the state does not agree with", (t) => {
  const { dir, log } = session(t);
  fs.appendFileSync(log, '{"type": "note"}\n');
  const status = cli(dir, "hive", "status", "--heartbeat-ms", "1000000000000");
  assert.equal(status.status, 1);
  assert.doesNotMatch(status.stdout, /health: ok/);
  assert.match(status.stdout, /the log does not replay/);
  const checked = cli(dir, "validate", ".");
  assert.equal(checked.status, 1);
  assert.match(checked.stdout + checked.stderr, /EVENTS\.jsonl:4:/);
  // An offset inside a line (another writer's line got in): the two files disagree.
  host.repairLogSync(log);
  const before = fs.readFileSync(log);
  hive.heartbeatSync(dir, "alpha", { now: at(3) });
  const stepLine = fs.readFileSync(log).subarray(before.length);
  fs.writeFileSync(log, Buffer.concat([before, Buffer.from(`${JSON.stringify(note(3))}\n`), stepLine]));
  const inside = cli(dir, "validate", ".");
  assert.equal(inside.status, 1);
  assert.match(inside.stdout + inside.stderr, /disagree/);
  assert.match(cli(dir, "hive", "status", "--heartbeat-ms", "1000000000000").stdout, /inside a line/);
  hive.readStateSync(dir);
  assert.equal(cli(dir, "validate", ".").status, 0);
});

// Many writers at once, both languages: generic appends of notes to the session's log race
// the session's steps. One session, one lock: no line lost or torn, the state is the replay.
test("generic appends racing steps, Node and Python: every line once, the state is the replay", async (t) => {
  const { dir, log } = session(t);
  const rounds = 25;
  const lib = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "lib");
  const nodeScript = (what) => `
    const host = require(${JSON.stringify(path.join(lib, "host", "host.cjs"))});
    const hive = require(${JSON.stringify(path.join(lib, "host", "hive.cjs"))});
    for (let i = 0; i < ${rounds}; i++) {
      if (${JSON.stringify(what)} === "append") host.appendLineSync(${JSON.stringify(log)}, { timestamp: "2026-11-24T10:05:00Z", type: "note", agent: "node", details: { i } }, { timeout: 60000 });
      else hive.heartbeatSync(${JSON.stringify(dir)}, "alpha", { now: "2026-11-24T10:06:00Z", timeout: 60000 });
    }`;
  const pyScript = (what) => `
from statecore import hive, host
for i in range(${rounds}):
    if ${JSON.stringify(what)} == "append":
        host.append_line(${JSON.stringify(log)}, {"timestamp": "2026-11-24T10:05:00Z", "type": "note", "agent": "py", "details": {"i": i}}, timeout=60)
    else:
        hive.heartbeat(${JSON.stringify(dir)}, "alpha", "2026-11-24T10:06:00Z", timeout=60)
`;
  const { spawn } = require("node:child_process");
  const run = (command, args) =>
    new Promise((resolve) => {
      const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.on("close", (code) => resolve({ code, err }));
    });
  const before = fs.readFileSync(log, "utf8").trim().split("\n").length;
  const results = await Promise.all([
    run(process.execPath, ["-e", nodeScript("append")]),
    run(process.execPath, ["-e", nodeScript("step")]),
    run(PYTHON, ["-c", pyScript("append")]),
    run(PYTHON, ["-c", pyScript("step")]),
  ]);
  for (const r of results) assert.equal(r.code, 0, r.err);
  const lines = fs.readFileSync(log, "utf8").split("\n");
  assert.equal(lines.pop(), "", "the log ends with a line break");
  assert.equal(lines.length, before + 4 * rounds);
  const ids = lines.slice(before).map((l) => JSON.parse(l).event_id);
  assert.equal(new Set(ids).size, ids.length, "every line once, each with its own id");
  const read = hive.readStateSync(dir);
  assert.equal(read.changed, false, "every append was written with its state");
  assert.deepEqual(read.document, recovered(log));
  assert.equal(read.document.metrics.total_events_logged, before + 4 * rounds);
});
