// Bench (13): the seed's "After Answer Application" on an index.md of 1,000 gaps (parse +
// update + render of the markdown), statecore against a regex/markdown-table update
// (bench/specify_reference.mjs). statecore's update is the one crossing a locked file update
// makes (`updateFile`: the file's bytes in; the merge, the machines' checks, validation and the
// text out) and the pure functions in turn. Both must write the same bytes (checked before
// timing). The twin of specify_bench.py.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, compareSync, log, table } from "./lib.mjs";
import * as reference from "./specify_reference.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const NOW = "2026-11-24T12:00:00Z";
const ANSWERS = { "G-002": "Stream it", "G-005": "UTF-8 only", "G-008": "30 days" };
const UPDATES = {
  gap_resolution_history: Object.entries(ANSWERS).map(([gap_id, details]) => ({ gap_id, action: "resolved", details })),
  gap_priority_queue: Object.keys(ANSWERS).map((id) => ({ id, status: "resolved" })),
  priority_loop_state: { current_iteration: 5 },
};

export function specifySection({ sc, quick, out }) {
  log("(13) specify: 1,000 gaps");
  const text = fs.readFileSync(path.join(here, "fixtures", "specify_index_1000.md"), "utf8");
  const data = Buffer.from(text);
  const oneCrossing = () => sc.updateFile("specify.index", "specify_apply_state_updates", data, [UPDATES], { now: NOW }).text;
  const pureSteps = () =>
    sc.specify.renderIndex(text, sc.specify.applyStateUpdates(sc.specify.parseIndex(text), UPDATES, NOW));
  const regex = () => reference.update(text, ANSWERS, NOW);
  const expected = regex();
  check("(13) updateFile writes the reference's bytes", oneCrossing() === expected);
  check("(13) the pure steps write the reference's bytes", pureSteps() === expected);
  const options = quick ? { samples: 3, sampleMs: 15, warmupMs: 40 } : {};
  const results = compareSync(
    [
      { name: "statecore updateFile (one crossing)", statecore: true, fn: oneCrossing },
      { name: "statecore parseIndex + applyStateUpdates + renderIndex", statecore: true, fn: pureSteps },
      { name: "regex / markdown-table update (no validation)", fn: regex },
    ],
    options,
  );
  out.push(
    table(
      "Node specify (13)",
      `The seed's After Answer Application on an index.md of 1,000 gaps (${data.length.toLocaleString("en")} bytes): 3 gaps resolved, 3 history rows, the iteration advanced; the text in, the new text out, the same bytes from every implementation.`,
      results,
    ),
  );
}
