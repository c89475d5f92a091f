"use strict";
// What the command line's hosts gather for the core (docs/cli.md § How it runs): files read
// (whole, or their beginning), directories listed, standard input, tmux's sessions; and the
// driver of a command line's job (`drive`: performs each step the core asks for and answers
// it). Shared by bin/statecore.cjs and bin/statecore-statusline.cjs; it loads nothing but
// node:fs, so the status line stays quick to start (the looks, sleeps and printing of the
// commands that go on are lib/cli/follow.cjs's, which only bin/statecore.cjs loads). Python's
// twin is python/statecore/_cli/run.py.
const fs = require("node:fs");


/** `open()` flags of a read: never blocks on a FIFO put in place of the file after its `stat`. */
const READ = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/**
 * A file as the core wants it: its UTF-8 text, or why there is none. `limit`: only its first
 * bytes, cut back to their last line break when the file is longer; with `offset`, a page
 * (`pageFact`).
 */
function readFact(file, limit, offset) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    return error.code === "ENOENT" || error.code === "ENOTDIR"
      ? { error: "missing" }
      : { error: "unreadable", message: String(error.code ?? "EIO") };
  }
  if (stat.isDirectory()) return { error: "directory" };
  if (!stat.isFile()) return { error: "special" };
  if (offset !== undefined) return pageFact(file, offset, limit, stat);
  let bytes;
  try {
    bytes = limit === undefined ? fs.readFileSync(file, { flag: READ }) : readHead(file, limit);
  } catch (error) {
    return { error: "unreadable", message: String(error.code ?? "EIO") };
  }
  const text = decode(bytes);
  return text === null ? { error: "not_text" } : { text, mtime: Math.floor(stat.mtimeMs) };
}

/**
 * A page of a log (docs/cli.md § Logs read in pages): at most `limit` bytes from `offset`, cut
 * back to their last line break unless the file ends within them, with `offset`, `limit` and
 * the file's `size` given back. Only the page's bytes are read.
 */
function pageFact(file, offset, limit, stat) {
  let bytes;
  let size;
  try {
    const fd = fs.openSync(file, READ);
    try {
      size = fs.fstatSync(fd).size;
      bytes = Buffer.alloc(Math.max(0, Math.min(limit, size - offset)));
      let length = 0;
      for (let n = -1; n !== 0 && length < bytes.length; length += n) {
        n = fs.readSync(fd, bytes, length, bytes.length - length, offset + length);
      }
      bytes = bytes.subarray(0, length);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return { error: "unreadable", message: String(error.code ?? "EIO") };
  }
  if (offset + bytes.length < size) bytes = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
  const text = decode(bytes);
  if (text === null) return { error: "not_text" };
  return { text, mtime: Math.floor(stat.mtimeMs), offset, limit, size };
}

/** UTF-8 text, or null for bytes that are not (a BOM is kept, as Python keeps it). */
function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The first `limit` bytes of a file, cut back to their last line break when there are more. */
function readHead(file, limit) {
  const buffer = Buffer.alloc(limit + 1);
  const fd = fs.openSync(file, READ);
  let length = 0;
  try {
    for (let n = -1; n !== 0 && length < buffer.length; length += n) {
      n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    }
  } finally {
    fs.closeSync(fd);
  }
  if (length <= limit) return buffer.subarray(0, length);
  return buffer.subarray(0, buffer.lastIndexOf(0x0a, limit - 1) + 1);
}

/** The names of tmux's sessions; none when tmux is not installed or runs no server. */
function tmuxSessions() {
  try {
    const out = require("node:child_process").execFileSync("tmux", ["list-sessions", "-F", "#{session_name}"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5000,
    });
    return out
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Standard input's text (docs/cli.md § Standard input): null when it is a terminal (nothing
 * to wait for), when no byte came within `stdinWaitMs` (a standard input that never closes,
 * `sleep 60 |`), when it holds more than `stdinMaxBytes`, or when it is not UTF-8; else what
 * came until its end, or until no more came for `stdinWaitMs`. The core's constants, so that
 * both hosts read the same.
 */
function readStdin() {
  // Asking makes a pipe's descriptor non-blocking (libuv), so a read below never waits.
  if (process.stdin.isTTY) return null;
  const { stdinWaitMs, stdinMaxBytes } = require("../generated/constants.cjs");
  const buffer = Buffer.alloc(64 * 1024);
  const chunks = [];
  let total = 0;
  let ended = false;
  let deadline = Date.now() + stdinWaitMs;
  for (;;) {
    let got;
    try {
      got = fs.readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code !== "EAGAIN") return null; // closed or unreadable: no session
      if (Date.now() >= deadline) break;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (got === 0) {
      ended = true;
      break;
    }
    total += got;
    if (total > stdinMaxBytes) return null;
    chunks.push(Buffer.from(buffer.subarray(0, got)));
    deadline = Date.now() + stdinWaitMs;
  }
  return total === 0 && !ended ? null : decode(Buffer.concat(chunks));
}

/**
 * True when a file named `name` is one of `wanted` (a Set of names, or null for every file):
 * a name, or a pattern `*.jsonl` (any name longer than it, ending in `.jsonl`).
 */
function nameWanted(wanted, name) {
  if (wanted === null || wanted.has(name)) return true;
  for (const w of wanted) {
    if (w.startsWith("*") && name.length > w.length - 1 && name.endsWith(w.slice(1))) return true;
  }
  return false;
}

/**
 * The files under `dir` named one of `names` (every file when `names` is null or undefined,
 * for a watched directory), without following links; with `dirs` (a number), the directories
 * at most that many levels below too, each as its path and a final `/`.
 */
function listFact(dir, names, dirs = 0) {
  // The core's: the directories never entered, how deep a listing goes (loaded when listing).
  const { SKIPPED_DIRECTORIES, CONSTANTS } = require("../binding/tables.cjs");
  const skipped = new Set(SKIPPED_DIRECTORIES);
  const wanted = names === null || names === undefined ? null : new Set(names);
  const files = [];
  const base = dir.replace(/\/+$/, "") || "/";
  const walk = (relative, depth) => {
    const here = relative === "" ? dir : `${base}/${relative}`;
    for (const entry of fs.readdirSync(here, { withFileTypes: true })) {
      const below = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < dirs && !skipped.has(entry.name)) files.push(base === "/" ? `/${below}/` : `${base}/${below}/`);
        if (!skipped.has(entry.name) && depth < CONSTANTS.walkMaxDepth) {
          try {
            walk(below, depth + 1);
          } catch {
            // a directory below that cannot be read is left out
          }
        }
      } else if (entry.isFile() && nameWanted(wanted, entry.name)) {
        files.push(base === "/" ? `/${below}` : `${base}/${below}`);
      }
    }
  };
  try {
    walk("", 0);
  } catch (error) {
    return { message: String(error.code ?? "EIO") };
  }
  return { files };
}

/**
 * Runs a command line's job to its end (docs/cli.md § How it runs) and gives its last step,
 * `{do: "done", stdout, stderr, code, serve?}`, on the one job driver (lib/host/jobs.cjs: a
 * plan's steps taken in turn). `start()` makes the job (`{first, next, free}`); each step is
 * performed by `act`: `gather(need, facts)` adds a need's fact, `partial(step)` prints the
 * output so far and progress a gather brings, `print(step)`, `look(watch, names)` gives the
 * watched files' records, `sleep(ms)`, `clock()` (ms), `env()` (a new call's environment),
 * `system(step)` the answer to a step of a locked update (lib/cli/locked-write.cjs; absent
 * where no command writes). What the core refuses (the request, an answer) ends the run: its
 * message, naming `program`, on standard error and code 2.
 */
function drive(start, act, program) {
  const refused = (error) => ({
    do: "done",
    stdout: "",
    stderr: `${program}: ${error?.code ?? "error"}: ${error?.message ?? error}\n`,
    code: 2,
  });
  let job;
  try {
    job = start();
  } catch (error) {
    return refused(error);
  }
  const guarded = {
    first: job.first,
    next(answer, bytes) {
      try {
        return job.next(answer, bytes);
      } catch (error) {
        return refused(error);
      }
    },
    free: () => job.free(),
  };
  // Every step is synchronous: the driver never yields.
  return require("../host/jobs.cjs").drive(guarded, function* (step) {
    return perform(step, act);
  }).next().value;
}

/** The answer to a step of a command line's job, performed by `act` (see `drive`). */
function perform(step, act) {
  switch (step.do) {
    case "gather": {
      act.partial?.(step);
      const facts = { files: {}, dirs: {}, writes: {}, env: {} };
      for (const need of step.needs) act.gather(need, facts);
      return { facts };
    }
    case "print":
      act.print(step);
      return { mono_ms: act.clock() };
    case "look": {
      const at = act.clock(); // the look's time: when it began
      return { seen: act.look(step.watch, step.names ?? null), mono_ms: at };
    }
    case "sleep":
      act.sleep(step.ms);
      return { mono_ms: act.clock() };
    case "env":
      return { env: act.env() };
    default:
      if (act.system !== undefined) return act.system(step);
      throw new Error(`the core asked for a step this host does not know: ${JSON.stringify(step.do)} (a statecore bug)`);
  }
}

module.exports = { nameWanted, readFact, listFact, readStdin, tmuxSessions, drive };
