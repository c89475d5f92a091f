"use strict";
// Test helper: takes the lock of argv[2], prints {"locked":true,"pid":...,"record":{...}} on
// stdout, then holds it until a line "release" arrives on stdin (or stdin closes), releases
// it and prints {"released":<bool>}. Used by the lock tests of both languages.
const host = require("../../lib/host/host.cjs");

const [file, timeout = "10000"] = process.argv.slice(2);
const lock = host.acquireLockSync(file, Number(timeout));
process.stdout.write(JSON.stringify({ locked: true, pid: process.pid, record: lock.record }) + "\n");

let input = "";
let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  const released = lock.release();
  process.stdout.write(JSON.stringify({ released }) + "\n", () => process.exit(0));
}
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
  if (input.includes("release")) finish();
});
process.stdin.on("end", finish);
