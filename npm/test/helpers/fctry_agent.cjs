"use strict";
// Test helper: `node fctry_agent.cjs FILE PROC STEP ROUNDS` acts as one fctry agent on the
// `.fctry/state.json` FILE (the project directory is two levels above it). Each round r makes
// three separate locked updates through the one-call helpers of `statecore-js/fctry`:
// startStepSync(STEP), completeStepSync(STEP, {summary: "PROC round r"}) and
// addUntrackedChangeSync({file: "src/PROC-r.js", section: PROC}).
// Prints "ready", waits for a line on stdin, runs, prints "done" and exits 0.
const path = require("node:path");
const fctry = require("../../lib/host/fctry.cjs");

const [file, proc, step, roundsArg] = process.argv.slice(2);
const project = path.dirname(path.dirname(file));
const rounds = Number(roundsArg);
const options = { timeout: 60_000 };

function run() {
  for (let r = 0; r < rounds; r++) {
    fctry.startStepSync(project, step, options);
    fctry.completeStepSync(project, step, { summary: `${proc} round ${r}` }, options);
    fctry.addUntrackedChangeSync(project, { file: `src/${proc}-${r}.js`, section: proc }, options);
  }
  process.stdout.write("done\n", () => process.exit(0));
}

if (path.resolve(fctry.statePath(project)) !== path.resolve(file)) throw new Error(`${file} is not <project>/.fctry/state.json`);
fctry.readStateSync(project); // loads the wasm before "ready"
process.stdout.write("ready\n");
process.stdin.once("data", run);
