// The `statecore-statusline` script as a shell prompt and Claude Code run it: a real process
// in real project directories. It is `statecore fctry status --only-in-project`, so it must
// print what the command-line corpus (tests/cli/fctry.json) expects of `fctry status`, and
// nothing outside a project.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, "..", "bin", "statecore-statusline.cjs");
const corpus = JSON.parse(readFileSync(join(here, "..", "..", "tests", "cli", "fctry.json"), "utf8"));

function scratch(files) {
  const root = mkdtempSync(join(tmpdir(), "statecore-statusline-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

function run(cwd, args, input = "", env = {}) {
  const clean = { ...process.env, ...env };
  if (!("NO_COLOR" in env)) delete clean.NO_COLOR;
  return spawnSync(process.execPath, [script, ...args], { cwd, input, env: clean, encoding: "utf8" });
}

for (const c of corpus.cases.filter((c) => c.argv[0] === "fctry" && c.argv[1] === "status")) {
  test(`as the corpus: ${c.name}`, (t) => {
    const root = scratch(c.files ?? {});
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const got = run(root, c.argv.slice(2), c.stdin ?? "", c.env ?? {});
    const outside = c.expect.code === 0 && !Object.keys(c.files ?? {}).some((f) => f.includes(".fctry/"));
    const help = c.argv.includes("--help");
    assert.equal(got.status, c.expect.code, got.stderr);
    assert.equal(got.stdout, outside && !help ? "" : c.expect.stdout);
    assert.equal(got.stderr, c.expect.stderr ?? "");
  });
}

test("Claude Code's session names the project by its absolute path, wherever the script runs", (t) => {
  const root = scratch({ "proj/.fctry/state.json": '{"currentCommand": "evolve"}\n', "elsewhere/x": "" });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const session = { workspace: { current_dir: join(root, "proj") }, context_window: { used_percentage: 42 } };
  const got = run(join(root, "elsewhere"), [], JSON.stringify(session));
  assert.equal(got.stdout, "proj │ context 50% │ evolve\n");
});

test("a prompt in a subdirectory shows the project above it", (t) => {
  const root = scratch({ "proj/.fctry/state.json": '{"specVersion": "1.2"}\n', "proj/src/deep/x": "" });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const got = run(join(root, "proj", "src", "deep"), []);
  assert.equal(got.stdout, "proj │ spec 1.2 │ next: /fctry:evolve to refine, or /fctry:execute to build\n");
});

test("piped output has no colours by default; --color adds them", (t) => {
  const root = scratch({ "proj/.fctry/state.json": '{"specVersion": "1.2"}\n' });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.doesNotMatch(run(root, ["proj"]).stdout, /\u001b\[/);
  assert.match(run(root, ["proj", "--color"]).stdout, /^\u001b\[1mproj\u001b\[0m/);
});

test("the script's module is the small one: only the status command", () => {
  const require = createRequire(import.meta.url);
  const small = require("../dist/statusline/statecore.js");
  // The status line's job and the class its jobs are (constructors of the full module's jobs
  // are not in it: the class has only `next` and `free` here).
  assert.deepEqual(Object.keys(small).filter((k) => typeof small[k] === "function").sort(), ["Job", "fctry_status_job"]);
  assert.deepEqual(Object.getOwnPropertyNames(small.Job).filter((k) => typeof small.Job[k] === "function" && !k.startsWith("__")), []);
});

test("a prompt loads only the status line's module and the few files it needs", (t) => {
  const root = scratch({ ".fctry/state.json": '{"currentCommand": "evolve"}\n' });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // Records every file `require` loads, then runs the script as a shell prompt does.
  const probe = [
    "const Module = require('node:module');",
    "const loaded = [];",
    "const load = Module._load;",
    "Module._load = function (request, parent, isMain) { const m = load.apply(this, arguments); if (!request.startsWith('node:') && !Module.isBuiltin(request)) loaded.push(Module._resolveFilename(request, parent)); return m; };",
    `process.argv = [process.argv[0], ${JSON.stringify(script)}, '--no-color'];`,
    `require(${JSON.stringify(script)});`,
    "process.on('exit', () => process.stderr.write(JSON.stringify(loaded)));",
  ].join("\n");
  const got = spawnSync(process.execPath, ["-e", probe], { cwd: root, input: "", encoding: "utf8" });
  assert.equal(got.status, 0, got.stderr);
  const names = JSON.parse(got.stderr).map((file) => file.split(/[\\/]/).slice(-2).join("/"));
  assert.deepEqual(names.sort(), ["bin/statecore-statusline.cjs", "cli/run.cjs", "generated/constants.cjs", "host/jobs.cjs", "statusline/statecore.js"]);
});
