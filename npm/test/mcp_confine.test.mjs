// `statecore mcp`'s confinement without a window (docs/mcp.md § Confined to DIR), in process:
// a link swapped in between the server's check of a path and its use (the fault seam
// `seams.afterCheck`, lib/mcp/confine.cjs) never leads a read or a write out of DIR. A
// directory on the way swapped for a link to another directory: the write lands in the
// directory that was checked, the read reads it; the file itself swapped for a link: a read is
// refused, a write replaces the link. The Python twin is python/tests/test_mcp_confine.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import { tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const mcp = require("../lib/mcp/server.cjs");
const { seams, FD_DIR } = require("../lib/mcp/confine.cjs");
const PID_NS = (() => {
  try {
    return fs.readlinkSync("/proc/self/ns/pid").replace(/\D/g, "") || "0";
  } catch {
    return "0";
  }
})();

const NOW = "2026-11-24T10:00:00Z";
const skip = FD_DIR === null ? "no /proc/self/fd: names are checked with lstat only" : false;

/** DIR with `sub/state.json`, and a directory outside it holding a secret `state.json`. */
function setUp(t) {
  const root = tempDir(t);
  const outside = tempDir(t);
  fs.mkdirSync(path.join(root, "sub"));
  fs.writeFileSync(path.join(root, "sub", "state.json"), '{"mine":1}');
  fs.writeFileSync(path.join(outside, "state.json"), '{"secret":1}');
  t.after(() => {
    seams.afterCheck = null;
  });
  return { root, outside };
}

/** The seam: once checked, `root/<name>` is moved aside and a link to `target` put in its place. */
function swapIn(root, name, target) {
  seams.afterCheck = () => {
    seams.afterCheck = null;
    fs.renameSync(path.join(root, name), path.join(root, `${name}-moved`));
    fs.symlinkSync(target, path.join(root, name));
  };
}

/** A tool's result, or its refusal's `{code}`. */
async function call(root, name, args) {
  try {
    return await mcp.callTool(root, name, args);
  } catch (error) {
    return { refused: error.code };
  }
}

test("a directory swapped for a link after the check: the write lands in the checked one", { skip }, async (t) => {
  const { root, outside } = setUp(t);
  swapIn(root, "sub", outside);
  const result = await call(root, "update", { path: "sub/state.json", kind: "json", patch: { written: true } });
  assert.equal(result.refused, undefined, JSON.stringify(result));
  assert.equal(fs.readFileSync(path.join(outside, "state.json"), "utf8"), '{"secret":1}');
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, "sub-moved", "state.json"), "utf8")).written, true);
  assert.deepEqual(fs.readdirSync(outside), ["state.json"]);
});

test("a directory swapped for a link after the check: show and a resource read the checked one", { skip }, async (t) => {
  const { root, outside } = setUp(t);
  swapIn(root, "sub", outside);
  const shown = await call(root, "show", { path: "sub/state.json", kind: "json" });
  assert.deepEqual(shown.document, { mine: 1 });
  fs.rmSync(path.join(root, "sub"));
  fs.renameSync(path.join(root, "sub-moved"), path.join(root, "sub"));
  fs.mkdirSync(path.join(root, "hive", "s1"), { recursive: true });
  fs.writeFileSync(path.join(outside, "STATE.json"), '{"secret":2}');
  fs.writeFileSync(path.join(root, "hive", "s1", "STATE.json"), "{}");
  seams.afterCheck = () => {
    seams.afterCheck = null;
    fs.renameSync(path.join(root, "hive", "s1"), path.join(root, "hive", "s1-moved"));
    fs.symlinkSync(outside, path.join(root, "hive", "s1"));
  };
  const read = await mcp.readResource(root, "statecore://hive/s1/STATE.json");
  assert.doesNotMatch(read.contents[0].text, /secret/);
});

test("the file swapped for a link after the check: a read is refused, a write replaces the link", { skip }, async (t) => {
  const { root, outside } = setUp(t);
  const secret = path.join(outside, "state.json");
  const swapFile = () => {
    seams.afterCheck = () => {
      seams.afterCheck = null;
      fs.rmSync(path.join(root, "sub", "state.json"));
      fs.symlinkSync(secret, path.join(root, "sub", "state.json"));
    };
  };
  swapFile();
  assert.equal((await call(root, "show", { path: "sub/state.json", kind: "json" })).refused, "E_PATH_UNSAFE");
  fs.rmSync(path.join(root, "sub", "state.json"));
  fs.writeFileSync(path.join(root, "sub", "state.json"), '{"mine":1}');
  swapFile();
  assert.equal((await call(root, "validate", { path: "sub/state.json", kind: "json" })).refused, "E_PATH_UNSAFE");
  fs.rmSync(path.join(root, "sub", "state.json"));
  fs.writeFileSync(path.join(root, "sub", "state.json"), '{"mine":1}');
  swapFile();
  await call(root, "update", { path: "sub/state.json", kind: "json", patch: { written: true } });
  assert.equal(fs.readFileSync(secret, "utf8"), '{"secret":1}');
});

test("a protocol helper's project directory swapped for a link after the check: it writes in the checked one", { skip }, async (t) => {
  const { root, outside } = setUp(t);
  fs.mkdirSync(path.join(root, "proj"));
  swapIn(root, "proj", outside);
  const result = await call(root, "fctry_start_command", { dir: "proj", command: "init", now: NOW });
  assert.equal(result.refused, undefined, JSON.stringify(result));
  assert.equal(fs.existsSync(path.join(outside, ".fctry")), false);
  assert.ok(fs.existsSync(path.join(root, "proj-moved", ".fctry", "state.json")));
});

test("a protocol helper's own folder swapped for a link after the check: it writes and reads in the checked one", { skip }, async (t) => {
  const { root, outside } = setUp(t);
  await call(root, "fctry_start_command", { command: "init", now: NOW });
  const mine = fs.readFileSync(path.join(root, ".fctry", "state.json"), "utf8");
  fs.writeFileSync(path.join(outside, "state.json"), mine.replace('"init"', '"secret"'));
  swapIn(root, ".fctry", outside);
  const written = await call(root, "fctry_start_step", { step: "spec-writer", now: NOW });
  assert.equal(written.refused, undefined, JSON.stringify(written));
  assert.doesNotMatch(JSON.stringify(written), /secret/);
  assert.match(fs.readFileSync(path.join(outside, "state.json"), "utf8"), /"secret"/);
  assert.deepEqual(fs.readdirSync(outside).sort(), ["state.json"]);
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".fctry-moved", "state.json"), "utf8")).workflowStep, "spec-writer");
  fs.rmSync(path.join(root, ".fctry"));
  fs.renameSync(path.join(root, ".fctry-moved"), path.join(root, ".fctry"));
  swapIn(root, ".fctry", outside);
  const read = await call(root, "fctry_status_line", {});
  assert.doesNotMatch(JSON.stringify(read), /secret/);
});

// A server in a process of its own: three helper calls, then the private directories listed.
const SERVER = `
const fs = require("node:fs"), path = require("node:path");
const mcp = require(${JSON.stringify(require.resolve("../lib/mcp/server.cjs"))});
const [root, base, mode, now] = process.argv.slice(1);
(async () => {
  for (let n = 0; n < 3; n++) await mcp.callTool(root, "fctry_start_command", { command: "init", now });
  const found = fs.readdirSync(base).map((name) => [name, fs.readdirSync(path.join(base, name)).sort()]);
  process.stdout.write(JSON.stringify(found.sort()) + "\\n");
  if (mode === "wait") setTimeout(() => undefined, 60_000);
})();
`;

test("a helper's private directory is reused, and removed at exit or, when the server was killed, by the next server", { skip }, async (t) => {
  const { root } = setUp(t);
  const tmp = tempDir(t);
  const env = { ...process.env, TMPDIR: tmp };
  const server = (mode) => spawn(process.execPath, ["-e", SERVER, root, tmp, mode, NOW], { env, stdio: ["ignore", "pipe", "inherit"] });
  const firstLine = (child) => new Promise((resolve) => child.stdout.once("data", (chunk) => resolve(JSON.parse(String(chunk).split("\n")[0]))));
  const exited = (child) => new Promise((resolve) => child.once("exit", resolve));
  const done = server("exit");
  const [[name, inside], ...more] = await firstLine(done);
  await exited(done);
  assert.deepEqual(more, [], "one directory for three calls");
  assert.ok(name.startsWith(`statecore-mcp-call-${PID_NS}-${done.pid}-`), name);
  assert.deepEqual(inside, [".fctry"]);
  assert.deepEqual(fs.readdirSync(tmp), [], "removed at exit");
  const killed = server("wait");
  const [[left]] = await firstLine(killed);
  killed.kill("SIGKILL");
  await exited(killed);
  assert.deepEqual(fs.readdirSync(tmp), [left], "a killed server leaves its directory");
  const kept = [
    `statecore-mcp-call-${PID_NS}-${process.pid}-alive`, // a live process's
    `statecore-mcp-call-${PID_NS}0-${killed.pid}-other`, // another pid namespace's
  ];
  for (const name of kept) fs.mkdirSync(path.join(tmp, name));
  const next = server("exit");
  await firstLine(next);
  await exited(next);
  assert.deepEqual(fs.readdirSync(tmp).sort(), kept.sort(), "the killed one's removed, no other");
});

test("a routine's directory swapped for a link after the check: it works in the checked one", { skip }, async (t) => {
  // A host routine's tool (a hive session's creation, then a log's read) is given its paths
  // through the pinned directories too, and what it answers names the real paths.
  const { root, outside } = setUp(t);
  fs.mkdirSync(path.join(root, "sessions"));
  swapIn(root, "sessions", outside);
  const args = { sessions_dir: "sessions", session_id: "s1", task: "research", now: NOW };
  const made = await call(root, "hive_create_session_dir", args);
  assert.equal(made.refused, undefined, JSON.stringify(made));
  assert.ok(!JSON.stringify(made).includes("/proc/"), JSON.stringify(made));
  assert.ok(fs.statSync(path.join(root, "sessions-moved", "s1", "STATE.json")).isFile());
  assert.deepEqual(fs.readdirSync(outside), ["state.json"]);
  fs.writeFileSync(path.join(root, "sub", "log.jsonl"), '{"mine":1}\n');
  fs.writeFileSync(path.join(outside, "log.jsonl"), '{"secret":1}\n');
  swapIn(root, "sub", outside);
  const records = await call(root, "read_log", { path: "sub/log.jsonl" });
  assert.ok(!JSON.stringify(records).includes("secret"), JSON.stringify(records));
  assert.ok(JSON.stringify(records).includes("mine"), JSON.stringify(records));
});

test("a private directory removed by someone else is made anew", { skip }, async (t) => {
  const { root } = setUp(t);
  await call(root, "fctry_start_command", { command: "init", now: NOW });
  const mine = `statecore-mcp-call-${PID_NS}-${process.pid}-`;
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(mine))) {
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true });
  }
  const result = await call(root, "fctry_start_step", { step: "spec-writer", now: NOW });
  assert.equal(result.refused, undefined, JSON.stringify(result));
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, ".fctry", "state.json"), "utf8")).workflowStep, "spec-writer");
});
