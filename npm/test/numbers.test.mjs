// Issue 35 item 9: Node never silently rewrites numbers another writer wrote. JS numbers are
// doubles: a number an update did not change keeps the file's exact text, and a changed
// integer a double cannot hold exactly is refused with its path (docs/api.md § Host values).
// The writer of the other numbers is a Python process, as in the attack run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { NPM, PYTHON, core, host, tempDir } from "./helpers/procs.mjs";

const BIN = path.join(NPM, "bin", "statecore.cjs");
const code = (want, at) => (e) => e instanceof core.StatecoreError && e.code === want && (at === undefined || e.path === at);

/** A document written by Python's update_document: 2**63, 10**23 (ints), a float and x. */
function writtenByPython(t) {
  const file = path.join(tempDir(t), "numbers.json");
  const script = `import statecore, sys\nstatecore.update_document(sys.argv[1], "json", {"big": 2**63, "huge": 10**23, "max": 2**63 - 1, "f": 0.1, "x": 1})`;
  execFileSync(PYTHON, ["-c", script, file]);
  const text = fs.readFileSync(file, "utf8");
  assert.match(text, /"big": 9223372036854775808,/);
  assert.match(text, /"huge": 100000000000000000000000,/);
  return { file, text };
}

test("a Node update function that changes only x keeps every other number's text (sync and async)", async (t) => {
  const { file, text } = writtenByPython(t);
  // 2**63 - 1 has no double: reading the document into JS needs bigint (docs/api.md)
  const changeX = (n) => (doc) => {
    doc.x = n;
    return doc;
  };
  host.updateDocumentSync(file, "json", changeX(2), null, { bigint: true });
  assert.equal(fs.readFileSync(file, "utf8"), text.replace('"x": 1', '"x": 2'));
  await host.updateDocument(file, "json", changeX(3), null, { bigint: true });
  assert.equal(fs.readFileSync(file, "utf8"), text.replace('"x": 1', '"x": 3'));
});

test("without the one integer no double holds, no bigint option is needed and nothing is rewritten", (t) => {
  const file = path.join(tempDir(t), "numbers.json");
  execFileSync(PYTHON, ["-c", `import statecore, sys\nstatecore.update_document(sys.argv[1], "json", {"big": 2**63, "huge": 10**23, "f": 1.5, "x": 1})`, file]);
  const text = fs.readFileSync(file, "utf8");
  host.updateDocumentSync(file, "json", (doc) => ({ ...doc, x: 2 }));
  assert.equal(fs.readFileSync(file, "utf8"), text.replace('"x": 1', '"x": 2'));
});

test("a changed integer beyond 2^53 - 1 is E_PRECISION with its path, and the file is untouched", (t) => {
  const { file, text } = writtenByPython(t);
  const bump = (doc) => {
    doc.added = { n: 2 ** 60 + 1 };
    return doc;
  };
  assert.throws(() => host.updateDocumentSync(file, "json", bump, null, { bigint: true }), code("E_PRECISION", "/added/n"));
  assert.equal(fs.readFileSync(file, "utf8"), text);
});

test("the command line updates a file holding integers no double holds, in both languages alike", (t) => {
  const { file, text } = writtenByPython(t);
  const node = execFileSync(process.execPath, [BIN, "update", file, "--kind", "json", "--set", "/x=4"], { encoding: "utf8" });
  const afterNode = fs.readFileSync(file, "utf8");
  assert.equal(afterNode, text.replace('"x": 1', '"x": 4'));
  fs.writeFileSync(file, text);
  const python = execFileSync(PYTHON, ["-m", "statecore", "update", file, "--kind", "json", "--set", "/x=4"], { encoding: "utf8" });
  assert.equal(fs.readFileSync(file, "utf8"), afterNode);
  assert.equal(node, python);
  execFileSync(process.execPath, [BIN, "update", file, "--kind", "json", "--merge", '{"x": 5}']);
  assert.equal(fs.readFileSync(file, "utf8"), text.replace('"x": 1', '"x": 5'));
});
