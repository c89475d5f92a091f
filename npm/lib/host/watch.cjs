"use strict";
/**
 * `watch(pathOrDir, kind, callback, options)` (docs/watch.md): each change of a state file or
 * log, read, checked as its kind and reported, with a write still under way never reported.
 * What to read and what the bytes are is the core's (`watchTarget`, `watchRead`): this file
 * reads bytes (a log from where the last read stopped, in pages), looks for the writer's lock
 * just before and just after each read, waits when the core says to read again, and calls back. The npm twin of
 * python/statecore/_host/watch.py.
 */
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const path = require("node:path");
const { watchFiles } = require("./file-watch.cjs");
const { resolvePath } = require("./paths.cjs");
const { CONSTANTS } = require("../binding/tables.cjs");
const documents = require("./documents.cjs");
const { readFlags, stampOf } = require("./atomic.cjs");

/** The most bytes read at once: a document's limit + 1, or a page of a log. */
const PAGE = CONSTANTS.maxDocumentBytes + 1;
/**
 * Reads the file at `file` as the core needs it: `{data, more, stamp}` (`data` null when the
 * file is gone; a log from `from.offset` on, or from 0 when the file was replaced or cut
 * shorter, then `from` is reset).
 */
async function readBytes(file, log, from) {
  let handle;
  try {
    // Without blocking: a FIFO put where the file was never holds a thread of the pool.
    handle = await fsp.open(file, readFlags(false));
  } catch (error) {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return { data: null, more: false, stamp: null };
    throw error;
  }
  try {
    const st = await handle.stat({ bigint: true });
    if (!st.isFile()) return { data: null, more: false, stamp: null };
    const size = Number(st.size);
    const ino = String(st.ino);
    if (log && (from.ino !== ino || size < from.offset)) Object.assign(from, { offset: 0, line: 0 });
    from.ino = ino;
    const start = log ? from.offset : 0;
    const length = Math.min(Math.max(size - start, 0), PAGE);
    const data = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(data, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const more = log && start + got < size;
    return { data: data.subarray(0, got), more, stamp: stampOf(st) };
  } finally {
    await handle.close();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches `pathOrDir` and calls `callback(change)` for each change (docs/watch.md): a file
 * (read as `kind`, or as the kind its name gives), or every file statecore knows under a
 * directory (of `kind` only, when given). `options`: `debounceMs` (50), `initial` (true: each
 * file is reported as it is first), `onError`. Returns `{ready, close}`.
 */
function watch(pathOrDir, kind, callback, options = {}) {
  if (typeof callback !== "function") throw new TypeError("watch: callback must be a function");
  const { onError, ...rest } = options ?? {};
  documents.core().checkOptions("watch", rest, true, ["onError"]);
  if (onError !== undefined && typeof onError !== "function") {
    throw new TypeError("watch: onError must be a function");
  }
  const { debounceMs, initial = true } = rest;
  const core = documents.core();
  const abs = resolvePath(pathOrDir);
  const shown = (typeof pathOrDir === "string" ? pathOrDir : abs).split(path.sep).join("/");
  const isDir = fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const dir = isDir ? abs : path.dirname(abs);
  fs.statSync(dir); // a watched file's directory must exist: ENOENT otherwise
  const named = isDir ? null : core.watchTarget(shown, kind ?? null, true); // E_KIND at once
  const prefix = shown.replace(/\/+$/, "");

  const fail = (error) => {
    if (onError) {
      try {
        onError(error);
        return;
      } catch (thrown) {
        error = thrown;
      }
    }
    console.error("statecore watch:", error);
  };

  const files = new Map(); // file -> {target, offset, line, ino, etag, stamp}
  const stateOf = (file) => {
    if (files.has(file)) return files.get(file);
    let target = null;
    if (!isDir) target = file === abs ? named : null;
    else {
      const rel = path.relative(abs, file).split(path.sep).join("/");
      const found = core.watchTarget(rel, kind ?? null, false);
      if (found) target = { ...found, path: prefix === "." || prefix === "" ? rel : `${prefix}/${rel}` };
    }
    const state = { target, offset: 0, line: 0, ino: null, etag: null, stamp: null };
    files.set(file, state);
    return state;
  };

  /** Reads `file` until the core reports it or has nothing to say, and calls back. */
  const react = async (file) => {
    const state = stateOf(file);
    if (!state.target) return;
    let unlocked = 0; // reads since the lock was last seen that found none
    for (let attempt = 0; !watcher.closed; attempt++) {
      const from = state.offset;
      const lockBefore = fs.existsSync(`${file}.lock`);
      const read = await readBytes(file, state.target.log, state);
      const locked = lockBefore || fs.existsSync(`${file}.lock`);
      const { offset, line, etag } = state;
      const facts = { attempt, locked, unlocked, offset, line, more: read.more, etag };
      const answer = core.watchRead(state.target, read.data, facts);
      if (answer.action === "retry") {
        unlocked = locked ? 0 : unlocked + 1;
        await sleep(answer.delay_ms);
        continue;
      }
      Object.assign(state, { offset: answer.offset, line: answer.line, etag: answer.etag, stamp: read.stamp });
      if (read.data === null) state.ino = null;
      if (answer.action === "report") {
        try {
          callback(answer.change);
        } catch (error) {
          fail(error);
        }
      }
      if (!(read.more && answer.offset > from)) break;
      attempt = -1; // the next page of the log
      unlocked = 0;
    }
    // Looked at again a moment later: a write chokidar folded into this event is still seen.
    watcher.recheck(file, state.stamp);
  };

  const watcher = watchFiles(
    dir,
    {
      ignored: (file) => !isDir && file !== abs && file !== dir,
      debounceMs,
      initial: isDir && initial,
      depth: isDir ? undefined : 0,
      events: ["add", "change", "unlink"],
      recheckRemovals: true,
    },
    (file) => react(file),
    fail,
  );
  if (!isDir && initial) watcher.enqueue(() => react(abs));

  return {
    /** Resolves once watching has begun and the files as they first were are reported. */
    ready: watcher.ready,
    /** Stops watching; no callback is called once the Promise resolves. */
    close: () => watcher.close(),
  };
}

module.exports = { watch };
