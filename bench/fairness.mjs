// Lock fairness under contention (docs/locking.md § Fairness), for `make bench`: a writer in a
// tight loop (Node or Python, another process) re-takes the lock at once; a waiter in this
// process (Node) or in a Python process takes it `ROUNDS` times. Prints a markdown table of
// each waiter's median and longest wait. Never fails on speed: it fails only when a writer or
// a waiter fails, or the counter the tight loop increments did not move.
//   node bench/fairness.mjs [--quick]
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const python = path.join(root, ".venv", "bin", "python");
const host = createRequire(import.meta.url)(path.join(root, "npm", "lib", "host", "host.cjs"));
const ROUNDS = process.argv.includes("--quick") ? 5 : 40;

/** Starts a tight-loop writer; resolves once it has written. */
async function startWriter(language, file) {
  const child =
    language === "node"
      ? spawn(process.execPath, [
          "-e",
          `const { updateDocumentSync } = require(${JSON.stringify(path.join(root, "npm", "lib", "host", "host.cjs"))});
           process.stdout.write("ready\\n");
           for (;;) updateDocumentSync(${JSON.stringify(file)}, "json", (d) => ({ ...d, counter: (d.counter ?? 0) + 1 }));`,
        ])
      : spawn(python, [path.join(root, "python", "tests", "helpers", "writer.py"), file, "0"]);
  await new Promise((resolve) => child.stdout.once("data", resolve));
  while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 5));
  return child;
}

/** The waits (ms) of a Node waiter taking the lock ROUNDS times. */
function nodeWaits(file) {
  const waits = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    host.acquireLockSync(file, 30_000).release();
    waits.push(performance.now() - start);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  return waits;
}

/** The waits (ms) of a Python waiter taking the lock ROUNDS times. */
function pythonWaits(file) {
  const script = `
import json, sys, time
from statecore.host import acquire_lock
waits = []
for _ in range(${ROUNDS}):
    start = time.perf_counter()
    with acquire_lock(sys.argv[1], 30.0):
        waits.append((time.perf_counter() - start) * 1000)
    time.sleep(0.005)
print(json.dumps(waits))`;
  return JSON.parse(execFileSync(python, ["-c", script, file]).toString());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log("| tight-loop writer | waiter | rounds | median wait (ms) | longest wait (ms) | writer updates meanwhile |");
console.log("|---|---|---|---|---|---|");
for (const writer of ["node", "python"]) {
  for (const waiter of ["node", "python"]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-fair-"));
    const file = path.join(dir, "state.json");
    const child = await startWriter(writer, file);
    try {
      const before = host.readDocumentSync(file, "json").document.counter;
      const waits = waiter === "node" ? nodeWaits(file) : pythonWaits(file);
      const after = host.readDocumentSync(file, "json").document.counter;
      if (!(after > before)) throw new Error(`the ${writer} writer did not write`);
      const row = [writer, waiter, ROUNDS, median(waits).toFixed(1), Math.max(...waits).toFixed(1), after - before];
      console.log(`| ${row.join(" | ")} |`);
    } finally {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
