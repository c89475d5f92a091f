#!/usr/bin/env node
// statecore: the command line (docs/cli.md). Everything it decides (the arguments, the help,
// the kinds, the output, the exit code) is the core's `cliRun`; this file only gathers the
// facts the core asks for (files read, directories listed, writes carried out by the
// library's own routines: the locked update, the log append and repair) and prints what it
// answers. The
// Python package's `statecore` (python/statecore/_cli.py) is its twin: the same requests, so
// the same output byte for byte.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { cliRun } = require("../lib/core-node.cjs");
const { SYNC, runSync } = require("../lib/steps.cjs");
const documents = require("../lib/documents.cjs");
const logs = require("../lib/logs.cjs");

/** Directories a listing never enters. */
const SKIP = new Set([".git", "node_modules"]);
/** How deep a listing goes below the directory named. */
const MAX_DEPTH = 16;
/** How many times the core may ask for more before the host gives up (a core bug). */
const MAX_ROUNDS = 16;

/** A file as the core wants it: its UTF-8 text, or why there is none. */
function readFact(file) {
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
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    return { error: "unreadable", message: String(error.code ?? "EIO") };
  }
  try {
    // fatal: bytes that are not UTF-8 are refused; ignoreBOM: a BOM is kept, as Python keeps it.
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { error: "not_text" };
  }
}

/** The files under `dir` named one of `names`, without following links. */
function listFact(dir, names) {
  const wanted = new Set(names);
  const files = [];
  const base = dir.replace(/\/+$/, "") || "/";
  const walk = (relative, depth) => {
    const here = relative === "" ? dir : `${base}/${relative}`;
    for (const entry of fs.readdirSync(here, { withFileTypes: true })) {
      const below = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name) && depth < MAX_DEPTH) {
          try {
            walk(below, depth + 1);
          } catch {
            // a directory below that cannot be read is left out
          }
        }
      } else if (entry.isFile() && wanted.has(entry.name)) {
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

/** A write the core asked for, carried out by the library's routine: its result, or its error. */
function writeFact(need) {
  const options = need.timeout_ms === undefined ? {} : { timeout: need.timeout_ms };
  try {
    if (need.op === "update") {
      const file = path.resolve(need.path);
      const hostOptions = { ...options, ifMatch: need.if_match ?? null, now: need.now ?? null };
      const r = runSync(documents.update(SYNC, file, need.kind, need.change, need.args, hostOptions));
      return { etag: r.etag, changed: r.changed, warnings: r.warnings, corrupt_copy: r.corruptCopy };
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
  const request = { argv, env, facts: { files: {}, dirs: {}, writes: {} } };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let answer;
    try {
      answer = cliRun(request);
    } catch (error) {
      // What the core cannot hand to JavaScript (an integer beyond 2^53: E_PRECISION).
      process.stderr.write(`statecore: ${error.code ?? "error"}: ${error.message}\n`);
      return 2;
    }
    if (!answer.needs) {
      process.stdout.write(answer.stdout);
      process.stderr.write(answer.stderr);
      return answer.code;
    }
    for (const need of answer.needs) {
      if (need.op === "read") request.facts.files[need.path] = readFact(need.path);
      else if (need.op === "list") request.facts.dirs[need.path] = listFact(need.path, need.names ?? []);
      else request.facts.writes[need.path] = writeFact(need);
    }
  }
  process.stderr.write("statecore: the command kept asking for more files (a statecore bug)\n");
  return 2;
}

process.exitCode = main(process.argv.slice(2));
