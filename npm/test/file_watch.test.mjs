// The one file-watching primitive (lib/host/file-watch.cjs): a file made in a directory that
// has just appeared is reported. chokidar scans a new directory before it watches it, so a
// file made in between was never reported (paulmillr/chokidar#1112, #1471): a fctry project
// made with `mkdir -p` while the viewer ran was missed now and then. Each of these projects
// gets its first file a moment after its directory, which hit that window about once in 200.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const { watchFiles } = createRequire(import.meta.url)("../lib/host/file-watch.cjs");

test("every file made in a new directory is reported, even one made as it appeared", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-new-dirs-"));
  const seen = new Set();
  const errors = [];
  const watcher = watchFiles(dir, { ignored: () => false, debounceMs: 0, events: ["add", "change"] }, (file) => seen.add(file), (e) => errors.push(e));
  try {
    await watcher.ready;
    const made = [];
    for (let i = 0; i < 200; i++) {
      const project = path.join(dir, `p${i}`, ".fctry");
      fs.mkdirSync(project, { recursive: true });
      for (let k = 0; k < i % 9; k++) await new Promise((resolve) => setImmediate(resolve));
      const file = path.join(project, "state.json");
      fs.writeFileSync(file, "{}\n");
      made.push(file);
    }
    // Waits until every file is reported (a generous bound for a loaded machine).
    const end = Date.now() + 30_000;
    while (Date.now() < end && made.some((file) => !seen.has(file))) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(made.filter((file) => !seen.has(file)), []);
    assert.deepEqual(errors, []);
  } finally {
    await watcher.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
