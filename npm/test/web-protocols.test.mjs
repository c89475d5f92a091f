// The browser entry "statecore-js/web" with only some protocols' modules loaded (in Node, from
// their bytes; the browser run, test/browser/run.mjs, checks what a page fetches): a call
// before its module is loaded throws E_NOT_INITIALIZED naming what to load, a misspelt
// protocol or option is a UsageError E_ARGUMENT, a protocol's module runs the generic base and
// its protocol and refuses another protocol's operations and kinds with a UsageError
// E_UNAVAILABLE naming the module to load, and calls go to the module of their protocol once
// it is loaded. Its own file: the loaded modules are the process's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as web from "statecore-js/web";

const require = createRequire(import.meta.url);
const bytes = (protocol) => readFileSync(require.resolve(`statecore-js/web-${protocol}.wasm`));
const unavailable = (protocol) => (e) =>
  e instanceof web.UsageError &&
  e.code === "E_UNAVAILABLE" &&
  e.details.protocol === protocol &&
  e.message.includes(`load("${protocol}")`);

test("protocol modules: loaded on demand, each refusing the others", async () => {
  assert.deepEqual([...web.PROTOCOLS].sort(), ["agency", "fctry", "hive", "hivemind", "specify"]);
  assert.deepEqual(web.loaded(), []);
  // before any module: E_NOT_INITIALIZED, naming the protocol's module a call needs
  assert.throws(
    () => web.agency.checkMeta({}),
    (e) => e instanceof web.StatecoreError && e.code === "E_NOT_INITIALIZED" && e.details.protocol === "agency" && e.message.includes('load("agency")'),
  );
  assert.throws(
    () => web.validate("fctry.state", {}),
    (e) => e.code === "E_NOT_INITIALIZED" && e.details.protocol === "fctry",
  );
  assert.throws(() => web.parse("{}"), (e) => e.code === "E_NOT_INITIALIZED");
  // a misspelt protocol or option
  for (const bad of [() => web.load("agnecy"), () => web.load(undefined), () => web.init({ protocols: ["Agency"] }), () => web.init({ protocol: ["agency"] }), () => web.init({ protocols: "agency" }), () => web.init({ protocols: ["agency"], input: { fctry: bytes("fctry") } })]) {
    await assert.rejects(bad, (e) => e instanceof web.UsageError && e.code === "E_ARGUMENT");
  }
  assert.deepEqual(web.loaded(), []);

  await Promise.all([web.init({ protocols: ["agency"], input: { agency: bytes("agency") } }), web.load("agency", bytes("agency"))]);
  assert.deepEqual(web.loaded(), ["agency"]);
  // the generic base and the agency's operations and kinds
  assert.deepEqual(web.merge({ a: 1 }, { b: 2 }), { a: 1, b: 2 });
  assert.equal(web.validate("json", {}).valid, true);
  assert.equal(typeof web.validate("agency.runner_status", {}).valid, "boolean");
  assert.equal(typeof web.agency.checkMeta({}), "object");
  // another protocol's operation, kind, reader and file: refused, naming its module
  assert.throws(() => web.fctry.inboxCounts([]), unavailable("fctry"));
  assert.throws(() => web.hive.machine(), unavailable("hive"));
  assert.throws(() => web.validate("hivemind.state", {}), unavailable("hivemind"));
  assert.throws(() => web.defaultDocument("specify.index"), unavailable("specify"));
  assert.throws(() => web.queryFile("fctry.state", "fctry_project_status", "{}", []), unavailable("fctry"));
  assert.throws(() => web.viewFile(".fctry/state.json", "{}"), unavailable("fctry"));
  assert.equal(web.viewFile(".fctry/state.json").kind, "fctry.state"); // named without its rules
  assert.equal(web.viewFile("sessions/s1/EVENTS.jsonl").kind, "hive.event"); // a log too
  assert.throws(() => web.viewFile("sessions/s1/EVENTS.jsonl", "{}\n"), unavailable("hive"));

  // fctry's module loaded too: each call goes to the module of its protocol
  await web.load("fctry", bytes("fctry"));
  assert.deepEqual(web.loaded(), ["agency", "fctry"]);
  assert.equal(typeof web.fctry.inboxCounts([]), "object");
  assert.equal(web.validate("fctry.state", {}).valid, true);
  assert.equal(web.viewFile(".fctry/state.json", "{}").check.valid, true); // rerouted by the path's protocol
  assert.equal(typeof web.agency.checkMeta({}), "object");
  assert.throws(() => web.hive.machine(), unavailable("hive"));
  // the big-integer mode over every loaded module
  assert.equal(web.withBigInts(() => web.parse('{"n": 12345678901234567890}')).n, 12345678901234567890n);
});
