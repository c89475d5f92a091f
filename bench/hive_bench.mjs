// Bench Node (10), issue 12: replay of a hive session's EVENTS.jsonl (1,000,000 events, about
// 160 MB; 20,000 with --quick) into its STATE.json, statecore (wasm) against a Node fold of the
// same events (bench/hive_reference.mjs: `readline` over `fs.createReadStream`, `JSON.parse`
// per line, an object). The log is made and cached by bench/hive_log.py (the same log as
// Python (7)).
//
// Each sample of each contender runs in a fresh `node` (`--child`), so that its peak resident
// set (`VmHWM`) is its own; samples are interleaved, and an idle child
// (the same modules and warm-up, no replay) gives the baseline the peaks are compared with.
// Before timing, every child runs each contender once on the log's first 64 lines. The
// children's final states must all be equal (as JSON values, and as text), and equal to the
// STATE.json `readStateSync` wrote; the check is outside the timed part. Prints a markdown
// fragment on stdout (bench/run.sh puts it in RESULTS.md); never fails on speed.
//
//   node bench/hive_bench.mjs [--quick]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import readline from "node:readline";
import { assertSameJson, check, formatNs, log, median } from "./lib.mjs";
import { apply, fold } from "./hive_reference.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const C = require(path.join(root, "npm", "lib", "generated", "core-node.cjs"));
const hive = require(path.join(root, "npm", "lib", "host", "hive.cjs"));

// The chunk the library itself feeds its replay (npm/lib/host/sessions.cjs, `readStateSync`), so
// that the raw row measures the same reads.
const CHUNK = 1 << 16;
const NOW = "2026-11-25T00:00:00.000Z";
const WARM_LINES = 64;
const SAMPLES = 3;

// ---------------------------------------------------------------------------------------
// The contenders, as run in a child: each resolves to {state, events}
// ---------------------------------------------------------------------------------------
function replay(dir) {
  const r = C.logReplay("hive.state", path.basename(dir), null, 0, false);
  const fd = fs.openSync(path.join(dir, "EVENTS.jsonl"), "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    let n;
    while ((n = fs.readSync(fd, buffer, 0, CHUNK, null)) > 0) r.feed(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  const out = r.commit("", [], { now: NOW });
  return { state: out.document, events: out.recovered.events };
}

/** The reference fold with `rl.on("line")` instead of `for await` (often faster). */
function foldOnLine(dir) {
  const sessionId = path.basename(dir);
  return new Promise((resolve, reject) => {
    let state = null;
    let offset = 0;
    let events = 0;
    const input = fs.createReadStream(path.join(dir, "EVENTS.jsonl"));
    input.on("error", reject);
    const lines = readline.createInterface({ input, crlfDelay: Infinity });
    lines.on("line", (line) => {
      offset += Buffer.byteLength(line) + 1;
      if (!line.trim()) return;
      state = apply(state, JSON.parse(line), sessionId);
      events++;
    });
    lines.on("close", () => {
      state.session_metadata.log_offset = offset;
      resolve({ state, events });
    });
  });
}

const RUNNERS = {
  readState: (dir) => {
    const r = hive.readStateSync(dir);
    return { state: r.document, events: r.recovered.events };
  },
  replay,
  readline: (dir) => fold(path.join(dir, "EVENTS.jsonl"), path.basename(dir)),
  readlineOnLine: foldOnLine,
};
const CONTENDERS = [
  {
    mode: "readState",
    statecore: true,
    short: "statecore hive.readStateSync",
    name: "statecore `hive.readStateSync(sessionDir)` (no STATE.json: streams the log in 64 KiB chunks through `logReplay`, writes STATE.json)",
  },
  { mode: "replay", statecore: true, short: "statecore logReplay", name: 'statecore `logReplay`: `feed` 64 KiB chunks (`fs.readSync`, the library\'s), `commit("", [], {now})`' },
  {
    mode: "readline",
    short: "readline for-await fold",
    name: "`for await (const line of readline.createInterface(fs.createReadStream(...)))` + `JSON.parse` + an object fold (bench/hive_reference.mjs)",
  },
  { mode: "readlineOnLine", short: "readline on('line') fold", name: 'the same fold with `rl.on("line", ...)` instead of `for await`' },
];

/**
 * This process's peak resident set in KiB: `VmHWM`. Not `process.resourceUsage().maxRSS`:
 * Linux keeps the parent's peak in it across `exec`, so a child would report at least its
 * parent's.
 */
function peakRss() {
  try {
    const hwm = /^VmHWM:\s+(\d+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

async function child(mode, dir, warm) {
  for (const [name, run] of Object.entries(RUNNERS)) {
    if (name === "readState") fs.rmSync(path.join(warm, "STATE.json"), { force: true });
    await run(warm);
  }
  let state = null;
  let events = 0;
  let ns = 0;
  if (mode !== "idle") {
    if (mode === "readState") fs.rmSync(path.join(dir, "STATE.json"), { force: true });
    const t0 = process.hrtime.bigint();
    ({ state, events } = await RUNNERS[mode](dir));
    ns = Number(process.hrtime.bigint() - t0);
  }
  const maxrss = peakRss();
  process.stdout.write(JSON.stringify({ ns, events, maxrss, state }));
}

function runChild(mode, dir, warm) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", mode, dir, warm], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  check(`(10) the ${mode} child`, r.status === 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The session directory of the `total`-event log (made and cached by bench/hive_log.py). */
function ensureLog(total) {
  const python = path.join(root, ".venv", "bin", "python");
  const r = spawnSync(python, [path.join(here, "hive_log.py"), String(total)], { encoding: "utf8" });
  check("(10) bench/hive_log.py", r.status === 0, r.stderr);
  return r.stdout.trim();
}

/** A session of the log's first lines (the children's warm-up). */
function warmSession(dir, tmp) {
  const warm = path.join(tmp, path.basename(dir));
  fs.mkdirSync(warm);
  const fd = fs.openSync(path.join(dir, "EVENTS.jsonl"), "r");
  const head = Buffer.alloc(256 << 10);
  const n = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  let end = 0;
  for (let i = 0; i < WARM_LINES; i++) end = head.indexOf(10, end) + 1;
  check("(10) the warm-up lines", end > 0 && end <= n);
  fs.writeFileSync(path.join(warm, "EVENTS.jsonl"), head.subarray(0, end));
  return warm;
}

async function main() {
  const quick = process.argv.includes("--quick");
  const total = quick ? 20_000 : 1_000_000;
  log(`(10) hive replay: the ${total.toLocaleString("en")}-event log (bench/hive_log.py; cached in the temp dir)`);
  const dir = ensureLog(total);
  const size = fs.statSync(path.join(dir, "EVENTS.jsonl")).size;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hive-"));
  const times = Object.fromEntries(CONTENDERS.map((c) => [c.mode, []]));
  const peaks = Object.fromEntries([...Object.keys(times), "idle"].map((m) => [m, []]));
  const states = {};
  let written;
  try {
    const warm = warmSession(dir, tmp);
    for (let s = 0; s < SAMPLES; s++) {
      log(`(10) sample ${s + 1}/${SAMPLES}`);
      for (const mode of ["idle", ...Object.keys(times)]) {
        const out = runChild(mode, dir, warm);
        peaks[mode].push(out.maxrss);
        if (mode === "idle") continue;
        check(`(10) ${mode}`, out.events === total, `folded ${out.events} events, not ${total}`);
        times[mode].push(out.ns / total);
        states[mode] ??= out.state;
        assertSameJson(`(10) ${mode}: the same state in every sample`, out.state, states[mode]);
      }
    }
    written = JSON.parse(fs.readFileSync(path.join(dir, "STATE.json"), "utf8"));
    fs.rmSync(path.join(dir, "STATE.json"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const expected = states.replay;
  let sameText = true;
  for (const [mode, state] of [...Object.entries(states), ["STATE.json written by readStateSync", written]]) {
    assertSameJson(`(10) ${mode}`, state, expected);
    sameText &&= JSON.stringify(state) === JSON.stringify(expected);
  }
  process.stdout.write(report(total, size, times, peaks, sameText));
  log("(10) done");
}

function report(total, size, times, peaks, sameText) {
  const med = Object.fromEntries(Object.entries(times).map(([m, t]) => [m, median(t)]));
  const peak = Object.fromEntries(Object.entries(peaks).map(([m, p]) => [m, median(p)]));
  const idle = peak.idle;
  const short = Object.fromEntries(CONTENDERS.map((c) => [c.mode, c.short]));
  const ours = CONTENDERS.filter((c) => c.statecore).map((c) => c.mode);
  const theirs = CONTENDERS.filter((c) => !c.statecore).map((c) => c.mode);
  const n = (x) => Math.round(x).toLocaleString("en");
  const signed = (x) => `${x >= 0 ? "+" : "-"}${n(Math.abs(x))}`;
  const rate = (m) => `${short[m]}, ${n(1e9 / med[m])} events/s, ${formatNs(med[m])}`;
  const grown = (m) => `${short[m]}, ${n(peak[m])} KiB, ${signed(peak[m] - idle)} KiB over idle`;
  const title = `Node (10): hive replay of ${total.toLocaleString("en")} events`;
  const head = ["implementation", "median per event", "events/s", "range of samples", "peak RSS (KiB)", "growth over idle (KiB)"];
  for (const m of ours) head.push(`ratio \`${short[m]}\` / this`);
  const lines = [
    `### ${title}`,
    "",
    `A session's EVENTS.jsonl of ${total.toLocaleString("en")} events, ${size.toLocaleString("en")} bytes ` +
      `(${(size / total).toFixed(1)} bytes a line; bench/hive_log.py, the log of Python (7)) folded into its ` +
      `STATE.json. Each sample runs in a fresh \`node\` (median of ${SAMPLES}, interleaved); the time is the ` +
      "whole replay from opening the file. Peak RSS: the child's `VmHWM` (/proc/self/status); growth: over " +
      `an idle child that loaded the same modules and ran the same warm-up (${n(idle)} KiB). All final states ` +
      `are equal as values${sameText ? " and as text (same key order)" : ""}, and equal to the STATE.json ` +
      "`readStateSync` wrote.",
    "",
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
  ];
  for (const c of CONTENDERS) {
    const t = times[c.mode];
    const row = [
      c.statecore ? `**${c.name}**` : c.name,
      formatNs(med[c.mode]),
      n(1e9 / med[c.mode]),
      `${formatNs(Math.min(...t))} .. ${formatNs(Math.max(...t))} (n=${t.length})`,
      n(peak[c.mode]),
      signed(peak[c.mode] - idle),
    ];
    for (const m of ours) row.push(c.statecore ? "" : (med[m] / med[c.mode]).toFixed(2));
    lines.push(`| ${row.join(" | ")} |`);
  }
  const pick = (modes, by, better) => modes.reduce((a, b) => (better(by[b], by[a]) ? b : a));
  const best = pick(ours, med, (x, y) => x < y);
  const peer = pick(theirs, med, (x, y) => x < y);
  const worst = pick(ours, peak, (x, y) => x > y);
  const least = pick(theirs, peak, (x, y) => x < y);
  lines.push(
    "",
    `Key: **${title}, fastest statecore / fastest alternative = ${(med[best] / med[peer]).toFixed(2)}** ` +
      `(time per event; ${rate(best)}; ${rate(peer)}; target ≤ 0.25)`,
    "",
    `Key: **Node (10) memory: hive replay of ${total.toLocaleString("en")} events, peak RSS, highest ` +
      `statecore / lowest alternative = ${(peak[worst] / peak[least]).toFixed(2)}** ` +
      `(${grown(worst)}; ${grown(least)}; target ≤ 1)`,
    "",
  );
  return lines.join("\n");
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4], process.argv[5]);
else await main();
