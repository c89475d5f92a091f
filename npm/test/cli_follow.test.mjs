// Tests of the command line's loop for the commands that go on (lib/cli/follow.cjs, docs/cli.md
// § Commands that go on: `then`) with a stand-in core: real files in temp directories, a fake
// clock (each sleep advances it and runs the writes scheduled by then), so what is delivered
// and when is deterministic. Also: a timer through the real clock and sleep, Ctrl-C on the real `statecore watch`, the
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
const { follow } = require("../lib/cli/follow.cjs");
const { cliPollMs: POLL_MS } = require("../lib/generated/constants.cjs");
const { writeFact } = require("../lib/cli/writes.cjs");
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "statecore.cjs");

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
 * Runs `follow` with the stand-in core `answers` (called with each request and its index) on a
 * fake clock: `at` maps times (ms) to what to do once the clock has passed them. Gives the
 * requests, what was printed, the exit code and the time of each call.
 */
function run(answers, at = {}) {
  let now = 0;
  const due = Object.entries(at)
    .map(([when, action]) => [Number(when), action])
    .sort((a, b) => a[0] - b[0]);
  const requests = [];
  const times = [];
  const printed = [];
  const call = (request) => {
    requests.push(structuredClone(request));
    times.push(now);
    const answer = answers(request, requests.length - 1);
    if (answer === undefined) throw new Error(`no answer for call ${requests.length - 1}`);
    return answer;
  };
  const gather = (need, facts) => {
    facts.files[need.path] = { text: `read at ${now}` };
  };
  const options = {
    clock: () => now,
    sleep: (ms) => {
      assert.ok(ms >= 1 && ms <= POLL_MS, `a sleep of ${ms} ms`);
      assert.ok(now < 60_000, "the loop waited a fake minute: nothing was delivered");
      now += ms;
      while (due.length > 0 && due[0][0] <= now) due.shift()[1]();
    },
    output: (answer) => printed.push(answer.stdout + answer.stderr),
    env: () => ({ now: `fake ${now}` }),
  };
  const code = follow(call, { argv: ["w"], env: { now: "first" }, facts: { files: {}, dirs: {}, writes: {}, env: {} } }, gather, options);
  return { requests, printed, code, times, events: requests.map((r) => r.facts.event ?? null) };
}

/** An answer that prints `text` and goes on with `then`. */
const goOn = (text, then) => ({ stdout: text, stderr: "", code: 0, then });

test("a file written under a watched directory is one event with its path; the state comes back", (t) => {
  const dir = path.join(tempDir(t), "d");
  fs.mkdirSync(dir);
  const r = run(
    (request, i) =>
      i === 0 ? goOn("first\n", { watch: [dir], names: ["a.json"], state: { n: 1 } }) : { stdout: "second\n", stderr: "", code: 3 },
    {
      250: () => {
        write(path.join(dir, "sub", "a.json"), "{}");
        write(path.join(dir, "sub", "other.txt"), "not a name watched");
      },
    },
  );
  assert.equal(r.code, 3);
  assert.deepEqual(r.printed, ["first\n", "second\n"]);
  assert.equal(r.requests.length, 2);
  assert.deepEqual(r.requests[0].facts, { files: {}, dirs: {}, writes: {}, env: {} });
  const second = r.requests[1];
  assert.deepEqual(second.argv, ["w"]);
  assert.deepEqual(second.facts, { files: {}, dirs: {}, writes: {}, env: {}, event: { path: `${dir}/sub/a.json` }, state: { n: 1 } });
  // Seen at the first look after the write, delivered at the next one (quiet for one look).
  assert.ok(r.times[1] > 250 + POLL_MS && r.times[1] <= 250 + 2 * POLL_MS, `delivered at ${r.times[1]}`);
  assert.equal(second.env.now, `fake ${r.times[1]}`);
});

test("a burst of writes within the quiet window is one event; the state key only when given", (t) => {
  const file = path.join(tempDir(t), "f.json");
  write(file, "0");
  const r = run(
    (request, i) =>
      [
        goOn("", { watch: [file] }),
        goOn("", { watch: [file], timers: [{ name: "end", after_ms: 1000 }] }),
        { stdout: "", stderr: "", code: 0 },
      ][i],
    { 150: () => write(file, "11"), 250: () => write(file, "222"), 350: () => write(file, "3333") },
  );
  assert.deepEqual(r.events, [null, { path: file }, { timer: "end" }]);
  assert.ok(!("state" in r.requests[1].facts));
  assert.ok(r.times[1] > 350 + POLL_MS, `delivered at ${r.times[1]}, during the burst`);
});

test("a removed file is an event, watched by its path or under a directory, one per call in byte order", (t) => {
  const root = tempDir(t);
  const file = path.join(root, "f.json");
  const inDir = path.join(root, "d", "x.json");
  write(file, "{}");
  write(inDir, "{}");
  const watch = [file, path.join(root, "d")];
  const r = run((request, i) => (i < 2 ? goOn(`${i}\n`, { watch, state: i }) : { stdout: "end\n", stderr: "", code: 1 }), {
    150: () => {
      fs.rmSync(file);
      fs.rmSync(inDir);
    },
  });
  assert.equal(r.code, 1);
  assert.deepEqual(r.events, [null, { path: inDir }, { path: file }]);
  assert.deepEqual(
    r.requests.map((q) => q.facts.state),
    [undefined, 0, 1],
  );
});

test("a due timer comes first (ties in arming order), then the changed files in byte order, one per call", (t) => {
  const dir = tempDir(t);
  // UTF-16 puts U+1F600 (D83D DE00) before U+FF21; UTF-8 bytes put U+FF21 (EF BC A1) first.
  const names = ["b", "a", "\u{1F600}", "\uFF21"];
  const then = { watch: [`${dir}/`] };
  const r = run(
    (request, i) =>
      i === 0
        ? goOn("", { ...then, timers: [{ name: "x", after_ms: 300 }, { name: "y", after_ms: 300 }] })
        : i < 6
          ? goOn("", then)
          : { stdout: "", stderr: "", code: 0 },
    { 150: () => names.forEach((name) => write(path.join(dir, name), name)) },
  );
  assert.deepEqual(r.events, [
    null,
    { timer: "x" },
    { timer: "y" },
    { path: `${dir}/a` },
    { path: `${dir}/b` },
    { path: `${dir}/\uFF21` },
    { path: `${dir}/\u{1F600}` },
  ]);
  assert.equal(r.times[1], 300);
});

test("a command's own writes come back; a file that appeared while another was delivered is still seen", (t) => {
  const dir = tempDir(t);
  const a = path.join(dir, "a.json");
  const b = path.join(dir, "b.json");
  const then = { watch: [dir], names: ["a.json", "b.json"] };
  const r = run(
    (request, i) => {
      if (i === 1) write(a, "written by the command itself");
      return i < 3 ? goOn("", then) : { stdout: "", stderr: "", code: 0 };
    },
    { 150: () => write(a, "1"), 250: () => write(b, "1") },
  );
  // a: quiet at 300 (delivered); b: first seen at 300, not yet quiet, so still a change after
  // the answer that watches the same directory; then the command's own write to a.
  assert.deepEqual(r.events, [null, { path: a }, { path: a }, { path: b }]);
});

test("the next answer's watch replaces the watched paths; a path watched anew is taken as it is", (t) => {
  const root = tempDir(t);
  const f = path.join(root, "f.json");
  const g = path.join(root, "g.json");
  write(f, "f");
  write(g, "g");
  const r = run(
    (request, i) => [goOn("", { watch: [f] }), goOn("", { watch: [g] }), { stdout: "", stderr: "", code: 0 }][i],
    { 90: () => write(g, "g changed before it is watched"), 150: () => write(f, "f2"), 450: () => write(f, "f3"), 650: () => write(g, "g2") },
  );
  assert.deepEqual(r.events, [null, { path: f }, { path: g }]);
  assert.ok(r.times[2] > 650, `g delivered at ${r.times[2]}`);
});

test("a watched directory that does not exist yet is listed once it does", (t) => {
  const later = path.join(tempDir(t), "later");
  const r = run((request, i) => [goOn("", { watch: [later] }), { stdout: "", stderr: "", code: 0 }][i], {
    150: () => write(path.join(later, "sub", "x.json"), "{}"),
  });
  assert.deepEqual(r.events, [null, { path: `${later}/sub/x.json` }]);
});

test("nothing to wait for: the answer's code at once", () => {
  for (const then of [undefined, {}, { watch: [] }, { state: 1, timers: [] }]) {
    const r = run(() => ({ stdout: "out", stderr: "err", code: 4, then }));
    assert.equal(r.code, 4);
    assert.deepEqual(r.printed, ["outerr"]);
    assert.equal(r.requests.length, 1);
  }
});

test("an event's call gathers its needs anew; a refused request ends with code 2", (t) => {
  const file = path.join(tempDir(t), "f.json");
  const r = run(
    (request, i) => {
      if (i === 0) return goOn("", { watch: [file] });
      if (i === 1) return { needs: [{ op: "read", path: "x" }] };
      if (i === 2) return goOn("", { watch: [file] });
      throw Object.assign(new Error("no"), { code: "E_TEST" });
    },
    { 150: () => write(file, "1"), 450: () => write(file, "2") },
  );
  assert.deepEqual(r.requests[1].facts.files, {});
  assert.deepEqual(Object.keys(r.requests[2].facts.files), ["x"]);
  assert.deepEqual(r.requests[2].facts.event, { path: file });
  assert.equal(r.code, 2);
  assert.equal(r.printed.at(-1), "statecore: E_TEST: no\n");
});

test("a timer is delivered at its due time, not before; the real clock and sleep deliver one too", (t) => {
  // When: on the fake clock (a file watched, so the loop looks every POLL_MS), exactly at the
  // delay, what the wall clock would only show loosely.
  const file = path.join(tempDir(t), "quiet.json");
  const first = goOn("", { watch: [file], timers: [{ name: "t", after_ms: 200 }], state: "s" });
  const r = run((request, i) => [first, { stdout: "", stderr: "", code: 5 }][i]);
  assert.equal(r.code, 5);
  assert.deepEqual(r.events, [null, { timer: "t" }]);
  assert.equal(r.requests[1].facts.state, "s");
  assert.equal(r.times[1], 200);
  // The same timer through the host's own clock and sleep, nothing watched.
  const answers = [goOn("", { timers: [{ name: "t", after_ms: 200 }], state: "s" }), { stdout: "", stderr: "", code: 5 }];
  const requests = [];
  const call = (request) => answers[requests.push(request) - 1];
  const code = follow(call, { argv: [], env: {}, facts: {} }, () => {}, { output: () => {} });
  assert.equal(code, 5);
  assert.deepEqual(requests[1].facts.event, { timer: "t" });
  assert.equal(requests[1].facts.state, "s");
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

test("a write fact gives the update's operation result back (a Hivemind outcome)", (t) => {
  const file = path.join(tempDir(t), "workspace", "state.json");
  fs.mkdirSync(path.dirname(file));
  const fact = writeFact({
    op: "update",
    path: file,
    kind: "hivemind.state",
    change: "hivemind_fire",
    args: ["select_project", "2026-01-19T12:00:00Z", { project: "/p" }],
    timeout_ms: 5000,
  });
  assert.equal(fact.error, undefined);
  assert.equal(fact.changed, true);
  assert.equal(fact.result.state.state, "project_selected");
  assert.deepEqual(fact.result.notifications, [{ agent: "lead", message: "[HIVEMIND] Project selected. Waiting for the task." }]);
  assert.ok(!("item" in fact));
});
