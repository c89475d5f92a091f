// Tests of the I/O of `watchWorkspace` (npm/lib/host/hivemind.cjs) around a reaction: what it does
// when the lock of state.json is held by someone else, and with trigger files that are not
// regular files. Real files, the real chokidar and real timers; every wait is for an outcome,
// bounded.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const H = require("../lib/host/hivemind.cjs");
const { acquireLockSync } = require("../lib/host/host.cjs");

const WAIT_MS = 20_000;

/**
 * A project in `planning` watched with `debounceMs: 0` (closed and removed after the test);
 * `until(predicate, label, from)` resolves with the first recorded handler call (`[type,
 * ...args]`) at or after index `from` that matches, and rejects on another `onError` call there
 * or after WAIT_MS.
 */
async function planning(t, options = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hivemind-io-"));
  H.fireSync(dir, "select_project");
  H.fireSync(dir, "give_task");
  const calls = [];
  const waiters = new Set();
  const push = (...call) => {
    calls.push(call);
    for (const w of waiters) w();
  };
  const watcher = H.watchWorkspace(
    dir,
    {
      onStateChanged: (state) => push("state", state.state),
      onIgnored: (where, reason) => push("ignored", where, reason),
      onError: (error) => push("error", error),
    },
    { debounceMs: 0, ...options },
  );
  t.after(async () => {
    await watcher.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await watcher.ready;
  const until = (predicate, label, from = 0) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(reject, new Error(`timed out waiting for ${label}; calls: ${JSON.stringify(calls)}`)), WAIT_MS);
      const finish = (settle, value) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle(value);
      };
      const check = () => {
        const found = calls.slice(from).find(predicate);
        if (found) return finish(resolve, found);
        const error = calls.slice(from).find((c) => c[0] === "error");
        if (error) finish(reject, error[1]);
      };
      waiters.add(check);
      check();
    });
  const write = (rel, content) => fs.writeFileSync(path.join(dir, "workspace", rel), content);
  return { dir, watcher, calls, until, write };
}

test("a trigger while another holds the lock of state.json: the reaction waits for it without blocking the event loop", async (t) => {
  // A lock timeout longer than the wait for the outcome: a reaction that blocked the event
  // loop while it waits would keep this process's timers (the release below) from running.
  const p = await planning(t, { timeout: 30_000 });
  const held = acquireLockSync(H.statePath(p.dir));
  let released = false;
  t.after(() => released || held.release());
  const reacted = p.until((c) => c[0] === "state" && c[1] === "plan_review", "plan_review after the release");
  p.write("plan.md", "# Plan\n\nCheckpoints: 2\n");
  // The lock is released by a timer of this process once it has run 20 times: no reaction
  // happens (state.json is not written, nothing reported) until then.
  const seenHeld = await new Promise((resolve) => {
    let ticks = 0;
    const ticker = setInterval(() => {
      if (++ticks < 20) return;
      clearInterval(ticker);
      const seen = { state: JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, calls: [...p.calls] };
      held.release();
      released = true;
      resolve(seen);
    }, 5);
  });
  assert.deepEqual(seenHeld, { state: "planning", calls: [] }, "no reaction under another's lock");
  await reacted;
  assert.equal(JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, "plan_review");
});

test("a lock held past the watcher's timeout gives E_LOCK_TIMEOUT to onError, and the watcher goes on", async (t) => {
  const p = await planning(t, { timeout: 200 });
  const held = acquireLockSync(H.statePath(p.dir));
  let released = false;
  t.after(() => released || held.release());
  p.write("plan.md", "Checkpoints: 2");
  const [, error] = await p.until((c) => c[0] === "error", "E_LOCK_TIMEOUT");
  assert.equal(error.code, "E_LOCK_TIMEOUT", String(error));
  assert.equal(JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, "planning", "nothing written");
  held.release();
  released = true;
  const from = p.calls.length;
  p.write("plan-feedback.md", "x"); // planning: triggers nothing, but is reacted to
  await p.until((c) => c[0] === "ignored" && c[1] === "workspace/plan-feedback.md", "the next trigger", from);
  assert.equal(p.calls.filter((c) => c[0] === "error").length, 1, JSON.stringify(p.calls));
  assert.equal(JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, "planning");
});

test("a trigger that is a FIFO is read as unreadable (null), without blocking the watcher", { skip: process.platform === "win32" }, async (t) => {
  const p = await planning(t);
  const fifo = path.join(p.dir, "workspace", "pipe.md");
  execFileSync("mkfifo", [fifo]);
  try {
    await p.until((c) => c[0] === "ignored" && c[1] === "workspace/pipe.md", "the FIFO's reaction");
    p.write("plan.md", "Checkpoints: 2");
    await p.until((c) => c[0] === "state" && c[1] === "plan_review", "the next trigger's reaction");
  } finally {
    // A reader blocked on the FIFO (the failure this test catches) is let go by a writer, so
    // that the watcher can close.
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // no reader: nothing to let go
    }
  }
});

test("a reaction's two flushes (the temp file, the directory) run on the thread pool, never blocking the event loop", async (t) => {
  const p = await planning(t);
  const calls = { fsyncSync: 0, fsync: 0 };
  const real = { fsyncSync: fs.fsyncSync, fsync: fs.fsync };
  fs.fsyncSync = (...args) => (calls.fsyncSync++, real.fsyncSync(...args));
  fs.fsync = (...args) => (calls.fsync++, real.fsync(...args));
  try {
    p.write("plan.md", "Checkpoints: 2");
    await p.until((c) => c[0] === "state" && c[1] === "plan_review", "plan_review");
  } finally {
    Object.assign(fs, real);
  }
  assert.deepEqual(calls, { fsyncSync: 0, fsync: 2 }, "state.json replaced with two flushes, both asynchronous");
  assert.equal(JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, "plan_review");
});

test("a flush that fails in a reaction: state.json untouched, no temp file left, the lock released, the error to onError", async (t) => {
  const { setFaultInjector } = require("../lib/host/atomic.cjs");
  const p = await planning(t);
  const workspace = path.join(p.dir, "workspace");
  const before = fs.readFileSync(H.statePath(p.dir));
  setFaultInjector((step) => {
    if (step !== "fsync") return;
    throw Object.assign(new Error("EIO: i/o error (injected), fsync"), { code: "EIO" });
  });
  try {
    p.write("plan.md", "Checkpoints: 2");
    const [, error] = await p.until((c) => c[0] === "error", "the injected EIO");
    assert.equal(error.code, "EIO", String(error));
  } finally {
    setFaultInjector(null);
  }
  assert.deepEqual(fs.readFileSync(H.statePath(p.dir)), before, "state.json untouched");
  assert.deepEqual(fs.readdirSync(workspace).sort(), ["plan.md", "state.json"], "no temp or lock file left");
  // The lock was released (no lock file above) and the watcher goes on: its next reaction writes.
  const outcome = await p.watcher.fire("pause");
  assert.equal(outcome.state.state, "paused");
  assert.equal(JSON.parse(fs.readFileSync(H.statePath(p.dir), "utf8")).state, "paused");
});

test("a trigger rewritten right after its reaction (a change chokidar drops within 50 ms of the last) is still reacted to", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hivemind-io-"));
  fs.mkdirSync(path.join(dir, "workspace"));
  fs.writeFileSync(path.join(dir, "workspace", "plan.md"), "draft"); // there before the watcher
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  H.fireSync(dir, "select_project");
  H.fireSync(dir, "give_task");
  const states = [];
  let wake = () => {};
  const watcher = H.watchWorkspace(
    dir,
    {
      onStateChanged: (state) => {
        states.push([state.state, state.total_checkpoints]);
        wake();
      },
      onError: (error) => states.push(["error", String(error)]),
    },
    { debounceMs: 0 },
  );
  t.after(() => watcher.close());
  await watcher.ready;
  const reached = (n) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; states: ${JSON.stringify(states)}`)), WAIT_MS);
      wake = () => states.length >= n && (clearTimeout(timer), resolve());
      wake();
    });
  const write = (rel, content) => fs.writeFileSync(path.join(dir, "workspace", rel), content);
  write("plan.md", "Checkpoints: 2"); // a change of plan.md
  await reached(1);
  write("plan-feedback.md", "Split it.");
  await reached(2);
  write("plan.md", "Checkpoints: 3"); // the next change of plan.md, a few ms after the last
  await reached(3);
  assert.deepEqual(states, [["plan_review", 2], ["plan_revision", 2], ["plan_review", 3]]);
});

test("a trigger removed right after its reaction is not reacted to again (a removal is no trigger)", async (t) => {
  const p = await planning(t);
  const notes = path.join(p.dir, "workspace", "notes.md");
  p.write("notes.md", "n");
  await p.until((c) => c[0] === "ignored" && c[1] === "workspace/notes.md", "notes.md");
  fs.unlinkSync(notes);
  // A negative check needs a fixed wait: longer than the look at the file again (150 ms).
  await new Promise((resolve) => setTimeout(resolve, 600));
  p.write("sentinel.md", "s");
  await p.until((c) => c[0] === "ignored" && c[1] === "workspace/sentinel.md", "sentinel.md");
  assert.deepEqual(
    p.calls.map((c) => c[1]),
    ["workspace/notes.md", "workspace/sentinel.md"],
    "one reaction to notes.md",
  );
});
