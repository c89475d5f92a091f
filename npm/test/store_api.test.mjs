// The document stores' API is declared once, in the core's table of the stores' API
// (manifest().host.stores, core/src/ops/table_store_api.rs), and its TypeScript declarations
// (lib/generated/store.d.ts) and docs generated from it: each JS store has the table's members
// and no other public one, so a member added by hand without its row (whose type would then be
// written by hand) fails here (python/tests/test_store_api.py checks the Python classes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { manifest } from "statecore-js";

const require = createRequire(import.meta.url);
const { FileStore, PostgresStore } = require("../lib/store/store.cjs");
const STORES = Object.fromEntries(manifest().host.stores.map((c) => [c.name, c]));

/**
 * The store's own members the table leaves out: the command line's and the stores' sessions'
 * way into a `PostgresStore` (its SQL statements, transactions, keys, pool set-up), not API.
 */
const INTERNAL = {
  FileStore: [],
  PostgresStore: ["keepalives", "transaction", "statement", "migrate", "keys"],
};

/** The members JS has, by the table, of one kind. */
const declared = (name, ...kinds) =>
  STORES[name].members.filter((m) => m.lang !== "python" && kinds.includes(m.kind)).map((m) => m.js).sort();

for (const [name, cls] of [["FileStore", FileStore], ["PostgresStore", PostgresStore]]) {
  test(`statecore-js/store ${name}: the table's members, and no other public one`, () => {
    assert.equal(STORES[name].implements, "DocumentStore");
    const methods = Object.getOwnPropertyNames(cls.prototype).filter(
      (m) => m !== "constructor" && typeof cls.prototype[m] === "function" && !INTERNAL[name].includes(m),
    );
    assert.deepEqual(methods.sort(), declared(name, "method"));
    const statics = Object.getOwnPropertyNames(cls).filter((m) => typeof cls[m] === "function");
    assert.deepEqual(statics.sort(), declared(name, "static"));
  });
}

test("a FileStore has its declared properties, and each method takes at most the table's parameters", () => {
  const store = new FileStore("/");
  for (const prop of declared("FileStore", "property")) assert.equal(typeof store[prop], "string");
  for (const [name, cls] of [["FileStore", FileStore], ["PostgresStore", PostgresStore]]) {
    for (const m of STORES[name].members.filter((m) => m.lang !== "python" && m.kind === "method")) {
      const params = m.params.filter((p) => p.lang !== "python");
      // Function.length counts the parameters before the first with a default.
      assert.ok(cls.prototype[m.js].length <= params.length, `${name}.${m.js} takes more than the table's ${params.length}`);
      assert.ok(cls.prototype[m.js].length >= params.filter((p) => !p.optional).length, `${name}.${m.js} takes fewer than the table's required`);
    }
  }
});

test("the declaration names the interface's members in every store", () => {
  const shared = STORES.DocumentStore.members.map((m) => m.name);
  assert.deepEqual(shared.sort(), ["change", "close", "query", "read", "update"]);
  for (const name of ["FileStore", "PostgresStore"]) {
    for (const member of shared) assert.ok(STORES[name].members.some((m) => m.name === member), `${name} lacks ${member}`);
  }
});
