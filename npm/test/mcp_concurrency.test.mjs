// `statecore mcp` (docs/mcp.md) under contention: 4 agents (MCP SDK clients, two on each
// server) add inbox items through `fctry_inbox_add` on one project while the library's
// writers in both languages (this process's `statecore-js/fctry`, a Python process's
// `statecore.fctry`) add theirs to the same `.fctry/inbox.json`, and this process reads the raw
// file throughout. No update may be lost, every read must parse.
// python/tests/test_mcp_concurrency.py is its twin (Python clients).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import { NPM, PYTHON, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const fctry = require("../lib/host/fctry.cjs");

const EACH = 8;
const SERVERS = {
  node: (dir) => ({ command: process.execPath, args: [path.join(NPM, "bin", "statecore.cjs"), "mcp", dir] }),
  python: (dir) => ({ command: PYTHON, args: ["-m", "statecore", "mcp", dir] }),
};

async function connect(t, which, dir) {
  const client = new Client({ name: `agent-${which}`, version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...SERVERS[which](dir), cwd: dir, stderr: "inherit" }));
  t.after(() => client.close());
  return client;
}

test("4 MCP agents and the library's writers in both languages add to one inbox: none lost", { timeout: 300_000 }, async (t) => {
  const root = tempDir(t);
  const clients = [];
  for (const which of ["node", "python", "node", "python"]) clients.push(await connect(t, which, root));
  const file = path.join(root, ".fctry", "inbox.json");
  let reads = 0;
  let reading = true;
  const reader = (async () => {
    while (reading) {
      let text = null;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch (error) {
        if (error.code !== "ENOENT") throw error;
      }
      if (text !== null) {
        JSON.parse(text); // a torn file fails the test
        reads += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const agents = clients.map(async (client, i) => {
    for (let n = 0; n < EACH; n += 1) {
      const result = await client.callTool({
        name: "fctry_inbox_add",
        arguments: { type: "evolve", content: `agent${i}-${n}` },
      });
      assert.ok(!result.isError, result.content[0].text);
    }
  });
  const library = (async () => {
    for (let n = 0; n < EACH; n += 1) await fctry.inboxAdd(root, "evolve", `node-${n}`);
  })();
  const python = promisify(execFile)(PYTHON, [
    "-c",
    `import sys\nfrom statecore import fctry\nfor n in range(${EACH}):\n    fctry.inbox_add(sys.argv[1], "evolve", f"python-{n}")`,
    root,
  ]);
  await Promise.all([...agents, library, python]);
  reading = false;
  await reader;
  const contents = JSON.parse(fs.readFileSync(file, "utf8")).map((item) => item.content).sort();
  const expected = [];
  for (let n = 0; n < EACH; n += 1) {
    for (let i = 0; i < clients.length; i += 1) expected.push(`agent${i}-${n}`);
    expected.push(`node-${n}`, `python-${n}`);
  }
  assert.deepEqual(contents, expected.sort());
  assert.ok(reads > 0);
});
