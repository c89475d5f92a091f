"use strict";
// The commands that go on (docs/cli.md § Commands that go on: `then`): `follow` runs a
// command's calls to the core one after another. An answer with `then` names files and
// directories to watch and timers to arm; the host records the watched files (modification
// time in ns, size, inode, or missing) before printing, then looks at them every 100 ms and
// calls the core again with one event at a time (a due timer first, then the changed files in
// the byte order of their paths), giving back `then.state`. Everything is synchronous: the
// core's calls are, and the wait is a blocking sleep (Atomics.wait), so the output is written
// with blocking writes too. Ctrl-C (SIGINT) ends the process by Node's default (status 130 to
// the shell). Only bin/statecore.cjs loads this module, so the status line does not pay for
// it. Python's twin is python/statecore/_cli/follow.py.
const fs = require("node:fs");
const { listFact, nameWanted, settle } = require("./run.cjs");
const { parseTimestamp } = require("../generated/core-node.cjs");

/** How often the watched files are looked at, in ms. */
const POLL_MS = 100;
/** The record of a file that is not there (or cannot be looked at). */
const MISSING = "missing";

const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` milliseconds (a command that goes on has nothing else to do). */
function sleepSync(ms) {
  Atomics.wait(cell, 0, 0, ms);
}

/** Writes all of `text` to the descriptor `fd`, waiting while a non-blocking pipe is full. */
function writeAll(fd, text) {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length; ) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      if (error?.code !== "EAGAIN") throw error;
      sleepSync(1);
    }
  }
}

/** Prints an answer: its standard output, then its standard error. */
function printAnswer(answer) {
  clearProgress();
  writeAll(1, answer.stdout ?? "");
  writeAll(2, answer.stderr ?? "");
}

/** True while a progress line is on standard error (a terminal). */
let progressShown = false;

/** Takes the progress line off standard error, if one is there. */
function clearProgress() {
  if (progressShown) writeAll(2, "\r\x1b[K");
  progressShown = false;
}

/**
 * Prints what an answer that asks for more brings: the output so far (a log printed in pages),
 * and its progress line, written over the previous one (the core gives one only when the host
 * said standard error is a terminal, `env.progress`).
 */
function printPartial(answer) {
  if (answer.stdout || answer.stderr) printAnswer(answer);
  if (answer.progress) {
    writeAll(2, `\r\x1b[K${answer.progress}`);
    progressShown = true;
  }
}

/**
 * The local time's offset from UTC at `now` (RFC 3339, read by the core's `parseTimestamp`, or
 * epoch milliseconds as digits), in whole minutes east; at the time now when `now` is neither.
 */
function utcOffset(now) {
  let ms = Number.NaN;
  if (/^\d+$/.test(now)) ms = Number(now);
  else {
    try {
      ms = parseTimestamp(now);
    } catch (error) {
      if (error?.code !== "E_TIMESTAMP") throw error; // not a time: the offset now
    }
  }
  let date = new Date(ms);
  if (Number.isNaN(date.getTime())) date = new Date();
  return Math.trunc(-date.getTimezoneOffset()) + 0; // + 0: never -0
}

/** A file's record: its modification time (ns), size and inode, following links; or MISSING. */
function record(file) {
  let stat;
  try {
    stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  return stat === undefined ? MISSING : `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

/** What `listFact` puts before the path of a file found under `dir`. */
function under(dir) {
  const base = dir.replace(/\/+$/, "") || "/";
  return base === "/" ? "/" : `${base}/`;
}

/**
 * The records of the watched files now, by path: each path of `watch` that is not a
 * directory (a file, or missing), and the files `listFact` finds under each directory with one
 * of `names` (every file when `names` is null).
 */
function look(watch, names) {
  const seen = new Map();
  for (const item of watch) {
    if (/^postgres(ql)?:\/\//.test(item)) {
      // A store URL (docs/store.md § Store URLs): its rows' etags and logs' lengths.
      const { records = {} } = require("../store/sync.cjs").callSync("lookFact", item, names);
      for (const [file, r] of Object.entries(records)) seen.set(file, r);
      continue;
    }
    let directory = false;
    try {
      directory = fs.statSync(item).isDirectory();
    } catch {
      // missing or not to be looked at: watched as the one path
    }
    if (!directory) seen.set(item, record(item));
    else for (const file of listFact(item, names).files ?? []) seen.set(file, record(file));
  }
  return seen;
}

/** True when `file` is one of the paths `watch` and `names` make watched. */
function watched(file, watch, names) {
  const name = file.slice(file.lastIndexOf("/") + 1);
  const named = nameWanted(names === null ? null : new Set(names), name);
  return watch.some((item) => file === item || (named && file.startsWith(under(item))));
}

/** The record of `file` in `records`: MISSING when it has none. */
const recordIn = (records, file) => records.get(file) ?? MISSING;

/** Strings in the order of their UTF-8 bytes (not of their UTF-16 code units). */
const byteOrder = (a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/**
 * What a command that goes on waits for: the watched paths with their kept records, the last
 * look's records, and the pending timers in the order they were armed. `clock()` gives ms.
 */
class Waiting {
  constructor(clock) {
    this.clock = clock;
    this.watch = [];
    this.names = null;
    this.kept = new Map();
    this.last = new Map();
    this.lastLook = 0;
    this.timers = [];
  }

  /**
   * Takes an answer's `then`: its watched paths replace the previous ones and its timers are
   * armed. A path watched before keeps its record (none: missing, so that a file that appeared
   * meanwhile is still a change); a path watched anew is recorded as it is now.
   */
  take(then) {
    const watch = then.watch ?? [];
    const names = then.names ?? null;
    const seen = look(watch, names);
    const now = this.clock();
    const kept = new Map();
    for (const [file, r] of this.kept) if (watched(file, watch, names)) kept.set(file, r);
    for (const [file, r] of seen) if (!watched(file, this.watch, this.names)) kept.set(file, r);
    Object.assign(this, { watch, names, kept, last: seen, lastLook: now });
    for (const timer of then.timers ?? []) this.timers.push({ name: timer.name, due: now + timer.after_ms });
  }

  /** True when nothing is watched and no timer is pending: there is nothing to wait for. */
  idle() {
    return this.watch.length === 0 && this.timers.length === 0;
  }

  /** The pending timer due first (the first armed among equals), or null. */
  firstTimer() {
    let first = null;
    for (const timer of this.timers) if (first === null || timer.due < first.due) first = timer;
    return first;
  }

  /**
   * Waits for the next event, sleeping with `sleep(ms)`: a due timer, else the first (in byte
   * order) of the paths whose record differs from the one kept and is the same as at the
   * previous look. Its kept record is replaced by the one seen.
   */
  next(sleep) {
    for (;;) {
      const now = this.clock();
      const timer = this.firstTimer();
      if (timer !== null && timer.due <= now) {
        this.timers.splice(this.timers.indexOf(timer), 1);
        return { timer: timer.name };
      }
      const polling = this.watch.length > 0;
      if (polling && now >= this.lastLook + POLL_MS) {
        const file = this.poll(now);
        if (file !== null) return { path: file };
        continue;
      }
      const until = Math.min(polling ? this.lastLook + POLL_MS : Infinity, timer === null ? Infinity : timer.due);
      sleep(Math.max(1, Math.ceil(until - now)));
    }
  }

  /** Looks at the watched files: the first changed path (its record now kept), or null. */
  poll(now) {
    const seen = look(this.watch, this.names);
    const paths = new Set([...this.kept.keys(), ...seen.keys()]);
    const changed = [...paths].filter((file) => {
      const r = recordIn(seen, file);
      return r !== recordIn(this.kept, file) && r === recordIn(this.last, file);
    });
    this.last = seen;
    this.lastLook = now;
    if (changed.length === 0) return null;
    const file = changed.sort(byteOrder)[0];
    const r = recordIn(seen, file);
    if (r === MISSING) this.kept.delete(file); // the same to the next look, and nothing kept
    else this.kept.set(file, r);
    return file;
  }
}

/**
 * Runs a command's calls to its end and returns its exit code. `call(request)` is the core;
 * `gather(need, facts)` adds a need's fact. Each answer is printed; one with `then` goes on:
 * the next call has `{argv, env: options.env(), facts: {event, state}}`. `options` (for
 * tests): `program` (in the messages of what should never happen), `env()` (a new call's
 * env, with the time now), `clock()` (ms), `sleep(ms)`, `output(answer)` (prints it),
 * `partial(answer)` (prints an answer that asks for more: output so far, progress).
 */
function follow(call, request, gather, options = {}) {
  const o = {
    program: "statecore",
    env: () => request.env,
    clock: () => performance.now(),
    sleep: sleepSync,
    output: printAnswer,
    partial: printPartial,
    ...options,
  };
  const waiting = new Waiting(o.clock);
  for (;;) {
    const answer = settle(call, request, gather, o.program, o.partial);
    const then = answer.then;
    if (then) waiting.take(then);
    o.output(answer);
    if (!then || waiting.idle()) return answer.code;
    const facts = { files: {}, dirs: {}, writes: {}, env: {}, event: waiting.next(o.sleep) };
    if ("state" in then) facts.state = then.state;
    request = { argv: request.argv, env: o.env(), facts };
  }
}

module.exports = { POLL_MS, follow, printAnswer, utcOffset };
