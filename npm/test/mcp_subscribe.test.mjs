// `statecore mcp`'s subscriptions (docs/mcp.md § Subscriptions), driven by the MCP SDK's own
// client over stdio against both servers: a rename-save, an append and a tool's write each send
// `notifications/resources/updated`; a torn write (under the writer's lock) is never sent;
// unsubscribing stops them; a protocol document created or removed sends `list_changed`; a
// subscription out of DIR, through a link or to a FIFO is refused as a read is. In process:
// unsubscribing and the client going away close every watcher. The Python client's twin is
// python/tests/test_mcp_subscribe.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { NPM, PYTHON, sleep, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const types = require("@modelcontextprotocol/sdk/types.js");
const mcp = require("../lib/mcp/server.cjs");
const { openWatchers } = require("../lib/mcp/subscriptions.cjs");

const NOW = "2026-11-24T10:00:00Z";
/** The longest a test waits for an outcome. */
const LIMIT_MS = 20_000;

const SERVERS = {
  node: (dir) => ({ command: process.execPath, args: [path.join(NPM, "bin", "statecore.cjs"), "mcp", dir] }),
  python: (dir) => ({ command: PYTHON, args: ["-m", "statecore", "mcp", dir] }),
};

/** Waits until `check()` is true (polling), or fails saying `what`. */
async function until(check, what) {
  const deadline = Date.now() + LIMIT_MS;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`waited ${LIMIT_MS} ms for ${what}`);
    await sleep(20);
  }
}

/** A client on `transport` whose notifications are recorded: `{client, updated, listChanged}`. */
async function recorded(t, transport) {
  const client = new Client({ name: "statecore-test", version: "1.0.0" });
  const seen = { updated: [], listChanged: 0 };
  client.setNotificationHandler(types.ResourceUpdatedNotificationSchema, (n) => {
    seen.updated.push(n.params.uri);
  });
  client.setNotificationHandler(types.ResourceListChangedNotificationSchema, () => {
    seen.listChanged += 1;
  });
  await client.connect(transport);
  t.after(() => client.close());
  seen.client = client;
  /** How many updates `uri` got so far. */
  seen.count = (uri) => seen.updated.filter((u) => u === uri).length;
  return seen;
}

/** A client of the server `which` serving `dir` over stdio. */
const connect = (t, which, dir) =>
  recorded(t, new StdioClientTransport({ ...SERVERS[which](dir), cwd: dir, stderr: "inherit" }));

/** A tool call's structured result (it must not be an error). */
async function ok(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${result.content?.[0]?.text}`);
  return result.structuredContent;
}

const STATE = "statecore://.fctry/state.json";
const INDEX = "statecore://spec/.workflow/index.md";

/** A project with a fctry state and a specify index, written through the tools. */
async function project(client) {
  await ok(client, "fctry_start_command", { command: "init", now: NOW });
  await ok(client, "specify_start", { dir: "spec", now: NOW });
}

for (const which of Object.keys(SERVERS)) {
  test(`${which} server: a rename-save, an append and a tool's write each send an update; a torn write none`, async (t) => {
    const root = tempDir(t);
    const seen = await connect(t, which, root);
    const { client } = seen;
    await project(client);
    await client.subscribeResource({ uri: STATE });
    await client.subscribeResource({ uri: INDEX });
    const file = path.join(root, ".fctry", "state.json");

    // A person's editor saving by rename.
    const edited = { ...JSON.parse(fs.readFileSync(file, "utf8")), specVersion: "3.0" };
    fs.writeFileSync(`${file}.edit~`, JSON.stringify(edited, null, 2));
    fs.renameSync(`${file}.edit~`, file);
    await until(() => seen.count(STATE) === 1, "the rename-save's update");

    // Another tool appending to the markdown index.
    fs.appendFileSync(path.join(root, "spec", ".workflow", "index.md"), "\nA note appended.\n");
    await until(() => seen.count(INDEX) === 1, "the append's update");

    // A write left torn under the writer's lock is not sent; the whole file is, once.
    const whole = JSON.stringify({ ...edited, specVersion: "4.0" }, null, 2);
    fs.writeFileSync(`${file}.lock`, "held by the test\n");
    fs.writeFileSync(file, whole.slice(0, whole.length >> 1));
    await sleep(1500); // the watcher has long seen the torn file (its debounce is 50 ms)
    assert.equal(seen.count(STATE), 1, "a torn write was sent");
    fs.writeFileSync(file, whole);
    fs.unlinkSync(`${file}.lock`);
    await until(() => seen.count(STATE) === 2, "the completed write's update");
    const read = JSON.parse((await client.readResource({ uri: STATE })).contents[0].text);
    assert.equal(read.document.specVersion, "4.0");

    // The library's own locked write, through a tool.
    await ok(client, "update", { path: ".fctry/state.json", patch: { specVersion: "5.0" } });
    await until(() => seen.count(STATE) === 3, "the tool's write's update");
  });

  test(`${which} server: unsubscribe stops updates; a document created or removed sends list_changed`, async (t) => {
    const root = tempDir(t);
    const seen = await connect(t, which, root);
    const { client } = seen;
    await project(client);
    assert.deepEqual(
      (await client.listResources()).resources.map((r) => r.name),
      [".fctry/state.json", "spec/.workflow/index.md"],
    );
    await ok(client, "agency_write_initial_runner_status", { now: NOW });
    await until(() => seen.listChanged === 1, "list_changed for a created document");
    fs.rmSync(path.join(root, ".agency"), { recursive: true });
    await until(() => seen.listChanged === 2, "list_changed for a removed document");

    await client.subscribeResource({ uri: STATE });
    await client.subscribeResource({ uri: INDEX });
    await client.unsubscribeResource({ uri: STATE });
    await ok(client, "update", { path: ".fctry/state.json", patch: { specVersion: "2.0" } });
    fs.appendFileSync(path.join(root, "spec", ".workflow", "index.md"), "\nLater.\n");
    await until(() => seen.count(INDEX) === 1, "the subscribed file's update");
    await ok(client, "update", { path: ".fctry/state.json", patch: { specVersion: "2.1" } });
    fs.appendFileSync(path.join(root, "spec", ".workflow", "index.md"), "\nLater still.\n");
    await until(() => seen.count(INDEX) === 2, "the subscribed file's second update");
    assert.equal(seen.count(STATE), 0, "an unsubscribed file was sent");
  });

  test(`${which} server: a subscription out of DIR, through a link or to a FIFO is refused as a read is`, async (t) => {
    const root = tempDir(t);
    const outside = tempDir(t);
    fs.mkdirSync(path.join(outside, ".fctry"));
    fs.writeFileSync(path.join(outside, ".fctry", "state.json"), "{}");
    fs.symlinkSync(outside, path.join(root, "out"));
    fs.mkdirSync(path.join(root, "fifo", ".fctry"), { recursive: true });
    require("node:child_process").execFileSync("mkfifo", [path.join(root, "fifo", ".fctry", "state.json")]);
    const { client } = await connect(t, which, root);
    for (const [uri, code] of [
      ["statecore://../x/.fctry/state.json", "E_PATH_UNSAFE"],
      ["statecore://out/.fctry/state.json", "E_PATH_UNSAFE"],
      ["statecore://fifo/.fctry/state.json", "E_FILE_TYPE"],
    ]) {
      const read = await client.readResource({ uri }).then(() => null, (error) => error.message);
      assert.match(read, new RegExp(code));
      await assert.rejects(client.subscribeResource({ uri }), new RegExp(code), uri);
    }
    assert.equal((await ok(client, "fctry_resume_plan", {})) !== null, true);
  });
}

test("in process: unsubscribing and the client going away close every watcher", async (t) => {
  const root = tempDir(t);
  const { server, closed } = mcp.createServer(root, mcp.sdk());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const seen = await recorded(t, clientSide);
  const { client } = seen;
  const before = openWatchers();
  await project(client);
  await client.subscribeResource({ uri: STATE });
  await client.subscribeResource({ uri: INDEX });
  await client.subscribeResource({ uri: INDEX }); // again: still one watcher
  await client.listResources();
  assert.equal(openWatchers(), before + 3);
  await client.unsubscribeResource({ uri: INDEX });
  assert.equal(openWatchers(), before + 2);
  await client.close();
  await closed;
  assert.equal(openWatchers(), before);
});
