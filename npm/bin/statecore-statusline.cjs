#!/usr/bin/env node
// statecore-statusline: prints the fctry status line of the project around the current
// directory, for a shell prompt. It looks for `.fctry/` here or in a parent directory; with
// none it prints nothing. A missing or unparseable `.fctry/state.json` reads as `{}` (the line
// is then just `fctry`). Colours: `--color` / `--no-color`; by default when stdout is a
// terminal and NO_COLOR is not set. Only the pure core is loaded (no file-locking layer): the
// script reads one file and makes one wasm call.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function findFctryDir(start) {
  for (let dir = start; ; ) {
    const candidate = path.join(dir, ".fctry");
    try {
      if (fs.statSync(candidate).isDirectory()) return candidate;
    } catch {
      // not here: look in the parent
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

const fctryDir = findFctryDir(process.cwd());
if (fctryDir !== null) {
  let data = null;
  try {
    data = fs.readFileSync(path.join(fctryDir, "state.json"));
  } catch {
    data = null; // missing or unreadable: {}
  }
  const args = process.argv.slice(2);
  const color = args.includes("--color")
    ? true
    : args.includes("--no-color")
      ? false
      : Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const { fctry } = require("../lib/core-node.cjs");
  process.stdout.write(fctry.statusLineText(data, { color }) + "\n");
}
