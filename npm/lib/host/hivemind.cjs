"use strict";
/**
 * `statecore-js/hivemind`: the Hivemind workflow (docs/hivemind.md) over a project's
 * `workspace/state.json`, and the watcher that drives it from trigger files.
 *
 * The helpers (`fire`, `followUp`, `onFile`, `readState`, `writeState`, ...) come from the
 * table (lib/host/helpers.cjs): each is one locked update of state.json in one crossing, written
 * only when the outcome `changed`. The watcher only does I/O: the file watching `watch` stands
 * on too (lib/host/file-watch.cjs: chokidar, loaded on the first call, debouncing, one reaction at
 * a time) and the timers of the scheduled follow-ups; every reaction is the core's
 * `hivemind.onFile` / `followUp` / `fire`.
 *
 * Plain CommonJS without top-level await: it runs in Node and in an Electron main process.
 */
const fs = require("node:fs");
const path = require("node:path");
const { runAsync, ASYNC, SYNC } = require("./steps.cjs");
const atomic = require("./atomic.cjs");
const { writeAtomic } = require("./replace.cjs");
const documents = require("./documents.cjs");
const { watchFiles, stampNow, DEFAULT_DEBOUNCE_MS } = require("./file-watch.cjs");
const ops = require("./helpers.cjs").helpers("hivemind");

/** The document's kind. */
const KIND = "hivemind.state";

/**
 * The I/O of a reaction: synchronous calls, as the client's watcher makes them (not a trip
 * through libuv's thread pool and back for each), except the waits (for a lock held by
 * another, for a file still changing: timers) and the two flushes of the atomic replace (on
 * the thread pool): the event loop is never blocked on a wait or a flush.
 */
const REACTION = Object.freeze({
  ...SYNC,
  sync: false,
  sleep: ASYNC.sleep,
  write: writeAtomic.flushing,
});

/**
 * Runs the writer `op` of the table on the project's state.json (locked, one crossing) and
 * returns its outcome.
 */
async function transact(project, op, args, timeout) {
  const file = ops.statePath(project);
  const updated = await runAsync(
    documents.inDirectory(REACTION, file, documents.update(REACTION, file, KIND, op, args, { timeout })),
  );
  return updated.result;
}

/**
 * The trigger file `file` as read: `{content, stamp}`, the text (null when it is gone, cannot
 * be read, or is not a regular file: it is opened without blocking, so a FIFO never holds the
 * watcher up) and the file's stamp as read (lib/host/atomic.cjs `stampOf`).
 */
function readTrigger(file) {
  try {
    const { bytes, stamp } = atomic.readMaybe.sync(file, null, false, true);
    return { content: bytes === null ? null : bytes.toString("utf8"), stamp };
  } catch {
    // Unreadable, or not a regular file: the core decides what a null content means.
    return { content: null, stamp: stampNow(file) }; // null unless a regular file
  }
}

/** Calls `handler(...args)` if it is given; what it throws goes to `fail`. */
function call(handler, fail, ...args) {
  if (typeof handler !== "function") return;
  try {
    handler(...args);
  } catch (error) {
    fail(error);
  }
}

/**
 * Watches `<projectDir>/workspace` (created if missing) and moves `state.json` by the trigger
 * files written there: each file created or changed is debounced (`options.debounceMs`, 50 ms),
 * read (null when unreadable, gone or not a regular file), and given to `hivemind.onFile` under
 * the lock of state.json; the state is written only when the outcome changed. Reactions run one
 * at a time, in order. Scheduled follow-ups fire `hivemind.followUp` after their `after_ms` (same
 * handlers). `options.now()` is the clock (default `Date.now`), `options.timeout` the lock
 * timeout in ms. Returns `{ready, close, fire}`.
 */
function watchWorkspace(projectDir, handlers = {}, options = {}) {
  const project = String(projectDir);
  const workspace = path.dirname(ops.statePath(project));
  const h = handlers ?? {};
  const { debounceMs = DEFAULT_DEBOUNCE_MS, now = Date.now, timeout } = options ?? {};
  fs.mkdirSync(workspace, { recursive: true });
  const followUps = new Set(); // the armed follow-up timers

  const fail = (error) => {
    if (typeof h.onError === "function") {
      try {
        h.onError(error);
        return;
      } catch (thrown) {
        error = thrown;
      }
    }
    console.error("statecore-js/hivemind watcher:", error);
  };

  /** Reports an outcome to the handlers and arms its follow-ups. `where`: the trigger file or null. */
  const dispatch = (outcome, where) => {
    if (outcome.changed) call(h.onStateChanged, fail, outcome.state, outcome);
    for (const problem of outcome.problems) call(h.onProblem, fail, problem, where);
    if (outcome.ignored !== null) call(h.onIgnored, fail, where, outcome.ignored);
    for (const { agent, message } of outcome.notifications) call(h.onNotify, fail, agent, message, outcome.state);
    for (const { event, after_ms: afterMs } of outcome.scheduled) {
      if (files.closed) break;
      const timer = setTimeout(() => {
        followUps.delete(timer);
        files.enqueue(() => react(null, "hivemind_follow_up", [event, now()]));
      }, afterMs);
      followUps.add(timer);
    }
    return outcome;
  };

  const react = async (where, op, args) => dispatch(await transact(project, op, args, timeout), where);

  const onFile = (file) => {
    const where = `workspace/${path.relative(workspace, file).split(path.sep).join("/")}`;
    const { content, stamp } = readTrigger(file);
    // Looked at again a moment later, and reacted to again if written since (not if removed:
    // a removal is no trigger): a write chokidar did not report is still seen.
    files.recheck(file, stamp);
    return react(where, "hivemind_on_file", [where, content, now()]);
  };

  // The trigger files' reactions: the watching shared with `watch` (lib/host/file-watch.cjs).
  const ignored = (file) => documents.core().hivemind.ignoresFile(file); // the state's own files
  const files = watchFiles(workspace, { ignored, debounceMs, events: ["add", "change"] }, onFile, fail);

  return {
    ready: files.ready,
    /**
     * Fires a host event (`pause`, `resume`, `select_project`, ...) in turn with the file
     * reactions, reports it to the handlers like one and arms its follow-ups (resuming into
     * checkpoint schedules the review again). Resolves with the outcome (null once closed);
     * rejects when the core refuses the event (`TransitionError`: not reported to `onError`).
     */
    fire(event, fireOptions = {}) {
      const { details } = fireOptions ?? {};
      const at = fireOptions?.now;
      return files.enqueue(() => react(null, "hivemind_fire", [event, at ?? now(), details ?? null]), true);
    },
    /**
     * Stops watching: pending debounces and follow-up timers are dropped, a reaction already
     * running finishes (with its handlers); no handler is called once the Promise resolves.
     */
    async close() {
      const stop = () => {
        for (const timer of followUps) clearTimeout(timer);
        followUps.clear();
      };
      stop();
      await files.close();
      stop();
    },
  };
}

module.exports = { ...ops, watchWorkspace };
