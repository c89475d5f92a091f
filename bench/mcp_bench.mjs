// `statecore mcp` (docs/mcp.md): a write tool's round trip over stdio against the same helper
// called in process. Each side writes `.fctry/state.json` of a project of its own with
// `fctry_start_command` (one locked, validated, atomic update: the state's `lastUpdated` moves,
// so every call writes); the MCP SDK's client (this process) calls the Node and the Python
// server; rounds interleaved between the sides, so the machine's load falls on all of them.
//   node bench/mcp_bench.mjs [--quick]      (markdown on stdout, progress on stderr)
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, formatNs, log, median, table } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const npm = path.join(here, "..", "npm");
const require = createRequire(path.join(npm, "package.json"));
const fctry = require("./lib/host/fctry.cjs");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const quick = process.argv.includes("--quick");
const PYTHON = path.join(here, "..", ".venv", "bin", "python");

async function server(command, args, dir) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args: [...args, dir], cwd: dir, stderr: "inherit" }));
  return client;
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-mcp-bench-"));
  const dirs = ["inproc", "node", "python"].map((name) => {
    const dir = path.join(work, name);
    fs.mkdirSync(dir);
    return dir;
  });
  const node = await server(process.execPath, [path.join(npm, "bin", "statecore.cjs"), "mcp"], dirs[1]);
  const python = await server(PYTHON, ["-m", "statecore", "mcp"], dirs[2]);
  const viaTool = (client) => async () => {
    const result = await client.callTool({ name: "fctry_start_command", arguments: { command: "evolve" } });
    check("the tool call is not refused", !result.isError, result.content?.[0]?.text);
    check("the tool call wrote", result.structuredContent.changed === true);
  };
  const impls = [
    { name: "fctry_start_command over stdio, the Node server", statecore: true, call: viaTool(node), times: [] },
    { name: "fctry_start_command over stdio, the Python server", statecore: true, call: viaTool(python), times: [] },
    {
      name: "fctry.startCommand in process (the same helper, no MCP)",
      reference: true,
      call: async () => check("the helper wrote", (await fctry.startCommand(dirs[0], "evolve")).changed === true),
      times: [],
    },
  ];
  const rounds = quick ? 2 : 12;
  const perRound = quick ? 5 : 25;
  for (const impl of impls) for (let i = 0; i < 5; i++) await impl.call(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const impl of impls) {
      for (let i = 0; i < perRound; i++) {
        const start = process.hrtime.bigint();
        await impl.call();
        impl.times.push(Number(process.hrtime.bigint() - start));
      }
    }
  }
  await node.close();
  await python.close();
  fs.rmSync(work, { recursive: true, force: true });
  const results = impls.map((impl) => ({
    name: impl.name,
    statecore: Boolean(impl.statecore),
    reference: Boolean(impl.reference),
    median: median(impl.times),
    min: Math.min(...impl.times),
    max: Math.max(...impl.times),
    samples: impl.times.length,
  }));
  const [viaNode, viaPython, inProcess] = results;
  process.stdout.write(
    table(
      `Node (mcp): an MCP write tool's round trip over stdio against the helper in process`,
      "One `fctry_start_command` (a locked, validated, atomic update of `.fctry/state.json`) per call, timed from " +
        "the MCP SDK client's `callTool` to its answer (JSON-RPC over the server's stdin and stdout, the server's " +
        "argument and path checks, the helper, the structured result checked against the tool's output schema), " +
        `against \`fctry.startCommand\` in this process; ${rounds} rounds interleaved. Medians: the Node server ` +
        `${formatNs(viaNode.median)}, the Python server ${formatNs(viaPython.median)}, in process ` +
        `${formatNs(inProcess.median)}: the tool's cost over the helper is ` +
        `${formatNs(viaNode.median - inProcess.median)} (Node) and ${formatNs(viaPython.median - inProcess.median)} (Python).`,
      results,
      "per call",
    ),
  );
  process.stdout.write("\n");
  log("(mcp) done");
}

main().catch((error) => {
  process.stderr.write(`bench (mcp): ${error?.stack ?? error}\n`);
  process.exit(1);
});
