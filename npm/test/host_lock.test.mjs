// The lock protocol of docs/locking.md from Node: records, liveness, breaking, cross-language.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { core, deadPid, host, startHolder, tempDir } from "./helpers/procs.mjs";

const { acquireLock, acquireLockSync, updateDocument, updateDocumentSync } = host;

const isTimeout = (e) => e instanceof core.LockTimeoutError && e.code === "E_LOCK_TIMEOUT";
const readRecord = (lockPath) => JSON.parse(fs.readFileSync(lockPath, "utf8"));

/** Field 22 of /proc/<pid>/stat, as the protocol stores it. */
function startOf(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  return text.slice(text.lastIndexOf(")") + 2).split(" ")[19];
}

function bootId() {
  return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
}

/** Writes a lock file for `file` holding `fields` over a plausible record. */
function plantLock(file, fields) {
  const record = {
    pid: process.pid,
    start: startOf(process.pid),
    boot: bootId(),
    host: os.hostname(),
    token: "0123456789abcdef0123456789abcdef",
    acquired_at: new Date().toISOString(),
    ...fields,
  };
  fs.writeFileSync(`${file}.lock`, JSON.stringify(record) + "\n");
  return record;
}

function setAge(file, seconds) {
  const then = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(file, then, then);
}

test("the owner record: complete, the documented fields, removed on release", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const lock = acquireLockSync(file);
  const text = fs.readFileSync(`${file}.lock`, "utf8");
  const record = JSON.parse(text);
  assert.equal(text, JSON.stringify(lock.record) + "\n");
  assert.deepEqual(Object.keys(record), ["pid", "start", "boot", "host", "token", "acquired_at"]);
  assert.equal(record.pid, process.pid);
  assert.equal(record.start, startOf(process.pid));
  assert.equal(record.boot, bootId());
  assert.equal(record.host, os.hostname());
  assert.match(record.token, /^[0-9a-f]{32}$/);
  assert.match(record.acquired_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.deepEqual(fs.readdirSync(dir), ["state.json.lock"]); // no temp file left
  assert.equal(lock.release(), true);
  assert.equal(lock.release(), false);
  assert.deepEqual(fs.readdirSync(dir), []);
  const again = await acquireLock(file, 100);
  again.release();
});

test("a live holder is waited for, then LockTimeoutError names it; the lock stays", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  const lock = acquireLockSync(file);
  const before = fs.readFileSync(`${file}.lock`);
  let error;
  try {
    acquireLockSync(file, 50);
  } catch (e) {
    error = e;
  }
  assert.ok(isTimeout(error), String(error));
  assert.ok(error instanceof core.StatecoreError);
  assert.deepEqual(error.details.owner, lock.record);
  assert.equal(error.details.path, `${file}.lock`);
  assert.match(error.message, new RegExp(`pid ${process.pid} .*delete ${file}\\.lock`));
  await assert.rejects(updateDocument(file, "json", { a: 1 }, null, { timeout: 30 }), isTimeout);
  assert.deepEqual(fs.readFileSync(`${file}.lock`), before);
  assert.equal(fs.existsSync(file), false);
  lock.release();
});

test("release never removes someone else's lock", (t) => {
  const file = path.join(tempDir(t), "state.json");
  const first = acquireLockSync(file);
  fs.unlinkSync(`${file}.lock`); // say an operator deleted it, and another process took it
  const second = acquireLockSync(file, 100);
  assert.equal(first.release(), false);
  assert.equal(readRecord(`${file}.lock`).token, second.record.token);
  assert.equal(second.release(), true);
  assert.equal(fs.existsSync(`${file}.lock`), false);
});

test("a lock of a dead pid is taken over at once", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  plantLock(file, { pid: await deadPid(), start: "1" });
  const lock = acquireLockSync(file, 2000);
  assert.equal(readRecord(`${file}.lock`).token, lock.record.token);
  lock.release();
});

test("pid reuse (same pid, other start time) and another boot id are dead; our own start is alive", (t) => {
  const file = path.join(tempDir(t), "state.json");
  plantLock(file, {});
  assert.throws(() => acquireLockSync(file, 30), isTimeout); // our pid, our start: alive
  plantLock(file, { start: "1" });
  acquireLockSync(file, 1000).release();
  plantLock(file, { boot: "00000000-0000-0000-0000-000000000000" });
  acquireLockSync(file, 1000).release();
});

test("another host's lock is broken only after its 60 s lease", (t) => {
  const file = path.join(tempDir(t), "state.json");
  plantLock(file, { host: "elsewhere.example", pid: 1 });
  assert.throws(() => acquireLockSync(file, 30), isTimeout);
  const stale = new Date(Date.now() - host.LOCK_LEASE_MS - 1000).toISOString();
  plantLock(file, { host: "elsewhere.example", pid: 1, acquired_at: stale });
  acquireLockSync(file, 1000).release();
});

test("a malformed lock record is broken only after the 2 s grace period", (t) => {
  const file = path.join(tempDir(t), "state.json");
  for (const content of ["", "\0\0\0", '{"pid": 1}', '{"pid":1,"token":"../../x"}']) {
    fs.writeFileSync(`${file}.lock`, content);
    assert.throws(() => acquireLockSync(file, 30), isTimeout, JSON.stringify(content));
    assert.equal(fs.readFileSync(`${file}.lock`, "utf8"), content);
    setAge(`${file}.lock`, 3);
    const lock = acquireLockSync(file, 1000);
    assert.equal(readRecord(`${file}.lock`).token, lock.record.token);
    lock.release();
  }
});

test("a live breaker's marker is respected; a dead breaker's marker is broken one level up", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const dead = await deadPid();
  const lockRecord = plantLock(file, { pid: dead });
  const marker = `${file}.lock.break-${lockRecord.token}`;
  const markerRecord = {
    pid: process.pid,
    start: startOf(process.pid),
    boot: bootId(),
    host: os.hostname(),
    token: "fedcba9876543210fedcba9876543210",
    acquired_at: new Date().toISOString(),
  };
  fs.writeFileSync(marker, JSON.stringify(markerRecord));
  // The breaker (us, per the marker) is alive: nobody else may remove the dead lock.
  assert.throws(() => acquireLockSync(file, 30), isTimeout);
  assert.equal(readRecord(`${file}.lock`).token, lockRecord.token);
  // The breaker died: its marker goes first, then the lock.
  fs.writeFileSync(marker, JSON.stringify({ ...markerRecord, pid: dead }));
  const lock = acquireLockSync(file, 1000);
  assert.deepEqual(fs.readdirSync(dir), ["state.json.lock"]);
  lock.release();
});

test("an update clears dead breakers' markers and stale lock temp files", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "state.json");
  const dead = await deadPid();
  const record = { ...plantLock(file, { pid: dead }), token: "11111111111111111111111111111111" };
  fs.unlinkSync(`${file}.lock`);
  fs.writeFileSync(`${file}.lock.break-22222222222222222222222222222222`, JSON.stringify(record));
  const oldTmp = `${file}.lock.33333333333333333333333333333333.tmp`; // empty (killed), old
  fs.writeFileSync(oldTmp, "");
  setAge(oldTmp, 3);
  const foreignTmp = `${file}.lock.66666666666666666666666666666666.tmp`; // not ours: kept
  fs.writeFileSync(foreignTmp, "{}");
  setAge(foreignTmp, 3);
  const deadTmp = `${file}.lock.44444444444444444444444444444444.tmp`; // a dead owner's
  fs.writeFileSync(deadTmp, JSON.stringify({ ...record, token: "44444444444444444444444444444444" }));
  const liveTmp = `${file}.lock.55555555555555555555555555555555.tmp`; // a live owner's: kept
  fs.writeFileSync(liveTmp, JSON.stringify({ ...record, pid: process.pid, token: "55555555555555555555555555555555" }));
  updateDocumentSync(file, "json", { a: 1 });
  assert.deepEqual(fs.readdirSync(dir).sort(), ["state.json", path.basename(liveTmp), path.basename(foreignTmp)]);
});

test("a killed holder's lock (dead, even as an unreaped zombie) is taken over", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  const holder = await startHolder(t, "node", file);
  holder.kill("SIGKILL");
  // Synchronously, before the event loop can reap it: the child is alive or a zombie.
  const lock = acquireLockSync(file, 5000);
  assert.notEqual(lock.record.token, holder.hello.record.token);
  lock.release();
  await holder.exited;
});

test("cross-language: Python's lock record is byte-compatible and judged alive, then dead", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  const holder = await startHolder(t, "python", file);
  const record = holder.hello.record;
  // Python writes exactly the bytes Node would write for the same record.
  assert.equal(fs.readFileSync(`${file}.lock`, "utf8"), JSON.stringify(record) + "\n");
  assert.deepEqual(Object.keys(record), ["pid", "start", "boot", "host", "token", "acquired_at"]);
  assert.equal(record.pid, holder.pid);
  assert.equal(record.start, startOf(holder.pid));
  assert.equal(record.boot, bootId());
  assert.equal(record.host, os.hostname());
  let error;
  try {
    acquireLockSync(file, 50);
  } catch (e) {
    error = e;
  }
  assert.ok(isTimeout(error), String(error));
  assert.deepEqual(error.details.owner, record);
  holder.kill("SIGKILL");
  await holder.exited;
  const lock = acquireLockSync(file, 5000);
  lock.release();
});

test("SIGSTOP: a stopped holder is alive, never robbed; after SIGCONT it releases", async (t) => {
  const file = path.join(tempDir(t), "state.json");
  updateDocumentSync(file, "json", { n: 1 });
  const holder = await startHolder(t, "python", file);
  const lockBytes = fs.readFileSync(`${file}.lock`);
  const fileBytes = fs.readFileSync(file);
  holder.kill("SIGSTOP");
  t.after(() => holder.kill("SIGCONT"));
  await assert.rejects(updateDocument(file, "json", { n: 2 }, null, { timeout: 1000 }), isTimeout);
  assert.deepEqual(fs.readFileSync(`${file}.lock`), lockBytes);
  assert.deepEqual(fs.readFileSync(file), fileBytes);
  holder.kill("SIGCONT");
  holder.send("release\n");
  assert.deepEqual(await holder.waitJson("released"), { released: true });
  const result = await updateDocument(file, "json", { n: 2 }, null, { timeout: 5000 });
  assert.equal(result.document.n, 2);
});
