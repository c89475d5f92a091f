// The lock's jobs through the JS API (`lock.acquireJob`, `releaseJob`, docs/locking.md § The lock as a job): what a
// tool with its own I/O calls. The steps themselves are the corpus's
// (tests/conformance/host/lock_jobs.json); here, the JS layer's own checks and a whole run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { lock } from "statecore-js";
import { readJson } from "./files.mjs";

const { meets } = createRequire(import.meta.url)("../lib/host/jobs.cjs");

const ID = { pid: 100, start: "500", boot: "b1", host: "h" };
const SEED = new Uint8Array(16).fill(7);
const clocks = (answer) => ({ ...answer, now_ms: 1764000000000, mono_ms: 1000 });

test("a lock job's row refuses an argument that is not of its type, naming it", () => {
  const bad = () => lock.acquireJob("/d/s.json.lock", true, 1000, ID, "yes", SEED, 1764000000000, 1000);
  assert.throws(bad, (e) => e.name === "DataError" && e.code === "E_VALUE" && e.details.argument === "probe");
  assert.throws(() => lock.acquireJob("/d/s.json.lock", true, 1000, ID, true, SEED, 1764000000000), (e) => e.code === "E_VALUE" && e.message.includes("monoMs"));
});

test("an uncontended acquisition, then the release of the same record, driven step by step", () => {
  // The first step comes with the job; a driver that takes a whole plan, `done` aside, is
  // given the same `done` by the job itself.
  const taking = lock.acquireJob("/d/s.json.lock", true, 1000, ID, true, SEED, 1764000000000, 1000);
  const plan = taking.first;
  assert.equal(plan.do, "all");
  assert.deepEqual(plan.steps.map((s) => s.do), ["stat", "read", "create", "done"]);
  // A first attempt passes a claim too young to be honoured, as a releaser does.
  const young = [{ missing: true }, { age_under_ms: 20 }];
  assert.deepEqual(plan.steps.slice(0, 3).map((s) => s.expect), [young, { missing: true }, { created: true }]);
  const answers = [clocks({ missing: true }), clocks({ missing: true }), clocks({ created: true })];
  const done = taking.next(clocks({ answers }));
  taking.free();
  assert.deepEqual(done, plan.steps[3]);
  assert.equal(done.text, plan.steps[2].text);
  assert.equal(done.record.pid, 100);

  // The release's first step came with the lock: it is the release job's own.
  const releasing = lock.releaseJob("/d/s.json.lock", done.text, ID, true, SEED, 1764000000000, 1000);
  const latin1 = Buffer.from(done.text).toString("latin1");
  const release = {
    do: "all",
    steps: [
      { do: "stat", path: "/d/s.json.lock.next", expect: young },
      { do: "read", path: "/d/s.json.lock", expect: { latin1 } },
      { do: "unlink", path: "/d/s.json.lock" },
      { do: "done", released: true },
    ],
  };
  assert.deepEqual(done.release, release);
  assert.deepEqual(releasing.first, release);
  assert.deepEqual(releasing.next(null), release, "next(null) gives the first step too");
  // Stopped where the answer was not the one expected: the job goes on from there.
  const other = Buffer.from(done.text.replace(/"pid":100/, '"pid":101')).toString("latin1");
  const answered = [clocks({ missing: true }), clocks({ latin1: other, key: "1:1", mtime_ms: 0 })];
  assert.deepEqual(releasing.next(clocks({ answers: answered })), { do: "done", released: false });
  assert.throws(() => releasing.next(clocks({})), (e) => e.code === "E_ARGUMENT", "a job over takes no answer");
  releasing.free();
});

test("a job's first step is asked for once; a plan's answer must be one answer per step taken", () => {
  const taking = lock.acquireJob("/d/s.json.lock", true, 1000, ID, true, SEED, 1764000000000, 1000);
  assert.deepEqual(taking.next(null), taking.first);
  assert.throws(() => taking.next(null), (e) => e.name === "UsageError" && e.code === "E_ARGUMENT" && e.path === "/answer");
  const five = Array.from({ length: 5 }, () => clocks({ missing: true }));
  assert.throws(
    () => taking.next(clocks({ answers: five })),
    (e) => e.name === "UsageError" && e.code === "E_ARGUMENT" && e.path === "/answer/answers",
  );
  taking.free();
});

test("the driver's rule for a plan's answers is the core's, on every vector", () => {
  const { cases } = readJson("conformance/host/plan_expectations.json");
  assert.ok(cases.length >= 30);
  for (const { name, args, expect } of cases) {
    assert.equal(meets(args[0], args[1]), expect, name);
    // A step with no `expect` key is one whose expectation is null.
    if (args[1] === null) assert.equal(meets(args[0], undefined), expect, name);
  }
});
