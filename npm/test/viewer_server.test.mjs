// `statecore view`'s server as a process (docs/viewer.md): what it streams (every protocol
// file's bytes, changes from a Python and a Node writer, removals: each wait is for an outcome
// with a generous limit, the speed is bench/viewer_latency.mjs's), what it
// refuses (foreign Host or Origin, paths that are not its own, writes without the token or on
// a read-only viewer), and a dismissal carried out as a locked update. The page itself is
// tested in headless Chromium (test/browser/viewer.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { BIN, PYTHON, openEvents, pageToken, request, startViewer, text } from "./helpers/viewer.mjs";

/** The limit of every wait for an event: an outcome, not a speed. */
const OUTCOME_MS = 20_000;
const FCTRY = new URL("../lib/host/fctry.cjs", import.meta.url).pathname;

/** A project with a fctry state and inbox, a Hivemind workspace and a file no protocol has. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), "statecore-view-"));
  mkdirSync(join(dir, "app", ".fctry"), { recursive: true });
  writeFileSync(join(dir, "app", ".fctry", "state.json"), '{\n  "workflowStep": "interviewer"\n}\n');
  const item = { id: "inbox-1771236000000-ab12cd34", type: "evolve", content: "Faster onboarding", timestamp: "2026-02-16T10:00:00Z", status: "pending" };
  writeFileSync(join(dir, "app", ".fctry", "inbox.json"), JSON.stringify([item], null, 2) + "\n");
  mkdirSync(join(dir, "hm", "workspace"), { recursive: true });
  writeFileSync(join(dir, "hm", "workspace", "state.json"), JSON.stringify({ state: "idle" }) + "\n");
  writeFileSync(join(dir, "notes.json"), "{}\n");
  return dir;
}

const run = promisify(execFile);

/** Runs a Node writer in its own process (the test's event loop goes on meanwhile). */
function nodeWriter(code) {
  return run(process.execPath, ["-e", `const f = require(${JSON.stringify(FCTRY)}); ${code}`]);
}

/** Runs a Python writer in its own process. */
function pythonWriter(code) {
  return run(PYTHON, ["-c", `import statecore.fctry as f\n${code}`]);
}

test("streams every protocol file's bytes, then ready; nothing else", async (t) => {
  const dir = project();
  const viewer = await startViewer(dir);
  t.after(async () => {
    await viewer.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.match(viewer.banner, /^statecore view: http:\/\/127\.0\.0\.1:\d+\/ shows .* live \(read-only\); Ctrl-C stops\n$/);
  const stream = openEvents(viewer.port);
  t.after(() => stream.close());
  const ready = await stream.waitFor((e) => e.event === "ready", OUTCOME_MS);
  const hello = stream.events[0];
  assert.equal(hello.event, "hello");
  assert.deepEqual(hello.data, { root: dir, data_dir: null, write: false });
  const files = stream.events.slice(0, stream.events.indexOf(ready)).filter((e) => e.event === "file");
  const paths = files.map((e) => e.data.path).sort();
  assert.deepEqual(paths, ["app/.fctry/inbox.json", "app/.fctry/state.json", "hm/workspace/state.json"]);
  const state = files.find((e) => e.data.path === "app/.fctry/state.json");
  assert.equal(state.data.role, "fctry.state");
  assert.equal(state.data.kind, "fctry.state");
  assert.equal(state.data.group, "app");
  assert.equal(state.data.root, "dir");
  assert.equal(state.data.abs, join(dir, "app", ".fctry", "state.json"));
  assert.equal(text(state), readFileSync(state.data.abs, "utf8"));
  assert.match(state.data.mtime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

/** A project served by a viewer (`args`), its stream read past `ready`; all ended after `t`. */
async function viewed(t, args = []) {
  const dir = project();
  const viewer = await startViewer(dir, args);
  const stream = openEvents(viewer.port);
  t.after(async () => {
    stream.close();
    await viewer.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await stream.waitFor((e) => e.event === "ready", OUTCOME_MS);
  return { dir, viewer, stream };
}

test("a Python writer's and a Node writer's changes, a torn file and a removal reach the stream", async (t) => {
  const { dir, stream } = await viewed(t);
  const app = join(dir, "app");
  const isState = (step) => (e) => e.event === "file" && e.data.path === "app/.fctry/state.json" && JSON.parse(text(e)).workflowStep === step;

  let from = stream.events.length;
  await pythonWriter(`f.start_step(${JSON.stringify(app)}, "researcher")`);
  await stream.waitFor(isState("researcher"), OUTCOME_MS, from);

  from = stream.events.length;
  await nodeWriter(`f.startStepSync(${JSON.stringify(app)}, "spec-writer")`);
  await stream.waitFor(isState("spec-writer"), OUTCOME_MS, from);

  from = stream.events.length;
  writeFileSync(join(app, ".fctry", "state.json"), '{"workflowStep": ');
  const torn = await stream.waitFor((e) => e.event === "file" && text(e) === '{"workflowStep": ', OUTCOME_MS, from);
  assert.equal(torn.data.role, "fctry.state", "a torn file is sent as it is: the page reports it");

  from = stream.events.length;
  rmSync(join(dir, "hm", "workspace", "state.json"));
  const removed = await stream.waitFor((e) => e.event === "file" && e.data.path === "hm/workspace/state.json", OUTCOME_MS, from);
  assert.equal(removed.data.data, null);
});

test("refuses foreign hosts and origins, paths that are not its own, and unknown methods", async (t) => {
  const dir = project();
  const secret = join(dir, "..", `secret-${process.pid}.js`);
  writeFileSync(secret, "secret");
  symlinkSync(secret, join(dir, "app", ".fctry", "link.js"));
  const viewer = await startViewer(dir);
  t.after(async () => {
    await viewer.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(secret, { force: true });
  });
  const port = viewer.port;
  const code = async (options) => {
    const res = await request(port, options);
    return [res.status, res.status === 200 ? "ok" : JSON.parse(res.body).code];
  };
  const page = await request(port);
  assert.equal(page.status, 200);
  assert.equal(page.headers["x-content-type-options"], "nosniff");
  assert.match(page.headers["content-security-policy"], /default-src 'self'/);
  assert.match(page.body, /name="statecore-token" content=""/, "a read-only page has no token");
  assert.deepEqual(await code({ headers: { host: "evil.example" } }), [403, "E_VIEW_HOST"]);
  assert.deepEqual(await code({ headers: { host: `attacker.example:${port}` } }), [403, "E_VIEW_HOST"]);
  // Node's server refuses an HTTP/1.1 request without Host itself (400) before the core's rule.
  assert.equal((await request(port, { headers: { host: null } })).status, 400);
  assert.deepEqual(await code({ path: "/events", headers: { origin: "https://evil.example" } }), [403, "E_VIEW_ORIGIN"]);
  assert.deepEqual(await code({ headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } }), [200, "ok"]);
  for (const path of ["/app/.fctry/state.json", "/assets/../../Cargo.toml", "/assets/%2e%2e%2fpackage.json", "/assets/link.js", "//etc/passwd", "/assets/nope.js", "/assets/.build-stamp"]) {
    assert.deepEqual(await code({ path }), [404, "E_VIEW_NOT_FOUND"], path);
  }
  assert.deepEqual(await code({ method: "DELETE", path: "/" }), [405, "E_VIEW_METHOD"]);
  const js = await request(port, { path: "/assets/viewer.js" });
  assert.equal(js.status, 200);
  assert.equal(js.headers["content-type"], "text/javascript; charset=utf-8");
  const wasm = await request(port, { method: "HEAD", path: "/assets/statecore_bg.wasm" });
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers["content-type"], "application/wasm");
  const dismissal = { method: "POST", path: "/api/inbox/dismiss", headers: { "content-type": "application/json" }, body: JSON.stringify({ project: "app", id: "inbox-1771236000000-ab12cd34" }) };
  assert.deepEqual(await code(dismissal), [403, "E_VIEW_READ_ONLY"]);
  assert.match(readFileSync(join(dir, "app", ".fctry", "inbox.json"), "utf8"), /Faster onboarding/, "the inbox is untouched");
});

test("--write: a dismissal needs the page's token and is a locked update of the inbox", async (t) => {
  const { dir, viewer, stream } = await viewed(t, ["--write"]);
  assert.match(viewer.banner, /\(writes allowed with this run's token\)/);
  const token = await pageToken(viewer.port);
  assert.match(token, /^[0-9a-f]{32}$/);
  const inbox = join(dir, "app", ".fctry", "inbox.json");
  const before = readFileSync(inbox, "utf8");
  const dismiss = (headers, body = { project: "app", id: "inbox-1771236000000-ab12cd34" }) =>
    request(viewer.port, { method: "POST", path: "/api/inbox/dismiss", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  assert.equal((await dismiss({})).status, 403);
  assert.equal(JSON.parse((await dismiss({ "x-statecore-token": "0".repeat(32) })).body).code, "E_VIEW_TOKEN");
  const foreign = await dismiss({ "x-statecore-token": token, origin: "http://evil.example" });
  assert.equal(JSON.parse(foreign.body).code, "E_VIEW_ORIGIN");
  const elsewhere = await dismiss({ "x-statecore-token": token }, { project: "../app", id: "inbox-1771236000000-ab12cd34" });
  assert.deepEqual([elsewhere.status, JSON.parse(elsewhere.body).code], [404, "E_VIEW_NOT_FOUND"], "only a project the viewer found");
  assert.equal(readFileSync(inbox, "utf8"), before, "nothing written by a refused request");

  const from = stream.events.length;
  const done = await dismiss({ "x-statecore-token": token, origin: `http://127.0.0.1:${viewer.port}` });
  assert.deepEqual([done.status, JSON.parse(done.body)], [200, { ok: true }]);
  assert.deepEqual(JSON.parse(readFileSync(inbox, "utf8")), []);
  await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/inbox.json", OUTCOME_MS, from);
});

test("--write: a dismissal the host cannot carry out is answered with the core's status for its error", async (t) => {
  const { dir, viewer, stream } = await viewed(t, ["--write"]);
  const token = await pageToken(viewer.port);
  const inbox = join(dir, "app", ".fctry", "inbox.json");
  const from = stream.events.length;
  writeFileSync(inbox, '{"not": "an inbox"}\n');
  await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/inbox.json", OUTCOME_MS, from);
  const failed = await request(viewer.port, {
    method: "POST",
    path: "/api/inbox/dismiss",
    headers: { "content-type": "application/json", "x-statecore-token": token },
    body: JSON.stringify({ project: "app", id: "inbox-1771236000000-ab12cd34" }),
  });
  const body = JSON.parse(failed.body);
  assert.deepEqual([failed.status, body.code], [409, "E_ARGUMENT"], failed.body);
  assert.match(body.message, /must be a list of items/);
  assert.equal(failed.headers["x-content-type-options"], "nosniff", "the answer carries the viewer's headers");
  assert.equal(readFileSync(inbox, "utf8"), '{"not": "an inbox"}\n', "an invalid inbox is left as it is");
});

test("a port in use: exit 2 with what to do", async (t) => {
  const busy = createServer();
  await new Promise((resolve) => busy.listen(0, "127.0.0.1", resolve));
  t.after(() => busy.close());
  const port = busy.address().port;
  const dir = project();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let failure;
  try {
    execFileSync(process.execPath, [BIN, "view", dir, "--port", String(port)], { stdio: "pipe" });
  } catch (error) {
    failure = error;
  }
  assert.equal(failure?.status, 2);
  assert.equal(failure.stderr.toString(), `statecore: port ${port} is in use: give --port N, or --port 0 for any free port\n`);
});

test("a project inside a node_modules folder is shown; .git and node_modules below it are skipped", async (t) => {
  const outer = mkdtempSync(join(tmpdir(), "statecore-view-nm-"));
  const dir = join(outer, "node_modules", "project");
  mkdirSync(join(dir, "app", ".fctry"), { recursive: true });
  writeFileSync(join(dir, "app", ".fctry", "state.json"), '{"workflowStep": "interviewer"}\n');
  for (const skipped of ["node_modules", ".git"]) {
    mkdirSync(join(dir, skipped, "dep", ".fctry"), { recursive: true });
    writeFileSync(join(dir, skipped, "dep", ".fctry", "state.json"), '{"workflowStep": "interviewer"}\n');
  }
  const viewer = await startViewer(dir);
  const stream = openEvents(viewer.port);
  t.after(async () => {
    stream.close();
    await viewer.stop();
    rmSync(outer, { recursive: true, force: true });
  });
  const ready = await stream.waitFor((e) => e.event === "ready", OUTCOME_MS);
  const paths = stream.events.slice(0, stream.events.indexOf(ready)).filter((e) => e.event === "file").map((e) => e.data.path);
  assert.deepEqual(paths, ["app/.fctry/state.json"]);
});
