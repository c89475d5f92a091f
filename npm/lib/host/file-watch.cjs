"use strict";
/**
 * The file watching every Node watcher stands on (`watch` in lib/host/watch.cjs, the Hivemind
 * watcher in lib/host/hivemind.cjs, the viewer's server in lib/view/server.cjs): chokidar on a
 * directory, each path debounced (a burst of writes is one reaction), reactions run one at a
 * time in order, `ready` once the first scan is done and its reactions have run, `close` that
 * drops what is pending and waits for the reaction under way. chokidar is loaded on the first
 * call, so that `statecore` and the protocol helpers never load it. Only I/O here: what a
 * reaction does is the caller's.
 */
const path = require("node:path");

/** Default quiet time of a path before the watcher reacts to it, in ms. */
const DEFAULT_DEBOUNCE_MS = 50;
/**
 * A file is looked at again this long after a reaction read it ({@link watchFiles}'s
 * `recheck`): a write chokidar did not report (a `change` within 50 ms of the one before, or
 * one folded into the previous event) is still reacted to.
 */
const RECHECK_MS = 150;

/** lib/host/atomic.cjs, loaded on the first stamp. */
let atomic = null;

/**
 * The stamp of the regular file `file` now (lib/host/atomic.cjs `stampOf`), or null when it is
 * gone or not a regular file: what a reaction gives {@link watchFiles}'s `recheck` for the
 * file it read, so the two compare.
 */
function stampNow(file) {
  try {
    const stat = require("node:fs").statSync(file, { bigint: true, throwIfNoEntry: false });
    // Loaded once: a relative `require` resolves its path on every call.
    atomic ??= require("./atomic.cjs");
    return stat === undefined || !stat.isFile() ? null : atomic.stampOf(stat);
  } catch {
    return null;
  }
}
/** Directories never watched (the core's, as `validate` skips them). */
const SKIPPED = new Set(require("../binding/tables.cjs").SKIPPED_DIRECTORIES);

/** True when a part of `file` below `dir` is a directory never watched. */
function inSkipped(dir, file) {
  return path.relative(dir, file).split(path.sep).some((part) => SKIPPED.has(part));
}

/**
 * The regular files below `start` (a directory under the watched `root`), links not followed,
 * at most `depth` directories below `root` (chokidar's: undefined, any), without those `skip`
 * says; a directory gone meanwhile has none.
 */
function filesBelow(root, start, depth, skip) {
  const fs = require("node:fs");
  const found = [];
  const walk = (at) => {
    const level = path.relative(root, at).split(path.sep).length;
    if (depth !== undefined && level > depth) return;
    let entries;
    try {
      entries = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(at, entry.name);
      if (skip(file)) continue;
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) found.push(file);
    }
  };
  walk(start);
  return found;
}

/**
 * Watches `dir` with chokidar. Each path an event names (`events`: chokidar's `add`,
 * `change`, `unlink`) that `ignored` lets through is given to `react(file, event)` after
 * `debounceMs` of quiet, in turn with every other reaction; with `initial`, each file found
 * by the first scan is reacted to at once (no debounce) and `ready` waits for those
 * reactions. `depth`: chokidar's (0: only `dir`'s own files). What a reaction or chokidar
 * throws goes to `fail`. Returns `{ready, enqueue, pending, recheck, close, closed}`.
 * `recheckRemovals`: a file found gone by a recheck is reacted to (else only a changed one).
 */
function watchFiles(dir, options, react, fail) {
  const chokidar = require("chokidar");
  const { ignored, debounceMs = DEFAULT_DEBOUNCE_MS, initial = false, depth, events, recheckRemovals = false } = options;
  let closed = false;
  let scanning = true;
  let queue = Promise.resolve();
  const debounced = new Map(); // path -> its debounce timer
  const rechecks = new Map(); // path -> the timer of its recheck

  /**
   * Runs `job` after every earlier one (skipped once closed: null). What it throws goes to
   * `fail`, or with `rethrow` to the returned Promise; the queue goes on either way.
   */
  const enqueue = (job, rethrow = false) => {
    const run = queue.then(() => (closed ? null : job()));
    queue = run.then(
      () => undefined,
      (error) => (rethrow ? undefined : fail(error)),
    );
    return rethrow ? run : queue;
  };

  /**
   * Reacts to `file` once it has been quiet for `debounceMs` (at once in the first scan, and
   * with a `debounceMs` of 0: no timer, which would wait 1 ms at least, and every event its
   * reaction).
   */
  const schedule = (event, file) => {
    if (closed) return;
    clearTimeout(debounced.get(file));
    if (scanning || debounceMs <= 0) {
      enqueue(() => react(file, event));
      return;
    }
    debounced.set(
      file,
      setTimeout(() => {
        debounced.delete(file);
        enqueue(() => react(file, event));
      }, debounceMs),
    );
  };

  const skip = (file) => inSkipped(dir, file) || ignored(file);
  const watcher = chokidar.watch(dir, {
    ignoreInitial: !initial,
    followSymlinks: false,
    depth,
    ignored: skip,
  });
  const known = new Set(); // the files chokidar reported, until their removal
  for (const event of events) {
    watcher.on(event, (file) => {
      if (event !== "unlink") known.add(file);
      schedule(event, file);
    });
  }
  watcher.on("unlink", (file) => known.delete(file));
  const newDirectories = new Map(); // directory -> the timer of its look
  if (events.includes("add")) {
    // chokidar scans a new directory before it watches it: a file made in between is never
    // reported (paulmillr/chokidar#1112, #1471; a project made with `mkdir -p` and its first
    // file at once). So a new directory is looked at once more, RECHECK_MS after it appeared,
    // and a file chokidar did not report is reacted to as added.
    watcher.on("addDir", (found) => {
      if (scanning || closed || found === dir) return;
      clearTimeout(newDirectories.get(found));
      const timer = setTimeout(() => {
        newDirectories.delete(found);
        if (closed) return;
        for (const file of filesBelow(dir, found, depth, skip)) {
          if (!known.has(file)) {
            known.add(file);
            schedule("add", file);
          }
        }
      }, RECHECK_MS);
      newDirectories.set(found, timer);
    });
  }
  watcher.on("error", fail);
  const ready = new Promise((resolve) => {
    watcher.once("ready", () => {
      scanning = false;
      enqueue(() => undefined).then(() => resolve());
    });
  });

  /**
   * Looks at `file` again RECHECK_MS after a reaction read it as `stamp` ({@link stampNow}'s
   * form) and reacts to it again (event `recheck`) if it changed since, unless a reaction to
   * it is still to come (a debounce under way; a reaction queued meanwhile reads it first and
   * asks for its own recheck).
   */
  const recheck = (file, stamp) => {
    clearTimeout(rechecks.get(file));
    const timer = setTimeout(() => {
      if (closed || debounced.has(file)) return;
      enqueue(() => {
        if (rechecks.get(file) !== timer) return null;
        rechecks.delete(file);
        const current = stampNow(file);
        if (current === stamp || (current === null && !recheckRemovals)) return null;
        return react(file, "recheck");
      });
    }, RECHECK_MS);
    rechecks.set(file, timer);
  };

  const clearTimers = () => {
    for (const timer of [...debounced.values(), ...rechecks.values(), ...newDirectories.values()]) clearTimeout(timer);
    debounced.clear();
    rechecks.clear();
    newDirectories.clear();
  };

  return {
    ready,
    enqueue,
    recheck,
    /** True while `file` waits for its debounce (its reaction is still to come). */
    pending: (file) => debounced.has(file),
    /** True once `close` was called. */
    get closed() {
      return closed;
    },
    /**
     * Stops watching: pending debounces are dropped, a reaction already running finishes.
     * Resolves once it has.
     */
    async close() {
      closed = true;
      clearTimers();
      await watcher.close();
      await queue;
      clearTimers();
    },
  };
}

module.exports = { watchFiles, stampNow, DEFAULT_DEBOUNCE_MS, RECHECK_MS };
