"use strict";
// Test helper: `node fctry_agent.cjs FILE PROC STEP ROUNDS` acts as one fctry agent on the
// `.fctry/state.json` FILE. Each round r makes three separate locked updates through
// updateDocumentSync with a fctry workflow function: startStep(STEP), completeStep(STEP,
// {summary: "PROC round r"}) and addUntrackedChange({file: "src/PROC-r.js", section: PROC}).
// Prints "ready", waits for a line on stdin, runs, prints "done" and exits 0.
const { fctry, readDocumentSync, updateDocumentSync } = require("../../lib/node.cjs");

const [file, proc, step, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const host = { timeout: 60_000 };

function run() {
  for (let r = 0; r < rounds; r++) {
    updateDocumentSync(file, "fctry.state", (s) => fctry.startStep(s, step), null, host);
    updateDocumentSync(
      file,
      "fctry.state",
      (s) => fctry.completeStep(s, step, { summary: `${proc} round ${r}` }),
      null,
      host,
    );
    updateDocumentSync(
      file,
      "fctry.state",
      (s) => fctry.addUntrackedChange(s, { file: `src/${proc}-${r}.js`, section: proc }),
      null,
      host,
    );
  }
  process.stdout.write("done\n", () => process.exit(0));
}

readDocumentSync(file, "fctry.state"); // loads the wasm before "ready"
process.stdout.write("ready\n");
process.stdin.once("data", run);
