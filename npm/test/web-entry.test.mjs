// The browser entry "statecore-js/web" loaded in Node: nothing works before `init()` (a
// StatecoreError E_NOT_INITIALIZED), `init(bytes)` works without fetch, and it exports the
// same pure API as the Node entry (the host I/O layer is Node-only).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import init, * as web from "statecore-js/web";
import * as node from "statecore-js";
import { checkCase } from "./corpus-runner.mjs";
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
  const failures = [];
  for (const file of corpusFiles()) {
    for (const c of readJson(file).cases ?? []) {
      const failure = checkCase(web, c);
      if (failure) failures.push(`${file}: ${c.name}: ${failure}`);
    }
  }
  assert.deepEqual(failures, []);
});

test("the web entry exports the pure API of the Node entry, plus init", () => {
  const host = new Set(Object.keys(require("../lib/host.cjs")));
  const pure = Object.keys(node).filter((k) => k !== "default" && !host.has(k)).sort();
  assert.deepEqual(Object.keys(web).filter((k) => k !== "default" && k !== "init").sort(), pure);
  assert.equal(web.default, web.init);
  // the error classes are distinct objects per entry (separate module instances), same names
  assert.equal(web.ParseError.name, node.ParseError.name);
});
