// Fault injection through the host layer's seam (lib/host/atomic.cjs `setFaultInjector`): every
// system call of an update and an append fails in turn, with ENOSPC and with EIO, sync and
// async. Each run must leave the old or the new file, no stray file, the lock released, and
// raise the injected error. FAULT_MATRIX=<file> writes the matrix (docs/locking.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { host, tempDir } from "./helpers/procs.mjs";
import { createRequire } from "node:module";

const atomic = createRequire(import.meta.url)("../lib/host/atomic.cjs");
const replace = createRequire(import.meta.url)("../lib/host/replace.cjs");

/** The operations: the files they start from, what they do, and the file they change. */
const OPERATIONS = {
  "update a document": {
    files: { "s.json": '{"a":1}' },
    target: "s.json",
    run: (dir, sync) => (sync ? host.updateDocumentSync : host.updateDocument)(path.join(dir, "s.json"), "json", { b: 2 }),
  },
  "update a corrupt document (copy, then write)": {
    files: { "s.json": "{" },
    target: "s.json",
    copy: "{",
    run: (dir, sync) => (sync ? host.updateDocumentSync : host.updateDocument)(path.join(dir, "s.json"), "json", { b: 2 }),
  },
  "write atomically (async: the short calls sync, the flushes on the pool)": {
    files: { "s.json": '{"a":1}' },
    target: "s.json",
    everyFault: true, // no lock to release: a failed call is always reported
    run: (dir, sync) => replace.writeAtomic[sync ? "sync" : "flushing"](path.join(dir, "s.json"), '{"a":2}'),
  },
  "append a log line": {
    files: { "e.jsonl": '{"a":1}\n' },
    target: "e.jsonl",
    run: (dir, sync) => (sync ? host.appendLineSync : host.appendLine)(path.join(dir, "e.jsonl"), { c: 1 }),
  },
  "append repairing a torn tail (copy, cut, append)": {
    files: { "e.jsonl": '{"a":1}\n{"b":' },
    target: "e.jsonl",
    copy: '{"b":',
    // Cut but not yet appended: the same log for every reader (the torn line is in the copy).
    repaired: '{"a":1}\n',
    run: (dir, sync) => (sync ? host.appendLineSync : host.appendLine)(path.join(dir, "e.jsonl"), { c: 1 }),
  },
};

function prepare(dir, files) {
  for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { force: true, recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
}

/** Runs `op` with the injector `fn`; its error or null. */
async function attempt(op, dir, sync, fn) {
  atomic.setFaultInjector(fn);
  try {
    await op.run(dir, sync);
    return null;
  } catch (error) {
    return error;
  } finally {
    atomic.setFaultInjector(null);
  }
}

const matrix = [];

for (const [name, op] of Object.entries(OPERATIONS)) {
  for (const sync of [true, false]) {
    test(`faults: ${name} (${sync ? "sync" : "async"})`, async (t) => {
      const dir = tempDir(t);
      prepare(dir, op.files);
      const steps = [];
      assert.equal(await attempt(op, dir, sync, (step) => steps.push(step)), null);
      const after = fs.readFileSync(path.join(dir, op.target), "utf8");
      const before = op.files[op.target];
      // The release of the lock is the last read (stat, open, fstat, read, close) and unlink.
      const releaseFrom = steps.lastIndexOf("open") - 1;
      for (let k = 0; k < steps.length; k++) {
        for (const fault of ["ENOSPC", "EIO"]) {
          prepare(dir, op.files);
          let seen = 0;
          const error = await attempt(op, dir, sync, (step) => {
            if (seen++ === k) throw Object.assign(new Error(`${fault}: injected at ${step}`), { code: fault });
          });
          const where = `${name}, ${sync ? "sync" : "async"}, step ${k} (${steps[k]}), ${fault}`;
          const text = fs.readFileSync(path.join(dir, op.target), "utf8");
          const state = text === before ? "old" : text === after ? "new" : text === op.repaired ? "repaired" : null;
          assert.ok(state !== null, `${where}: the old or the new file, not ${JSON.stringify(text)}`);
          const extra = fs.readdirSync(dir).filter((entry) => entry !== op.target);
          const inRelease = k >= releaseFrom;
          const lockTemp = k === steps.indexOf("link") + 1; // the lock temp's unlink, after its link()
          for (const entry of extra) {
            const copy = entry.startsWith(`${op.target}.corrupt-`);
            const lockLeft = entry === `${op.target}.lock` && inRelease;
            const tempLeft = lockTemp && /\.lock\.[0-9a-f]{32}\.tmp$/.test(entry);
            assert.ok(copy || lockLeft || tempLeft, `${where}: stray ${entry}`);
            if (copy) assert.equal(fs.readFileSync(path.join(dir, entry), "utf8"), op.copy, `${where}: a whole copy`);
          }
          if (op.everyFault) assert.notEqual(error, null, `${where}: the failure is reported`);
          if (error !== null) assert.equal(error.code, fault, `${where}: the injected error, not another`);
          else assert.ok(inRelease || lockTemp || text === after, `${where}: success means the new file`);
          matrix.push({ operation: name, sync, step: k, call: steps[k], fault, outcome: error ? "error" : "ok", file: state, left: extra });
        }
      }
    });
  }
}

test("faults: the matrix is written on request", { skip: !process.env.FAULT_MATRIX }, () => {
  fs.writeFileSync(process.env.FAULT_MATRIX, JSON.stringify(matrix, null, 1));
});
