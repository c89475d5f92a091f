// Tests of `statecore-js/fctry` (npm/lib/host/fctry.cjs): the fctry helpers over a project's `.fctry/`
// files, on real temp directories. Every write is checked against the pure `fctry.*` function
// of the main entry applied to the file's previous contents.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const F = require("../lib/host/fctry.cjs");
const sc = require("../lib/node.cjs");
const { fctry, serialize } = sc;

const T0 = Date.parse("2026-02-12T15:00:00Z");
const listDir = (dir) => fs.readdirSync(dir).sort();
const fileDoc = (file, dflt) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : dflt);

/** `name` in its Sync form (result returned) or its async form (a Promise, awaited). */
async function call(sync, name, ...args) {
  if (sync) {
    const result = F[`${name}Sync`](...args);
    assert.ok(!(result instanceof Promise), `${name}Sync returned a Promise`);
    return result;
  }
  const promise = F[name](...args);
  assert.ok(promise instanceof Promise, `${name} did not return a Promise`);
  return promise;
}

test("the ESM entry, the package self-reference and the .d.ts name the same API", async () => {
  const names = Object.keys(F).sort();
  const esm = await import("../lib/generated/fctry.mjs");
  assert.deepEqual(Object.keys(esm).filter((k) => k !== "default").sort(), names);
  for (const name of names) assert.equal(esm[name], F[name], name);
  assert.equal(esm.default, F);
  assert.equal(require("statecore-js/fctry"), F);
  assert.equal((await import("statecore-js/fctry")).startStep, F.startStep);
  const dts = fs.readFileSync(new URL("../lib/generated/fctry.d.ts", import.meta.url), "utf8");
  const declared = [...new Set([...dts.matchAll(/^export declare function (\w+)/gm)].map((m) => m[1]))];
  assert.deepEqual(declared.sort(), names);
});

test("paths are <projectDir>/.fctry/state.json and inbox.json", () => {
  assert.equal(F.statePath("/p"), path.join("/p", ".fctry", "state.json"));
  assert.equal(F.inboxPath("/p"), path.join("/p", ".fctry", "inbox.json"));
});

test("a missing state or inbox reads as {} / [] with etag null and no warning, creating nothing", async (t) => {
  const dir = tempDir(t);
  for (const projectDir of [dir, path.join(dir, "no-such-project")]) {
    for (const sync of [true, false]) {
      const state = await call(sync, "readState", projectDir);
      assert.deepEqual(
        { document: state.document, etag: state.etag, corrupt: state.corrupt, warnings: state.warnings },
        { document: {}, etag: null, corrupt: false, warnings: [] },
      );
      const inbox = await call(sync, "readInbox", projectDir);
      assert.deepEqual([inbox.document, inbox.etag, inbox.warnings], [[], null, []]);
    }
  }
  assert.deepEqual(listDir(dir), []);
});

test("an unparseable state reads as {} + W_UNPARSEABLE; a writer keeps a .corrupt- copy", async (t) => {
  const dir = tempDir(t);
  const fctryDir = path.join(dir, ".fctry");
  fs.mkdirSync(fctryDir);
  const garbage = Buffer.from([0x7b, 0xff, 0x00, 0x6e, 0x6f]);
  fs.writeFileSync(F.statePath(dir), garbage);
  fs.writeFileSync(F.inboxPath(dir), garbage);
  for (const sync of [true, false]) {
    const state = await call(sync, "readState", dir);
    assert.deepEqual(state.document, {});
    assert.equal(state.corrupt, true);
    assert.deepEqual(state.warnings.map((w) => w.code), ["W_UNPARSEABLE"]);
    const inbox = await call(sync, "readInbox", dir);
    assert.deepEqual([inbox.document, inbox.corrupt], [[], true]);
    assert.deepEqual(inbox.warnings.map((w) => w.code), ["W_UNPARSEABLE"]);
  }
  assert.deepEqual(fs.readFileSync(F.statePath(dir)), garbage); // reads never write

  const result = F.startCommandSync(dir, "evolve", { now: T0 });
  assert.ok(result.corruptCopy?.startsWith(`${F.statePath(dir)}.corrupt-`), result.corruptCopy);
  assert.deepEqual(fs.readFileSync(result.corruptCopy), garbage);
  assert.ok(result.warnings.some((w) => w.code === "W_CORRUPT_COPY"));
  assert.deepEqual(result.document, fctry.startCommand({}, "evolve", T0));
  assert.deepEqual(fileDoc(F.statePath(dir)), result.document);

  const added = await F.inboxAdd(dir, "feature", "dark mode", { now: T0, random: "abc123" });
  assert.ok(added.corruptCopy?.startsWith(`${F.inboxPath(dir)}.corrupt-`));
  assert.deepEqual(fs.readFileSync(added.corruptCopy), garbage);
});

test("updateState: a patch keeps other fields, stamps lastUpdated and creates .fctry/", async (t) => {
  for (const sync of [true, false]) {
    const dir = tempDir(t);
    const first = await call(sync, "updateState", dir, { specVersion: "1.2", x: { keep: true } }, { now: T0 });
    assert.deepEqual(listDir(dir), [".fctry"]);
    assert.deepEqual(first.document, { specVersion: "1.2", x: { keep: true }, lastUpdated: "2026-02-12T15:00:00.000Z" });
    const second = await call(sync, "updateState", dir, { currentCommand: "ref" }, { now: "2026-02-13T08:30:00Z" });
    const expected = { specVersion: "1.2", x: { keep: true }, lastUpdated: "2026-02-13T08:30:00Z", currentCommand: "ref" };
    assert.deepEqual(second.document, expected);
    assert.equal(fs.readFileSync(F.statePath(dir), "utf8"), serialize(expected));
    assert.notEqual(second.etag, first.etag);
    // A function gets the current state and returns the new one, with no stamp of its own.
    const update = sync ? (s) => ({ ...s, specVersion: "1.3" }) : async (s) => ({ ...s, specVersion: "1.3" });
    const third = await call(sync, "updateState", dir, update);
    assert.deepEqual(third.document, { ...expected, specVersion: "1.3" });
    assert.deepEqual(fileDoc(F.statePath(dir)), third.document);
  }
});

test("a whole milestone sequence, Sync and async: each file equals the pure function of the previous one", async (t) => {
  const plan = {
    chunks: [
      { id: 1, name: "parser", sections: ["#core-flow"] },
      { id: 2, name: "cli" },
      { id: 3, name: "docs", dependsOn: [1, 2] },
    ],
    specVersion: "2.4",
    maxRetries: 2,
  };
  // [helper, its arguments after projectDir, the pure function of the previous state]
  const writes = [
    ["startCommand", ["evolve"], (s, now) => fctry.startCommand(s, "evolve", now)],
    ["startStep", ["state-owner-scan"], (s, now) => fctry.startStep(s, "state-owner-scan", now)],
    ["completeStep", ["state-owner-scan", { summary: "scanned 12 files" }], (s, now) =>
      fctry.completeStep(s, "state-owner-scan", { summary: "scanned 12 files" }, now)],
    ["startStep", ["interviewer"], (s, now) => fctry.startStep(s, "interviewer", now)],
    // omitted optional argument, options given: the options must not slide into its place
    ["completeStep", ["interviewer", undefined], (s, now) => fctry.completeStep(s, "interviewer", null, now)],
    ["skipPrerequisites", ["spec-writer", "evolve"], (s, now) => fctry.skipPrerequisites(s, "spec-writer", "evolve", now)],
    ["addUntrackedChange", [{ file: "src/a.js", section: "#core-flow", sectionNumber: "2.2" }], (s, now) =>
      fctry.addUntrackedChange(s, { file: "src/a.js", section: "#core-flow", sectionNumber: "2.2" }, now)],
    ["addUntrackedChange", [{ file: "src/b.js", section: "#cli" }], (s, now) =>
      fctry.addUntrackedChange(s, { file: "src/b.js", section: "#cli" }, now)],
    ["clearUntrackedChanges", [["cli"]], (s, now) => fctry.clearUntrackedChanges(s, ["cli"], now)],
    ["createBuildRun", [plan], (s, now) => fctry.createBuildRun(s, plan, now)],
    ["chunkEvent", [1, "start"], (s, now) => fctry.chunkEvent(s, 1, "start", now)],
    ["chunkEvent", [1, "fail"], (s, now) => fctry.chunkEvent(s, 1, "fail", now)],
    ["chunkEvent", [2, "start"], (s, now) => fctry.chunkEvent(s, 2, "start", now)],
    ["chunkEvent", [1, "complete"], (s, now) => fctry.chunkEvent(s, 1, "complete", now)],
    ["pauseBuildRun", [{ text: "Keep the old CLI flags?" }], (s, now) =>
      fctry.pauseBuildRun(s, { text: "Keep the old CLI flags?" }, now)],
    ["resumeBuildRun", [], (s, now) => fctry.resumeBuildRun(s, now)],
    ["chunkEvent", [2, "complete"], (s, now) => fctry.chunkEvent(s, 2, "complete", now)],
    ["chunkEvent", [3, "start"], (s, now) => fctry.chunkEvent(s, 3, "start", now)],
    ["chunkEvent", [3, "complete"], (s, now) => fctry.chunkEvent(s, 3, "complete", now)],
    ["finishBuildRun", [], (s, now) => fctry.finishBuildRun(s, now)],
  ];
  // Read-only queries run after the write of the same index: [helper, args, pure].
  const queries = {
    3: ["checkPrerequisites", ["interviewer", "evolve"], (s) => fctry.checkPrerequisites(s, "interviewer", "evolve")],
    10: ["readyChunks", [], (s) => fctry.readyChunks(s)],
    14: ["resumePlan", ["2.5"], (s) => fctry.resumePlan(s, "2.5")],
    16: ["statusLine", [], (s) => fctry.statusLine(s)],
  };
  for (const sync of [true, false]) {
    const dir = tempDir(t);
    const file = F.statePath(dir);
    for (const [i, [name, args, pure]] of writes.entries()) {
      const now = T0 + (i + 1) * 60_000; // a different time at every step
      const before = fileDoc(file, {});
      const expected = pure(before, now);
      const result = await call(sync, name, dir, ...args, { now });
      assert.deepEqual(result.document, expected, `${name} #${i}`);
      assert.equal(fs.readFileSync(file, "utf8"), serialize(expected), `${name} #${i}: file`);
      assert.equal(result.changed, true, `${name} #${i}`);
      if (queries[i]) {
        const [query, queryArgs, pureQuery] = queries[i];
        assert.deepEqual(await call(sync, query, dir, ...queryArgs), pureQuery(expected), query);
      }
    }
    // Milestones reached: the interviewer ran after its prerequisite; the run finished and cleared.
    assert.equal(F.checkPrerequisitesSync(dir, "interviewer", "evolve").ok, true);
    const final = fileDoc(file);
    assert.deepEqual(final.completedSteps, ["state-owner-scan", "interviewer"]);
    assert.equal(final.buildRun, null);
    assert.deepEqual(final.untrackedChanges.map((c) => c.file), ["src/a.js"]);
    assert.deepEqual(listDir(path.dirname(file)), ["state.json"]);
  }
});

test("refused operations throw the core's error and leave the file's bytes identical", async (t) => {
  const dir = tempDir(t);
  F.createBuildRunSync(dir, { chunks: [{ id: 1 }] }, { now: T0 });
  F.startCommandSync(dir, "review", { now: T0 });
  const file = F.statePath(dir);
  const bytes = fs.readFileSync(file);
  const cases = [
    ["chunkEvent", [1, "complete"], sc.TransitionError, "E_TRANSITION"],
    ["startStep", ["no-such-step"], sc.UsageError, "E_ARGUMENT"],
    ["startCommand", ["deploy"], sc.UsageError, "E_ARGUMENT"],
    ["completeStep", ["interviewer", { noSummary: true }], sc.ValidationError, "E_INVALID"],
  ];
  for (const [name, args, ErrorClass, code] of cases) {
    const check = (e) => e instanceof ErrorClass && e.code === code;
    assert.throws(() => F[`${name}Sync`](dir, ...args), check, `${name}Sync`);
    await assert.rejects(F[name](dir, ...args), check, name);
    assert.deepEqual(fs.readFileSync(file), bytes, name);
  }
  // A held lock: LockTimeoutError after `timeout`, nothing written.
  const lock = sc.acquireLockSync(file);
  try {
    const check = (e) => e instanceof sc.LockTimeoutError && e.code === "E_LOCK_TIMEOUT";
    assert.throws(() => F.startStepSync(dir, "observer", { timeout: 20 }), check);
    await assert.rejects(F.updateState(dir, { specVersion: "9" }, { timeout: 20 }), check);
  } finally {
    lock.release();
  }
  assert.deepEqual(fs.readFileSync(file), bytes);
  assert.deepEqual(listDir(path.dirname(file)), ["state.json"]);
});

test("inbox: add with fixed now/random, transition, batch, dismiss", async (t) => {
  const dir = tempDir(t);
  const file = F.inboxPath(dir);
  const first = F.inboxAddSync(dir, "evolve", "Make onboarding faster", { now: T0, random: "a1b2c3" });
  assert.equal(first.item.id, `inbox-${T0}-a1b2c3`);
  assert.deepEqual(first.item, first.document[0]);
  assert.deepEqual(first.document, fctry.inboxAdd([], "evolve", "Make onboarding faster", T0, "a1b2c3"));
  const now2 = "2026-02-12T16:00:00Z";
  const second = await F.inboxAdd(dir, "reference", "https://example.com", { now: now2, random: "zz9900" });
  assert.equal(second.item.id, `inbox-${Date.parse(now2)}-zz9900`);
  assert.deepEqual(second.document.map((i) => i.id), [second.item.id, first.item.id]);
  assert.equal(fs.readFileSync(file, "utf8"), serialize(second.document));

  // [helper, args after projectDir, pure function of the previous inbox]
  const steps = [
    ["inboxTransition", [first.item.id, "start"], (i) => fctry.inboxTransition(i, first.item.id, "start")],
    ["inboxTransition", [first.item.id, "complete"], (i) => fctry.inboxTransition(i, first.item.id, "complete")],
    ["inboxBatch", ["start"], (i) => fctry.inboxBatch(i, "start")],
    ["inboxBatch", ["incorporate"], (i) => fctry.inboxBatch(i, "incorporate")],
    ["inboxDismiss", [second.item.id], (i) => fctry.inboxDismiss(i, second.item.id)],
  ];
  for (const [n, [name, args, pure]] of steps.entries()) {
    const expected = pure(fileDoc(file));
    const result = await call(n % 2 === 0, name, dir, ...args);
    assert.deepEqual(result.document, expected, name);
    assert.equal(fs.readFileSync(file, "utf8"), serialize(expected), name);
  }
  assert.deepEqual(F.readInboxSync(dir).document.map((i) => [i.id, i.status]), [[first.item.id, "incorporated"]]);

  // Dismissing an id that is gone changes nothing; an illegal move throws, file untouched.
  const bytes = fs.readFileSync(file);
  assert.equal(F.inboxDismissSync(dir, second.item.id).changed, false);
  await assert.rejects(F.inboxTransition(dir, first.item.id, "start"), (e) => e instanceof sc.TransitionError && e.code === "E_TRANSITION");
  assert.throws(() => F.inboxTransitionSync(dir, "inbox-0-nope00", "start"), (e) => e instanceof sc.UsageError && e.code === "E_ARGUMENT");
  assert.deepEqual(fs.readFileSync(file), bytes);
});
