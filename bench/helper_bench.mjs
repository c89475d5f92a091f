// One sample set of a protocol helper's locked update, for bench/helper_compare.py: `fctry
// startStepSync(projectDir, step, {now})` (lock, read, update, validate, atomic write, unlock)
// with the fctry helpers at argv[2] (this tree's npm/lib/fctry.cjs or a baseline build's).
//   node helper_bench.mjs <fctry.cjs> <samples> <ops per sample>
// Prints {"times": [ns per op, one per sample]}; exits 1 when a result is wrong.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const [helpersPath, samples = "5", ops = "200"] = process.argv.slice(2);
const F = createRequire(import.meta.url)(path.resolve(helpersPath));
const project = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-helper-bench-"));
const file = path.join(project, ".fctry", "state.json");
fs.mkdirSync(path.dirname(file));
fs.writeFileSync(file, fs.readFileSync(new URL("./fixtures/fctry_state.json", import.meta.url)));
const STEPS = ["interviewer", "spec-writer"];
const now = Date.parse("2026-02-12T15:30:00Z");
const step = (i) => F.startStepSync(project, STEPS[i % 2], { now: now + i });

try {
  for (let i = 0; i < 50; i++) step(i); // warm-up
  const times = [];
  for (let s = 0; s < Number(samples); s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < Number(ops); i++) step(i);
    times.push(Number(process.hrtime.bigint() - t0) / Number(ops));
  }
  const last = JSON.parse(fs.readFileSync(file, "utf8"));
  const want = STEPS[(Number(ops) - 1) % 2];
  if (last.workflowStep !== want || last.currentCommand !== "evolve" || last.specVersion !== "1.2") {
    console.error(`wrong result: workflowStep ${last.workflowStep}, want ${want}`);
    process.exit(1);
  }
  if (fs.readdirSync(path.dirname(file)).sort().join(",") !== "state.json") {
    console.error(`left files behind: ${fs.readdirSync(path.dirname(file))}`);
    process.exit(1);
  }
  console.log(JSON.stringify({ times }));
} finally {
  fs.rmSync(project, { recursive: true, force: true });
}
