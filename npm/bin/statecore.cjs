#!/usr/bin/env node
// statecore: the command line (docs/cli.md). Everything it decides (the arguments, the help,
// the kinds, the output, the exit code, when a command that goes on runs again) is the core's
// job (`cliJob`, driven by lib/cli/run.cjs `drive`); this file only performs its steps:
// gathers the facts it asks for (files read, directories listed, environment variables,
// tmux's sessions, writes carried out by the library's own routines: lib/cli/writes.cjs),
// performs the system calls of a locked update (lib/cli/locked-write.cjs), prints, looks at watched files and sleeps (lib/cli/follow.cjs), and gives a new call of a
// command that goes on a fresh `env` (the time now and its offset from UTC). Ctrl-C ends it
// (status 130). `view` (a last step with `serve`) starts the viewer's server
// (lib/view/server.cjs) and runs until Ctrl-C. `mcp` is the MCP server's (lib/mcp/server.cjs), not the core's (but for its `--help`). The Python package's `statecore` (python/statecore/_cli/run.py) is its twin: the
// same requests, so the same output byte for byte.
"use strict";
const { cliJob } = require("../lib/generated/core-node.cjs");
const { readFact, listFact, readStdin, tmuxSessions, drive } = require("../lib/cli/run.cjs");
const { look, sleepSync, printAnswer, printPartial, utcOffset } = require("../lib/cli/follow.cjs");
const { writeFact } = require("../lib/cli/writes.cjs");

/** What the core knows of the process, for each call: the time now (`STATECORE_NOW` wins). */
function environment() {
  const env = { tty: Boolean(process.stdout.isTTY), no_color: Boolean(process.env.NO_COLOR) };
  env.progress = Boolean(process.stderr.isTTY);
  env.now = process.env.STATECORE_NOW || new Date().toISOString();
  env.cwd = process.cwd();
  env.platform = process.platform;
  env.utc_offset = utcOffset(env.now);
  env.serves = true;
  return env;
}

/** The performer of a locked update's steps (made on the first). */
let lockedWrite = null;

/** The steps of the command line's job, performed (lib/cli/run.cjs `drive`). */
const ACT = {
  gather,
  partial: printPartial,
  print: printAnswer,
  look,
  sleep: sleepSync,
  clock: () => performance.now(),
  env: environment,
  system: (step) => (lockedWrite ??= require("../lib/cli/locked-write.cjs").lockedWrite())(step),
};


function main(argv) {
  const request = { argv, env: environment() };
  const last = drive(() => cliJob("statecore", request), ACT, "statecore");
  printAnswer(last);
  if (last.serve) {
    const { serveView, listenError } = require("../lib/view/server.cjs");
    serveView(last.serve).catch((error) => {
      process.stderr.write(`statecore: ${listenError(error, last.serve.port)}\n`);
      process.exit(2);
    });
  }
  return last.code;
}

/**
 * Adds the fact of one need: a file read, standard input, a listing, an environment variable,
 * tmux's sessions, random bytes, a write carried out.
 */
function gather(need, facts) {
  if (isStoreUrl(need.path) && need.op !== "env") return gatherStored(need, facts);
  if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit, need.offset);
  else if (need.op === "stdin") facts.stdin = readStdin();
  else if (need.op === "list") facts.dirs[need.path] = listFact(need.path, need.names ?? [], need.dirs ?? 0);
  else if (need.op === "env") facts.env[need.path] = process.env[need.path] ?? null;
  else if (need.op === "tmux") facts.tmux = tmuxSessions();
  else if (need.op === "random") facts.random = require("node:crypto").randomBytes(16).toString("hex");
  else facts.writes[need.path] = writeFact(need);
}

/** Whether `path` is a store URL (docs/store.md § Store URLs). */
const isStoreUrl = (path) => typeof path === "string" && /^postgres(ql)?:\/\//.test(path);

/** The fact of a need on a store URL, from the store (synchronously: lib/store/sync.cjs). */
function gatherStored(need, facts) {
  const { callSync } = require("../lib/store/sync.cjs");
  if (need.op === "read") facts.files[need.path] = callSync("readFact", need.path, need.limit, need.offset);
  else if (need.op === "list") facts.dirs[need.path] = callSync("listFact", need.path, need.names ?? []);
  else facts.writes[need.path] = callSync("writeFact", need);
}

const argv = process.argv.slice(2);
if (argv[0] === "mcp" && !argv.slice(1).some((a) => a === "--help" || a === "-h")) {
  // `statecore mcp [DIR]`: the MCP server (docs/mcp.md), a long-running host of its own (its
  // help is the core's, as every command's).
  require("../lib/mcp/server.cjs")
    .main(argv.slice(1))
    .then((code) => {
      process.exitCode = code;
    });
} else {
  process.exitCode = main(argv);
}
