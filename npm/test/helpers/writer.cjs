"use strict";
// Test helper: `node writer.cjs FILE COUNT [PAD] [go]` increments `counter` (and `copy`, which
// must always equal it) in FILE through updateDocumentSync, COUNT times (0 = until killed).
// Prints "ready" first; with "go" it then waits for a line on stdin before starting.
// Exits 0 after printing "done".
const host = require("../../lib/host/host.cjs");

const [file, countArg, padArg = "0", go] = process.argv.slice(2);
const count = Number(countArg);
const pad = "x".repeat(Number(padArg));

function run() {
  for (let i = 0; count === 0 || i < count; i++) {
    host.updateDocumentSync(
      file,
      "json",
      (doc) => {
        const next = (doc.counter ?? 0) + 1;
        doc.counter = next;
        doc.copy = next;
        doc.pad = pad;
        doc.writer = "node";
      },
      null,
      { timeout: 60_000 },
    );
  }
  process.stdout.write("done\n", () => process.exit(0));
}

host.readDocumentSync(file, "json"); // loads the wasm before "ready": kills land in updates
process.stdout.write("ready\n");
if (go === "go") process.stdin.once("data", run);
else run();
