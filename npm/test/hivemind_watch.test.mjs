// Tests of `statecore-js/hivemind` (npm/lib/host/hivemind.cjs): the state-file helpers and the
// workspace watcher, on real files in temp directories with the real chokidar and real timers.
// Every wait is for a handler call (bounded, failing with the state on disk); the only fixed
// waits are the ones proving that something does NOT happen (after close()).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { NPM, sleep } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const H = require("../lib/host/hivemind.cjs");
const sc = require("../lib/node.cjs");
const { hivemind, serialize } = sc;

const T0 = Date.parse("2026-01-23T10:30:00Z");
const WAIT_MS = 20_000;

// The seed's three context messages (the checkpoint_review one is followed by the Decision help).
const SEED = {
  plan_review:
    "[HIVEMIND] Plan submitted. Please review workspace/plan.md and write either plan-approved.md or plan-feedback.md",
  executing: "[HIVEMIND] Plan approved. Begin implementation. Write to checkpoint.md when you reach a checkpoint.",
  checkpoint_review:
    "[HIVEMIND] Checkpoint reached. Please review the work and write checkpoint-approved.md or checkpoint-issues.md",
};
const ALL = ["lead", "reviewer", "worker1", "worker2"];

/** A fresh project dir; its watchers are closed before it is removed. */
function project(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hivemind-"));
  const watchers = [];
  t.after(async () => {
    for (const w of watchers) await w.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, watchers };
}

const onDisk = (dir) => JSON.parse(fs.readFileSync(H.statePath(dir), "utf8"));
const diskText = (dir) => (fs.existsSync(H.statePath(dir)) ? fs.readFileSync(H.statePath(dir), "utf8") : "<missing>");

/** Writes `workspace/<rel>` (creating its directories), as an agent would. */
function write(dir, rel, content) {
  const file = path.join(dir, "workspace", ...rel.split("/"));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** A clock for `options.now`: each reading is one second later; `last()` is the latest reading. */
function clock() {
  let tick = 0;
  const now = () => T0 + 1000 * ++tick;
  now.last = () => new Date(T0 + 1000 * tick).toISOString();
  return now;
}

/**
 * Starts a watcher whose handler calls are recorded as `{type, args}` in `calls`;
 * `waitFor(from, predicate, label)` resolves with the index of the first call at or after
 * `from` matching `predicate` (rejects on an onError call, or after WAIT_MS with the state on
 * disk and the calls so far). `hook(call)` runs synchronously inside each handler.
 */
async function watch(t, proj, options = {}, hook = () => {}) {
  const calls = [];
  const waiters = new Set();
  const push = (type, ...args) => {
    const call = { type, args };
    calls.push(call);
    hook(call);
    for (const w of waiters) w.check();
  };
  const watcher = H.watchWorkspace(
    proj.dir,
    {
      onStateChanged: (state, outcome) => push("state", state, outcome),
      onNotify: (agent, message, state) => push("notify", agent, message, state),
      onIgnored: (where, reason) => push("ignored", where, reason),
      onProblem: (problem, where) => push("problem", problem, where),
      onError: (error) => push("error", error),
    },
    options,
  );
  proj.watchers.push(watcher);
  await watcher.ready;
  const summary = () =>
    calls.map((c) => `${c.type}:${c.type === "state" ? c.args[0].state : JSON.stringify(c.args.slice(0, 2))}`);
  const waitFor = (from, predicate, label) =>
    new Promise((resolve, reject) => {
      const waiter = {
        check() {
          for (let i = from; i < calls.length; i++) {
            if (calls[i].type === "error") return done(reject, calls[i].args[0]);
            if (predicate(calls[i])) return done(resolve, i);
          }
        },
      };
      const timer = setTimeout(
        () =>
          done(
            reject,
            new Error(`timed out waiting for ${label}; state.json: ${diskText(proj.dir)}; calls: ${summary().join(", ")}`),
          ),
        WAIT_MS,
      );
      const done = (settle, value) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        settle(value);
      };
      waiters.add(waiter);
      waiter.check();
    });
  /** Waits for the state call entering `state`; returns it with the notifications right after it. */
  const waitState = async (from, state) => {
    const i = await waitFor(from, (c) => c.type === "state" && c.args[0].state === state, `state ${state}`);
    const notes = [];
    for (let j = i + 1; j < calls.length && calls[j].type === "notify"; j++) notes.push(calls[j].args);
    return { index: i, state: calls[i].args[0], outcome: calls[i].args[1], notes };
  };
  return { watcher, calls, waitFor, waitState };
}

/** Checks a transition reported by the watcher against state.json on disk. */
function checkStep(dir, step, expect) {
  const { state, outcome, notes } = step;
  const disk = onDisk(dir);
  assert.deepEqual(disk, state, `state.json on disk is the reported state (${expect.state})`);
  assert.equal(disk.state, expect.state);
  assert.deepEqual(
    outcome.transitions.map((tr) => `${tr.from}-${tr.event}->${tr.to}`),
    expect.transitions,
    `transitions into ${expect.state}`,
  );
  assert.deepEqual(disk.active_agents, expect.active ?? [], `active agents in ${expect.state}`);
  const message = hivemind.contextMessage(expect.state);
  assert.deepEqual(
    notes,
    expect.notified.map((agent) => [agent, message, state]),
    `notifications in ${expect.state}`,
  );
  assert.deepEqual(
    notes.map(([agent, text]) => [agent, text]),
    outcome.notifications.map((n) => [n.agent, n.message]),
  );
  for (const field of ["current_checkpoint", "total_checkpoints", "friction_count"]) {
    if (field in expect) assert.equal(disk[field], expect[field], `${field} in ${expect.state}`);
  }
}

test("the ESM entry, the package self-reference and the .d.ts name the same API", async () => {
  const names = Object.keys(H).sort();
  assert.deepEqual(names, [
    "fire", "fireSync", "followUp", "followUpSync", "onFile", "onFileSync", "readState", "readStateSync", "statePath",
    "updateState", "updateStateSync", "watchWorkspace", "writeState", "writeStateSync",
  ]);
  const esm = await import("../lib/generated/hivemind.mjs");
  assert.deepEqual(Object.keys(esm).filter((k) => k !== "default").sort(), names);
  for (const name of names) assert.equal(esm[name], H[name], name);
  assert.equal(esm.default, H);
  assert.equal(require("statecore-js/hivemind"), H);
  assert.equal((await import("statecore-js/hivemind")).watchWorkspace, H.watchWorkspace);
  const dts = ["generated/hivemind.d.ts", "host/hivemind-watch.d.ts"]
    .map((file) => fs.readFileSync(new URL(`../lib/${file}`, import.meta.url), "utf8"))
    .join("\n");
  const declared = [...new Set([...dts.matchAll(/^export declare function (\w+)/gm)].map((m) => m[1]))];
  assert.deepEqual(declared.sort(), names);
});

test("statecore and statecore-js/fctry never load chokidar; statecore-js/hivemind loads it on the first watch", () => {
  const script = `
    const path = require("node:path"), fs = require("node:fs"), os = require("node:os");
    const loaded = () => Object.keys(require.cache).some((k) => k.split(path.sep).includes("chokidar"));
    const out = {};
    require("statecore-js"); require("statecore-js/fctry");
    out.main = loaded();
    const H = require("statecore-js/hivemind");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hivemind-"));
    H.fireSync(dir, "select_project");
    out.helpers = loaded();
    const w = H.watchWorkspace(dir);
    out.watch = loaded();
    w.ready.then(() => w.close()).then(() => {
      fs.rmSync(dir, { recursive: true });
      console.log(JSON.stringify(out));
    });
  `;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: NPM, encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), { main: false, helpers: false, watch: true });
});

test("readState, writeState and fire: locked, atomic, workspace/ created, refused events leave the file alone", async (t) => {
  for (const sync of [true, false]) {
    const { dir } = project(t);
    const run = (name, ...args) => (sync ? H[`${name}Sync`](...args) : H[name](...args));
    assert.equal(H.statePath(dir), path.join(dir, "workspace", "state.json"));
    // A missing file reads as the idle default; reading creates nothing.
    const missing = await run("readState", dir);
    assert.deepEqual([missing.document, missing.etag], [sc.defaultDocument("hivemind.state"), null]);
    assert.deepEqual(fs.readdirSync(dir), []);
    // fire: the outcome of hivemind.fire on the file (`result`), written; workspace/ created.
    const now = T0;
    const fired = await run("fire", dir, "select_project", { project: dir }, { now });
    const selected = fired.result;
    assert.deepEqual([fired.document, fired.changed], [selected.state, true]);
    assert.deepEqual(selected, hivemind.fire(null, "select_project", now, { project: dir }));
    assert.equal(fs.readFileSync(H.statePath(dir), "utf8"), serialize(selected.state));
    assert.equal(selected.state.project, dir);
    const planning = (await run("fire", dir, "give_task", null, { now: "2026-01-23T10:31:00Z" })).result;
    assert.deepEqual(planning, hivemind.fire(selected.state, "give_task", "2026-01-23T10:31:00Z"));
    assert.deepEqual(planning.notifications.map((n) => n.agent), ["lead"]);
    assert.deepEqual(onDisk(dir), planning.state);
    // An illegal event throws TransitionError and leaves the bytes identical.
    const before = fs.readFileSync(H.statePath(dir));
    await assert.rejects(async () => run("fire", dir, "plan_approved"), (e) => e instanceof sc.TransitionError);
    assert.deepEqual(fs.readFileSync(H.statePath(dir)), before);
    // writeState validates (file untouched on error) and writes atomically.
    await assert.rejects(
      async () => run("writeState", dir, { ...planning.state, current_checkpoint: 3, total_checkpoints: 2 }),
      (e) => e instanceof sc.ValidationError,
    );
    assert.deepEqual(fs.readFileSync(H.statePath(dir)), before);
    const written = await run("writeState", dir, { ...planning.state, state: "executing", active_agents: ["worker1", "worker2"] });
    assert.equal(written.changed, true);
    assert.equal((await run("readState", dir)).document.state, "executing");
    assert.deepEqual(fs.readdirSync(path.join(dir, "workspace")), ["state.json"]);
    // An outcome that changes nothing writes nothing (resume whose previous state is paused).
    H.writeStateSync(dir, { state: "paused", previous_state: "paused" });
    const still = fs.readFileSync(H.statePath(dir));
    const noop = await run("fire", dir, "resume");
    assert.deepEqual([noop.changed, noop.result.changed, noop.result.transitions], [false, false, []]);
    assert.deepEqual(fs.readFileSync(H.statePath(dir)), still);
    H.writeStateSync(dir, written.document);
    const paused = sync ? H.fireSync(dir, "pause") : H.fire(dir, "pause");
    assert.equal(paused instanceof Promise, !sync);
    assert.equal((await paused).result.state.state, "paused");
  }
});

test("a whole project driven by real file writes: plan, revision, checkpoints, fixes, friction, complete", async (t) => {
  const proj = project(t);
  const { dir } = proj;
  const now = clock();
  const w = await watch(t, proj, { now });

  // The user picks the folder and gives the task (host events, not files).
  const selected = (await H.fire(dir, "select_project", { project: dir }, { now: now() })).result;
  assert.deepEqual(selected.transitions, [{ from: "idle", event: "select_project", to: "project_selected" }]);
  const planning = H.fireSync(dir, "give_task", null, { now: now() }).result;
  assert.deepEqual(planning.notifications, [{ agent: "lead", message: hivemind.contextMessage("planning") }]);
  assert.equal(onDisk(dir).state, "planning");
  assert.equal(onDisk(dir).timestamp, now.last());

  /** Writes a trigger file and checks the transition(s) it causes. */
  const step = async (rel, content, expect) => {
    const from = w.calls.length;
    write(dir, rel, content);
    const result = await w.waitState(from, expect.state);
    checkStep(dir, result, expect);
    assert.equal(onDisk(dir).timestamp, now.last(), "the watcher's clock is options.now");
    return result;
  };
  /** Waits for an automatic follow-up (real timer, 500 ms) after `from`. */
  const followUp = async (from, expect) => {
    const result = await w.waitState(from, expect.state);
    checkStep(dir, result, expect);
    return result;
  };

  let r = await step("plan.md", "# Plan\n\nCheckpoints: 2\n\n1. auth\n2. api\n", {
    state: "plan_review", transitions: ["planning-plan_written->plan_review"], active: ["reviewer"],
    notified: ["reviewer"], total_checkpoints: 2, current_checkpoint: 0,
  });
  assert.equal(r.notes[0][1], SEED.plan_review);
  await step("plan-feedback.md", "Split the API chunk.", {
    state: "plan_revision", transitions: ["plan_review-plan_feedback->plan_revision"], active: ["lead"], notified: ["lead"],
  });
  r = await step("plan.md", "# Plan v2\n\nCheckpoints: 2\n", {
    state: "plan_review", transitions: ["plan_revision-plan_updated->plan_review"], active: ["reviewer"],
    notified: ["reviewer"], total_checkpoints: 2,
  });
  assert.equal(r.notes[0][1], SEED.plan_review);
  r = await step("plan-approved.md", "Approved.", {
    state: "executing", transitions: ["plan_review-plan_approved->executing"], active: ["worker1", "worker2"],
    notified: ["worker1", "worker2"],
  });
  assert.deepEqual(r.notes.map((n) => n[1]), [SEED.executing, SEED.executing]);

  // Checkpoint 1: recorded, then reviewed by the scheduled follow-up (the real 500 ms timer).
  let from = w.calls.length;
  r = await step("checkpoint.md", "Auth done.", {
    state: "checkpoint", transitions: ["executing-checkpoint_reached->checkpoint"], notified: ["worker1", "worker2"],
    current_checkpoint: 1, total_checkpoints: 2,
  });
  assert.deepEqual(r.outcome.scheduled, [{ event: "review_checkpoint", to: "checkpoint_review", after_ms: 500 }]);
  r = await followUp(from, {
    state: "checkpoint_review", transitions: ["checkpoint-review_checkpoint->checkpoint_review"], active: ["reviewer"],
    notified: ["reviewer"], current_checkpoint: 1,
  });
  assert.ok(r.notes[0][1].startsWith(SEED.checkpoint_review), r.notes[0][1]);

  await step("checkpoint-issues.md", "Tests fail on login.", {
    state: "checkpoint_fix", transitions: ["checkpoint_review-checkpoint_issues->checkpoint_fix"],
    active: ["lead", "worker1", "worker2"], notified: ["lead", "worker1", "worker2"],
  });
  r = await step("checkpoint.md", "Auth fixed.", {
    state: "checkpoint_review", transitions: ["checkpoint_fix-fixes_applied->checkpoint_review"], active: ["reviewer"],
    notified: ["reviewer"], current_checkpoint: 1,
  });
  assert.ok(r.notes[0][1].startsWith(SEED.checkpoint_review));

  // Approved with friction: friction_logged, then friction_sync by the follow-up.
  from = w.calls.length;
  r = await step("checkpoint-approved.md", "Auth approved.\n\n**Decision:** friction\n", {
    state: "friction_logged", transitions: ["checkpoint_review-approve_friction->friction_logged"], notified: ALL,
    friction_count: 0,
  });
  assert.deepEqual(r.outcome.scheduled, [{ event: "sync_friction", to: "friction_sync", after_ms: 500 }]);
  await followUp(from, {
    state: "friction_sync", transitions: ["friction_logged-sync_friction->friction_sync"], notified: ALL, friction_count: 0,
  });

  // A friction file while friction is being handled does not count (new directory, nested file).
  const syncBytes = fs.readFileSync(H.statePath(dir));
  from = w.calls.length;
  write(dir, "friction/x.md", "The test suite takes 4 minutes.");
  const ignoredAt = await w.waitFor(from, (c) => c.type === "ignored" && c.args[0] === "workspace/friction/x.md", "friction/x.md ignored");
  assert.match(w.calls[ignoredAt].args[1], /friction is already being handled in state "friction_sync"/);
  assert.deepEqual(w.calls.slice(from).map((c) => c.type), ["ignored"]);
  assert.deepEqual(fs.readFileSync(H.statePath(dir)), syncBytes, "nothing written");

  // The Lead resolves it at once: two transitions, back to plan review.
  r = await step("friction-resolution.md", "Cache the dependencies.", {
    state: "plan_review",
    transitions: ["friction_sync-start_resolution->friction_resolution", "friction_resolution-friction_resolved->plan_review"],
    active: ["reviewer"], notified: ["reviewer"],
  });
  assert.equal(r.notes[0][1], SEED.plan_review);
  await step("plan-approved.md", "Approved again.", {
    state: "executing", transitions: ["plan_review-plan_approved->executing"], active: ["worker1", "worker2"],
    notified: ["worker1", "worker2"],
  });

  // Checkpoint 2 of 2, reviewed; then a friction file that counts.
  from = w.calls.length;
  await step("checkpoint.md", "API done.", {
    state: "checkpoint", transitions: ["executing-checkpoint_reached->checkpoint"], notified: ["worker1", "worker2"],
    current_checkpoint: 2, total_checkpoints: 2,
  });
  await followUp(from, {
    state: "checkpoint_review", transitions: ["checkpoint-review_checkpoint->checkpoint_review"], active: ["reviewer"],
    notified: ["reviewer"], current_checkpoint: 2,
  });
  from = w.calls.length;
  await step("friction/y.md", "Flaky login test.", {
    state: "friction_logged", transitions: ["checkpoint_review-friction_found->friction_logged"], notified: ALL,
    friction_count: 1,
  });
  await followUp(from, {
    state: "friction_sync", transitions: ["friction_logged-sync_friction->friction_sync"], notified: ALL, friction_count: 1,
  });
  await step("friction-resolution.md", "Retry the login test once.", {
    state: "plan_review",
    transitions: ["friction_sync-start_resolution->friction_resolution", "friction_resolution-friction_resolved->plan_review"],
    active: ["reviewer"], notified: ["reviewer"], friction_count: 1,
  });
  await step("plan-approved.md", "Approved, third time.", {
    state: "executing", transitions: ["plan_review-plan_approved->executing"], active: ["worker1", "worker2"],
    notified: ["worker1", "worker2"],
  });

  // A third checkpoint: more than the plan said, so the total rises with it (never "3 of 2").
  from = w.calls.length;
  await step("checkpoint.md", "Login test fixed.", {
    state: "checkpoint", transitions: ["executing-checkpoint_reached->checkpoint"], notified: ["worker1", "worker2"],
    current_checkpoint: 3, total_checkpoints: 3,
  });
  await followUp(from, {
    state: "checkpoint_review", transitions: ["checkpoint-review_checkpoint->checkpoint_review"], active: ["reviewer"],
    notified: ["reviewer"],
  });
  await step("checkpoint-approved.md", "All good.\n\nDecision: complete\n", {
    state: "complete", transitions: ["checkpoint_review-approve_complete->complete"], notified: [],
    current_checkpoint: 3, total_checkpoints: 3, friction_count: 1,
  });
  const final = onDisk(dir);
  assert.equal(final.project, dir);
  assert.equal(final.previous_state, "checkpoint_review");
  assert.deepEqual(w.calls.filter((c) => c.type === "error" || c.type === "problem"), []);
  assert.deepEqual(
    fs.readdirSync(path.join(dir, "workspace")).sort(),
    ["checkpoint-approved.md", "checkpoint-issues.md", "checkpoint.md", "friction", "friction-resolution.md",
      "plan-approved.md", "plan-feedback.md", "plan.md", "state.json"],
    "no lock, temp or corrupt files left",
  );
});

test("checkpoint-approved.md without a Decision line changes nothing and reports W_DECISION_MISSING", async (t) => {
  const proj = project(t);
  H.writeStateSync(proj.dir, {
    state: "checkpoint_review", previous_state: "checkpoint", active_agents: ["reviewer"],
    timestamp: "2026-01-23T10:30:00Z", project: proj.dir, current_checkpoint: 1, total_checkpoints: 2,
    friction_count: 0, error: null,
  });
  const before = fs.readFileSync(H.statePath(proj.dir));
  const w = await watch(t, proj);
  write(proj.dir, "checkpoint-approved.md", "PARTIAL APPROVAL: auth ok, not done");
  const at = await w.waitFor(0, (c) => c.type === "notify", "the reviewer's notification");
  assert.deepEqual(w.calls.map((c) => c.type), ["problem", "ignored", "notify"]);
  const [problem, where] = w.calls[0].args;
  assert.equal(problem.code, "W_DECISION_MISSING");
  assert.equal(where, "workspace/checkpoint-approved.md");
  assert.deepEqual(w.calls[1].args, [
    "workspace/checkpoint-approved.md",
    "workspace/checkpoint-approved.md has no valid decision line; nothing changes",
  ]);
  assert.equal(w.calls[at].args[0], "reviewer");
  assert.deepEqual(fs.readFileSync(H.statePath(proj.dir)), before, "state.json untouched");
});

test("a burst of writes to one file gives one reaction, with the final content", async (t) => {
  const proj = project(t);
  H.fireSync(proj.dir, "select_project");
  H.fireSync(proj.dir, "give_task");
  const w = await watch(t, proj, { debounceMs: 200 });
  for (let n = 1; n <= 6; n++) write(proj.dir, "plan.md", `# Plan draft ${n}\n\nCheckpoints: ${n}\n`);
  const r = await w.waitState(0, "plan_review");
  assert.equal(r.state.total_checkpoints, 6, "the last write's content");
  // A later file, reacted to after anything the burst could still cause.
  write(proj.dir, "sentinel.md", "x");
  await w.waitFor(0, (c) => c.type === "ignored" && c.args[0] === "workspace/sentinel.md", "sentinel");
  const planCalls = w.calls.filter((c) => c.type === "state" || (c.type !== "notify" && c.args.includes("workspace/plan.md")));
  assert.equal(planCalls.length, 1, `one reaction to plan.md: ${JSON.stringify(w.calls.map((c) => c.args.slice(0, 2)))}`);
});

test("debounceMs 0: a trigger is reacted to at once, without a debounce timer", async (t) => {
  const proj = project(t);
  H.fireSync(proj.dir, "select_project");
  H.fireSync(proj.dir, "give_task");
  const w = await watch(t, proj, { debounceMs: 0 });
  // The library's own timers armed between the write and the reaction (a 0 ms timer runs
  // after 1 ms at the earliest): the reaction must not wait for one. (The look at the file
  // again a moment after it was read, `recheck`, is armed by the read and waited for by no one.)
  const armed = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = function (fn, ms, ...rest) {
    const stack = new Error("a timer").stack;
    if (stack.includes(`${path.sep}lib${path.sep}`) && !stack.includes("recheck")) armed.push(`${ms} ms: ${stack}`);
    return real.call(this, fn, ms, ...rest);
  };
  try {
    write(proj.dir, "plan.md", "# Plan\n\nCheckpoints: 2\n");
    const r = await w.waitState(0, "plan_review");
    assert.equal(r.state.total_checkpoints, 2);
  } finally {
    globalThis.setTimeout = real;
  }
  assert.deepEqual(armed, [], "no timer of the library's before the reaction");
});

test("writes to state.json (fire, writeState, by hand) and its lock, temp and corrupt files cause no reaction", async (t) => {
  const proj = project(t);
  const { dir } = proj;
  const w = await watch(t, proj);
  // A file that triggers nothing on a missing state.json: ignored, and nothing is written.
  write(dir, "notes.md", "n");
  await w.waitFor(0, (c) => c.type === "ignored" && c.args[0] === "workspace/notes.md", "notes.md");
  assert.equal(fs.existsSync(H.statePath(dir)), false, "an unchanged outcome writes nothing");
  const from = w.calls.length;
  await H.fire(dir, "select_project");
  H.fireSync(dir, "give_task");
  H.fireSync(dir, "pause");
  await H.fire(dir, "resume");
  H.writeStateSync(dir, { ...onDisk(dir), project: "p" });
  fs.writeFileSync(H.statePath(dir), "{ not json"); // by hand: the next writer keeps a copy
  await H.fire(dir, "select_project");
  const names = fs.readdirSync(path.join(dir, "workspace"));
  assert.ok(names.some((n) => n.startsWith("state.json.corrupt-")), names.join(" "));
  write(dir, "sentinel.md", "x");
  await w.waitFor(from, (c) => c.type === "ignored" && c.args[0] === "workspace/sentinel.md", "sentinel");
  assert.deepEqual(w.calls.slice(from).map((c) => c.args.slice(0, 2)), [
    ["workspace/sentinel.md", 'workspace/sentinel.md triggers nothing in state "project_selected"'],
  ]);
});

test("pausing during checkpoint makes the scheduled review a no-op; resume schedules it again", async (t) => {
  const proj = project(t);
  const { dir } = proj;
  H.writeStateSync(dir, {
    state: "executing", previous_state: "plan_review", active_agents: ["worker1", "worker2"],
    timestamp: "2026-01-23T10:30:00Z", project: dir, current_checkpoint: 0, total_checkpoints: 2,
    friction_count: 0, error: null,
  });
  // The user pauses as soon as the checkpoint is recorded (inside the handler: before any timer).
  const w = await watch(t, proj, {}, (call) => {
    if (call.type === "state" && call.args[0].state === "checkpoint" && call.args[1].transitions[0].event === "checkpoint_reached") {
      H.fireSync(dir, "pause");
    }
  });
  write(dir, "checkpoint.md", "Auth done.");
  const cp = await w.waitState(0, "checkpoint");
  assert.deepEqual(cp.outcome.scheduled, [{ event: "review_checkpoint", to: "checkpoint_review", after_ms: 500 }]);
  const at = await w.waitFor(cp.index, (c) => c.type === "ignored", "the stale follow-up");
  assert.deepEqual(w.calls[at].args, [null, 'the follow-up "review_checkpoint" no longer applies in state "paused"']);
  assert.equal(onDisk(dir).state, "paused");
  assert.equal(onDisk(dir).previous_state, "checkpoint");

  // resume through the watcher: back to checkpoint, reported, and the review is scheduled again.
  const from = w.calls.length;
  const resumed = await w.watcher.fire("resume");
  assert.deepEqual(resumed.transitions, [{ from: "paused", event: "resume", to: "checkpoint" }]);
  assert.deepEqual(resumed.scheduled, [{ event: "review_checkpoint", to: "checkpoint_review", after_ms: 500 }]);
  assert.equal(w.calls[from].type, "state");
  const review = await w.waitState(from, "checkpoint_review");
  checkStep(dir, review, {
    state: "checkpoint_review", transitions: ["checkpoint-review_checkpoint->checkpoint_review"], active: ["reviewer"],
    notified: ["reviewer"], current_checkpoint: 1,
  });
  // An illegal event through the watcher rejects (and is not an onError call).
  await assert.rejects(w.watcher.fire("give_task"), (e) => e instanceof sc.TransitionError);
  assert.deepEqual(w.calls.filter((c) => c.type === "error"), []);
});

test("errors (the core's, a handler's) go to onError and the watcher keeps running", async (t) => {
  const proj = project(t);
  H.fireSync(proj.dir, "select_project");
  H.fireSync(proj.dir, "give_task");
  const seen = []; // ["state", name] | ["error", error]
  const waiters = [];
  const push = (entry) => {
    seen.push(entry);
    for (const w of waiters.splice(0)) w();
  };
  /** Resolves once `seen` has `n` entries (bounded). */
  const until = (n) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; seen: ${JSON.stringify(seen)}`)), WAIT_MS);
      const check = () => (seen.length >= n ? (clearTimeout(timer), resolve()) : waiters.push(check));
      check();
    });
  const watcher = H.watchWorkspace(proj.dir, {
    onStateChanged: (state) => {
      push(["state", state.state]);
      if (state.state === "executing") throw new Error("boom");
    },
    onError: (error) => push(["error", error]),
  });
  proj.watchers.push(watcher);
  await watcher.ready;
  // An invalid state.json makes the core throw: reported, file untouched, watcher still running.
  fs.writeFileSync(H.statePath(proj.dir), JSON.stringify({ state: "reviewing" }));
  write(proj.dir, "plan.md", "x");
  await until(1);
  assert.equal(seen[0][0], "error");
  assert.equal(seen[0][1].code, "E_ARGUMENT", String(seen[0][1]));
  assert.equal(fs.readFileSync(H.statePath(proj.dir), "utf8"), JSON.stringify({ state: "reviewing" }));
  H.writeStateSync(proj.dir, { state: "planning" });
  write(proj.dir, "plan.md", "y");
  await until(2);
  write(proj.dir, "plan-approved.md", "ok"); // its handler throws
  await until(4);
  assert.deepEqual(seen.slice(1, 3), [["state", "plan_review"], ["state", "executing"]]);
  assert.equal(seen[3][0], "error");
  assert.equal(seen[3][1].message, "boom");
  assert.equal(onDisk(proj.dir).state, "executing");
});

test("close() stops everything: no reaction, follow-up or handler call afterwards", async (t) => {
  const proj = project(t);
  const { dir } = proj;
  H.writeStateSync(dir, { state: "executing", active_agents: ["worker1", "worker2"] });
  const w = await watch(t, proj);
  write(dir, "checkpoint.md", "Auth done.");
  await w.waitState(0, "checkpoint"); // its review is now scheduled, 500 ms later
  await w.watcher.close();
  const count = w.calls.length;
  const bytes = fs.readFileSync(H.statePath(dir));
  write(dir, "checkpoint-issues.md", "late");
  write(dir, "friction/late.md", "late");
  // A negative check needs a fixed wait: longer than the follow-up's 500 ms and the debounce.
  await sleep(1000);
  assert.equal(w.calls.length, count, JSON.stringify(w.calls.slice(count).map((c) => c.type)));
  assert.deepEqual(fs.readFileSync(H.statePath(dir)), bytes, "the follow-up did not fire");
  assert.equal(await w.watcher.fire("pause"), null, "fire after close does nothing");
  await w.watcher.close(); // twice is fine
});
