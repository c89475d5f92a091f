// `statecore mcp` (docs/mcp.md) driven by the MCP SDK's own client over stdio, against both
// servers (Node: bin/statecore.cjs mcp; Python: python -m statecore mcp, from ../.venv): both
// list the same tools (lib/generated/mcp-tools.json, generated); for every protocol a read, a write and a
// refused write, with the files checked; bad input (unknown tool, wrong types, paths out of
// DIR, a link, a FIFO, 40 MiB) each a tool error, the server still answering. The Python
// client's twin is python/tests/test_mcp.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { NPM, PYTHON, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const hive = require("../lib/host/hive.cjs");
const { tools: GENERATED } = require("../lib/generated/mcp-tools.json");

const NOW = "2026-11-24T10:00:00Z";
const at = (m) => `2026-11-24T10:${String(m).padStart(2, "0")}:00Z`;

/** Each server's command line on DIR. */
const SERVERS = {
  node: (dir) => ({ command: process.execPath, args: [path.join(NPM, "bin", "statecore.cjs"), "mcp", dir] }),
  python: (dir) => ({ command: PYTHON, args: ["-m", "statecore", "mcp", dir] }),
};

/** A client connected to the server `which` serving `dir`, closed after the test. */
async function connect(t, which, dir) {
  const transport = new StdioClientTransport({ ...SERVERS[which](dir), cwd: dir, stderr: "inherit" });
  const client = new Client({ name: "statecore-test", version: "1.0.0" });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** A tool call's structured result (it must not be an error). */
async function ok(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${result.content?.[0]?.text}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result.structuredContent;
}

/** A tool call's refusal: `{code, path, message}`, in its text and structured content. */
async function refused(client, name, args, code) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} was not refused: ${result.content?.[0]?.text}`);
  const record = JSON.parse(result.content[0].text);
  assert.deepEqual(Object.keys(record).sort(), ["code", "message", "path"]);
  assert.deepEqual(result.structuredContent, record);
  if (code !== undefined) assert.equal(record.code, code, record.message);
  return record;
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));

/** A project with a hive session (alpha spawned), made by the library, and `logs/`. */
function project(t) {
  const root = tempDir(t);
  hive.createSessionDirSync(path.join(root, "hive"), "s1", "research", { now: at(0) });
  const session = path.join(root, "hive", "s1");
  hive.planWorkersSync(session, [{ name: "alpha", task: "read" }], "one", { now: at(1) });
  hive.spawnWorkerSync(session, "alpha", { now: at(2) });
  fs.mkdirSync(path.join(root, "logs"));
  return root;
}

test("both servers list the generated tools and the same resources (compared as JSON)", async (t) => {
  const root = project(t);
  const lists = {};
  for (const which of Object.keys(SERVERS)) {
    const client = await connect(t, which, root);
    lists[which] = (await client.listTools()).tools;
  }
  const resources = {};
  for (const which of Object.keys(SERVERS)) {
    const client = await connect(t, which, root);
    resources[which] = (await client.listResources()).resources;
  }
  assert.deepEqual(resources.python, resources.node);
  assert.deepEqual(resources.node.map((r) => r.name), ["hive/s1/STATE.json"]);
  const expected = GENERATED.map(({ call, ...tool }) => tool);
  assert.deepEqual(lists.node, expected);
  // Compared as JSON (the Node SDK reorders a schema's keys on the way out).
  assert.deepEqual(lists.python, lists.node);
  for (const name of ["fctry_start_step", "hive_heartbeat", "specify_add_gaps", "hivemind_fire", "agency_load_runner_status", "update"]) {
    assert.ok(lists.node.some((tool) => tool.name === name), name);
  }
});

for (const which of Object.keys(SERVERS)) {
  test(`${which} server: a read, a write and a refused write of every protocol`, async (t) => {
    const root = project(t);
    const client = await connect(t, which, root);
    // fctry
    const started = await ok(client, "fctry_start_command", { command: "init", now: NOW });
    assert.equal(started.changed, true);
    assert.equal(readJson(path.join(root, ".fctry", "state.json")).currentCommand, "init");
    await ok(client, "fctry_inbox_add", { type: "feature", content: "dark mode", now: NOW, random: "abc123" });
    assert.equal((await ok(client, "fctry_inbox_counts", {})).total, 1);
    const before = fs.readFileSync(path.join(root, ".fctry", "state.json"));
    await refused(client, "fctry_start_command", { command: "deploy" }, "E_ARGUMENT");
    assert.deepEqual(fs.readFileSync(path.join(root, ".fctry", "state.json")), before);
    // hivemind
    const fired = await ok(client, "hivemind_fire", { event: "select_project", now: NOW, details: { project: "p" } });
    assert.equal(fired.changed, true);
    const shown = await ok(client, "show", { path: "workspace/state.json" });
    assert.deepEqual(shown.document, fired.document);
    await refused(client, "hivemind_fire", { event: "no_such_event", now: NOW });
    // agency
    await ok(client, "agency_write_initial_runner_status", { now: NOW });
    const loaded = await ok(client, "agency_load_runner_status", {});
    assert.notEqual(loaded.status, null);
    assert.ok(fs.existsSync(path.join(root, ".agency", "state", "runner_status.json")));
    await refused(client, "agency_write_runner_status", { update: { status: 7 } });
    // hive
    const beat = await ok(client, "hive_heartbeat", { dir: "hive/s1", worker: "alpha", now: at(3) });
    assert.equal(beat.changed, true);
    assert.match(fs.readFileSync(path.join(root, "hive", "s1", "EVENTS.jsonl"), "utf8"), /alpha/);
    await ok(client, "hive_check_worker_health", { dir: "hive/s1" });
    // A read whose answer depends on the time takes `now`, as the library's readers do.
    assert.deepEqual((await ok(client, "hive_check_worker_health", { dir: "hive/s1", now: at(4) })).unhealthy, []);
    const late = await ok(client, "hive_check_worker_health", { dir: "hive/s1", now: at(30) });
    assert.deepEqual(late.unhealthy.map((u) => u.worker), ["alpha"]);
    await refused(client, "hive_check_worker_health", { dir: "hive/s1", now: "soon" });
    const log = fs.readFileSync(path.join(root, "hive", "s1", "EVENTS.jsonl"));
    await refused(client, "hive_heartbeat", { dir: "hive/s1", worker: "nobody", now: at(5) });
    assert.deepEqual(fs.readFileSync(path.join(root, "hive", "s1", "EVENTS.jsonl")), log);
    // specify
    const spec = await ok(client, "specify_start", { dir: "spec", now: NOW });
    assert.equal(spec.changed, true);
    assert.ok(fs.existsSync(path.join(root, "spec", ".workflow", "index.md")));
    await ok(client, "specify_resume_point", { dir: "spec" });
    const index = fs.readFileSync(path.join(root, "spec", ".workflow", "index.md"));
    await refused(client, "specify_set_loop_status", { dir: "spec", status: "bogus" });
    assert.deepEqual(fs.readFileSync(path.join(root, "spec", ".workflow", "index.md")), index);
    // the generic tools
    const updated = await ok(client, "update", { path: ".fctry/state.json", patch: { specVersion: "2.0" } });
    assert.equal(readJson(path.join(root, ".fctry", "state.json")).specVersion, "2.0");
    await refused(client, "update", { path: ".fctry/state.json", patch: { x: 1 }, if_match: "0".repeat(32) }, "E_CONFLICT");
    assert.equal((await ok(client, "show", { path: ".fctry/state.json" })).etag, updated.etag);
    assert.equal((await ok(client, "validate", { path: ".fctry/state.json" })).valid, true);
    await ok(client, "log_append", { path: "logs/app.jsonl", record: { type: "note" } });
    assert.equal(fs.readFileSync(path.join(root, "logs", "app.jsonl"), "utf8"), '{"type":"note"}\n');
    // resources: each protocol document under DIR, read as statecore reads it
    const { resources } = await client.listResources();
    const names = resources.map((r) => r.name);
    for (const name of [".agency/state/runner_status.json", ".fctry/inbox.json", ".fctry/state.json", "hive/s1/STATE.json", "spec/.workflow/index.md", "workspace/state.json"]) {
      assert.ok(names.includes(name), `${name} not in ${names}`);
    }
    assert.ok(!names.includes("logs/app.jsonl") && !names.includes("hive/s1/EVENTS.jsonl"));
    const read = await client.readResource({ uri: "statecore://.fctry/state.json" });
    const document = JSON.parse(read.contents[0].text).document;
    assert.deepEqual(document, readJson(path.join(root, ".fctry", "state.json")));
    await assert.rejects(client.readResource({ uri: "statecore://../x.json" }), /E_PATH_UNSAFE/);
    assert.deepEqual((await client.listResources()).resources, resources);
  });

  test(`${which} server: bad input is a tool error each, and the server answers the next call`, async (t) => {
    const root = project(t);
    const outside = tempDir(t);
    fs.writeFileSync(path.join(outside, "state.json"), "{}");
    fs.symlinkSync(outside, path.join(root, "out"));
    fs.mkdirSync(path.join(root, "fifo"));
    require("node:child_process").execFileSync("mkfifo", [path.join(root, "fifo", "state.json")]);
    const client = await connect(t, which, root);
    const alive = async () => assert.equal((await ok(client, "fctry_resume_plan", {})) !== null, true);
    await refused(client, "no_such_tool", {}, "E_ARGUMENT");
    await alive();
    await refused(client, "fctry_start_command", { command: 42 });
    await refused(client, "fctry_start_command", { command: "init", extra: 1 }, "E_ARGUMENT");
    await refused(client, "fctry_start_command", { command: "init", dir: 7 }, "E_ARGUMENT");
    // The core checks each value against the tool's input schema, at its pointer.
    const nested = await refused(client, "hive_plan_workers", { dir: "hive/s1", workers: [{ name: 3, task: "t" }] }, "E_ARGUMENT");
    assert.equal(nested.path, "/workers/0/name");
    assert.equal((await refused(client, "fctry_start_command", {}, "E_ARGUMENT")).path, "/command");
    await alive();
    await refused(client, "fctry_start_command", { command: "init", dir: ".." }, "E_PATH_UNSAFE");
    await refused(client, "fctry_start_command", { command: "init", dir: outside }, "E_PATH_UNSAFE");
    await refused(client, "update", { path: "../x.json", kind: "json", patch: {} }, "E_PATH_UNSAFE");
    await refused(client, "update", { path: "out/state.json", kind: "json", patch: { a: 1 } }, "E_PATH_UNSAFE");
    assert.equal(fs.readFileSync(path.join(outside, "state.json"), "utf8"), "{}");
    await refused(client, "update", { path: "fifo/state.json", kind: "json", patch: { a: 1 } }, "E_FILE_TYPE");
    await refused(client, "show", { path: "fifo/state.json", kind: "json" }, "E_FILE_TYPE");
    await alive();
    const big = "x".repeat(40 * 1024 * 1024);
    await refused(client, "fctry_inbox_add", { type: "feature", content: big }, "E_LIMIT");
    assert.equal(fs.existsSync(path.join(root, ".fctry", "inbox.json")), false);
    await alive();
  });

  test(`${which} server: the host routines as tools: a hive session from its creation, agency's init and a run's snapshot, specify's artifacts, a log's read and repair`, async (t) => {
    const root = tempDir(t);
    fs.mkdirSync(path.join(root, "logs"));
    const client = await connect(t, which, root);
    // hive: created through the tool, then driven by its steps
    const created = await ok(client, "hive_create_session_dir", { sessions_dir: "hive", session_id: "s2", task: "research", now: at(0) });
    assert.equal(created.changed, true);
    assert.equal(created.result.event.type, "session_created");
    assert.deepEqual(readJson(path.join(root, "hive", "s2", "STATE.json")), created.document);
    await refused(client, "hive_create_session_dir", { sessions_dir: "hive", session_id: "s2", task: "again" }, "E_ARGUMENT");
    await refused(client, "hive_create_session_dir", { sessions_dir: "../hive", session_id: "s3", task: "x" }, "E_PATH_UNSAFE");
    const session = { dir: "hive/s2" };
    await ok(client, "hive_plan_workers", { ...session, workers: [{ name: "alpha", task: "read" }], now: at(1) });
    await ok(client, "hive_spawn_worker", { ...session, worker: "alpha", now: at(2) });
    const health = await ok(client, "hive_check_sessions", { sessions_dir: "hive", now: at(30) });
    assert.deepEqual(health.value.map((s) => [s.session, s.health.unhealthy.map((u) => u.worker)]), [["s2", ["alpha"]]]);
    const events = await ok(client, "read_log", { path: "hive/s2/EVENTS.jsonl" });
    assert.deepEqual(events.records.map((r) => r.type), ["session_created", "workers_planned", "worker_spawned"]);
    // agency: init's CLAUDE.md (create-only), a run's snapshot
    assert.deepEqual(await ok(client, "agency_write_protocol_document", { repo_root: "." }), { value: "created" });
    assert.deepEqual(await ok(client, "agency_write_protocol_document", { repo_root: "." }), { value: "exists" });
    assert.ok(fs.readFileSync(path.join(root, "CLAUDE.md"), "utf8").length > 100);
    await ok(client, "agency_write_initial_runner_status", { dir: "run", now: NOW });
    const snapshot = await ok(client, "agency_snapshot", { worktree: "run", now: NOW });
    assert.equal(snapshot.worktree_present, true);
    assert.equal(snapshot.runner_status.status, "working");
    // specify: an agent's artifacts, checked as a batch
    fs.mkdirSync(path.join(root, "spec"));
    const applied = await ok(client, "specify_apply_artifacts", { feature_dir: "spec", artifacts: [{ operation: "create", path: "spec.md", content: "# Spec\n" }] });
    assert.deepEqual(applied.value.map((a) => a.result), ["written"]);
    assert.equal(fs.readFileSync(path.join(root, "spec", "spec.md"), "utf8"), "# Spec\n");
    await refused(client, "specify_apply_artifacts", { feature_dir: "spec", artifacts: [{ operation: "create", path: "../out.md", content: "x" }] });
    assert.equal(fs.existsSync(path.join(root, "out.md")), false);
    // a log's torn tail repaired
    fs.writeFileSync(path.join(root, "logs", "app.jsonl"), '{"a":1}\n{"b"');
    const repaired = await ok(client, "repair_log", { path: "logs/app.jsonl" });
    assert.equal(repaired.tornLine, 2);
    assert.equal(fs.readFileSync(path.join(root, "logs", "app.jsonl"), "utf8"), '{"a":1}\n');
  });
}
