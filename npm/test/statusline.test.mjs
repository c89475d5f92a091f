// The `statecore-statusline` script run as a shell prompt runs it: a real process in real
// project directories.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const script = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "statecore-statusline.cjs");
const state = {
  activeSection: "#core-flow", activeSectionNumber: "2.2", currentCommand: "evolve", workflowStep: "interviewer",
  specVersion: "1.2", scenarioScore: { satisfied: 5, total: 8 }, chunkProgress: { current: 2, total: 4 },
};
const line = "fctry v1.2 │ evolve › interviewer │ #core-flow (2.2) │ chunks 2/4 │ scenarios 5/8";

function project(stateText) {
  const root = mkdtempSync(join(tmpdir(), "statecore-statusline-"));
  if (stateText !== undefined) {
    mkdirSync(join(root, ".fctry"));
    if (stateText !== null) writeFileSync(join(root, ".fctry", "state.json"), stateText);
  }
  return root;
}

function run(cwd, args = []) {
  return execFileSync(process.execPath, [script, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "" } });
}

test("prints the line of the project's state", (t) => {
  const root = project(JSON.stringify(state));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(run(root, ["--no-color"]), line + "\n");
});

test("finds .fctry in a parent directory", (t) => {
  const root = project(JSON.stringify(state));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  assert.equal(run(join(root, "src", "deep"), ["--no-color"]), line + "\n");
});

test("a missing state.json reads as {}; an unparseable one is marked", (t) => {
  const missing = project(null);
  const broken = project('{"activeSection": ');
  t.after(() => [missing, broken].forEach((d) => rmSync(d, { recursive: true, force: true })));
  assert.equal(run(missing, ["--no-color"]), "fctry\n");
  assert.equal(run(broken, ["--no-color"]), "fctry │ state.json unreadable\n");
});

test("outside an fctry project it prints nothing", (t) => {
  const root = project(undefined);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(run(root), "");
});

test("--color adds ANSI colours; piped output has none by default", (t) => {
  const root = project(JSON.stringify(state));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.match(run(root, ["--color"]), /\u001b\[1mfctry v1\.2\u001b\[0m/);
  assert.doesNotMatch(run(root), /\u001b\[/);
});

test("the script's small module renders every corpus state exactly as the full package", async () => {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const small = require("../dist/statusline/statecore.js");
  const { fctry } = require("statecore");
  const { corpusFiles, readJson } = await import("./files.mjs");
  const encoder = new TextEncoder();
  const inputs = [undefined, encoder.encode("{broken"), encoder.encode("[]")];
  for (const file of corpusFiles())
    for (const c of readJson(file).cases ?? [])
      if (c.op === "validate" && c.args[0] === "fctry.state") inputs.push(encoder.encode(JSON.stringify(c.args[1])));
      else if (c.op === "fctry_status_line_text" && typeof c.args[0] === "string") inputs.push(encoder.encode(c.args[0]));
  assert.ok(inputs.length > 50, `${inputs.length} inputs`);
  for (const data of inputs)
    for (const color of [false, true])
      assert.equal(small.fctry_status_line_text(data, JSON.stringify({ color })), fctry.statusLineText(data ?? null, { color }));
  // It is the small module: only the status line's function is exported.
  assert.deepEqual(Object.keys(small).filter((k) => typeof small[k] === "function"), ["fctry_status_line_text"]);
});
