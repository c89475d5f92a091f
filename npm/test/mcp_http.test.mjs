// `statecore mcp DIR --http 0` (docs/mcp.md § Over HTTP) against both servers, driven by the MCP
// SDK's own streamable HTTP client: tools listed and called, a subscription's update; a foreign
// Host (DNS rebinding) and a foreign Origin refused with the viewer's codes; a client that drops
// its connection mid-request, or sends half a request and stalls, does not stop the server from
// answering the next call. The Python client's twin is python/tests/test_mcp_http.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { NPM, PYTHON, sleep, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const types = require("@modelcontextprotocol/sdk/types.js");
const { tools: GENERATED } = require("../lib/generated/mcp-tools.json");

const NOW = "2026-11-24T10:00:00Z";
const LIMIT_MS = 20_000;

const SERVERS = {
  node: [process.execPath, path.join(NPM, "bin", "statecore.cjs")],
  python: [PYTHON, "-m", "statecore"],
};

/** Waits until `check()` is true (polling), or fails saying `what`. */
async function until(check, what) {
  const deadline = Date.now() + LIMIT_MS;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`waited ${LIMIT_MS} ms for ${what}`);
    await sleep(20);
  }
}

/** Starts the server `which` on `dir` over HTTP (any free port): its URL, stopped after the test. */
async function start(t, which, dir) {
  const [command, ...args] = SERVERS[which];
  const child = spawn(command, [...args, "mcp", dir, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  t.after(() => child.kill("SIGTERM"));
  let err = "";
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  await until(() => /on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(err) || child.exitCode !== null, "the server's address");
  const url = err.match(/on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
  assert.ok(url, `the server did not start: ${err}`);
  return { url: new URL(url[1]), port: Number(url[2]) };
}

/** A client of the server at `url`, with its resource updates recorded. */
async function connect(t, url) {
  const client = new Client({ name: "statecore-test", version: "1.0.0" });
  const updated = [];
  client.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
  await client.connect(new StreamableHTTPClientTransport(url));
  t.after(() => client.close());
  return { client, updated };
}

/** A raw HTTP request: `{status, body}` (the body's JSON when it is JSON). */
function request(port, headers, body) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = [`POST /mcp HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      lines.push(`Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", body);
      socket.write(lines.join("\r\n"));
    });
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const status = Number(text.split(" ")[1]);
      const rest = text.slice(text.indexOf("\r\n\r\n") + 4);
      let parsed = rest;
      try {
        parsed = JSON.parse(rest);
      } catch {
        parsed = rest;
      }
      resolve({ status, body: parsed });
    });
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});
const ACCEPT = "application/json, text/event-stream";

for (const which of Object.keys(SERVERS)) {
  test(`${which} server over HTTP: tools listed and called, a subscription's update`, async (t) => {
    const root = tempDir(t);
    const { url } = await start(t, which, root);
    const { client, updated } = await connect(t, url);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), GENERATED.map((tool) => tool.name));
    const result = await client.callTool({ name: "fctry_start_command", arguments: { command: "init", now: NOW } });
    assert.ok(!result.isError, result.content?.[0]?.text);
    const file = path.join(root, ".fctry", "state.json");
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).currentCommand, "init");
    await client.subscribeResource({ uri: "statecore://.fctry/state.json" });
    await client.callTool({ name: "update", arguments: { path: ".fctry/state.json", patch: { specVersion: "2.0" } } });
    await until(() => updated.length === 1, "the update over HTTP");
  });

  test(`${which} server over HTTP: a foreign Host or Origin is refused`, async (t) => {
    const root = tempDir(t);
    const { port } = await start(t, which, root);
    const base = { Host: `127.0.0.1:${port}`, "Content-Type": "application/json", Accept: ACCEPT };
    const rebinding = await request(port, { ...base, Host: `attacker.example:${port}` }, INITIALIZE);
    assert.equal(rebinding.status, 403);
    assert.equal(rebinding.body.code, "E_VIEW_HOST");
    assert.match(rebinding.body.message, /^the MCP server answers only to its own address/);
    const page = await request(port, { ...base, Origin: "http://attacker.example" }, INITIALIZE);
    assert.equal(page.status, 403);
    assert.equal(page.body.code, "E_VIEW_ORIGIN");
    assert.match(page.body.message, /only the MCP server's own page/);
    const own = await request(port, { ...base, Origin: `http://127.0.0.1:${port}` }, INITIALIZE);
    assert.equal(own.status, 200, JSON.stringify(own.body));
  });

  test(`${which} server over HTTP: a dropped or stalled client does not stop the next call`, async (t) => {
    const root = tempDir(t);
    const { url, port } = await start(t, which, root);
    const { client } = await connect(t, url);
    const call = (n) => client.callTool({ name: "fctry_inbox_add", arguments: { type: "feature", content: `item ${n}`, now: NOW } });
    assert.ok(!(await call(0)).isError);
    // Half a request, then the connection dropped: ten times.
    for (let i = 0; i < 10; i += 1) {
      await new Promise((resolve) => {
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":"2.0",`);
          setImmediate(() => socket.destroy());
        });
        socket.on("close", resolve);
        socket.on("error", resolve);
      });
    }
    // A whole call in the client's session, the connection dropped before its answer.
    const session = client.transport.sessionId;
    assert.equal(typeof session, "string");
    await new Promise((resolve) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "fctry_inbox_counts", arguments: {} } });
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nMcp-Session-Id: ${session}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        socket.destroy();
        resolve();
      });
      socket.on("error", resolve);
    });
    // A body announced over the bound: refused before it is read.
    const over = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n{`);
      });
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\r\n\r\n")) socket.destroy();
      });
      socket.on("close", () => resolve(Number(text.split(" ")[1])));
      socket.on("error", () => undefined);
    });
    assert.equal(over, 413);
    // A slow client: half its headers sent, the connection held open meanwhile.
    const slow = net.connect(port, "127.0.0.1", () => slow.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
    slow.on("error", () => undefined);
    t.after(() => slow.destroy());
    assert.ok(!(await call(1)).isError);
    const counts = await client.callTool({ name: "fctry_inbox_counts", arguments: {} });
    assert.equal(counts.structuredContent.total, 2);
  });
}
