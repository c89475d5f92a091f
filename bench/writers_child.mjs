// One writer of bench (3b): `node writers_child.mjs IMPL FILE ID COUNT`. Loads everything, warms
// up on a private copy of FILE, says "ready" on stdout, waits for a line on stdin (so that process start-up is not timed), then
// makes COUNT locked updates of FILE, each setting its own counter
// `progress.writers.<ID>` to 1..COUNT, and exits. IMPL: statecore-sync, statecore-async,
// alternative-sync, alternative-async (bench/alternatives.mjs, with the directory fsync).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lockedAlternatives } from "./alternatives.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const sc = require(path.join(here, "..", "npm", "lib", "node.cjs"));
const KIND = "agency.runner_status";
const [impl, file, id, countText] = process.argv.slice(2);
const count = Number(countText);
const alt = lockedAlternatives({ wait: true });
const update = {
  "statecore-sync": (patch, target = file) => sc.updateDocumentSync(target, KIND, patch),
  "statecore-async": (patch, target = file) => sc.updateDocument(target, KIND, patch),
  "alternative-sync": (patch, target = file) => alt.syncDir(target, patch),
  "alternative-async": (patch, target = file) => alt.asyncDir(target, patch),
}[impl];
if (!update || !file || !id || !(count > 0)) {
  console.error(`usage: writers_child.mjs IMPL FILE ID COUNT (got ${process.argv.slice(2).join(" ")})`);
  process.exit(2);
}
// Warm-up outside the clock (V8 compiles the hot code of either side): WARM updates of a
// private copy of the file, removed (with its lock files) before saying ready.
const WARM = 10;
const warm = `${file}.warm-${id}.json`;
fs.copyFileSync(file, warm);
for (let i = 1; i <= WARM; i++) await update({ progress: { warm: i } }, warm);
for (const name of fs.readdirSync(path.dirname(file))) {
  if (name.startsWith(path.basename(warm))) fs.rmSync(path.join(path.dirname(file), name), { force: true });
}
process.stdout.write("ready\n");
process.stdin.once("data", async () => {
  for (let i = 1; i <= count; i++) await update({ progress: { writers: { [id]: i } } });
  process.exit(0);
});
