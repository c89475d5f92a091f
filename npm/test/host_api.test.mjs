// The host routines are declared once, in the core's host-routine table (manifest().host.routines,
// core/src/ops/table_routines.rs), and their types and docs generated from it: every routine the
// host modules export by hand is a row of the table and every row is exported, so a routine
// added by hand without a row (whose types would then be written by hand) fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { manifest } from "statecore-js";

const require = createRequire(import.meta.url);
const { helpers } = require("../lib/host/helpers.cjs");
const ROUTINES = manifest().host.routines;

/** A class (`Lock`, a store) is a host object, not a routine. */
const isRoutine = (value) =>
  typeof value === "function" && !/^class\b/.test(Function.prototype.toString.call(value));

/** The routines a module exports that are not generated from the operation table. */
function handWritten(entry) {
  const exported = require(`../lib/host/${entry}.cjs`);
  const generated = entry === "host" ? {} : helpers(entry);
  return Object.keys(exported)
    .filter((name) => isRoutine(exported[name]) && !(name in generated))
    .sort();
}

for (const entry of ["host", "hivemind", "agency", "hive", "specify"]) {
  test(`statecore-js ${entry}: its hand-written routines are the table's, and no more`, () => {
    const declared = ROUTINES.filter((r) => r.entry === entry)
      .flatMap((r) => r.js)
      .sort();
    assert.ok(declared.length > 0, `no routine of ${entry} in the table`);
    assert.deepEqual(handWritten(entry), declared);
  });
}

test("every routine of the table has a known entry, a doc and JS names of its style", () => {
  const entries = new Set(["host", "hivemind", "agency", "hive", "specify"]);
  const names = new Set();
  for (const r of ROUTINES) {
    assert.ok(entries.has(r.entry), r.name);
    assert.ok(r.doc.length > 20, r.name);
    assert.ok(!names.has(`${r.entry}.${r.name}`), `${r.name} twice`);
    names.add(`${r.entry}.${r.name}`);
    const camel = r.name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    assert.deepEqual(r.js, r.style === "both" ? [camel, `${camel}Sync`] : [camel]);
  }
});

test("the root entry exports the host routines", () => {
  const root = require("statecore-js");
  for (const r of ROUTINES.filter((r) => r.entry === "host")) {
    for (const name of r.js) assert.equal(typeof root[name], "function", name);
  }
});
