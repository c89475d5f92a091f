// The lock's jobs through the JS API (`lockJob`, docs/locking.md § The lock as a job): what a
// tool with its own I/O calls. The steps themselves are the corpus's
// (tests/conformance/host/lock_jobs.json); here, the JS layer's own checks and a whole run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lockJob } from "statecore-js";

const ID = { pid: 100, start: "500", boot: "b1", host: "h" };
const SEED = new Uint8Array(16).fill(7);
const clocks = (answer) => ({ ...answer, now_ms: 1764000000000, mono_ms: 1000 });

test("lockJob refuses a job it has not got, and arguments that are not an array", () => {
  assert.throws(() => lockJob("renew", []), (e) => e.name === "UsageError" && e.code === "E_ARGUMENT" && e.path === "/job");
  assert.throws(() => lockJob("acquire", "x"), (e) => e.name === "UsageError" && e.code === "E_ARGUMENT" && e.path === "/args");
});

test("an uncontended acquisition, then the release of the same record, driven step by step", () => {
  const taking = lockJob("acquire", ["/d/s.json.lock", ID, true, true, 1000, SEED, 1764000000000, 1000]);
  const asked = [taking.next(null)];
  asked.push(taking.next(clocks({ missing: true })));
  asked.push(taking.next(clocks({ missing: true })));
  assert.deepEqual(asked.map((s) => s.do), ["stat", "stat", "create"]);
  const done = taking.next(clocks({ created: true }));
  taking.free();
  assert.equal(done.do, "done");
  assert.equal(done.text, asked[2].text);
  assert.equal(done.record.pid, 100);

  const releasing = lockJob("release", ["/d/s.json.lock", done.text, ID, true, SEED, 1764000000000, 1000]);
  assert.deepEqual(releasing.next(null), { do: "stat", path: "/d/s.json.lock.next" });
  assert.deepEqual(releasing.next(clocks({ missing: true })), { do: "read", path: "/d/s.json.lock" });
  const latin1 = Buffer.from(done.text).toString("latin1");
  assert.deepEqual(releasing.next(clocks({ latin1, key: "1:1", mtime_ms: 0 })), { do: "unlink", path: "/d/s.json.lock" });
  assert.deepEqual(releasing.next(clocks({})), { do: "done", released: true });
  releasing.free();
});
