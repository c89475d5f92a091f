#!/usr/bin/env node
// statecore-statusline: prints the fctry status line of the project around the current
// directory, for a shell prompt. It looks for `.fctry/` here or in a parent directory; with
// none it prints nothing. A missing `.fctry/state.json` reads as `{}` (the line is then just
// `fctry`); an unparseable or invalid one is marked after the name (`state.json unreadable`). Colours: `--color` / `--no-color`; by default when stdout is a
// terminal and NO_COLOR is not set. It loads the status-line module (dist/statusline: the core
// built with only `fctry_status_line_text`, a fifth of the full module, so the prompt pays little
// to read and compile it), reads one file and makes one wasm call; the line is the same as
// `fctry.statusLineText` of the full package (npm/test/statusline.test.mjs).
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
  const { fctry_status_line_text } = require("../dist/statusline/statecore.js");
  process.stdout.write(fctry_status_line_text(data ?? undefined, JSON.stringify({ color })) + "\n");
}
