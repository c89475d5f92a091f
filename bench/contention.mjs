// Lock contention, for `make bench` (docs/performance.md, rows (3c)): N processes each
// increment one counter file M times in a tight loop (a locked read-modify-write, as fast as
// each can), statecore (fairness on) against what a user writes instead: proper-lockfile (its
// sync lock retried every 1–4 ms, and its async lock with retries of 1–4 ms) in Node, filelock
// (its default 50 ms poll) in Python, all with the same two fsyncs per update. Every run checks
// the final counter = N × M (no lost update) and no file left but the counter (and filelock's
// own `.lock`). Prints the Node table, then the Python one, with the longest single increment
// (its wait for the lock included) beside the time. Never fails on speed.
//   node bench/contention.mjs [--quick] [--only node|python]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, formatNs, log, median } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const python = path.join(root, ".venv", "bin", "python");
const quick = process.argv.includes("--quick");
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
const PROCESSES = 4;
const COUNT = quick ? 50 : 500;
const SAMPLES = quick ? 1 : 3;
/** The warm-up of every process (increments of a private copy, before the signal). */
const WARM = 20;
/**
 * The long warm-up of the "warmed" Node table: enough for V8 to have tiered the hot code up
 * (about 600 updates, docs/performance.md § The contended rows' first second).
 */
const LONG_WARM = quick ? 200 : 1500;

/**
 * One run: PROCESSES children of `cmd` on a fresh counter, each warmed up by `warm` increments
 * of its own copy first; {ns per increment, longest ms}.
 */
async function runOnce(cmd, dir, k, warm) {
  const file = path.join(dir, `counter-${k}.json`);
  fs.writeFileSync(file, JSON.stringify({ counter: 0 }, null, 2) + "\n");
  const procs = [];
  for (let p = 0; p < PROCESSES; p++) {
    const proc = spawn(cmd[0], [...cmd.slice(1), file, String(COUNT), String(warm)], {
      stdio: ["pipe", "pipe", "inherit"],
      cwd: here,
    });
    let out = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
    const ready = new Promise((resolve) => {
      const poll = () => (out.includes("ready\n") ? resolve() : proc.stdout.once("data", poll));
      poll();
    });
    procs.push({ proc, exited, ready, output: () => out });
  }
  await Promise.race([Promise.all(procs.map((p) => p.ready)), Promise.all(procs.map((p) => p.exited))]);
  const t0 = process.hrtime.bigint();
  for (const { proc } of procs) proc.stdin.write("go\n");
  const codes = await Promise.all(procs.map((p) => p.exited));
  const ns = Number(process.hrtime.bigint() - t0) / (PROCESSES * COUNT);
  check(`contention ${cmd.join(" ")}: every process exits 0`, codes.every((c) => c === 0), codes.join(", "));
  const counter = JSON.parse(fs.readFileSync(file, "utf8")).counter;
  check(`contention ${cmd.join(" ")}: no lost update`, counter === PROCESSES * COUNT, `counter ${counter}`);
  const longest = Math.max(...procs.map((p) => JSON.parse(p.output().split("\n").at(-2)).longest_ms));
  const leftovers = fs.readdirSync(dir).filter((f) => f !== path.basename(file) && f !== `${path.basename(file)}.lock`);
  check(`contention ${cmd.join(" ")}: no temp or lock file left`, leftovers.length === 0, leftovers.join(", "));
  fs.rmSync(file);
  fs.rmSync(`${file}.lock`, { force: true, recursive: true });
  return { ns, longest };
}

/**
 * Runs the cases interleaved, SAMPLES times each, every process warmed up by `warm` increments;
 * returns the markdown table.
 */
async function compare(title, note, cases, warm = WARM) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-contention-"));
  const runs = cases.map(() => []);
  try {
    for (let s = 0; s < SAMPLES; s++) {
      for (const [k, c] of cases.entries()) {
        log(`${title}: ${c.name}, sample ${s + 1}/${SAMPLES}`);
        runs[k].push(await runOnce(c.cmd, dir, k, warm));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = runs.map((r) => median(r.map((x) => x.ns)));
  const sc = cases.map((c, k) => k).filter((k) => cases[k].statecore);
  const head = ["implementation", "median per increment", "range of samples", "longest increment (ms), per sample"];
  for (const k of sc) head.push(`ratio \`${cases[k].name}\` / this`);
  const lines = [`### ${title}`, "", note, "", `| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const [k, c] of cases.entries()) {
    const ns = runs[k].map((x) => x.ns);
    const row = [
      c.statecore ? `**${c.name}**` : c.name,
      formatNs(med[k]),
      `${formatNs(Math.min(...ns))} .. ${formatNs(Math.max(...ns))} (n=${ns.length})`,
      runs[k].map((x) => x.longest.toFixed(0)).join(", "),
    ];
    for (const j of sc) row.push(c.statecore ? "" : (med[j] / med[k]).toFixed(2));
    lines.push(`| ${row.join(" | ")} |`);
  }
  const alts = cases.map((c, k) => k).filter((k) => !cases[k].statecore);
  const best = sc.reduce((a, b) => (med[b] < med[a] ? b : a));
  const fastest = alts.reduce((a, b) => (med[b] < med[a] ? b : a));
  const longestOf = (k) => Math.max(...runs[k].map((x) => x.longest)).toFixed(0);
  lines.push(
    "",
    `Key: **${title.split(":")[0]}: fastest statecore / fastest alternative = ${(med[best] / med[fastest]).toFixed(2)}** ` +
      `(${cases[best].name}, ${formatNs(med[best])}, longest increment ${longestOf(best)} ms; ` +
      `${cases[fastest].name}, ${formatNs(med[fastest])}, longest increment ${longestOf(fastest)} ms)`,
    "",
  );
  return lines.join("\n");
}

const shape = (warm) =>
  `${PROCESSES} processes × ${COUNT} increments of one counter file (\`{"counter": n}\`), each process in a tight ` +
  `loop (a locked read, +1, atomic write; no pause), started, warmed up (${warm} increments of a private copy) and ` +
  "released by one signal; time per increment = wall time from the signal until the last process exits, divided " +
  `by the ${PROCESSES * COUNT} increments (median of ${SAMPLES} interleaved runs, in ${os.tmpdir()}). Longest ` +
  "increment: the longest single call of any process, its wait for the lock included (the fairness bound). " +
  "Both sides make two fsyncs per increment (the temp file and the directory). After every run, checked: the " +
  `counter is ${PROCESSES * COUNT} (no lost update) and no temp or lock file is left.`;
const nodeChild = (impl) => [process.execPath, path.join(here, "contention_child.mjs"), impl];
const pyChild = (impl) => [python, path.join(here, "contention_child.py"), impl];

const nodeNote =
  " statecore: `updateDocumentSync` / `updateDocument` with a function (fairness on: docs/locking.md § " +
  "Fairness). proper-lockfile: its `lockSync` (which never waits) retried every 1–4 ms, and its `lock` " +
  "retrying every 1–4 ms (`retries: {forever: true}`); JSON.parse, write-file-atomic, and an fsync of the directory.";
const nodeCases = [
  { name: "statecore updateDocumentSync", statecore: true, cmd: nodeChild("statecore-sync") },
  { name: "statecore updateDocument (async)", statecore: true, cmd: nodeChild("statecore-async") },
  { name: "proper-lockfile lockSync (retried every 1–4 ms) + write-file-atomic sync + fsync of the directory", cmd: nodeChild("alternative-sync") },
  { name: "proper-lockfile lock (retries 1–4 ms) + write-file-atomic + fsync of the directory", cmd: nodeChild("alternative-async") },
];
if (only !== "python") {
  log("contention: Node");
  console.log(await compare(`Node (3c): lock contention, ${PROCESSES} processes × ${COUNT} increments`, shape(WARM) + nodeNote, nodeCases));
  // The same run after V8 has tiered up: what a long-running writer sees (the row above is a
  // process's first second).
  console.log(
    await compare(
      `Node (3c, warmed): lock contention, ${PROCESSES} processes × ${COUNT} increments, each process warmed up by ${LONG_WARM} increments`,
      shape(LONG_WARM) +
        " The warm-up is long enough for V8 to have compiled the hot code with its optimizing tiers before the " +
        "signal (docs/performance.md § The contended rows' first second)." +
        nodeNote,
      nodeCases,
      LONG_WARM,
    ),
  );
}
if (only !== "node") {
  log("contention: Python");
  console.log(
    await compare(
      `Python (3c): lock contention, ${PROCESSES} processes × ${COUNT} increments`,
      shape(WARM) +
        " statecore: `update_document` with a function (fairness on). filelock: `FileLock` (flock on a `.lock` " +
        "file, retried every 50 ms: its default), json, `mkstemp` + fsync + `os.replace` + fsync of the directory.",
      [
        { name: "statecore.update_document", statecore: true, cmd: pyChild("statecore") },
        { name: "filelock + json + atomic write + fsync of the directory", cmd: pyChild("filelock") },
      ],
    ),
  );
}
