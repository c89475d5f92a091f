// The fctry protocol across languages (docs/fctry.md, docs/locking.md): 3 Node and 3 Python
// processes act as fctry agents on one `.fctry/state.json` at the same time, each applying the
// workflow operations through the locked file API, while the parent reads the raw file.
// Nothing may be lost, no agent may overwrite another's entries, every read must parse.
// The Python agents use the wheel installed in ../.venv; the Node agents the one-call helpers
// of lib/host/fctry.cjs (`statecore-js/fctry`).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Child, HERE, PYTHON, supervise, tempDir } from "./helpers/procs.mjs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { fctry, updateDocumentSync, validate } = require("../lib/node.cjs");

const AGENT = {
  node: path.join(HERE, "fctry_agent.cjs"),
  python: path.join(HERE, "fctry_agent.py"),
};
const ROUNDS = 40;
const DEADLINE_MS = 120_000;
const AGENTS = [
  { proc: "node0", lang: "node", step: "state-owner-scan" },
  { proc: "py0", lang: "python", step: "interviewer" },
  { proc: "node1", lang: "node", step: "researcher" },
  { proc: "py1", lang: "python", step: "visual-translator" },
  { proc: "node2", lang: "node", step: "scenario-crafter" },
  { proc: "py2", lang: "python", step: "spec-writer" },
];

function startAgent(t, { proc, lang, step }, file) {
  const args = [AGENT[lang], file, proc, step, String(ROUNDS)];
  const child =
    lang === "node" ? new Child(t, process.execPath, args) : new Child(t, PYTHON, args);
  child.name = proc;
  return child;
}

test(
  "fctry: 3 Node + 3 Python agents x 40 rounds of startStep/completeStep/addUntrackedChange on one state.json",
  { timeout: DEADLINE_MS + 10_000 },
  async (t) => {
    const project = tempDir(t);
    const dir = path.join(project, ".fctry");
    fs.mkdirSync(dir);
    const file = path.join(dir, "state.json");
    updateDocumentSync(file, "fctry.state", (s) => fctry.startCommand(s, "evolve"));

    const agents = AGENTS.map((a) => startAgent(t, a, file));
    let reads = 0;
    let lastUntracked = 0;
    let lastCompleted = 0;
    const failure = await supervise(agents, DEADLINE_MS, async () => {
      const text = await fsp.readFile(file, "utf8");
      const doc = JSON.parse(text); // throws (fails the test) on a partial file
      assert.equal(doc.currentCommand, "evolve");
      // Entries are only ever added: a shorter list means a lost update.
      const untracked = (doc.untrackedChanges ?? []).length;
      assert.ok(untracked >= lastUntracked, `untrackedChanges shrank to ${untracked} from ${lastUntracked}`);
      assert.ok(doc.completedSteps.length >= lastCompleted, "completedSteps shrank");
      lastUntracked = untracked;
      lastCompleted = doc.completedSteps.length;
      reads++;
    });
    assert.equal(failure, null, failure ?? "");
    for (const a of agents) {
      assert.deepEqual(a.exit, { code: 0, signal: null }, `${a.name}: ${a.stderr}`);
      assert.ok(a.lines.includes("done"), a.name);
    }

    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    const report = validate("fctry.state", doc);
    assert.equal(report.valid, true, JSON.stringify(report));
    assert.equal(doc.currentCommand, "evolve");

    const steps = AGENTS.map((a) => a.step);
    assert.equal(doc.completedSteps.length, steps.length, JSON.stringify(doc.completedSteps));
    assert.deepEqual([...doc.completedSteps].sort(), [...steps].sort());

    const changes = doc.untrackedChanges;
    assert.equal(changes.length, AGENTS.length * ROUNDS, "untracked changes lost or duplicated");
    assert.equal(new Set(changes.map((c) => c.file)).size, AGENTS.length * ROUNDS);
    for (const { proc, step } of AGENTS) {
      const mine = changes.filter((c) => c.section === proc).map((c) => c.file);
      const missing = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (!mine.includes(`src/${proc}-${r}.js`)) missing.push(r);
      }
      assert.deepEqual(missing, [], `${proc}: untracked changes of rounds ${missing} lost`);
      assert.equal(mine.length, ROUNDS, `${proc}: ${mine.length} untracked changes`);
      assert.equal(doc.agentOutputs[step]?.summary, `${proc} round ${ROUNDS - 1}`, `${proc} (${step})`);
    }

    assert.ok(reads > 0);
    t.diagnostic(`${reads} raw reads while ${AGENTS.length} agents wrote, all parsed`);
    assert.deepEqual(fs.readdirSync(dir), ["state.json"]);
  },
);
