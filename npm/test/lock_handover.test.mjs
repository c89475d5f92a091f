// The lock's hand-over (docs/locking.md § Fairness): a releaser renames the claim of the next
// turn over the lock, so the claimant holds it without the lock ever being free; only a fresh
// claim of a live process is handed the lock, and a lock handed to a process that died is
// broken like any dead owner's (a hand-over never wedges anyone).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { core, host, tempDir } from "./helpers/procs.mjs";

const { acquireLockSync, acquireLock, updateDocumentSync, readDocumentSync } = host;
const listing = (dir) => fs.readdirSync(dir).sort();
const code = (want) => (e) => e instanceof core.StatecoreError && e.code === want;

/** The `{pid, start, boot, host}` of process `pid` on this machine. */
function identityOf(pid) {
  const stat = core.lock.procStat(fs.readFileSync(`/proc/${pid}/stat`, "latin1"));
  const boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  return { pid, start: stat ? stat.start : null, boot, host: os.hostname() };
}

/** A claim record `{record, text}` of process `pid`, as its waiter would write it. */
const claimOf = (pid) => core.lock.record(identityOf(pid), randomBytes(16), Date.now());

/** Writes the claim `text` to `<file>.lock.next`, old enough to be honoured (and fresh). */
function plant(file, text) {
  fs.writeFileSync(`${file}.lock.next`, text);
  const then = new Date(Date.now() - 100);
  fs.utimesSync(`${file}.lock.next`, then, then);
}

/** Waits until a waiter's claim `<file>.lock.next` exists and is old enough to be honoured. */
async function ripeClaim(file) {
  const next = `${file}.lock.next`;
  const ripe = core.CONSTANTS.lockClaimRipeMs + 5;
  for (let i = 0; i < 4000; i++) {
    const stat = fs.statSync(next, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > ripe) return fs.readFileSync(next, "utf8");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("no claim");
}

/** A live process that is no statecore waiter (it never looks at a lock). */
async function sleeper(t) {
  const child = spawn(process.execPath, ["-e", "process.stdout.write('up\\n'); setTimeout(() => {}, 120000)"]);
  t.after(() => child.kill("SIGKILL"));
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return child;
}

test("hand-over: releasing with a live waiter's fresh claim renames the claim over the lock", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const child = await sleeper(t);
  const held = acquireLockSync(file, 0);
  const claim = claimOf(child.pid);
  plant(file, claim.text);
  assert.equal(held.release(), true);
  assert.deepEqual(listing(dir), ["state.json.lock"], "the claim became the lock");
  assert.equal(fs.readFileSync(`${file}.lock`, "utf8"), claim.text, "held by the claimant, never free");
  assert.equal(held.release(), false, "a second release does nothing");
  // The claimant dies holding the lock it was handed: the next acquirer breaks it.
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  updateDocumentSync(file, "json", { after: true }, null, { timeout: 30000 });
  assert.deepEqual(readDocumentSync(file, "json").document, { after: true });
  assert.deepEqual(listing(dir), ["state.json"]);
});

test("hand-over: never to a young, stale, dead, malformed or foreign claim", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const next = `${file}.lock.next`;
  const child = await sleeper(t);
  const cases = {
    young: () => {
      fs.writeFileSync(next, claimOf(child.pid).text); // not honoured yet: the holder keeps going
      return ["state.json.lock.next"];
    },
    stale: () => {
      fs.writeFileSync(next, claimOf(child.pid).text);
      const then = new Date(Date.now() - 3000);
      fs.utimesSync(next, then, then);
      return ["state.json.lock.next"]; // ignored, left
    },
    dead: () => {
      const dead = { ...identityOf(process.pid), pid: 2147483646 };
      plant(file, core.lock.record(dead, randomBytes(16), Date.now()).text);
      return []; // broken
    },
    youngDead: () => {
      // Too young to be honoured: judged from its mtime alone, so not read and not broken yet
      // (the "dead" case above is broken once it is ripe).
      const dead = { ...identityOf(process.pid), pid: 2147483646 };
      fs.writeFileSync(next, core.lock.record(dead, randomBytes(16), Date.now()).text);
      return ["state.json.lock.next"];
    },
    malformed: () => {
      plant(file, '{"pid": 12');
      return ["state.json.lock.next"]; // within its grace period: waited for, never moved
    },
    foreign: () => {
      plant(file, "not ours");
      return ["state.json.lock.next"];
    },
  };
  for (const [name, plant] of Object.entries(cases)) {
    const held = acquireLockSync(file, 0);
    const want = plant();
    const text = fs.existsSync(next) ? fs.readFileSync(next, "utf8") : null;
    assert.equal(held.release(), true, name);
    assert.deepEqual(listing(dir), want, `${name}: the lock is released, not handed over`);
    if (want.length) assert.equal(fs.readFileSync(next, "utf8"), text, `${name}: the claim is untouched`);
    fs.rmSync(next, { force: true });
  }
});

test("hand-over: a waiting process is handed the lock, its claim record becomes the lock", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const held = acquireLockSync(file);
  const script = `
    const { acquireLockSync } = require(${JSON.stringify(path.resolve("lib/host/host.cjs"))});
    const lock = acquireLockSync(${JSON.stringify(file)}, 60000);
    process.stdout.write(JSON.stringify(lock.record) + "\\n");
    process.stdin.once("data", () => process.exit(lock.release() ? 0 : 3));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const claim = await ripeClaim(file);
  assert.equal(JSON.parse(claim).pid, child.pid, "the waiter claimed the next turn");
  assert.equal(held.release(), true);
  assert.equal(fs.readFileSync(`${file}.lock`, "utf8"), claim, "the lock holds the waiter's claim record");
  const record = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(JSON.parse(d))));
  assert.equal(JSON.stringify(record) + "\n", claim, "the waiter holds the lock it was handed");
  child.stdin.write("go\n");
  assert.equal(await exited, 0, "and releases it");
  assert.deepEqual(listing(dir), []);
});

test("hand-over: an async waiter is handed the lock too, and a timed-out one never keeps it", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const held = acquireLockSync(file);
  const waiting = acquireLock(file, 60000);
  const claim = await ripeClaim(file);
  assert.equal(held.release(), true);
  const lock = await waiting;
  assert.equal(JSON.stringify(lock.record) + "\n", claim);
  // A waiter that times out leaves neither its claim nor a lock behind.
  await assert.rejects(acquireLock(file, 50), code("E_LOCK_TIMEOUT"));
  assert.deepEqual(listing(dir), ["state.json.lock"]);
  assert.equal(lock.release(), true);
  assert.deepEqual(listing(dir), []);
});

test("a first attempt takes the free lock past a young claim, and leaves it to a ripe claim's live claimant", async (t) => {
  // The first attempt's plan goes on past a claim file too young to be honoured (its
  // `age_under_ms`); a ripe one stops it, and the job lets the claimant go first.
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const next = `${file}.lock.next`;
  const child = await sleeper(t);
  const claim = claimOf(child.pid).text;
  fs.writeFileSync(next, claim); // young
  const lock = acquireLockSync(file, 0);
  assert.deepEqual(listing(dir), ["state.json.lock", "state.json.lock.next"]);
  assert.equal(lock.release(), true, "a young claim is not handed the lock");
  assert.deepEqual(listing(dir), ["state.json.lock.next"]);
  plant(file, claim); // ripe
  assert.throws(() => acquireLockSync(file, 0), code("E_LOCK_TIMEOUT"));
  assert.deepEqual(listing(dir), ["state.json.lock.next"], "the free lock is left to the claimant");
  assert.equal(fs.readFileSync(next, "utf8"), claim);
});

test("a waiter lets a young claim's claimant go first: it leaves the free lock alone while the claim is fresh", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const next = `${file}.lock.next`;
  const child = await sleeper(t);
  plant(file, claimOf(child.pid).text); // a live waiter's claim, ripe: everyone lets it go first
  let got = null;
  const waiting = acquireLock(file, 60000).then((lock) => (got = lock));
  await new Promise((resolve) => setTimeout(resolve, 20)); // it has waited (on this thread)
  // Keep the claim young for a while: the free lock is left to its claimant (before, a waiter
  // took it at its next poll while the claim was young).
  for (let i = 0; i < 60; i++) {
    const now = new Date();
    fs.utimesSync(next, now, now);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(got, null, "the waiter did not take the lock");
  assert.deepEqual(listing(dir), ["state.json.lock.next"]);
  fs.rmSync(next); // the claimant is done: the waiter's next poll takes the lock
  const lock = await waiting;
  assert.deepEqual(listing(dir), ["state.json.lock"]);
  assert.equal(lock.release(), true);
});

/** Puts the claim `text` at `<file>.lock.next` as a waiter does (a new file renamed there), ripe. */
function replaceClaim(file, text) {
  const tmp = `${file}.lock.next.${randomBytes(16).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, text);
  const then = new Date(Date.now() - 100);
  fs.utimesSync(tmp, then, then);
  fs.renameSync(tmp, `${file}.lock.next`);
}

/** Waits (up to 20 s) until `<file>.lock.next` holds a claim for which `wanted(text)` is true. */
async function claimSuch(file, wanted) {
  for (let i = 0; i < 4000; i++) {
    const text = fs.existsSync(`${file}.lock.next`) ? fs.readFileSync(`${file}.lock.next`, "utf8") : null;
    if (text !== null && wanted(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("no such claim");
}

test("the next turn goes to the longest waiter: a waiter takes the claim back from one that started after it", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const child = await sleeper(t);
  const held = acquireLockSync(file);
  const waiting = acquireLock(file, 60000); // it starts waiting now
  const ours = await ripeClaim(file);
  assert.equal(JSON.parse(ours).pid, process.pid, "the waiter claimed the next turn");
  // A live process that started waiting later puts its claim there (ripe: honoured by all).
  await new Promise((resolve) => setTimeout(resolve, 5));
  const later = claimOf(child.pid).text;
  assert.ok(JSON.parse(later).acquired_at > JSON.parse(ours).acquired_at);
  replaceClaim(file, later);
  // Before, the waiter let it go first; now it takes the claim over, its own record again.
  const back = await claimSuch(file, (text) => text !== later);
  assert.equal(back, ours, "the longer waiter's claim (the same record) is back");
  assert.equal(held.release(), true);
  const lock = await waiting;
  assert.equal(JSON.stringify(lock.record) + "\n", ours, "and the lock is handed to it");
  assert.deepEqual(listing(dir), ["state.json.lock"]);
  assert.equal(lock.release(), true);
});

test("a waiter never takes over the claim of one that started waiting before it", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const next = `${file}.lock.next`;
  const child = await sleeper(t);
  const held = acquireLockSync(file);
  const earlier = core.lock.record(identityOf(child.pid), randomBytes(16), Date.now() - 5000).text;
  plant(file, earlier);
  let got = null;
  const waiting = acquireLock(file, 60000).then((lock) => (got = lock));
  for (let i = 0; i < 40; i++) {
    const now = new Date(Date.now() - 100); // kept ripe and fresh: a live claimant's
    fs.utimesSync(next, now, now);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(fs.readFileSync(next, "utf8"), earlier, "the earlier waiter keeps its claim");
  assert.equal(got, null);
  assert.equal(held.release(), true);
  assert.equal(fs.readFileSync(`${file}.lock`, "utf8"), earlier, "handed to the earlier waiter");
  fs.rmSync(`${file}.lock`); // it is done
  const lock = await waiting;
  assert.equal(lock.release(), true);
  assert.deepEqual(listing(dir), []);
});

test("a dead oldest waiter never wedges the lock: its claim is broken and the next waiter is served", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const held = acquireLockSync(file);
  // The oldest claim there is (it started waiting long before anyone), of a process now gone.
  const dead = { ...identityOf(process.pid), pid: 2147483646 };
  const oldest = core.lock.record(dead, randomBytes(16), Date.now() - 60000).text;
  fs.writeFileSync(`${file}.lock.next`, oldest); // young: judged once it is ripe
  const waiting = acquireLock(file, 60000);
  const ours = await claimSuch(file, (text) => text !== oldest);
  assert.equal(JSON.parse(ours).pid, process.pid, "the dead claim was broken, the waiter claimed");
  assert.equal(held.release(), true);
  const lock = await waiting; // handed over, or taken once free
  assert.equal(lock.record.pid, process.pid);
  assert.equal(lock.release(), true);
  assert.deepEqual(listing(dir), []);
});
