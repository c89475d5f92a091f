#!/usr/bin/env node
// statecore: the command line (docs/cli.md). Everything it decides (the arguments, the help,
// the kinds, the output, the exit code) is the core's `cliRun`; this file only gathers the
// facts the core asks for (files read, directories listed, environment variables, tmux's
// sessions, writes carried out by the library's own routines: lib/cli/writes.cjs) and prints
// what it answers. A command that goes on (`watch`, `hivemind watch`: an answer with `then`)
// is followed by lib/cli/follow.cjs: it waits for a watched file's change or a timer and calls
// again, each call with a fresh `env` (the time now and its offset from UTC). Ctrl-C ends it
// (status 130). `view` (an answer with `serve`) starts the viewer's server (lib/view/server.cjs)
// and runs until Ctrl-C. `mcp` is the MCP server's (lib/mcp/server.cjs), not the core's (but for its `--help`). The Python package's `statecore` (python/statecore/_cli/run.py) is its twin: the
// same requests, so the same output byte for byte.
"use strict";
const { cliRun } = require("../lib/generated/core-node.cjs");
const { readFact, listFact, readStdin, tmuxSessions } = require("../lib/cli/run.cjs");
const { follow, printAnswer, utcOffset } = require("../lib/cli/follow.cjs");
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

function main(argv) {
  const request = { argv, env: environment(), facts: { files: {}, dirs: {}, writes: {}, env: {} } };
  let last = null;
  const output = (answer) => {
    last = answer;
    printAnswer(answer);
  };
  const code = follow(cliRun, request, gather, { program: "statecore", env: environment, output });
  if (last?.serve) {
    const { serveView, listenError } = require("../lib/view/server.cjs");
    serveView(last.serve).catch((error) => {
      process.stderr.write(`statecore: ${listenError(error, last.serve.port)}\n`);
      process.exit(2);
    });
  }
  return code;
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
