"use strict";
/**
 * Files kept with an event log (docs/hive.md § Files): a hive session's `STATE.json` and its
 * `EVENTS.jsonl`. A step runs under the lock of the state: its bytes and the log's size cross
 * into the core once (`updateLogged`), which answers with the line to append and the state to
 * write (the log first, so that a crash between the two leaves the state behind its log,
 * never ahead). When the state is behind the log (a crash), missing or unreadable, the log is
 * streamed from where the state stops (`logReplay`, chunks of 64 KiB: the file is never held
 * whole), an unreadable state is kept as a `.corrupt-` copy, a torn last line is cut off (kept
 * as a copy too), and the step is taken on the replayed state. A read takes the lock only when
 * the state must be rebuilt. Only I/O is here; every decision is the core's.
 */
const path = require("node:path");
const { twice, readFlags, refuseLink, requireRegular } = require("./atomic.cjs");
const lock = require("./lock.cjs");
const { core, READ_CAP } = require("./documents.cjs");

/** How many bytes of a log are read at a time. */
const CHUNK = 1 << 16;

/** The size of the regular file `file` (0 when missing); `E_FILE_TYPE` for a link or a FIFO. */
const sizeOf = twice(function* (io, file) {
  try {
    const stat = yield io.lstatFile(file);
    requireRegular(file, stat);
    return Number(stat.size);
  } catch (error) {
    if (error.code === "ENOENT") return 0;
    throw error;
  }
});

/** Calls `feed(chunk)` with the bytes of `file` from byte `from` to its end (none when missing). */
const readFrom = twice(function* (io, file, from, feed) {
  let fd;
  try {
    fd = yield io.open(file, readFlags(true));
  } catch (error) {
    if (error.code === "ENOENT") return;
    refuseLink(file, error);
  }
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let at = from, got; (got = yield io.read(fd, buffer, 0, CHUNK, at)) > 0; at += got) {
      feed(buffer.subarray(0, got));
    }
  } finally {
    yield io.close(fd);
  }
});

const variant = (io, table) => (io.sync ? table.sync : table.async);

/** The log of the state file `file` (`logName` in its directory) and the session's id. */
function where(file, logName) {
  const dir = path.dirname(file);
  return { log: path.join(dir, logName), sessionId: path.basename(dir) };
}

/**
 * A step `change` (a writer of the table; "" for a read that rebuilds) of the state file
 * `file` kept with the log `logName`, with `args` after the state; options `{now, timeout}`.
 * Returns `{document, etag, changed, warnings, corruptCopy, result, recovered}`.
 */
function* step(io, file, logName, kind, change, args, options) {
  const { now = null, timeout } = options;
  const held = yield* lock.acquire(io, file, timeout);
  try {
    lock.sweep(file);
    return yield* locked(io, file, logName, kind, change, args, now);
  } finally {
    held.release();
  }
}

/** A new event id: 12 random bytes, hex (the core has no randomness; every line gets one). */
function eventId() {
  return require("node:crypto").randomBytes(12).toString("hex");
}

/**
 * The step, under the lock. The state's copy (when the core says it is unreadable) is made
 * only once the replay has succeeded, just before the state is written: a call that fails
 * copies nothing, so repeated failing reads leave no trail of copies.
 */
function* locked(io, file, logName, kind, change, args, now) {
  const C = core();
  const { log, sessionId } = where(file, logName);
  const bytes = yield io.read(file, READ_CAP);
  const size = yield variant(io, sizeOf)(log);
  const id = change === "" ? null : eventId();
  let out = C.updateLogged(kind, sessionId, change, bytes, size, args, { now, eventId: id });
  const warnings = [];
  let corruptCopy = null;
  let corrupt = false;
  // A replay from the state's offset may ask for a replay of the whole log (its offset fell
  // inside a line, or a line after it cannot be applied): at most two rounds.
  while (out.replay_from !== null) {
    corrupt = corrupt || out.corrupt;
    warnings.push(...out.warnings);
    const replay = C.logReplay(kind, sessionId, out.corrupt ? null : bytes, out.replay_from, out.corrupt);
    yield variant(io, readFrom)(log, out.replay_from, (chunk) => replay.feed(chunk));
    out = replay.commit(change, args, { now, eventId: id });
    if (out.replay_from === null && corrupt && bytes !== null) {
      corruptCopy = yield io.copyFile(file, `${file}${C.corruptCopySuffix(Date.now())}`);
      warnings.push(C.corruptCopyWarning(corruptCopy));
    }
    if (out.truncate_at !== null) {
      const torn = [];
      yield variant(io, readFrom)(log, out.truncate_at, (chunk) => torn.push(Buffer.from(chunk)));
      const copy = yield io.copy(`${log}${C.corruptCopySuffix(Date.now())}`, Buffer.concat(torn), log);
      yield io.truncate(log, out.truncate_at);
      warnings.push(C.logRepaired(out.torn_line, copy));
    }
  }
  if (out.line !== null) yield io.append(log, out.line, size === 0);
  if (out.write) yield io.write(file, out.text);
  warnings.push(...out.warnings);
  const result = change === "" ? {} : { result: { state: out.document, event: out.event } };
  const answer = {
    document: out.document,
    etag: out.etag,
    changed: out.write,
    warnings,
    corruptCopy,
    recovered: out.recovered,
    ...result,
  };
  return Object.defineProperty(answer, TEXT, { value: out.text });
}

/** The state's text on a result (not enumerable: for the reader helpers). */
const TEXT = Symbol("statecore.text");

/**
 * Reads the state file `file`: as it is when it folds its whole log (no lock); else (missing,
 * unreadable, behind) rebuilt from the log under the lock and written.
 */
function* read(io, file, logName, kind, options) {
  const { log, sessionId } = where(file, logName);
  const bytes = yield io.read(file, READ_CAP);
  const size = yield variant(io, sizeOf)(log);
  const out = core().updateLogged(kind, sessionId, "", bytes, size, [], { now: options.now ?? null });
  if (out.replay_from === null) {
    const answer = {
      document: out.document,
      etag: out.etag,
      changed: false,
      warnings: out.warnings,
      corruptCopy: null,
      recovered: null,
    };
    return Object.defineProperty(answer, TEXT, { value: out.text });
  }
  return yield* step(io, file, logName, kind, "", [], options);
}

module.exports = { step, locked, read, sizeOf, readFrom, variant, TEXT };
