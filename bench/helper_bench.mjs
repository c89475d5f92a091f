// One sample set of a protocol helper's update, for bench/helper_compare.py, with the npm
// package whose lib/ is at argv[3] (this tree's or a baseline build's):
//   node helper_bench.mjs locked <npm dir> <samples> <ops per sample>
//     `fctry.startStepSync(projectDir, step, {now})`: lock, read, update, validate, atomic
//     write, unlock, on a real project directory;
//   node helper_bench.mjs memory <npm dir> <samples> <ops per sample>
//     the same update without I/O: what the helper asks of the core for one update (this
//     tree: `updateFile`, one crossing; before the operation table: loadDocument,
//     checkIfMatch, fctry.startStep, finishUpdate, four crossings).
// Prints {"times": [ns per op, one per sample]}; exits 1 when a result is wrong.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const [mode, npmDir, samples = "5", ops = "200"] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const STEPS = ["interviewer", "spec-writer"];
const NOW = Date.parse("2026-02-12T15:30:00Z");
const fixture = fs.readFileSync(new URL("./fixtures/fctry_state.json", import.meta.url));

/**
 * The first of `names` (paths below the npm dir) that exists: this tree's layout by layer
 * (`lib/host/fctry.cjs`) or an older baseline's flat `lib/` (`lib/fctry.cjs`).
 */
function lib(...names) {
  const found = names.map((name) => path.resolve(npmDir, name)).find((file) => fs.existsSync(file));
  if (found === undefined) throw new Error(`none of ${names.join(", ")} in ${npmDir}`);
  return found;
}

/** The operation of `mode` (`i`: which call) and a check of the state it leaves. */
function setUp() {
  if (mode === "locked") {
    const F = require(lib("lib/host/fctry.cjs", "lib/fctry.cjs"));
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-helper-bench-"));
    const file = path.join(project, ".fctry", "state.json");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, fixture);
    return {
      step: (i) => F.startStepSync(project, STEPS[i % 2], { now: NOW + i }),
      last: () => {
        const left = fs.readdirSync(path.dirname(file)).join(",");
        if (left !== "state.json") throw new Error(`left files behind: ${left}`);
        return JSON.parse(fs.readFileSync(file, "utf8"));
      },
      done: () => fs.rmSync(project, { recursive: true, force: true }),
    };
  }
  const sc = require(lib("lib/node.cjs"));
  let bytes = fixture;
  const update = sc.updateFile
    ? (step, now) => sc.updateFile("fctry.state", "fctry_start_step", bytes, [step], { now })
    : (step, now) => {
        const loaded = sc.loadDocument("fctry.state", bytes);
        sc.checkIfMatch(loaded.etag, null);
        return sc.finishUpdate("fctry.state", bytes, sc.fctry.startStep(loaded.document, step, now), null);
      };
  return {
    step: (i) => {
      bytes = Buffer.from(update(STEPS[i % 2], NOW + i).text);
    },
    last: () => JSON.parse(bytes),
    done: () => {},
  };
}

const run = setUp();
try {
  for (let i = 0; i < Math.max(50, Number(ops)); i++) run.step(i); // warm-up (wasm tiers up)
  const times = [];
  for (let s = 0; s < Number(samples); s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < Number(ops); i++) run.step(i);
    times.push(Number(process.hrtime.bigint() - t0) / Number(ops));
  }
  const last = run.last();
  const want = STEPS[(Number(ops) - 1) % 2];
  if (last.workflowStep !== want || last.currentCommand !== "evolve" || last.specVersion !== "1.2") {
    console.error(`wrong result: workflowStep ${last.workflowStep}, want ${want}`);
    process.exit(1);
  }
  console.log(JSON.stringify({ times }));
} finally {
  run.done();
}
