#!/usr/bin/env node
// statecore-statusline: `statecore fctry status --only-in-project` for a shell prompt or
// Claude Code's statusLine (docs/cli.md, docs/fctry.md § Status line): the line of the fctry
// project around the session's directory (standard input's JSON), DIR or the current
// directory; nothing outside a project. Everything it prints is decided by the core
// (`cli::run_status`); like bin/statecore.cjs this only reads the files and standard input the
// core asks for. It loads the status-line module (dist/statusline: the core built with only
// this command, a fraction of the full module, so a prompt pays little to read and compile it).
"use strict";
const { readFact, readStdin, converse } = require("../lib/cli/run.cjs");

function main(args) {
  const { fctry_status_run } = require("../dist/statusline/statecore.js");
  const env = {
    tty: Boolean(process.stdout.isTTY),
    no_color: Boolean(process.env.NO_COLOR),
    cwd: process.cwd(),
  };
  // A status line always reads its session, so standard input goes with the first request.
  const request = { argv: ["--only-in-project", ...args], env, facts: { files: {}, stdin: readStdin() } };
  const call = (r) => JSON.parse(fctry_status_run(JSON.stringify(r)));
  const gather = (need, facts) => {
    if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit);
  };
  return converse(call, request, gather, "statecore-statusline");
}

process.exitCode = main(process.argv.slice(2));
