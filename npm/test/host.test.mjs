// Unit tests of the Node host layer (npm/lib/host/host.cjs): documents and logs on real files.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { core, host, tempDir } from "./helpers/procs.mjs";

const {
  readDocument,
  readDocumentSync,
  updateDocument,
  updateDocumentSync,
  appendLine,
  appendLineSync,
  repairLog,
  repairLogSync,
  readLog,
  readLogSync,
} = host;

const bytesOf = (file) => fs.readFileSync(file);
const listDir = (dir) => fs.readdirSync(dir).sort();

test("a missing file reads as the kind's default, etag null, and is not created", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const json = readDocumentSync(file, "json");
  assert.deepEqual(json.document, {});
  assert.equal(json.etag, null);
  assert.equal(json.corrupt, false);
  const status = await readDocument(file, "agency.runner_status");
  assert.equal(status.document, null);
  assert.deepEqual(listDir(dir), []);
});

test("an unparseable file reads as the default with W_UNPARSEABLE, untouched", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  fs.writeFileSync(file, "{not json");
  for (const result of [readDocumentSync(file, "json"), await readDocument(file, "json")]) {
    assert.deepEqual(result.document, {});
    assert.equal(result.corrupt, true);
    assert.equal(result.etag, core.etag(Buffer.from("{not json")));
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ["W_UNPARSEABLE"],
    );
  }
  assert.equal(fs.readFileSync(file, "utf8"), "{not json");
  assert.deepEqual(listDir(dir), ["state.json"]);
});

test("an update keeps unknown fields and key order, writes canonical text", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  fs.writeFileSync(file, '{"zeta": {"keep": [1, 2]}, "a": 1, "__proto__": {"x": 1}}');
  const result = updateDocumentSync(file, "json", { a: 2 });
  assert.equal(result.changed, true);
  assert.equal(result.corruptCopy, null);
  const text = fs.readFileSync(file, "utf8");
  assert.equal(text, core.serialize(JSON.parse('{"zeta": {"keep": [1, 2]}, "a": 2, "__proto__": {"x": 1}}')));
  assert.deepEqual(Object.keys(JSON.parse(text)), ["zeta", "a", "__proto__"]);
  assert.equal(result.etag, core.etag(Buffer.from(text)));
  const again = await updateDocument(file, "json", (doc) => ({ ...doc, b: true }));
  assert.deepEqual(Object.keys(again.document), ["zeta", "a", "__proto__", "b"]);
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")).zeta, { keep: [1, 2] });
});

test("an update whose result is invalid raises ValidationError and leaves the bytes", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "status.json");
  const original = Buffer.from('{"status": "working", "summary": "x", "extra": 1}');
  fs.writeFileSync(file, original);
  assert.throws(
    () => updateDocumentSync(file, "agency.runner_status", { status: "bogus" }),
    (e) => e instanceof core.ValidationError && e.code === "E_INVALID",
  );
  await assert.rejects(
    updateDocument(file, "agency.runner_status", () => ["not", "an", "object"]),
    (e) => e instanceof core.ValidationError,
  );
  assert.throws(() => updateDocumentSync(path.join(dir, "j.json"), "json", () => 42), core.ValidationError);
  assert.deepEqual(bytesOf(file), original);
  assert.deepEqual(listDir(dir), ["status.json"]); // no lock, no temp, no copy left behind
});

test("if_match: a stale etag raises ConflictError and changes nothing; the current one works", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const first = updateDocumentSync(file, "json", { n: 1 });
  const before = bytesOf(file);
  const stale = core.etag(Buffer.from("{}\n"));
  assert.throws(
    () => updateDocumentSync(file, "json", { n: 2 }, null, { ifMatch: stale }),
    (e) => e instanceof core.ConflictError && e.code === "E_CONFLICT",
  );
  let called = false;
  await assert.rejects(
    updateDocument(file, "json", () => (called = true), null, { ifMatch: stale }),
    core.ConflictError,
  );
  assert.equal(called, false);
  assert.deepEqual(bytesOf(file), before);
  const second = updateDocumentSync(file, "json", { n: 2 }, null, { ifMatch: first.etag });
  assert.equal(second.document.n, 2);
  assert.deepEqual(listDir(dir), ["state.json"]);
});

test("a corrupt file is copied with its exact bytes before being replaced", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const damaged = Buffer.from([0x7b, 0x22, 0x61, 0xff, 0x00, 0x0a, 0x7d]); // not UTF-8, not JSON
  fs.writeFileSync(file, damaged);
  const result = updateDocumentSync(file, "json", { fresh: true });
  assert.match(path.basename(result.corruptCopy), /^state\.json\.corrupt-\d{8}T\d{9}Z(-\d+)?$/);
  assert.deepEqual(bytesOf(result.corruptCopy), damaged);
  assert.ok(result.warnings.some((w) => w.code === "W_CORRUPT_COPY" && w.message.includes(result.corruptCopy)));
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), { fresh: true });
  // A second corrupt write in the same millisecond gets its own name.
  fs.writeFileSync(file, "garbage 2");
  const second = await updateDocument(file, "json", { again: 1 });
  assert.notEqual(second.corruptCopy, result.corruptCopy);
  assert.equal(fs.readFileSync(second.corruptCopy, "utf8"), "garbage 2");
  assert.deepEqual(bytesOf(result.corruptCopy), damaged);
});

test("an unchanged document is not rewritten", (t) => {
  const file = path.join(tempDir(t), "state.json");
  updateDocumentSync(file, "json", { a: 1 });
  const inode = fs.statSync(file).ino;
  const result = updateDocumentSync(file, "json", { a: 1 });
  assert.equal(result.changed, false);
  assert.equal(fs.statSync(file).ino, inode);
});

test("the atomic write keeps the file's mode and removes dead writers' temp files", (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  fs.writeFileSync(file, "{}\n");
  fs.chmodSync(file, 0o600);
  const litter = path.join(dir, `.state.json.tmp-${"ab".repeat(16)}`);
  fs.writeFileSync(litter, '{"half": ');
  const other = path.join(dir, ".state.json.tmp-mine"); // not ours: not hex, kept
  fs.writeFileSync(other, "x");
  updateDocumentSync(file, "json", { a: 1 });
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.existsSync(litter), false);
  assert.equal(fs.existsSync(other), true);
});

test("a stamp without now is filled from the clock, or from the now option", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  const before = Date.now();
  const result = updateDocumentSync(file, "json", { a: 1 }, { stamp: { field: "updated_at" } });
  const stamped = result.document.updated_at;
  assert.match(stamped, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.ok(core.parseTimestamp(stamped) >= before - 1000);
  const fixed = await updateDocument(file, "json", { a: 2 }, { stamp: { field: "updated_at" } }, {
    now: "2026-01-19T12:00:00.000Z",
  });
  assert.equal(fixed.document.updated_at, "2026-01-19T12:00:00.000Z");
  const given = updateDocumentSync(file, "json", { a: 3 }, { stamp: { field: "updated_at", now: 0 } });
  assert.equal(given.document.updated_at, "1970-01-01T00:00:00.000Z");
});

test("update functions: mutate in place, return a value, or a Promise (async only)", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  updateDocumentSync(file, "json", (doc) => {
    doc.mutated = true;
  });
  await updateDocument(file, "json", async (doc) => ({ ...doc, awaited: true }));
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), { mutated: true, awaited: true });
  assert.throws(
    () => updateDocumentSync(file, "json", async (doc) => doc),
    /returned a Promise/,
  );
  assert.throws(() => updateDocumentSync(file, "json", () => { throw new Error("boom") }), /boom/);
  assert.throws(() => updateDocumentSync(file, "json", (d) => d, { strategy: "shallow" }), TypeError);
  assert.deepEqual(listDir(dir), ["state.json"]); // every failure released the lock
  updateDocumentSync(file, "json", { after: 1 }, null, { timeout: 0 });
});

test("append/readLog: a torn tail is dropped on read, repaired (with a copy) on append", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "EVENTS.jsonl");
  fs.writeFileSync(file, '{"a":1}\n{"b":2}\n{"c":');
  for (const log of [readLogSync(file), await readLog(file)]) {
    assert.deepEqual(log.records, [{ a: 1 }, { b: 2 }]);
    assert.deepEqual(log.torn, { line: 3, offset: 16 });
    assert.deepEqual(log.warnings.map((w) => w.code), ["W_TORN_TAIL"]);
  }
  assert.equal(fs.readFileSync(file, "utf8"), '{"a":1}\n{"b":2}\n{"c":'); // readers never write
  const result = appendLineSync(file, { d: 4 });
  assert.equal(fs.readFileSync(result.corruptCopy, "utf8"), '{"c":');
  assert.equal(fs.readFileSync(file, "utf8"), '{"a":1}\n{"b":2}\n{"d":4}\n');
  await appendLine(file, { e: 5 });
  const log = readLogSync(file);
  assert.deepEqual(log.records, [{ a: 1 }, { b: 2 }, { d: 4 }, { e: 5 }]);
  assert.equal(log.torn, null);
  assert.deepEqual(log.warnings, []);
});

test("repairLog: a torn last line cut off with a copy; a whole log, a missing one and garbage left alone", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "EVENTS.jsonl");
  fs.writeFileSync(file, '{"a":1}\n{"b":2}\n{"c":');
  const result = repairLogSync(file);
  assert.equal(result.tornLine, 3);
  assert.equal(fs.readFileSync(result.corruptCopy, "utf8"), '{"c":');
  assert.deepEqual(result.warnings.map((w) => w.code), ["W_TORN_TAIL"]);
  assert.equal(fs.readFileSync(file, "utf8"), '{"a":1}\n{"b":2}\n');
  assert.deepEqual(await repairLog(file), { tornLine: null, warnings: [], corruptCopy: null });
  assert.equal(fs.readFileSync(file, "utf8"), '{"a":1}\n{"b":2}\n');
  assert.deepEqual(repairLogSync(path.join(dir, "none.jsonl")).tornLine, null);
  assert.equal(fs.existsSync(path.join(dir, "none.jsonl")), false);
  const bad = path.join(dir, "bad.jsonl");
  fs.writeFileSync(bad, '1\nx\n{"c":');
  assert.throws(() => repairLogSync(bad), core.LogCorruptError);
  assert.equal(fs.readFileSync(bad, "utf8"), '1\nx\n{"c":');
  assert.throws(() => repairLogSync(file, { timout: 1 }), (e) => e.code === "E_OPTIONS");
});

test("append: garbage before the last valid line is E_LOG_CORRUPT and the file is untouched", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "EVENTS.jsonl");
  const original = '{"a":1}\ngarbage\n{"b":2}\n';
  fs.writeFileSync(file, original);
  assert.throws(() => appendLineSync(file, { c: 3 }), (e) => e instanceof core.LogCorruptError && e.code === "E_LOG_CORRUPT");
  await assert.rejects(appendLine(file, { c: 3 }), core.LogCorruptError);
  assert.throws(() => readLogSync(file), core.LogCorruptError);
  assert.equal(fs.readFileSync(file, "utf8"), original);
  assert.deepEqual(listDir(dir), ["EVENTS.jsonl"]);
});

test("append: a missing trailing newline is repaired; a missing log is created", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "EVENTS.jsonl");
  fs.writeFileSync(file, '{"a":1}');
  const result = appendLineSync(file, { b: 2 });
  assert.equal(result.corruptCopy, null);
  assert.equal(fs.readFileSync(file, "utf8"), '{"a":1}\n{"b":2}\n');
  const fresh = path.join(dir, "new.jsonl");
  assert.deepEqual(readLogSync(fresh), { records: [], torn: null, warnings: [] });
  await appendLine(fresh, { first: true });
  assert.equal(fs.readFileSync(fresh, "utf8"), '{"first":true}\n');
  assert.throws(() => appendLineSync(fresh, { bad: NaN }), core.DataError);
  assert.equal(fs.readFileSync(fresh, "utf8"), '{"first":true}\n');
});
