// The shared conformance corpus (tests/conformance/**/*.json, tests/README.md) through the
// package's public entries: every case through `import ... from "statecore-js"` (ESM, resolved by
// the package's self-reference), then all of them once more through `require("statecore-js")`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "statecore-js";
import { checkCase } from "./corpus-runner.mjs";
import { corpusFiles, readJson } from "./files.mjs";

const cjs = createRequire(import.meta.url)("statecore-js");
const suites = corpusFiles().map((file) => ({ file, cases: readJson(file).cases ?? [] }));

for (const { file, cases } of suites) {
  for (const c of cases) {
    test(`${file}: ${c.name}`, () => {
      const failure = checkCase(esm, c);
      assert.equal(failure, null, failure ?? "");
    });
  }
}

test("every case through the CommonJS entry", () => {
  const failures = [];
  for (const { file, cases } of suites) {
    for (const c of cases) {
      const failure = checkCase(cjs, c);
      if (failure) failures.push(`${file}: ${c.name}: ${failure}`);
    }
  }
  assert.deepEqual(failures, []);
});

test("the ESM and CommonJS entries are one instance with the same exports", () => {
  const names = Object.keys(cjs).sort();
  assert.deepEqual(Object.keys(esm).filter((k) => k !== "default").sort(), names);
  for (const name of names) assert.equal(esm[name], cjs[name], name);
});

test("CONSTANTS are the core's host constants (manifest().host.constants), in camelCase", () => {
  const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  const want = Object.fromEntries(
    Object.entries(esm.manifest().host.constants).map(([name, value]) => [camel(name), value]),
  );
  assert.deepEqual({ ...esm.CONSTANTS }, want);
  assert.equal(esm.CONSTANTS.lockLeaseMs, 60000);
  assert.ok(Object.isFrozen(esm.CONSTANTS));
});
