// The browser entry "statecore-js/web" loaded in Node: nothing works before `init()` (a
// StatecoreError E_NOT_INITIALIZED), `init(bytes)` works without fetch, it exports the same
// names as the Node entry's pure API (the host I/O layer is Node-only), and its module (the
// browser's own, docs/performance.md § wasm size) runs the operations the table marks `web`
// and refuses every other with a UsageError E_UNAVAILABLE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import init, * as web from "statecore-js/web";
import * as node from "statecore-js";
import { checkWebCase, useTable } from "./corpus-runner.mjs";
import { corpusFiles, readJson } from "./files.mjs";

const require = createRequire(import.meta.url);

test("calls before init() throw E_NOT_INITIALIZED", () => {
  for (const call of [() => web.parse("{}"), () => web.machine.diagram({}), () => web.kinds()]) {
    assert.throws(call, (e) => e instanceof web.StatecoreError && e.code === "E_NOT_INITIALIZED");
  }
});

test("init(bytes) then the whole corpus through the web entry", async () => {
  const wasm = readFileSync(require.resolve("statecore-js/statecore_bg.wasm"));
  await Promise.all([init(wasm), web.init(wasm)]); // concurrent calls share one load
  await init(); // a later call is a no-op
  assert.deepEqual(web.merge({ a: 1 }, { b: 2 }), { a: 1, b: 2 });
  const table = node.manifest();
  useTable(web, table);
  const failures = [];
  const skipped = { web: 0, routine: 0 };
  const ran = new Set();
  for (const file of corpusFiles()) {
    for (const c of readJson(file).cases ?? []) {
      const outcome = checkWebCase(web, c);
      if (outcome.skipped) skipped[outcome.skipped] += 1;
      else if (outcome.failure) failures.push(`${file}: ${c.name}: ${outcome.failure}`);
      else ran.add(c.op);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(skipped.web > 0 && skipped.routine > 0, JSON.stringify(skipped));
  // every operation of the browser's module is run by a case of its own
  const missed = table.ops.filter((op) => op.web && !ran.has(op.name)).map((op) => op.name);
  assert.deepEqual(missed, []);
});

test("every operation the browser's module has not got raises UsageError E_UNAVAILABLE", () => {
  const off = node.manifest().ops.filter((op) => !op.web);
  assert.ok(off.length > 0);
  const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  for (const op of off) {
    const fn = (op.module === "" ? web : web[op.module])[camel(op.method)];
    assert.equal(typeof fn, "function", op.name);
    assert.throws(
      () => fn(...op.params.map(() => null)),
      (e) => e instanceof web.UsageError && e.code === "E_UNAVAILABLE" && e.details.op === op.name && e.message.includes(op.name),
      op.name,
    );
  }
  for (const call of [
    () => web.updateFile("fctry.state", "", null, [{}]),
    () => web.updateLogged("hive.state", "s", "", null, 0, []),
    () => web.logReplay("hive.state", "s", null, 0, false),
    () => web.openDocument("fctry.state", "{}"),
    () => web.residentDocument("fctry.state", {}),
  ]) {
    assert.throws(call, (e) => e instanceof web.UsageError && e.code === "E_UNAVAILABLE");
  }
  // a reader the module has not got, through queryFile
  assert.throws(
    () => web.queryFile("fctry.state", "fctry_start_step", "{}", ["x"]),
    (e) => e instanceof web.UsageError && e.code === "E_UNAVAILABLE",
  );
});

test("the web entry exports the pure API of the Node entry, plus its loading", () => {
  const host = new Set(Object.keys(require("../lib/host/host.cjs")));
  const pure = Object.keys(node).filter((k) => k !== "default" && !host.has(k)).sort();
  const loading = new Set(["default", "init", "load", "loaded", "PROTOCOLS", "KIND_PROTOCOL"]);
  assert.deepEqual(Object.keys(web).filter((k) => !loading.has(k)).sort(), pure);
  assert.deepEqual(web.loaded(), ["all"]); // the combined module, loaded by init() above
  assert.equal(web.default, web.init);
  // the error classes are distinct objects per entry (separate module instances), same names
  assert.equal(web.ParseError.name, node.ParseError.name);
});
