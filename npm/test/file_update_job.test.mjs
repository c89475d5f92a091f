// The file update job through the JS API (`fileUpdateJob`, docs/locking.md § The update as a
// job): what a tool with its own I/O calls. The steps themselves are the corpus's
// (tests/conformance/host/file_update_jobs.json); here, the bytes given beside an answer, an
// unknown kind, and a whole update driven by the host on a real file.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileUpdateJob, updateDocumentSync } from "statecore-js";

const INDEX = "/d/specs/index.md";
// A file a person is still saving: its last line has no line break.
const UNTERMINATED = "# Spec\n\n| id | title |\n|----|-------|\n| G1 | one |";

test("a file people edit is judged from the bytes given beside the answer", () => {
  const job = fileUpdateJob("specify.index", INDEX, 0);
  try {
    assert.deepEqual(job.first, { do: "load", path: INDEX, bytes: true });
    // Unfinished and 600 ms old: waited on until it has been left alone 1 s, a poll at a time.
    const step = job.next({ missing: false, age_ms: 600 }, new TextEncoder().encode(UNTERMINATED));
    assert.deepEqual(step, { do: "pause", ms: 250 });
  } finally {
    job.free();
  }
  // The same answer without the bytes: nothing known unfinished, so 600 ms is quiet enough.
  const blind = fileUpdateJob("specify.index", INDEX, 0);
  try {
    assert.equal(blind.next({ missing: false, age_ms: 600 }).do, "all");
  } finally {
    blind.free();
  }
  // Bytes that are not UTF-8 are taken as they are (the change refuses them, not the wait).
  const raw = fileUpdateJob("specify.index", INDEX, 0);
  try {
    assert.equal(raw.next({ missing: false, age_ms: 600 }, Uint8Array.of(0xff, 0xfe, 0x00)).do, "all");
  } finally {
    raw.free();
  }
});

test("an unknown kind is refused before any step; the first step of a JSON kind is the whole update", () => {
  assert.throws(() => fileUpdateJob("fctry.nope", "/d/s.json", 0), (e) => e.code === "E_KIND");
  const job = fileUpdateJob("fctry.state", "/d/s.json", 0);
  try {
    assert.deepEqual(
      job.first.steps.map((step) => step.do),
      ["load", "apply", "write", "done"],
    );
  } finally {
    job.free();
  }
});

test("an update of a corrupt file, driven by the host: the copy the job named, then the write", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-file-job-"));
  try {
    const file = path.join(dir, "doc.json");
    fs.writeFileSync(file, "{not json");
    const out = updateDocumentSync(file, "json", { a: 1 });
    assert.equal(out.changed, true);
    assert.match(path.basename(out.corruptCopy), /^doc\.json\.corrupt-\d{8}T\d{9}Z$/);
    assert.equal(fs.readFileSync(out.corruptCopy, "utf8"), "{not json");
    assert.deepEqual(out.warnings.map((w) => w.code), ["W_UNPARSEABLE", "W_CORRUPT_COPY"]);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), { a: 1 });
    // Unchanged: nothing written, no copy, no warning.
    const again = updateDocumentSync(file, "json", { a: 1 });
    assert.equal(again.changed, false);
    assert.equal(again.corruptCopy, null);
    assert.deepEqual(fs.readdirSync(dir).sort(), ["doc.json", path.basename(out.corruptCopy)].sort());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
