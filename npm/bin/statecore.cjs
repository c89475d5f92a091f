#!/usr/bin/env node
// statecore: the command line (docs/cli.md). Everything it decides (the arguments, the help,
// the kinds, the output, the exit code) is the core's `cliRun`; this file only gathers the
// facts the core asks for (files read, directories listed, environment variables, tmux's
// sessions, writes carried out by the library's own routines: the locked update, the log
// append and repair, agency's CLAUDE.md) and prints what it answers. The
// Python package's `statecore` (python/statecore/_cli.py) is its twin: the same requests, so
// the same output byte for byte.
"use strict";
const path = require("node:path");
const { cliRun } = require("../lib/core-node.cjs");
const { SYNC, runSync } = require("../lib/steps.cjs");
const documents = require("../lib/documents.cjs");
const logs = require("../lib/logs.cjs");
const { readFact, listFact, readStdin, tmuxSessions, converse } = require("../lib/cli-host.cjs");

/** A write the core asked for, carried out by the library's routine: its result, or its error. */
function writeFact(need) {
  const options = need.timeout_ms === undefined ? {} : { timeout: need.timeout_ms };
  try {
    if (need.op === "update") {
      const file = path.resolve(need.path);
      const hostOptions = { ...options, ifMatch: need.if_match ?? null, now: need.now ?? null };
      const r = runSync(documents.update(SYNC, file, need.kind, need.change, need.args, hostOptions));
      const fact = { etag: r.etag, changed: r.changed, warnings: r.warnings, corrupt_copy: r.corruptCopy };
      if (r.item !== undefined) fact.item = r.item;
      return fact;
    }
    if (need.op === "protocol_document") {
      return { changed: require("../lib/agency.cjs").writeProtocolDocumentSync(need.path) === "created" };
    }
    if (need.op === "append") {
      const r = logs.appendLineSync(need.path, need.record, options);
      return { warnings: r.warnings, corrupt_copy: r.corruptCopy };
    }
    const r = logs.repairLogSync(need.path, options);
    return { torn_line: r.tornLine, warnings: r.warnings, corrupt_copy: r.corruptCopy };
  } catch (error) {
    if (typeof error?.code === "string" && error.code.startsWith("E_") && typeof error.path === "string") {
      return { error: { code: error.code, path: error.path, message: error.message } };
    }
    return { error: { code: String(error?.code ?? "EIO") } };
  }
}

function main(argv) {
  const env = { tty: Boolean(process.stdout.isTTY), no_color: Boolean(process.env.NO_COLOR) };
  env.now = process.env.STATECORE_NOW || new Date().toISOString();
  env.cwd = process.cwd();
  env.platform = process.platform;
  const request = { argv, env, facts: { files: {}, dirs: {}, writes: {}, env: {} } };
  return converse(cliRun, request, gather, "statecore");
}

/**
 * Adds the fact of one need: a file read, standard input, a listing, an environment variable,
 * tmux's sessions, random bytes, a write carried out.
 */
function gather(need, facts) {
  if (need.op === "read") facts.files[need.path] = readFact(need.path, need.limit);
  else if (need.op === "stdin") facts.stdin = readStdin();
  else if (need.op === "list") facts.dirs[need.path] = listFact(need.path, need.names ?? []);
  else if (need.op === "env") facts.env[need.path] = process.env[need.path] ?? null;
  else if (need.op === "tmux") facts.tmux = tmuxSessions();
  else if (need.op === "random") facts.random = require("node:crypto").randomBytes(16).toString("hex");
  else facts.writes[need.path] = writeFact(need);
}

process.exitCode = main(process.argv.slice(2));
