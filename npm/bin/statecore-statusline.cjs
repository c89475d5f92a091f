#!/usr/bin/env node
// statecore-statusline: `statecore fctry status --only-in-project` for a shell prompt or
// Claude Code's statusLine (docs/cli.md, docs/fctry.md § Status line): the line of the fctry
// project around the session's directory (standard input's JSON), DIR or the current
// directory; nothing outside a project. Everything it prints is decided by the core
// (the status line's job); like bin/statecore.cjs this only reads the files and standard input
// the core asks for. It loads the status-line module (dist/statusline: the core built with only
// this command, a fraction of the full module, so a prompt pays little to read and compile it).
"use strict";
const { readFact, readStdin, drive } = require("../lib/cli/run.cjs");

/** A call of the status-line module, its error (JSON text) thrown as `{code, message}`. */
function core(fn) {
  try {
    return fn();
  } catch (error) {
    if (typeof error !== "string") throw error;
    const { code, message } = JSON.parse(error);
    throw Object.assign(new Error(message), { code });
  }
}

/** The status line's job (`fctry status` alone, the module's `fctry_status_job`). */
function statusJob(request) {
  const { fctry_status_job } = require("../dist/statusline/statecore.js");
  const [handle, first] = core(() => fctry_status_job(JSON.stringify(request)));
  return {
    first: JSON.parse(first),
    next: (answer) => JSON.parse(core(() => handle.next(JSON.stringify(answer)))),
    free: () => handle.free(),
  };
}

function main(args) {
  const env = {
    tty: Boolean(process.stdout.isTTY),
    no_color: Boolean(process.env.NO_COLOR),
    cwd: process.cwd(),
  };
  // A status line always reads its session, so standard input goes with the first request.
  const request = { argv: ["--only-in-project", ...args], env, facts: { stdin: readStdin() } };
  const gather = (need, facts) => {
    if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit);
  };
  const print = (step) => {
    process.stdout.write(step.stdout ?? "");
    process.stderr.write(step.stderr ?? "");
  };
  const last = drive(() => statusJob(request), { gather, print, clock: () => 0 }, "statecore-statusline");
  print(last);
  return last.code;
}

process.exitCode = main(process.argv.slice(2));
