// The command-line corpus (tests/cli/*.json) run against the npm package's `statecore`
// (bin/statecore.cjs) as a process: the same output, byte for byte, as the Python command
// (python/tests/test_cli.py) and the core (core/tests/cli.rs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "statecore.cjs");
const corpus = path.join(here, "..", "..", "tests", "cli");

/** Checks one case's expectation against what the process gave. */
function check(expect, stdout, stderr, code) {
  assert.equal(code, expect.code, `exit code\n${stdout}${stderr}`);
  if (typeof expect.stdout === "string") assert.equal(stdout, expect.stdout);
  if (typeof expect.stderr === "string") assert.equal(stderr, expect.stderr);
  for (const part of expect.stdout_has ?? []) assert.ok(stdout.includes(part), `stdout lacks ${part}:\n${stdout}`);
}

for (const file of fs.readdirSync(corpus).filter((f) => f.endsWith(".json")).sort()) {
  const { cases } = JSON.parse(fs.readFileSync(path.join(corpus, file), "utf8"));
  for (const c of cases) {
    test(`cli/${file}: ${c.name}`, () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-cli-"));
      try {
        for (const [name, text] of Object.entries(c.files ?? {})) {
          fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
          fs.writeFileSync(path.join(root, name), text);
        }
        const env = { ...process.env, ...(c.env ?? {}) };
        if (!c.env || !("NO_COLOR" in c.env)) delete env.NO_COLOR;
        const run = spawnSync(process.execPath, [bin, ...c.argv], { cwd: root, env, encoding: "utf8" });
        check(c.expect, run.stdout, run.stderr, run.status);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }
}
