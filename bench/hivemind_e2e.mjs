// Bench (7): the Hivemind user's job end to end: a trigger file written in `workspace/` → the
// state updated in `workspace/state.json` → the watcher's callback. statecore: the library's
// watcher (`watchWorkspace` of statecore-js/hivemind: chokidar, the core's `onFile` under the
// lock of state.json, an atomic replace with fsyncs, then `onStateChanged`). The alternative:
// the Hivemind client's watcher logic on the same files (hivemind_reference.mjs
// `ClientWatcher`: chokidar, `readState`, the transition, `writeState` with a temp file and a
// rename, then the renderer's callback). Each trigger is timed from just before its write to
// its callback; the follow-ups the core schedules (500 ms) are waited for, untimed. Both
// watchers see the same workflow and must give the same states, notifications and files.
//
//   node bench/hivemind_e2e.mjs [--quick]      (markdown on stdout, progress on stderr)
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, formatNs, log, median, table } from "./lib.mjs";
import { ClientWatcher } from "./hivemind_reference.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "npm", "package.json"));
const sc = require("./lib/node.cjs");
const { watchWorkspace } = require("./lib/host/hivemind.cjs");
const quick = process.argv.includes("--quick");
const NOW = "2026-01-23T10:30:00Z";
const LIMIT_MS = Number(process.env.LIMIT_MS ?? 30_000);

/**
 * One pass from `planning` to `complete`: [trigger file, content, the state its reaction moves
 * to, the state a scheduled follow-up then moves to (null: none)]. Every trigger changes the
 * state (a trigger the client ignores has no callback to wait for).
 */
const PASS = [
  ["plan.md", "# Plan\nCheckpoints: 2\n", "plan_review", null],
  ["plan-feedback.md", "Split chunk 2.", "plan_revision", null],
  ["plan.md", "Checkpoints: 3", "plan_review", null],
  ["plan-approved.md", "ok", "executing", null],
  ["friction/slow-tests.md", "4 minutes", "friction_logged", "friction_sync"],
  ["friction-resolution.md", "cache deps", "plan_review", null],
  ["plan-approved.md", "ok", "executing", null],
  ["checkpoint.md", "auth", "checkpoint", "checkpoint_review"],
  ["checkpoint-issues.md", "tests fail", "checkpoint_fix", null],
  ["checkpoint.md", "fixed", "checkpoint_review", null],
  ["checkpoint-approved.md", "**Decision:** continue", "executing", null],
  ["checkpoint.md", "api", "checkpoint", "checkpoint_review"],
  ["checkpoint-approved.md", "Decision: complete", "complete", null],
];

/** A project directory with `workspace/state.json` holding `state`. */
function project(root, name) {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "workspace", "friction"), { recursive: true });
  return dir;
}

/** Writes the pass's first state (untimed; both watchers ignore state.json). */
function reset(dir, state) {
  fs.writeFileSync(path.join(dir, "workspace", "state.json"), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * A watcher under test: `events` collects its callbacks; `next(predicate)` resolves with the
 * first event (from now on) that matches.
 */
function recorder() {
  const events = [];
  const waiters = [];
  const push = (event) => {
    events.push(event);
    for (let i = 0; i < waiters.length; i++) {
      if (waiters[i].test(event)) {
        waiters[i].resolve(event);
        waiters.splice(i--, 1);
      }
    }
  };
  const next = (test, what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bench (7): no callback for ${what} in ${LIMIT_MS} ms; seen: ${events.map((e) => e.state.state).join(" ")}`)), LIMIT_MS);
      waiters.push({ test, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  return { events, push, next };
}

/**
 * chokidar drops a `change` of a path that comes within 50 ms of the previous one it reported
 * (its per-path throttle, on both sides), and a loaded machine can report one late: a trigger
 * file is written again only this long after the callback of its previous write.
 */
const REWRITE_GAP_MS = 80;
const lastWrite = new Map();

/** Runs one pass on `dir` watched by `rec`; returns the time of each trigger (ns) and what was seen. */
async function pass(dir, rec, planning, counter) {
  reset(dir, planning);
  const times = [];
  const seen = [];
  for (const [file, content, to, follow] of PASS) {
    const target = path.join(dir, "workspace", file);
    const changed = rec.next((e) => e.kind === "state" && e.state.state === to, `${file} → ${to}`);
    const followed = follow ? rec.next((e) => e.kind === "state" && e.state.state === follow, `the follow-up to ${follow}`) : null;
    // Distinct bytes every time, so that a rewrite is always a change chokidar reports.
    const text = `${content}\n<!-- ${counter.n++} -->\n`;
    const wait = (lastWrite.get(target) ?? 0) + REWRITE_GAP_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t0 = process.hrtime.bigint();
    fs.writeFileSync(target, text);
    const event = await changed;
    times.push(Number(process.hrtime.bigint() - t0));
    lastWrite.set(target, Date.now());
    seen.push({ file, state: event.state, disk: event.disk, notified: event.notified });
    if (followed) {
      const f = await followed;
      seen.push({ file: "(follow-up)", state: f.state, disk: f.disk, notified: f.notified });
    }
    // Notifications arrive right after the state callback, in the same turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { times, seen };
}

/** The callbacks of a watcher as events: the state, the file on disk then, the notifications. */
function handlers(rec, dir) {
  let last = null;
  const stateFile = path.join(dir, "workspace", "state.json");
  return {
    onStateChanged(state) {
      last = { kind: "state", state, disk: fs.readFileSync(stateFile, "utf8"), notified: [] };
      rec.push(last);
    },
    onNotify(agent, message) {
      last?.notified.push([agent, message]);
    },
    onIgnored(where, reason) {
      if (process.env.BENCH_DEBUG) process.stderr.write(`ignored ${where}: ${reason}\n`);
    },
    onError(error) {
      process.stderr.write(`bench (7): watcher error: ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  };
}

async function main() {
  log("(7) hivemind end to end: trigger file → state.json → watcher callback");
  const { hivemind } = sc;
  const messages = Object.fromEntries(
    hivemind.machine().states.map((s) => [s.name, hivemind.contextMessage(s.name)]).filter(([, m]) => m),
  );
  const planning = hivemind.fire(hivemind.fire(null, "select_project", NOW, { project: "/p" }).state, "give_task", NOW).state;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-bench-hivemind-"));
  process.on("exit", () => fs.rmSync(root, { recursive: true, force: true }));
  const counter = { n: 0 };

  const impls = [];
  const add = async (name, statecore, make) => {
    const dir = project(root, name.replace(/\W+/g, "-"));
    reset(dir, planning);
    const rec = recorder();
    const watcher = make(dir, handlers(rec, dir));
    await watcher.ready;
    impls.push({ name, statecore, dir, rec, watcher, times: [] });
  };
  await add("statecore watchWorkspace, debounceMs 0 (reacts at once, as the client does)", true, (dir, h) =>
    watchWorkspace(dir, h, { debounceMs: 0, now: () => NOW }));
  await add("statecore watchWorkspace, default debounce (50 ms)", true, (dir, h) =>
    watchWorkspace(dir, h, { now: () => NOW }));
  await add("the Hivemind client's watcher logic (bench/hivemind_reference.mjs ClientWatcher)", false, (dir, h) =>
    new ClientWatcher(dir, h, { now: () => NOW, messages }));
  await add("the client's logic + the same durability (fsync of the temp file and of the directory)", false, (dir, h) =>
    new ClientWatcher(dir, h, { now: () => NOW, messages, fsync: true }));

  // Agreement: one pass each, the same states, files and notifications in the same order.
  const first = [];
  for (const impl of impls) first.push((await pass(impl.dir, impl.rec, planning, counter)).seen);
  for (let k = 1; k < impls.length; k++) {
    for (const [i, mine] of first[0].entries()) {
      const theirs = first[k][i];
      check(`(7) ${impls[k].name} agrees with statecore at step ${i} (${mine.file})`,
        JSON.stringify(mine.state) === JSON.stringify(theirs?.state) &&
          JSON.stringify(JSON.parse(mine.disk)) === JSON.stringify(JSON.parse(theirs.disk)) &&
          JSON.stringify(mine.notified) === JSON.stringify(theirs.notified),
        `\n  statecore: ${JSON.stringify(mine)}\n  other:     ${JSON.stringify(theirs)}`);
    }
    check(`(7) ${impls[k].name} saw every step`, first[k].length === first[0].length);
  }
  check("(7) the pass ends complete", first[0].at(-1).state.state === "complete");
  check("(7) the file on disk is the state of the callback", first[0].every((s) => JSON.stringify(JSON.parse(s.disk)) === JSON.stringify(s.state)));

  // Timing: passes interleaved between the implementations.
  const passes = quick ? 1 : 8;
  for (let p = 0; p < passes; p++) {
    for (const impl of impls) impl.times.push(...(await pass(impl.dir, impl.rec, planning, counter)).times);
  }
  for (const impl of impls) await impl.watcher.close();

  const results = impls.map((impl) => ({
    name: impl.name,
    statecore: impl.statecore,
    reference: impl.name.includes("same durability"),
    median: median(impl.times),
    min: Math.min(...impl.times),
    max: Math.max(...impl.times),
    samples: impl.times.length,
  }));
  const target = results[0];
  const client = results[2];
  const durable = results[3];
  process.stdout.write(
    table(
      `Node (7): hivemind trigger file → state.json → callback, end to end (${passes * PASS.length} triggers each)`,
      `A workflow of ${PASS.length} trigger files from \`planning\` to \`complete\` (plan, feedback, revision, approval, ` +
        "friction and its resolution, checkpoints with issues, a fix and decisions), every one a state change; each timed " +
        "from just before the trigger's write to the watcher's state callback, with state.json already replaced; the " +
        "follow-ups (500 ms) are waited for, untimed. Both sides watch with chokidar (the same package) in this process. " +
        "statecore: `watchWorkspace` (read the trigger, lock state.json, the core's `onFile`, an atomic replace with an " +
        "fsync of the file and of the directory, unlock, `onStateChanged`). The client: `readState`, the transition " +
        "(which reads the state again), `writeState` (temp file and rename, no fsync, no lock), the callback. " +
        `Medians: statecore ${formatNs(target.median)}, the client ${formatNs(client.median)}, the client with the same ` +
        `fsyncs ${formatNs(durable.median)}; statecore / client with the same fsyncs = ` +
        `${(target.median / durable.median).toFixed(2)}. All agree on every state, file and notification.`,
      results,
      "per trigger",
    ),
  );
  process.stdout.write("\n");
  log("(7) done");
}

main().catch((error) => {
  process.stderr.write(`bench (7): ${error?.stack ?? error}\n`);
  process.exit(1);
});
