// Peak memory of one 200 KB update (issue 11), for `make bench`: each implementation runs in a
// fresh process that first loads its libraries, reads the file and makes WARM_UPS updates of a
// tiny document (one-time set-up: allocator arenas, the wasm memory's first pages, and in Node
// the optimizing compiler's work on the hot functions, JS and wasm, which a single warm-up left
// to the measured update: code, not data the update holds), then records
// its peak resident set (maxRSS), makes the update (bytes -> merged text) once, and reports
// how much the peak grew. Node: statecore `applyUpdate` against JSON.parse + deepmerge +
// JSON.stringify; Python: `apply_update` against orjson + a dict merge + orjson.dumps. The
// outputs are checked equal first. Prints a markdown table; fails only on a wrong result.
//   node bench/memory.mjs
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const python = path.join(root, ".venv", "bin", "python");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-memory-"));
const file = path.join(dir, "state.json");
const record = (i) => ({
  id: `run-${i}`,
  status: i % 3 ? "working" : "needs_input",
  summary: `Implementing step ${i} of the export endpoint; waiting on a decision`,
  progress: { done: i % 17, total: 17 },
  tags: ["export", "api", `t${i % 5}`],
});
fs.writeFileSync(file, `${JSON.stringify({ runs: Array.from({ length: 700 }, (_, i) => record(i)) }, null, 2)}\n`);
const patch = JSON.stringify({ runs: [record(0)], updated: "2026-11-23T00:00:00Z" });
/** Updates of a tiny document before the measured one, in every child alike (1 before 2026-11-28). */
const WARM_UPS = Number(process.env.STATECORE_BENCH_WARM_UPS ?? 1000);

const NODE = {
  statecore: `const sc = require(${JSON.stringify(path.join(root, "npm", "lib", "generated", "core-node.cjs"))});
    run = () => sc.applyUpdate("json", bytes, patch, null, null).text;`,
  "JSON.parse + deepmerge + JSON.stringify": `const deepmerge = require(${JSON.stringify(path.join(here, "node_modules", "deepmerge"))});
    run = () => JSON.stringify(deepmerge(JSON.parse(bytes.toString("utf8")), patch, { arrayMerge: (_, b) => b }), null, 2) + "\\n";`,
};
const PYTHON = {
  statecore: `import statecore
def run(): return statecore.apply_update("json", data, patch, None, None)["text"]`,
  "orjson + dict merge + orjson.dumps": `import orjson
def merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
def run(): return (orjson.dumps(merge(orjson.loads(data), patch), option=orjson.OPT_INDENT_2) + b"\\n").decode()`,
};

function nodeChild(setup) {
  const script = `const fs = require("node:fs");
    let bytes = fs.readFileSync(${JSON.stringify(file)}); const patch = ${patch}; let run;
    ${setup}
    const real = bytes; bytes = Buffer.from('{"runs": []}'); for (let i = 0; i < ${WARM_UPS}; i++) run(); bytes = real;
    const before = process.resourceUsage().maxRSS; const text = run();
    const after = process.resourceUsage().maxRSS;
    process.stdout.write(JSON.stringify({ before, after, text }));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { maxBuffer: 64 << 20 }));
}

function pythonChild(setup) {
  const script = `import json, resource, sys
data = open(${JSON.stringify(file)}, "rb").read()
patch = json.loads(${JSON.stringify(patch)})
${setup}
real, data = data, b'{"runs": []}'
for _ in range(${WARM_UPS}):
    run()
data = real
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
text = run()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stdout.write(json.dumps({"before": before, "after": after, "text": text}))`;
  return JSON.parse(execFileSync(python, ["-c", script], { maxBuffer: 64 << 20 }));
}

const lines = [
  `A ${fs.statSync(file).size}-byte document (700 records) and a small patch; one update in a fresh process, after loading the libraries, reading the file and ${WARM_UPS} updates of a tiny document. Peak growth: maxRSS after the update minus maxRSS before it (KiB; median of 5 processes).`,
  "",
  "| language | implementation | peak growth (KiB) | ratio statecore / this |",
  "|---|---|---|---|",
];
const keys = [];
for (const [language, impls, child] of [
  ["Node", NODE, nodeChild],
  ["Python", PYTHON, pythonChild],
]) {
  const texts = {};
  const growth = {};
  for (const [name, setup] of Object.entries(impls)) {
    const samples = [];
    for (let i = 0; i < 5; i++) {
      const r = child(setup);
      texts[name] = r.text;
      samples.push(r.after - r.before);
    }
    samples.sort((a, b) => a - b);
    growth[name] = samples[2];
  }
  const [mine, other] = Object.keys(impls);
  if (JSON.stringify(JSON.parse(texts[mine])) !== JSON.stringify(JSON.parse(texts[other])))
    throw new Error(`${language}: statecore's update differs from ${other}'s`);
  const ratio = growth[mine] / Math.max(growth[other], 1);
  for (const name of Object.keys(impls)) {
    lines.push(`| ${language} | ${name === mine ? `**${name}**` : name} | ${growth[name]} | ${name === mine ? "" : ratio.toFixed(2)} |`);
  }
  keys.push(`Key: **${language} memory: peak growth of the 200 KB update, statecore / ${other} = ${ratio.toFixed(2)}** (${growth[mine]} KiB; ${growth[other]} KiB)`);
}
fs.rmSync(dir, { recursive: true, force: true });
process.stdout.write([...lines, "", ...keys.flatMap((k) => [k, ""])].join("\n"));
