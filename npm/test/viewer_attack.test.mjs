// `statecore view` attacked as a hostile directory and hostile clients would (docs/viewer.md §
// Security and § Bounds): a link to a file outside is refused and never streamed; a FIFO at a
// watched path, before the start or while running, is reported and never opened; a link to
// /dev/zero is refused; 50 clients that never read while a 20 MiB file changes, and a 300 MiB
// log, leave the server's memory under its documented bound. Each case measures the server's
// peak resident memory (VmHWM) and asks a normal client for the page and the stream after it.
// Waits are for outcomes, with generous limits; nothing here is timed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync, ftruncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryOf, openEvents, request, startViewer, text, within } from "./helpers/viewer.mjs";

const { CONSTANTS } = createRequire(import.meta.url)("../lib/binding/tables.cjs");
/** The bound docs/viewer.md § Bounds states for the server's resident memory. */
const BOUND = CONSTANTS.viewMemoryBytes;
/** Generous limits for outcomes (a loaded 2-core machine). */
const LIMIT = 30_000;
const MiB = 1024 * 1024;

/** A directory with one valid fctry project `app`. */
function project(t) {
  const dir = mkdtempSync(join(tmpdir(), "statecore-view-attack-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "app", ".fctry"), { recursive: true });
  writeFileSync(join(dir, "app", ".fctry", "state.json"), '{\n  "workflowStep": "interviewer"\n}\n');
  return dir;
}

/** Starts the viewer on `dir` (killed at the end of `t`). */
async function viewer(t, dir) {
  const view = await startViewer(dir, [], { limitMs: LIMIT });
  t.after(() => view.stop());
  return view;
}

/** The last `file` event for `path` once `predicate` holds for it. */
function fileEvent(stream, path, predicate = () => true) {
  return stream.waitFor((e) => e.event === "file" && e.data.path === path && predicate(e.data), LIMIT);
}

/**
 * The server still answers a normal client: the page, and a new stream that reaches `ready`
 * with the valid state file in it.
 */
async function answers(view) {
  const page = await within(request(view.port), LIMIT, "the page");
  assert.equal(page.status, 200);
  const stream = openEvents(view.port);
  try {
    await within(stream.waitFor((e) => e.event === "ready", LIMIT), LIMIT, "a new stream's ready");
    assert.ok(stream.events.some((e) => e.event === "file" && e.data.path === "app/.fctry/state.json" && text(e).includes("interviewer")));
  } finally {
    stream.close();
  }
}

/** The server's peak resident memory is under the bound (and said in the test's output). */
function underBound(t, view, what) {
  const { hwm } = memoryOf(view.child.pid);
  t.diagnostic(`${what}: the server's peak resident memory ${Math.round(hwm / MiB)} MiB (bound ${BOUND / MiB} MiB)`);
  assert.ok(hwm < BOUND, `${what}: the server's peak resident memory is ${Math.round(hwm / MiB)} MiB, over the ${BOUND / MiB} MiB bound`);
}

/** The first bytes of a file event's data, as text (the whole of a big file is not decoded). */
function head(event) {
  return event.data.data ? Buffer.from(event.data.data.slice(0, 16), "base64").toString("utf8") : null;
}

/** Creates a FIFO at `path`. */
function mkfifo(path) {
  execFileSync("mkfifo", [path]);
}

test("a link to a file outside the directory is refused with E_FILE_TYPE, its bytes never streamed", async (t) => {
  const dir = project(t);
  const outside = mkdtempSync(join(tmpdir(), "statecore-view-outside-"));
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  const SECRET = "SECRET-4f1c9b";
  writeFileSync(join(outside, "shadow.json"), JSON.stringify({ secret: SECRET }) + "\n");
  mkdirSync(join(outside, ".fctry"));
  writeFileSync(join(outside, ".fctry", "state.json"), JSON.stringify({ workflowStep: SECRET }) + "\n");
  symlinkSync(join(outside, "shadow.json"), join(dir, "app", ".fctry", "config.json"));
  symlinkSync(outside, join(dir, "linked")); // a linked directory is not entered
  const view = await viewer(t, dir);
  const stream = openEvents(view.port);
  t.after(() => stream.close());
  await stream.waitFor((e) => e.event === "ready", LIMIT);
  const refused = await fileEvent(stream, "app/.fctry/config.json");
  assert.equal(refused.data.data, null);
  assert.equal(refused.data.refused?.code, "E_FILE_TYPE");
  assert.match(refused.data.refused.message, /symbolic link/);

  // A link made while the viewer runs is refused as well.
  const from = stream.events.length;
  symlinkSync(join(outside, "shadow.json"), join(dir, "app", ".fctry", "inbox.json"));
  const later = await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/inbox.json", LIMIT, from);
  assert.equal(later.data.refused?.code, "E_FILE_TYPE");

  // A project directory replaced by a link to one outside: its files are refused, not read
  // through it.
  mkdirSync(join(dir, "q", ".fctry"), { recursive: true });
  writeFileSync(join(dir, "q", ".fctry", "state.json"), '{\n  "workflowStep": "interviewer"\n}\n');
  const seen = stream.events.length;
  await stream.waitFor((e) => e.event === "file" && e.data.path === "q/.fctry/state.json" && e.data.data !== null, LIMIT, seen);
  const swapped = stream.events.length;
  rmSync(join(dir, "q", ".fctry"), { recursive: true });
  symlinkSync(join(outside, ".fctry"), join(dir, "q", ".fctry"));
  const gone = await stream.waitFor((e) => e.event === "file" && e.data.path === "q/.fctry/state.json", LIMIT, swapped);
  assert.equal(gone.data.data, null);

  const everything = JSON.stringify(stream.events) + stream.events.map((e) => (e.data.data ? text(e) : "")).join("");
  assert.ok(!everything.includes(SECRET), "the outside file's bytes were streamed");
  assert.ok(!stream.events.some((e) => String(e.data.path ?? "").startsWith("linked/")), "a linked directory was entered");
  await answers(view);
});

test("a FIFO at a watched path before the start: the server starts, reports it and never opens it", async (t) => {
  const dir = project(t);
  mkfifo(join(dir, "app", ".fctry", "inbox.json"));
  mkdirSync(join(dir, "s1"));
  mkfifo(join(dir, "s1", "EVENTS.jsonl"));
  const view = await viewer(t, dir); // rejects when no banner comes
  const stream = openEvents(view.port);
  t.after(() => stream.close());
  await stream.waitFor((e) => e.event === "ready", LIMIT);
  for (const path of ["app/.fctry/inbox.json", "s1/EVENTS.jsonl"]) {
    const fifo = await fileEvent(stream, path);
    assert.equal(fifo.data.data, null);
    assert.equal(fifo.data.refused?.code, "E_FILE_TYPE");
    assert.match(fifo.data.refused.message, /fifo/);
  }
  underBound(t, view, "FIFOs before the start");
  await answers(view);
});

test("a FIFO at a watched path while running: reported, never opened; later changes still stream", async (t) => {
  const dir = project(t);
  const view = await viewer(t, dir);
  const stream = openEvents(view.port);
  t.after(() => stream.close());
  await stream.waitFor((e) => e.event === "ready", LIMIT);
  const from = stream.events.length;
  mkfifo(join(dir, "app", ".fctry", "inbox.json"));
  const fifo = await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/inbox.json", LIMIT, from);
  assert.equal(fifo.data.refused?.code, "E_FILE_TYPE");
  writeFileSync(join(dir, "app", ".fctry", "state.json"), '{\n  "workflowStep": "interviewer",\n  "n": 2\n}\n');
  await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/state.json" && text(e)?.includes('"n": 2'), LIMIT, from);
  underBound(t, view, "a FIFO while running");
  await answers(view);
});

test("a link to /dev/zero is refused, and the server's memory stays under its bound", async (t) => {
  const dir = project(t);
  symlinkSync("/dev/zero", join(dir, "app", ".fctry", "inbox.json"));
  mkdirSync(join(dir, "s1"));
  symlinkSync("/dev/zero", join(dir, "s1", "EVENTS.jsonl"));
  const view = await viewer(t, dir);
  const stream = openEvents(view.port);
  t.after(() => stream.close());
  await stream.waitFor((e) => e.event === "ready", LIMIT);
  for (const path of ["app/.fctry/inbox.json", "s1/EVENTS.jsonl"]) {
    const zero = await fileEvent(stream, path);
    assert.equal(zero.data.data, null);
    assert.equal(zero.data.refused?.code, "E_FILE_TYPE");
  }
  underBound(t, view, "links to /dev/zero");
  await answers(view);
});

/** Opens `/events` on a raw socket that never reads what it is sent. */
function neverReads(port, sockets) {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  socket.pause();
  sockets.push(socket);
}

test("50 clients that never read while a 20 MiB file changes: the server stays under its bound and serves others", async (t) => {
  const dir = project(t);
  const spec = join(dir, "app", ".fctry", "spec.md");
  const version = (n) => `# v${n}\n` + `${String(n)}`.repeat(20 * MiB);
  writeFileSync(spec, "# small\n");
  const view = await viewer(t, dir);
  const sockets = [];
  t.after(() => sockets.forEach((s) => s.destroy()));
  /**
   * A new client is sent version `n` of the file. It reconnects as the page does when its
   * stream is closed: a stream still taking a 27 MiB event when a newer version comes may be
   * dropped (docs/viewer.md § Bounds).
   */
  const sent = async (n) => {
    for (let attempt = 1; ; attempt++) {
      const stream = openEvents(view.port);
      try {
        await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/spec.md" && head(e)?.startsWith(`# v${n}\n`), LIMIT);
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      } finally {
        stream.close();
      }
    }
  };
  // Two waves of clients, each stuck on a different version; the file changes after each.
  for (let wave = 1; wave <= 2; wave++) {
    for (let i = 0; i < 25; i++) neverReads(view.port, sockets);
    writeFileSync(spec, version(wave));
    await sent(wave);
  }
  writeFileSync(spec, version(3));
  await sent(3);
  underBound(t, view, "50 clients that never read and a 20 MiB file");
  await answers(view);
  underBound(t, view, "50 clients that never read and a 20 MiB file, and a new client");
});

test("a 300 MiB log is sent as its last lines: each connection costs a page, not the log", async (t) => {
  const dir = project(t);
  mkdirSync(join(dir, "s1"));
  const log = join(dir, "s1", "EVENTS.jsonl");
  // A sparse 300 MiB file: a hole, then a line break and records at its end.
  const fd = openSync(log, "w");
  ftruncateSync(fd, 300 * MiB);
  const lines = Array.from({ length: 100 }, (_, i) => JSON.stringify({ type: "note", n: i }) + "\n").join("");
  writeSync(fd, "\n" + lines, 300 * MiB);
  closeSync(fd);
  const size = 300 * MiB + 1 + Buffer.byteLength(lines);
  const view = await viewer(t, dir);
  const streams = [openEvents(view.port), openEvents(view.port), openEvents(view.port)];
  t.after(() => streams.forEach((s) => s.close()));
  for (const stream of streams) {
    await stream.waitFor((e) => e.event === "ready", LIMIT);
    const event = await fileEvent(stream, "s1/EVENTS.jsonl");
    const bytes = Buffer.from(event.data.data, "base64");
    assert.ok(bytes.length <= CONSTANTS.viewLogBytes, `${bytes.length} bytes sent`);
    assert.equal(event.data.size, size);
    assert.equal(event.data.offset, size - bytes.length);
    assert.equal(bytes.toString("utf8"), lines, "the last lines, from a line start");
  }
  underBound(t, view, "a 300 MiB log and three connections");
  await answers(view);
});
