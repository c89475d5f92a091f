// The browser's module against Node's (docs/performance.md § wasm size): the same calls on the
// same inputs through both, interleaved in one process, several rounds; prints the median time
// per call of each and the ratio per round (a range). Not part of `make bench`'s table: the
// browser's module is built for size, and this says what that costs per call.
//   node bench/web_module.mjs [rounds]
import { readFileSync } from "node:fs";
import init, * as web from "../npm/lib/generated/web.mjs";
import * as node from "../npm/lib/node.mjs";

await init(readFileSync(new URL("../npm/dist/web/statecore_bg.wasm", import.meta.url)));
const fixture = (name) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8");
const state = fixture("fctry_state.json");
const status = fixture("runner_status.json");

/** [name, call(sc)]: a page's calls (validate, read, derive). */
const CALLS = [
  ["validateText fctry.state (4 KB)", (sc) => sc.validateText("fctry.state", state)],
  ["loadDocument fctry.state", (sc) => sc.loadDocument("fctry.state", state)],
  ["parse fctry.state", (sc) => sc.parse(state)],
  ["fctry.statusLine", (sc, doc) => sc.fctry.statusLine(doc)],
  ["fctry.readyChunks", (sc, doc) => sc.fctry.readyChunks(doc)],
  ["agency.parseRunnerStatus", (sc) => sc.agency.parseRunnerStatus(status)],
];

function time(fn, n) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - start) / n / 1000; // µs per call
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const rounds = Number(process.argv[2] ?? 7);
const doc = node.parse(state);
for (const [name, call] of CALLS) {
  const n = 400;
  const a = [];
  const b = [];
  for (const sc of [node, web]) time(() => call(sc, doc), 50); // warm up
  for (let r = 0; r < rounds; r++) {
    a.push(time(() => call(node, doc), n));
    b.push(time(() => call(web, doc), n));
  }
  const ratios = a.map((x, i) => b[i] / x).sort((x, y) => x - y);
  const quartile = (q) => ratios[Math.round(q * (ratios.length - 1))].toFixed(2);
  console.log(
    `${name}: Node's module ${median(a).toFixed(1)} µs, the browser's ${median(b).toFixed(1)} µs: ` +
      `median ratio ${quartile(0.5)}× (quartiles ${quartile(0.25)}–${quartile(0.75)}×)`,
  );
}
