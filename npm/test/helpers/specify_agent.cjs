"use strict";
// Test helper: `node specify_agent.cjs FEATURE_DIR AGENT ROUNDS` acts as one agent on the
// feature's index.md: each round adds a gap ("AGENT r") and a traceability row ("FR-AGENT-r"),
// two locked updates of `statecore-js/specify`. Prints "ready", waits for a line on stdin, runs,
// prints "done" and exits 0. python/tests/helpers/specify_agent.py is its twin.
const specify = require("../../lib/host/specify.cjs");

const [dir, agent, rounds] = process.argv.slice(2);
const options = { timeout: 60_000 };

function run() {
  for (let r = 0; r < Number(rounds); r++) {
    specify.addGapsSync(dir, [{ priority: "Important", question: `${agent} ${r}` }], options);
    const row = { fr_id: `FR-${agent}-${r}`, chk_ids: ["CHK001"], coverage_status: "Covered" };
    specify.applyStateUpdatesSync(dir, { traceability_matrix: [row] }, options);
  }
  process.stdout.write("done\n", () => process.exit(0));
}

specify.readIndexSync(dir); // loads the wasm before "ready"
process.stdout.write("ready\n");
process.stdin.once("data", run);
