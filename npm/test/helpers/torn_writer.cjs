"use strict";
// Test helper: writes argv[2] as a tool without statecore does, each write in two halves with
// argv[5] ms between them, so a watcher can read the half-written file. argv[3]: `doc` (the
// file rewritten in place: truncated, first half, pause, second half) or `log` (each record
// appended in two writes). argv[4] writes; argv[6] `1`: hold `<file>.lock` during each write.
// Prints "done MS" at the end, MS the longest a write left the file torn (from its open to the
// end of its second half): on a busy machine the pause can be far longer than asked, and the
// tests judge a torn report by it. The twin of python/tests/helpers/torn_writer.py.
const fs = require("node:fs");

const [file, mode, count, gap, locked] = process.argv.slice(2);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The i-th text: a valid fctry state, or one hive event line. */
function text(i) {
  if (mode === "doc") return `{\n  "activeSection": "#s${i}",\n  "activeSectionNumber": "${i}"\n}\n`;
  const event = { timestamp: "2026-11-25T01:00:00Z", type: "progress", agent: `w${i}`, details: { note: `é${i}` } };
  return `${JSON.stringify(event)}\n`;
}

let tornMs = 0;
for (let i = 0; i < Number(count); i++) {
  const bytes = Buffer.from(text(i));
  const half = Math.floor(bytes.length / 2) + 1; // inside the `é` for a log line
  if (locked === "1") fs.writeFileSync(`${file}.lock`, "{}");
  const opened = performance.now();
  const fd = fs.openSync(file, mode === "doc" ? "w" : "a");
  fs.writeSync(fd, bytes.subarray(0, half));
  pause(Number(gap));
  fs.writeSync(fd, bytes.subarray(half));
  tornMs = Math.max(tornMs, performance.now() - opened);
  fs.closeSync(fd);
  if (locked === "1") fs.unlinkSync(`${file}.lock`);
  pause(Number(gap));
}
process.stdout.write(`done ${Math.ceil(tornMs)}\n`);
