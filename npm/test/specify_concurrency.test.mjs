// One index.md, agents in both languages (docs/specify.md § Files): 2 Node + 2 Python agents
// each add 25 gaps and 25 traceability rows at once, every update a locked rewrite of the
// markdown. No row is lost or doubled, the gap ids are G-001..G-100 without a gap, every raw
// read of index.md parses, and a person's note written before the run is still there.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { Child, HERE, PYTHON, REPO, supervise, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const specify = require("../lib/host/specify.cjs");
const core = require("../lib/generated/core-node.cjs");

const AGENT = {
  node: path.join(HERE, "specify_agent.cjs"),
  python: path.join(REPO, "python", "tests", "helpers", "specify_agent.py"),
};
const ROUNDS = 25;
const AGENTS = ["node0", "py0", "node1", "py1"];
const DEADLINE_MS = 150_000;

test("specify: 2 Node + 2 Python agents update one index.md", { timeout: DEADLINE_MS + 10_000 }, async (t) => {
  const dir = path.join(tempDir(t), "specs", "005-user-auth");
  fs.mkdirSync(dir, { recursive: true });
  specify.startSync(dir);
  const indexMd = specify.indexPath(dir);
  fs.writeFileSync(indexMd, fs.readFileSync(indexMd, "utf8") + "\n## Notes\n\nKept by hand.\n");
  const agents = AGENTS.map((name) => {
    const args = [AGENT[name.startsWith("py") ? "python" : "node"], dir, name, String(ROUNDS)];
    const child = name.startsWith("py") ? new Child(t, PYTHON, args) : new Child(t, process.execPath, args);
    child.name = name;
    return child;
  });
  let reads = 0;
  const failure = await supervise(agents, DEADLINE_MS, async () => {
    core.specify.parseIndex(await fsp.readFile(indexMd, "utf8")); // a torn file would throw
    reads++;
  });
  assert.equal(failure, null, failure ?? "");
  const text = fs.readFileSync(indexMd, "utf8");
  assert.ok(text.endsWith("\n## Notes\n\nKept by hand.\n"), "the person's note");
  const index = core.specify.parseIndex(text);
  const gaps = index.gap_priority_queue;
  assert.equal(gaps.length, AGENTS.length * ROUNDS, "gaps lost or doubled");
  const ids = gaps.map((g) => g.id).sort();
  assert.deepEqual(ids, Array.from({ length: gaps.length }, (_, i) => `G-${String(i + 1).padStart(3, "0")}`));
  for (const agent of AGENTS) {
    for (let r = 0; r < ROUNDS; r++) {
      assert.equal(gaps.filter((g) => g.question === `${agent} ${r}`).length, 1, `${agent} ${r}`);
      assert.equal(index.traceability_matrix.filter((row) => row.fr_id === `FR-${agent}-${r}`).length, 1);
    }
  }
  assert.equal(index.gap_resolution_history.length, gaps.length, "one created row per gap");
  assert.equal(core.validate("specify.index", index).valid, true);
  assert.ok(reads > 0);
});
