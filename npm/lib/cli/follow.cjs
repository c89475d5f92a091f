"use strict";
// The system calls of the commands that go on (docs/cli.md § Commands that go on: `then`) and
// the command line's printing. What to wait for, which event comes next (a due timer first,
// then the changed files in the byte order of their paths), how long to sleep and when to call
// the command again are the core's job's (lib/cli/run.cjs `drive` performs its steps); this
// module records the watched files when asked (`look`: modification time in ns, size, inode,
// or missing), sleeps, and prints. Everything is synchronous: the core's calls are, and the
// wait is a blocking sleep (Atomics.wait), so the output is written with blocking writes too.
// Ctrl-C (SIGINT) ends the process by Node's default (status 130 to the shell). Only
// bin/statecore.cjs loads this module, so the status line does not pay for it. Python's twin
// is python/statecore/_cli/follow.py.
const fs = require("node:fs");
const { listFact } = require("./run.cjs");
const { parseTimestamp } = require("../generated/core-node.cjs");

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

/** A file's record: its modification time (ns), size and inode, following links; or null (missing). */
function record(file) {
  let stat;
  try {
    stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  return stat === undefined ? null : `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

/**
 * The records of the watched files now, by path: each path of `watch` that is not a
 * directory (a file, or missing), and the files `listFact` finds under each directory with one
 * of `names` (every file when `names` is null).
 */
function look(watch, names) {
  const seen = {};
  for (const item of watch) {
    if (/^postgres(ql)?:\/\//.test(item)) {
      // A store URL (docs/store.md § Store URLs): its rows' etags and logs' lengths.
      const { records = {} } = require("../store/sync.cjs").callSync("lookFact", item, names);
      Object.assign(seen, records);
      continue;
    }
    let directory = false;
    try {
      directory = fs.statSync(item).isDirectory();
    } catch {
      // missing or not to be looked at: watched as the one path
    }
    if (!directory) seen[item] = record(item);
    else for (const file of listFact(item, names).files ?? []) seen[file] = record(file);
  }
  return seen;
}

module.exports = { look, sleepSync, printAnswer, printPartial, utcOffset };
