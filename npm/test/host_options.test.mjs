// Host options are checked (issue 9 §7): an unknown or misspelt key of a host's options is a
// `UsageError` `E_OPTIONS` naming the nearest valid key (the core's `optionsError`), raised
// before the lock is taken, so the file is never touched. Python: tests/test_host_options.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as sc from "statecore-js";
import * as fctry from "statecore-js/fctry";
import * as hivemind from "statecore-js/hivemind";
import * as agency from "statecore-js/agency";
import { tempDir } from "./helpers/procs.mjs";

/** Runs `fn` (sync or async) and asserts it raised E_OPTIONS at `/<key>` suggesting `nearest`. */
async function refused(fn, key, nearest) {
  await assert.rejects(
    async () => fn(),
    (error) => {
      assert.ok(error instanceof sc.UsageError, `${error?.name}: ${error?.message}`);
      assert.equal(error.code, "E_OPTIONS");
      assert.equal(error.path, key === "" ? "" : `/${key}`);
      if (nearest) assert.match(error.message, new RegExp(`did you mean "${nearest}"\\?`));
      return true;
    },
  );
}

/** The names and bytes of every file under `dir`, to show nothing was written. */
function snapshot(dir) {
  const out = {};
  for (const entry of fs.readdirSync(dir, { recursive: true }).sort()) {
    const full = path.join(dir, entry);
    out[entry] = fs.statSync(full).isFile() ? fs.readFileSync(full).toString("hex") : "dir";
  }
  return out;
}

test("a misspelt ifMatch or timeout of updateDocument is refused, not ignored", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  sc.updateDocumentSync(file, "json", { a: 0 });
  const before = snapshot(dir);
  await refused(() => sc.updateDocumentSync(file, "json", { a: 1 }, null, { ifmatch: "x" }), "ifmatch", "ifMatch");
  await refused(() => sc.updateDocumentSync(file, "json", { a: 1 }, null, { timout: 100 }), "timout", "timeout");
  await refused(() => sc.updateDocument(file, "json", { a: 1 }, null, { if_match: "x" }), "if_match", "ifMatch");
  await refused(() => sc.updateDocumentSync(file, "json", (d) => d, null, { nwo: 1 }), "nwo", "now");
  assert.deepEqual(snapshot(dir), before);
  // the spelled-out options work
  const etag = sc.readDocumentSync(file, "json").etag;
  assert.equal(sc.updateDocumentSync(file, "json", { a: 1 }, null, { ifMatch: etag, timeout: 100 }).changed, true);
});

test("a misspelt option of appendLine is refused and the log untouched", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "events.jsonl");
  sc.appendLineSync(file, { n: 1 });
  const before = snapshot(dir);
  await refused(() => sc.appendLineSync(file, { n: 2 }, { timeot: 5 }), "timeot", "timeout");
  await refused(() => sc.appendLine(file, { n: 2 }, { ifMatch: null }), "ifMatch");
  assert.deepEqual(snapshot(dir), before);
});

test("every protocol helper checks its options before touching the directory", async (t) => {
  const dir = tempDir(t);
  fctry.startCommandSync(dir, "init");
  hivemind.fireSync(dir, "select_project");
  agency.writeInitialRunnerStatusSync(dir);
  const before = snapshot(dir);
  await refused(() => fctry.startStepSync(dir, "interview", { ifmatch: null }), "ifmatch", "ifMatch");
  await refused(() => fctry.startStep(dir, "interview", { timeOut: 5 }), "timeOut", "timeout");
  await refused(() => fctry.inboxAddSync(dir, "reference", "x", { randum: "abcd" }), "randum", "random");
  await refused(() => hivemind.fireSync(dir, "user_submit", null, { tiemout: 5 }), "tiemout", "timeout");
  await refused(() => agency.writeRunnerStatusSync(dir, { status: "working" }, { if_match: null }), "if_match", "ifMatch");
  assert.deepEqual(snapshot(dir), before);
});

test("options that are not an object are refused", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  await refused(() => sc.updateDocumentSync(file, "json", {}, null, "fast"), "");
  await refused(() => sc.appendLineSync(file, {}, [100]), "");
  await refused(() => fctry.startStepSync(dir, "interview", 100), "");
  assert.deepEqual(fs.readdirSync(dir), []);
});

test("an update option given as a merge option says where it goes", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  sc.updateDocumentSync(file, "json", { a: 0 });
  const before = snapshot(dir);
  for (const [key, shown] of [["timeout", "timeout"], ["ifMatch", "ifMatch"], ["now", "now"]]) {
    await assert.rejects(
      async () => sc.updateDocument(file, "json", { a: 1 }, { [key]: 100 }),
      (error) => {
        assert.ok(error instanceof sc.UsageError, `${error?.name}: ${error?.message}`);
        assert.equal(error.code, "E_OPTIONS");
        assert.equal(error.path, `/${key}`);
        assert.equal(error.details.belongs_to, "update");
        assert.doesNotMatch(error.message, /unknown merge option/);
        assert.match(error.message, /after the merge options/);
        assert.ok(error.message.includes(`updateDocument(file, kind, patch, null, { ${shown}: ... })`), error.message);
        return true;
      },
    );
  }
  // With an update function too (it takes no merge options): the same message, not a bare TypeError.
  await assert.rejects(
    async () => sc.updateDocument(file, "json", (d) => d, { timeout: 100 }),
    (error) => error instanceof sc.UsageError && error.details.belongs_to === "update" && /after the merge options/.test(error.message),
  );
  assert.deepEqual(snapshot(dir), before);
});

test("a Sync helper given a store says to use the async form (E_OPTIONS)", async (t) => {
  const dir = tempDir(t);
  const { FileStore, PostgresStore } = await import("statecore-js/store");
  // A PostgresStore that never connects: the refusal comes before any query.
  const pg = Object.create(PostgresStore.prototype);
  const files = new FileStore(path.join(dir, "store"));
  for (const store of [pg, files]) {
    for (const [call, name] of [
      [() => fctry.readStateSync(dir, { store }), "readState"],
      [() => fctry.startCommandSync(dir, "init", { store }), "startCommand"],
      [() => hivemind.fireSync(dir, "select_project", null, { store }), "fire"],
    ]) {
      assert.throws(call, (error) => {
        assert.ok(error instanceof sc.UsageError, `${error?.name}: ${error?.message}`);
        assert.equal(error.code, "E_OPTIONS");
        assert.equal(error.path, "/store");
        assert.ok(error.message.includes(`${name}Sync`), error.message);
        assert.ok(error.message.includes(`await ${name}(`), error.message);
        return true;
      });
    }
  }
  assert.equal(fs.existsSync(path.join(dir, ".fctry")), false);
  assert.equal(fs.existsSync(path.join(dir, "workspace")), false);
});
