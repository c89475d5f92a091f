// Tests of the command line's host for the commands that go on (lib/cli/run.cjs `drive`,
// lib/cli/follow.cjs, docs/cli.md § Commands that go on: `then`): the real command line's job,
// driven with real files in temp directories and a fake clock (each sleep advances it and runs
// the writes scheduled by then), so what is delivered and when is deterministic. Which event
// comes next and when is the core's (tests/conformance/cli/wait.json, job.json); these check
// that the host's looks, sleeps and new environments give the job what it decides on. Also:
// the watched files' records, a refused request, Ctrl-C on the real `statecore watch`, the
// offset from UTC in other time zones, and a write fact's `result`. Python's twin is
// python/tests/test_cli_follow.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { look } = require("../lib/cli/follow.cjs");
const { drive, readFact, listFact } = require("../lib/cli/run.cjs");
const { cliJob } = require("../lib/generated/core-node.cjs");
const { cliPollMs: POLL_MS } = require("../lib/generated/constants.cjs");
const { lockedWrite } = require("../lib/cli/locked-write.cjs");
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "statecore.cjs");

const VALID = '{\n  "specVersion": "1.2"\n}\n';

/** A fresh temp directory, removed after the test. */
function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-follow-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `text` to `file`, making its directories. */
function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * The command line `argv` run as the core's job by `drive` on a fake clock: `at` maps times
 * (ms) to what to do once the clock has passed them. Gives what was printed (`[time, text]`,
 * the last step's output last),
 * the times a new environment was asked for, and the last step.
 */
function run(argv, at = {}) {
  let now = 0;
  const due = Object.entries(at)
    .map(([when, action]) => [Number(when), action])
    .sort((a, b) => a[0] - b[0]);
  const printed = [];
  const envs = [];
  const print = (step) => printed.push([now, step.stdout + step.stderr]);
  const act = {
    gather(need, facts) {
      if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit, need.offset);
      else if (need.op === "list") facts.dirs[need.path] = listFact(need.path, need.names ?? [], need.dirs ?? 0);
      else if (need.op === "env") facts.env[need.path] = null;
      else throw new Error(`a need this test does not gather: ${need.op}`);
    },
    partial: (step) => (step.stdout || step.stderr ? print(step) : undefined),
    print,
    look,
    sleep(ms) {
      assert.ok(ms >= 1 && ms <= POLL_MS, `a sleep of ${ms} ms`);
      assert.ok(now < 60_000, "the loop waited a fake minute: nothing was delivered");
      now += ms;
      while (due.length > 0 && due[0][0] <= now) due.shift()[1]();
    },
    clock: () => now,
    env() {
      envs.push(now);
      return { now: "2026-01-01T00:00:00Z", utc_offset: 0 };
    },
  };
  const request = { argv, env: { now: "2026-01-01T00:00:00Z", utc_offset: 0 } };
  const last = drive(() => cliJob("statecore", request), act, "statecore");
  print(last); // the last step's output, as the command prints it
  return { printed, envs, last };
}

test("a file written under a watched directory is one change, delivered after a quiet look", (t) => {
  const dir = path.join(tempDir(t), "d");
  const state = path.join(dir, ".fctry", "state.json");
  write(state, VALID);
  const r = run(["watch", dir, "--count", "1"], {
    250: () => {
      write(state, '{"specVersion": 2}');
      write(path.join(dir, "notes.txt"), "not watched");
    },
  });
  assert.equal(r.last.code, 1);
  assert.equal(r.printed.length, 2);
  assert.deepEqual(r.printed[0], [0, `${state}: valid (fctry.state)\n`]);
  const [t1, second] = r.printed[1];
  assert.match(second, /E_TYPE/);
  assert.ok(second.endsWith(`00:00:00 ${state}: invalid (fctry.state): 1 error\n`), second);
  // Seen at the first look after the write, delivered at the next (quiet for one look).
  assert.ok(t1 > 250 + POLL_MS && t1 <= 250 + 2 * POLL_MS, `delivered at ${t1}`);
  assert.deepEqual(r.envs, [t1]);
});

test("a burst of writes within the quiet window is one change", (t) => {
  const state = path.join(tempDir(t), "state.json");
  write(state, VALID);
  const bad = '{"specVersion": 3}';
  const r = run(["watch", state, "--kind", "fctry.state", "--count", "2"], {
    150: () => write(state, bad),
    250: () => write(state, `${bad} `),
    350: () => write(state, VALID),
    1000: () => write(state, bad),
  });
  assert.equal(r.printed.length, 3);
  assert.ok(r.printed[1][0] > 350 + POLL_MS, `delivered at ${r.printed[1][0]}, during the burst`);
  assert.ok(r.printed[1][1].endsWith("valid (fctry.state)\n"));
  assert.equal(r.last.code, 1);
});

test("a removed file is a change, printed as removed", (t) => {
  const state = path.join(tempDir(t), "state.json");
  write(state, VALID);
  const r = run(["watch", state, "--kind", "fctry.state", "--count", "1"], { 150: () => fs.unlinkSync(state) });
  assert.match(r.printed[1][1], /removed/);
  assert.ok(r.printed[1][0] > 150);
});

test("a request the core refuses ends with code 2 and its message", () => {
  const last = drive(() => cliJob("statecore", { argv: ["validate"], facts: { file: {} } }), {}, "statecore");
  assert.equal(last.code, 2);
  assert.ok(last.stderr.startsWith('statecore: E_OPTIONS: unknown command line request option "file"'), last.stderr);
});

test("the watched files' records", (t) => {
  const root = tempDir(t);
  const dir = path.join(root, "d");
  write(path.join(dir, "sub", "a.json"), "{}");
  write(path.join(dir, "sub", "b.txt"), "x");
  const missing = path.join(root, "missing.json");
  const seen = look([dir, missing], ["a.json"]);
  assert.deepEqual(Object.keys(seen).sort(), [`${dir}/sub/a.json`, missing].sort());
  assert.equal(seen[missing], null);
  const stat = fs.statSync(path.join(dir, "sub", "a.json"), { bigint: true });
  assert.equal(seen[`${dir}/sub/a.json`], `${stat.mtimeNs}:${stat.size}:${stat.ino}`);
  // Every file when no names are given; a directory that appears later is listed then.
  const later = path.join(root, "later");
  assert.deepEqual(look([later], null), { [later]: null });
  write(path.join(later, "x.bin"), "1");
  assert.deepEqual(Object.keys(look([later], null)), [`${later}/x.bin`]);
});

test("a command that does not go on is one done", () => {
  for (const argv of [["version"], ["kinds"]]) {
    const r = run(argv);
    assert.equal(r.last.code, 0);
    assert.equal(r.printed.length, 1);
    assert.ok(r.printed[0][1].length > 0);
    assert.deepEqual(r.envs, []);
  }
});

test("Ctrl-C while statecore watch waits: status 130, nothing more printed", async (t) => {
  const dir = tempDir(t);
  write(path.join(dir, ".fctry", "state.json"), '{\n  "specVersion": "1.2"\n}\n');
  const child = spawn(process.execPath, [bin, "watch", ".fctry/state.json"], { cwd: dir, env: { ...process.env, TZ: "UTC" } });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (text) => (out += text));
  child.stderr.setEncoding("utf8").on("data", (text) => (out += text));
  const closed = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 10_000;
  while (out === "" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(out, ".fctry/state.json: valid (fctry.state)\n");
  child.kill("SIGINT");
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 10_000, { code: "no exit within 10 s" })));
  const { code, signal } = await Promise.race([closed, timeout]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  // Node's default for SIGINT: the process ends by the signal, which a shell reports as 130.
  assert.ok(code === 130 || signal === "SIGINT", `code ${code}, signal ${signal}`);
  assert.equal(out, ".fctry/state.json: valid (fctry.state)\n");
});

test("env.utc_offset: minutes east of UTC at now, in the process's time zone", () => {
  const script = `const { utcOffset } = require(${JSON.stringify(require.resolve("../lib/cli/follow.cjs"))});
    process.stdout.write(JSON.stringify(process.argv.slice(1).map(utcOffset)));`;
  const at = (tz, ...nows) => JSON.parse(execFileSync(process.execPath, ["-e", script, ...nows], { env: { ...process.env, TZ: tz } }));
  assert.deepEqual(at("America/New_York", "2026-01-19T12:00:00Z", "2026-07-19T12:00:00.123Z", "2026-03-08T06:59:59Z", "2026-03-08T07:00:00Z"), [
    -300, -240, -300, -240,
  ]);
  // An offset in the time given; epoch milliseconds.
  assert.deepEqual(at("America/New_York", "2026-03-08T02:30:00-05:00", "1784462400000"), [-240, -240]);
  assert.deepEqual(at("Asia/Kolkata", "2026-01-19T12:00:00Z"), [330]);
  // Not a time (or one that does not exist): the offset now.
  assert.deepEqual(at("UTC", "yesterday", "2026-13-01T00:00:00Z"), [0, 0]);
  assert.deepEqual(at("Asia/Kolkata", "yesterday"), [330]);
});

/** Runs the command line's job for `argv` in `cwd` on this host's performers: its last step. */
function runJob(argv, cwd) {
  const act = {
    gather(need, facts) {
      if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit, need.offset);
      else if (need.op === "list") facts.dirs[need.path] = listFact(need.path, need.names ?? [], need.dirs ?? 0);
      else assert.fail(`an update's command gathers no ${need.op}`);
    },
    print: () => assert.fail("an update's command does not go on"),
    clock: () => performance.now(),
    system: lockedWrite(),
  };
  const env = { now: "2026-01-19T12:00:00Z", cwd, platform: process.platform };
  return drive(() => cliJob("statecore", { argv, env }), act, "statecore");
}

test("the job's locked update gives the operation's result (a Hivemind outcome) and leaves no lock", (t) => {
  const root = tempDir(t);
  fs.mkdirSync(path.join(root, "workspace"));
  const last = runJob(["hivemind", "fire", "select_project", "--project", "/p"], root);
  assert.equal(last.stderr, "");
  assert.equal(last.code, 0);
  assert.equal(last.stdout, "idle → project_selected (select_project)\n  notify lead: [HIVEMIND] Project selected. Waiting for the task.\n");
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, "workspace", "state.json"), "utf8")).state, "project_selected");
  assert.deepEqual(fs.readdirSync(path.join(root, "workspace")), ["state.json"]);
});

test("the job's locked update reports a FIFO where the file was as E_FILE_TYPE, never waits on it, and releases the lock", (t) => {
  const root = tempDir(t);
  execFileSync("mkfifo", [path.join(root, "a.json")]);
  const last = runJob(["update", "a.json", "--kind", "json", "--set", "/n=1"], root);
  assert.equal(last.code, 2);
  assert.match(last.stderr, /^a\.json: error E_FILE_TYPE: .*a\.json is a fifo, not a regular file/);
  assert.deepEqual(fs.readdirSync(root), ["a.json"]);
});
