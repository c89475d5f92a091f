"use strict";
/**
 * Append-only JSONL logs (docs/locking.md): `appendLine` writes one record under the lock (one
 * `write()` ending in `\n`, fsync), repairing a torn last line first (kept as a `.corrupt-`
 * copy); `repairLog` does that repair alone; `readLog` drops a torn last line with a warning
 * and never writes. The core parses.
 */
const path = require("node:path");
const { define, attempt } = require("./steps.cjs");
const lock = require("./lock.cjs");
const { checkOptions, core } = require("./documents.cjs");
const { resolvePath } = require("./paths.cjs");
const sessions = require("./sessions.cjs");

/**
 * The file the log `file` is kept with, when it is there (the core's `logOwner`: a hive
 * session's `STATE.json` beside its `EVENTS.jsonl`), with its path; null for any other log.
 */
function* ownerOf(io, file) {
  const owner = core().logOwner(file);
  if (owner === null) return null;
  const kept = path.join(path.dirname(file), owner.file);
  const there = yield* attempt(() => io.lstat(kept), () => null);
  return there === null ? null : { ...owner, path: kept };
}

const api = {};

/**
 * Runs the routine `step(bytes)` on the log's bytes under its lock, `hostOptions` checked
 * first. A symbolic link is refused (`E_FILE_TYPE`): a writer never modifies a link's target.
 */
function* underLock(io, file, hostOptions, step) {
  const { timeout } = checkOptions("append", hostOptions);
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    return yield* step(yield io.read(file, null, true));
  } finally {
    held.release();
  }
}

/**
 * Moves the torn last line the core's `plan` names (`truncate_at`, `torn_line`) to a
 * `.corrupt-` copy and cuts it off: `{warnings, corruptCopy}` (nothing done when none).
 */
function* cutTornTail(io, file, bytes, plan) {
  if (plan.truncate_at === null || bytes === null) return { warnings: [], corruptCopy: null };
  const C = core();
  const copy = yield io.copy(`${file}${C.corruptCopySuffix(Date.now())}`, bytes.subarray(plan.truncate_at), file);
  yield io.truncate(file, plan.truncate_at);
  return { warnings: [C.logRepaired(plan.torn_line, copy)], corruptCopy: copy };
}

/**
 * appendLine(file, value, {timeout}): one JSONL record under the lock (the core's plan; a torn
 * last line is cut off first); the log must be a regular file, not a symbolic link.
 * `E_LOG_CORRUPT` propagates and the file is left alone. A hive session's log (`EVENTS.jsonl`)
 * is its session's: the record is the step `applyEvent`, under the lock of `STATE.json`.
 */
define(api, "appendLine", function* (io, file, value, hostOptions = {}) {
  file = resolvePath(file);
  const owner = yield* ownerOf(io, file);
  if (owner !== null) {
    // One session, one lock: a session's log is appended to by its step (`applyEvent`), under
    // the lock of its state, the record checked as an event and applied (docs/hive.md § Files).
    const { timeout } = checkOptions("append", hostOptions);
    const options = { now: null, timeout };
    const out = yield* sessions.step(io, owner.path, path.basename(file), owner.kind, owner.step, [value], options);
    return { warnings: out.warnings, corruptCopy: out.corruptCopy };
  }
  return yield* underLock(io, file, hostOptions, function* (bytes) {
    const plan = core().logAppend(bytes, value);
    const cut = yield* cutTornTail(io, file, bytes, plan);
    yield io.append(file, plan.text, bytes === null);
    return cut;
  });
});

/**
 * repairLog(file, {timeout}): under the lock, a torn last line is copied to a `.corrupt-` file
 * and cut off (the core's plan; `tornLine` null when there is none); `E_LOG_CORRUPT` (a bad
 * line that is not the last) leaves the file alone. The log must be a regular file. A hive
 * session's log: every line a read refuses is set aside (`repairSession`).
 */
define(api, "repairLog", function* (io, file, hostOptions = {}) {
  file = resolvePath(file);
  const owner = yield* ownerOf(io, file);
  if (owner !== null) return yield* repairSession(io, file, owner, hostOptions);
  return yield* underLock(io, file, hostOptions, function* (bytes) {
    const plan = core().logRepair(bytes);
    const cut = yield* cutTornTail(io, file, bytes, plan);
    return { tornLine: cut.corruptCopy === null ? null : plan.torn_line, ...cut };
  });
});

/**
 * The repair of a session's log, under the lock of its state: every line a read refuses (and
 * a torn last line) is moved to a `.corrupt-` side file (never dropped), the log replaced by
 * the lines kept, then the state brought up to the log (rebuilt when it must be).
 */
function* repairSession(io, file, owner, hostOptions) {
  const { timeout } = checkOptions("append", hostOptions);
  const held = yield* lock.acquire(io, owner.path, timeout);
  try {
    lock.sweep(owner.path);
    const C = core();
    const bytes = yield io.read(file, null, true);
    const plan = C.sessionLogRepair(owner.kind, path.basename(path.dirname(file)), bytes);
    if (plan.set_aside.length === 0) return { tornLine: null, warnings: [], corruptCopy: null };
    const aside = Buffer.concat(plan.set_aside.map((l) => bytes.subarray(l.start, l.end)));
    const copy = yield io.copy(`${file}${C.corruptCopySuffix(Date.now())}`, aside);
    yield io.write(file, Buffer.concat(plan.keep.map(([start, end]) => bytes.subarray(start, end))));
    const read = yield* sessions.locked(io, owner.path, path.basename(file), owner.kind, "", [], null);
    const torn = plan.set_aside.find((l) => l.code === "W_TORN_TAIL");
    const lines = plan.set_aside.map((l) => l.line);
    const warning = C.logSetAside(lines, copy);
    return {
      tornLine: torn === undefined ? null : torn.line,
      warnings: [warning, ...read.warnings],
      corruptCopy: copy,
    };
  } finally {
    held.release();
  }
}

/** readLog(file): `{records, torn, warnings}` (a missing file is empty; never writes). */
define(api, "readLog", function* (io, file) {
  return core().logRead(yield io.read(resolvePath(file)));
});

module.exports = api;
