// Node benches of statecore (docs/conventions.md § Benchmarks): statecore and the alternative a user would pick,
// on the same input, in the same run. Prints a markdown fragment on stdout (bench/run.sh puts it
// in RESULTS.md); progress goes to stderr. Exits non-zero when statecore gives a wrong result
// (checked once per comparison, outside the timed loops); never fails on speed.
//
//   node bench/node_bench.mjs [--quick]
import { createRequire } from "node:module";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ajvOrThrow, deep, lockedAlternatives, validateAjv } from "./alternatives.mjs";
import {
  assertSameJson,
  check,
  compareSync,
  consume,
  log,
  summary,
  table,
} from "./lib.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const statecorePath = path.join(here, "..", "npm", "lib", "node.cjs");
/** Node's wasm module and the status line's, as the package ships them. */
const nodeWasm = path.join(here, "..", "npm", "dist", "node", "statecore_bg.wasm");
const statuslineWasm = path.join(here, "..", "npm", "dist", "statusline", "statecore_bg.wasm");
const sc = require(statecorePath);

const quick = process.argv.includes("--quick");
const KIND = "agency.runner_status";
const docBytes = fs.readFileSync(path.join(here, "fixtures", "runner_status.json"));
const docText = docBytes.toString("utf8");
const patch = JSON.parse(fs.readFileSync(path.join(here, "fixtures", "patch.json"), "utf8"));
const patchText = JSON.stringify(patch);
const out = [];
// Temporary directories, removed however the process ends (a failed check exits early).
const tempDirs = [];
const makeTempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-bench-"));
  tempDirs.push(dir);
  return dir;
};
process.on("exit", () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
const micro = quick ? { samples: 3, sampleMs: 15, warmupMs: 40 } : { samples: 15, sampleMs: 40, warmupMs: 150 };

// ---------------------------------------------------------------------------------------
// Correctness of the schema equivalent: it must agree with statecore on valid and invalid.
// ---------------------------------------------------------------------------------------
{
  const cases = [
    JSON.parse(docText),
    { status: "needs_input", summary: "x", questions: [] },
    { status: "Working", summary: "x" },
    { status: "working", summary: "   " },
    { status: "blocked", summary: "x", blockers: ["a"] },
    { status: "ready_for_review", summary: "x", how_to_test: "" },
    { status: "working", summary: "x", updated_at: "yesterday" },
    { status: "working", summary: "x", risks: [1] },
  ];
  for (const doc of cases) {
    const mine = sc.validate(KIND, doc).valid;
    check("schema equivalence", mine === validateAjv(doc), JSON.stringify(doc));
  }
}

// ---------------------------------------------------------------------------------------
// (1) merge + validate, text in, text out
// ---------------------------------------------------------------------------------------
{
  log("(1) merge+validate text→text");
  const viaApply = () => sc.applyUpdate(KIND, docBytes, patch, null, null).text;
  const viaText = () => {
    const merged = sc.mergeText(docBytes, patchText);
    const report = sc.validateText(KIND, merged);
    if (!report.valid) throw new Error("invalid");
    return merged;
  };
  const alternative = () => {
    const doc = deep(JSON.parse(docBytes), patch);
    return JSON.stringify(ajvOrThrow(doc), null, 2) + "\n";
  };
  const expected = JSON.parse(alternative());
  assertSameJson("(1) applyUpdate", JSON.parse(viaApply()), expected);
  assertSameJson("(1) mergeText+validateText", JSON.parse(viaText()), expected);
  check("(1) canonical text equals JSON.stringify(x, null, 2)", viaApply() === alternative());
  let threw = false;
  try {
    sc.applyUpdate(KIND, docBytes, { status: "nope" }, null, null);
  } catch (e) {
    threw = e instanceof sc.ValidationError;
  }
  check("(1) applyUpdate rejects an invalid result", threw);

  const results = compareSync(
    [
      { name: "statecore applyUpdate(kind, bytes, patch).text", statecore: true, fn: viaApply },
      { name: "statecore mergeText + validateText", statecore: true, fn: viaText },
      { name: "JSON.parse + deepmerge + ajv + JSON.stringify", fn: alternative },
    ],
    micro,
  );
  out.push(
    table(
      "Node (1): merge + validate, text in → text out",
      `A ${docBytes.length}-byte \`agency.runner_status\` document (Buffer, as read from a file) and a ` +
        `${patchText.length}-byte deep patch; output is the 2-space-indented text. ` +
        "`applyUpdate` also returns the merged document (as an object parsed when first read) and its etag.",
      results,
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (6) the viewer's job: file bytes -> a validated JS object
// ---------------------------------------------------------------------------------------
{
  log("(6) viewer: bytes → validated object");
  const viaLoad = () => {
    const loaded = sc.loadDocument(KIND, docBytes);
    if (!loaded.valid) throw new Error("invalid");
    return loaded.document;
  };
  const viaParse = () => {
    const doc = sc.parse(docBytes);
    if (!sc.validate(KIND, doc).valid) throw new Error("invalid");
    return doc;
  };
  const alternative = () => ajvOrThrow(JSON.parse(docBytes));
  assertSameJson("(6) loadDocument", viaLoad(), alternative());
  assertSameJson("(6) parse + validate", viaParse(), alternative());
  // The boundary (docs/performance.md, Not met: the text rows): what a read without objects
  // costs (the core's strict read, number check and etag in wasm) and what the objects alone
  // cost (JSON.parse of the bytes); a read with objects cannot cost less than their sum.
  const readOnly = () => {
    const loaded = sc.loadDocument(KIND, docBytes);
    if (!loaded.valid) throw new Error("invalid");
    return loaded.etag;
  };
  const parseOnly = () => JSON.parse(docBytes);
  const results = compareSync(
    [
      { name: "statecore loadDocument(kind, bytes)", statecore: true, fn: viaLoad },
      { name: "JSON.parse + ajv (the kind's schema)", fn: alternative },
      { name: "reference: loadDocument without reading .document (the core's read in wasm, no objects)", reference: true, fn: readOnly },
      { name: "reference: JSON.parse(bytes) alone (the objects)", reference: true, fn: parseOnly },
    ],
    micro,
  );
  out.push(
    table(
      "Node (6): a viewer's read, file bytes → validated object",
      `The same ${docBytes.length}-byte document as read from a file (Buffer): statecore's reader ` +
        "(strict parse, duplicate keys, limits, the kind's rules, the etag) against JSON.parse and " +
        "ajv with the kind's JSON Schema. The two reference rows are the parts of a read with " +
        "objects: the core's read without them, and `JSON.parse` of the bytes alone.",
      results,
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (2) merge + validate, object in, object out
// ---------------------------------------------------------------------------------------
{
  log("(2) merge+validate object→object");
  const docObj = JSON.parse(docText);
  const viaObjects = () => {
    const merged = sc.merge(docObj, patch);
    if (!sc.validate(KIND, merged).valid) throw new Error("invalid");
    return merged;
  };
  const viaDeepmerge = () => ajvOrThrow(deep(docObj, patch));
  // What a user writes by hand for this patch: spread, one level deeper where the patch nests.
  const viaSpread = () =>
    ajvOrThrow({ ...docObj, ...patch, progress: { ...docObj.progress, ...patch.progress } });
  const expected = viaDeepmerge();
  assertSameJson("(2) merge+validate", viaObjects(), expected);
  assertSameJson("(2) spread (sanity of the alternative)", viaSpread(), expected);
  assertSameJson("(2) input untouched", docObj, JSON.parse(docText));
  // A resident document (docs/api.md § Resident documents): only the patch crosses; the merged
  // document stays in wasm memory, validated, and is read back here once to check it.
  const resident = sc.residentDocument(KIND, docObj);
  const viaResident = () => resident.merge(patch);
  viaResident();
  assertSameJson("(2) resident merge+validate", resident.toJSON(), expected);

  const results = compareSync(
    [
      { name: "statecore merge + validate", statecore: true, fn: viaObjects },
      { name: "statecore resident document: doc.merge(patch) (merge + validate in wasm)", statecore: true, fn: viaResident },
      { name: "deepmerge + ajv", fn: viaDeepmerge },
      { name: "spread + ajv", fn: viaSpread },
    ],
    micro,
  );
  out.push(
    table(
      "Node (2): merge + validate, object in → object out",
      "The same document and patch as JS objects. statecore copies them across the wasm boundary " +
        "as JSON text both ways; the alternatives never leave JS (spread shares unchanged subtrees). " +
        "The resident row keeps the document in wasm memory (`residentDocument`): only the patch " +
        "crosses, and the merged, validated document stays there (read on demand with `get`).",
      results,
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (3) locked file updates
// ---------------------------------------------------------------------------------------
{
  log("(3) locked file updates");
  const N = quick ? 40 : 200;
  const samples = quick ? 1 : 5;
  const dir = makeTempDir();
  const patchFor = (i) => ({ summary: `update ${i}`, progress: { done: i, current: `step ${i}` } });

  const scSync = (file, i) => sc.updateDocumentSync(file, KIND, patchFor(i));
  const scAsync = (file, i) => sc.updateDocument(file, KIND, patchFor(i));
  const alt = lockedAlternatives();
  const altSync = (file, i) => alt.sync(file, patchFor(i));
  const altAsync = (file, i) => alt.async(file, patchFor(i));
  const altSyncDir = (file, i) => alt.syncDir(file, patchFor(i));
  const altAsyncDir = (file, i) => alt.asyncDir(file, patchFor(i));
  // The rows with one fsync (the alternatives' defaults) are shown for reference; the key ratio
  // compares the same fsyncs as statecore's (file and directory), as issue 11 asks.
  const cases = [
    { name: "statecore updateDocumentSync", statecore: true, fn: scSync, async: false },
    { name: "statecore updateDocument (async)", statecore: true, fn: scAsync, async: true },
    { name: "proper-lockfile lockSync + JSON + deepmerge + ajv + write-file-atomic sync (one fsync)", fn: altSync, async: false, reference: true },
    { name: "proper-lockfile lock + JSON + deepmerge + ajv + write-file-atomic (async, one fsync)", fn: altAsync, async: true, reference: true },
    { name: "the sync alternative + fsync of the directory", fn: altSyncDir, async: false },
    { name: "the async alternative + fsync of the directory", fn: altAsyncDir, async: true },
  ];

  const runOnce = async (c, count) => {
    const file = path.join(dir, `${cases.indexOf(c)}.json`);
    fs.writeFileSync(file, docBytes);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < count; i++) consume(c.async ? await c.fn(file, i) : c.fn(file, i));
    const ns = Number(process.hrtime.bigint() - t0) / count;
    return { ns, file };
  };

  // Warm-up, and the correctness check: the same updates give the same document.
  const finals = [];
  for (const c of cases) {
    const { file } = await runOnce(c, 20);
    finals.push(JSON.parse(fs.readFileSync(file, "utf8")));
  }
  for (let k = 1; k < cases.length; k++) assertSameJson(`(3) ${cases[k].name}`, finals[0], finals[k]);
  const read = sc.readDocumentSync(path.join(dir, "0.json"), KIND);
  check("(3) readDocumentSync after updates", read.valid && read.document.progress.done === 19);

  const times = cases.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (const [k, c] of cases.entries()) times[k].push((await runOnce(c, N)).ns);
  }
  const leftovers = fs.readdirSync(dir).filter((f) => !/^\d\.json$/.test(f));
  check("(3) no temp or lock files left", leftovers.length === 0, leftovers.join(", "));
  out.push(
    table(
      `Node (3): locked read-merge-validate-write, ${N} sequential updates`,
      `Time per update (median of ${samples} runs of ${N} updates each, in ${os.tmpdir()}). ` +
        "statecore: sidecar lock file, fsync of the temp file and of the directory, rename. " +
        "proper-lockfile: a lock directory (plus its mtime refresh timer); write-file-atomic: " +
        "temp file, fsync of the file (not the directory), rename; the last rows add the directory " +
          "fsync, so that both sides make two fsyncs per update (the key ratio compares those; the " +
          "one-fsync rows are for reference).",
      cases.map((c, k) => summary(c, times[k])),
      "per update",
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (3b) locked file updates, 4 writer processes at once
// ---------------------------------------------------------------------------------------
{
  log("(3b) locked file updates, 4 writers at once");
  const WRITERS = 4;
  const COUNT = quick ? 10 : 50;
  const samples = quick ? 1 : 3;
  const dir = makeTempDir();
  const child = path.join(here, "writers_child.mjs");
  /** Starts the writers, waits until each has loaded, then times them from one signal. */
  const runOnce = async (impl, file) => {
    fs.writeFileSync(file, docBytes);
    const procs = [];
    for (let w = 0; w < WRITERS; w++) {
      const proc = spawn(process.execPath, [child, impl, file, `w${w}`, String(COUNT)], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
      const ready = new Promise((resolve) => proc.stdout.once("data", resolve));
      procs.push({ proc, exited, ready });
    }
    await Promise.all(procs.map((p) => p.ready));
    const t0 = process.hrtime.bigint();
    for (const { proc } of procs) proc.stdin.write("go\n");
    const codes = await Promise.all(procs.map((p) => p.exited));
    const ns = Number(process.hrtime.bigint() - t0) / (WRITERS * COUNT);
    check(`(3b) ${impl}: every writer exits 0`, codes.every((c) => c === 0), codes.join(", "));
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    const want = Object.fromEntries(Array.from({ length: WRITERS }, (_, w) => [`w${w}`, COUNT]));
    assertSameJson(`(3b) ${impl}: no lost update (each writer's counter)`, doc.progress.writers, want);
    check(`(3b) ${impl}: the document validates`, sc.validate(KIND, doc).valid);
    return ns;
  };
  const cases = [
    { name: "statecore updateDocumentSync", statecore: true, impl: "statecore-sync" },
    { name: "statecore updateDocument (async)", statecore: true, impl: "statecore-async" },
    { name: "proper-lockfile lockSync (retried every 1–4 ms) + JSON + deepmerge + ajv + write-file-atomic sync + fsync of the directory", impl: "alternative-sync" },
    { name: "proper-lockfile lock (retries 1–4 ms) + JSON + deepmerge + ajv + write-file-atomic + fsync of the directory", impl: "alternative-async" },
  ];
  const times = cases.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (const [k, c] of cases.entries()) times[k].push(await runOnce(c.impl, path.join(dir, `${k}.json`)));
  }
  const leftovers = fs.readdirSync(dir).filter((f) => !/^\d\.json$/.test(f));
  check("(3b) no temp or lock files left", leftovers.length === 0, leftovers.join(", "));
  out.push(
    table(
      `Node (3b): locked updates, ${WRITERS} writer processes at once`,
      `${WRITERS} processes, each making ${COUNT} updates of one file (its own counter in the ` +
        "document); they load and warm up first (10 updates of a private copy) and wait for one signal, and the time runs from the signal until " +
        `the last exits (median of ${samples} runs), divided by the ${WRITERS * COUNT} updates. ` +
        "Both sides make two fsyncs per update (temp file and directory). A waiting statecore writer " +
        "polls with backoff (1 ms doubling to 25 ms) and then claims the next turn (docs/locking.md " +
        "§ Fairness); proper-lockfile's writers retry every 1–4 ms. After each run every writer's " +
        "counter is checked: no update lost.",
      cases.map((c, k) => summary(c, times[k])),
      "per update",
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (4) cold start of a status-line script
// ---------------------------------------------------------------------------------------
{
  log("(4) cold start");
  const N = quick ? 4 : 20;
  const dir = makeTempDir();
  const file = path.join(dir, "runner_status.json");
  fs.writeFileSync(
    file,
    JSON.stringify(
      { schema_version: "1.0", status: "working", updated_at: "2026-11-22T05:40:12Z", summary: "Starting work", questions: [], blockers: [], how_to_test: "", risks: [] },
      null,
      2,
    ) + "\n",
  );
  const scripts = [
    {
      name: "statecore: require + readDocumentSync (validates) + print status",
      statecore: true,
      code: `const s=require(${JSON.stringify(statecorePath)});const r=s.readDocumentSync(${JSON.stringify(file)},"${KIND}");if(!r.valid)process.exit(3);console.log(r.document.status)`,
    },
    {
      name: "plain: JSON.parse(readFileSync) + print status",
      code: `const d=JSON.parse(require("fs").readFileSync(${JSON.stringify(file)},"utf8"));console.log(d.status)`,
    },
    { name: "reference: node -e '' (process start only)", code: "", reference: true },
    {
      // What the row cannot go under: V8 compiling (and validating) Node's wasm module, which
      // the first require must do synchronously (docs/performance.md § Node: cold start).
      name: "reference: the wasm module compiled alone (new WebAssembly.Module of its bytes)",
      code: `new WebAssembly.Module(require("fs").readFileSync(${JSON.stringify(nodeWasm)}));console.log("working")`,
      reference: true,
    },
  ];
  const spawn = (code) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
    const ns = Number(process.hrtime.bigint() - t0);
    if (r.status !== 0) throw new Error(`cold start script failed (${r.status}): ${r.stderr}`);
    return { ns, stdout: r.stdout };
  };
  for (const s of scripts) spawn(s.code); // warm the page cache
  check("(4) statecore prints the status", spawn(scripts[0].code).stdout === "working\n");
  check("(4) plain prints the status", spawn(scripts[1].code).stdout === "working\n");
  const times = scripts.map(() => []);
  for (let i = 0; i < N; i++) scripts.forEach((s, k) => times[k].push(spawn(s.code).ns));
  out.push(
    table(
      `Node (4): cold start of a status-line script (${N} spawns each, interleaved)`,
      "Wall time of `node -e <script>` from spawn to exit, reading a 200-byte runner status.",
      scripts.map((s, k) => summary(s, times[k])),
      "per process",
    ),
  );
}

// ---------------------------------------------------------------------------------------
// (5) the fctry status line end to end: `statecore-statusline` vs a plain script
// ---------------------------------------------------------------------------------------
{
  log("(5) status line end to end");
  const N = quick ? 4 : 40;
  const project = makeTempDir();
  fs.mkdirSync(path.join(project, ".fctry"));
  const state = {
    activeSection: "#core-flow", activeSectionNumber: "2.2", currentCommand: "evolve", workflowStep: "interviewer",
    completedSteps: ["state-owner-scan"], nextStep: "Run /fctry:execute to build the new behavior",
    scenarioScore: { satisfied: 5, total: 8 }, chunkProgress: { current: 2, total: 4 },
    readinessSummary: { aligned: 28, "spec-ahead": 5, draft: 7 }, specVersion: "1.2", lastUpdated: "2026-02-12T15:23:45Z",
  };
  fs.writeFileSync(path.join(project, ".fctry", "state.json"), JSON.stringify(state, null, 2) + "\n");
  const plain = path.join(project, "plain-statusline.cjs");
  fs.writeFileSync(
    plain,
    'const d=JSON.parse(require("fs").readFileSync(".fctry/state.json","utf8"));console.log(d.currentCommand);\n',
  );
  // The project's other files, which statecore-statusline and the client-like script read.
  fs.writeFileSync(path.join(project, ".fctry", "config.json"), '{"versions": {"external": {"current": "1.4.0"}, "spec": {"current": "1.3"}}}\n');
  fs.writeFileSync(path.join(project, ".fctry", "inbox.json"), "[]\n");
  fs.writeFileSync(path.join(project, ".fctry", "spec.md"), "---\nstatus: draft\n---\n\n   - 2.2 [Core Flow](#22-core-flow) `#core-flow`\n");
  fs.mkdirSync(path.join(project, ".git"));
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  // What a user writes instead of the fctry client's status line: the same reads (standard
  // input, the state, the registry, the spec's beginning, the inbox, HEAD), a plain line.
  const clientLike = path.join(project, "client-like-statusline.cjs");
  fs.writeFileSync(
    clientLike,
    [
      'const fs = require("fs"), path = require("path");',
      "const read = (f) => { try { return fs.readFileSync(f, \"utf8\"); } catch { return null; } };",
      "const json = (t) => { try { return JSON.parse(t); } catch { return {}; } };",
      "let session = {}; try { session = json(fs.readFileSync(0, \"utf8\")); } catch {}",
      "const dir = session.workspace?.current_dir || session.cwd || process.cwd();",
      'const state = json(read(path.join(dir, ".fctry", "state.json")) ?? "{}");',
      'const config = json(read(path.join(dir, ".fctry", "config.json")) ?? "{}");',
      'const spec = (read(path.join(dir, ".fctry", "spec.md")) ?? "").slice(0, 8192);',
      'const inbox = json(read(path.join(dir, ".fctry", "inbox.json")) ?? "[]");',
      'const head = (read(path.join(dir, ".git", "HEAD")) ?? "").trim().replace("ref: refs/heads/", "");',
      'const title = (spec.match(new RegExp("\\\\[([^\\\\]]+)\\\\].*`" + state.activeSection + "`")) ?? [])[1];',
      'const parts = [path.basename(dir) + " " + (config.versions?.external?.current ?? ""), head, "spec " + (config.versions?.spec?.current ?? state.specVersion)];',
      'parts.push(state.currentCommand, title ?? state.activeSection, `scenarios ${state.scenarioScore?.satisfied}/${state.scenarioScore?.total}`);',
      'if (Array.isArray(inbox) && inbox.length) parts.push(`${inbox.length} findings`);',
      'console.log(parts.filter(Boolean).join(" │ "));',
    ].join("\n") + "\n",
  );
  const bin = path.join(path.dirname(statecorePath), "..", "bin", "statecore-statusline.cjs");
  const programs = [
    { name: "statecore-statusline (stdin, find the project, read its files, summarize, render)", statecore: true, args: [bin, "--no-color"] },
    { name: "plain script: JSON.parse(readFileSync) + print one field", args: [plain] },
    { name: "client-like script: the same reads as the fctry client, a plain line", args: [clientLike] },
    {
      // The floor of any wasm status line: V8 compiling the status line's own module.
      name: "reference: the status line's wasm module compiled alone",
      args: ["-e", `new WebAssembly.Module(require("fs").readFileSync(${JSON.stringify(statuslineWasm)}))`],
      reference: true,
    },
  ];
  const spawn = (args) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: project, encoding: "utf8" });
    const ns = Number(process.hrtime.bigint() - t0);
    if (r.status !== 0) throw new Error(`status line script failed (${r.status}): ${r.stderr}`);
    return { ns, stdout: r.stdout };
  };
  for (const p of programs) spawn(p.args); // warm the page cache
  check("(5) statecore-statusline prints the line", spawn(programs[0].args).stdout.includes("│ on main │ spec 1.3 draft │ evolve › interviewer"));
  check("(5) the plain script prints the command", spawn(programs[1].args).stdout === "evolve\n");
  check("(5) the client-like script prints a line", spawn(programs[2].args).stdout.includes("│ main │ spec 1.3 │ evolve"));
  const times = programs.map(() => []);
  for (let i = 0; i < N; i++) programs.forEach((p, k) => times[k].push(spawn(p.args).ns));
  out.push(
    table(
      `Node (5): the fctry status line end to end (${N} spawns each, interleaved)`,
      "Wall time from spawn to exit of `node <script>` in a project with the seed's example `.fctry/state.json`, a registry, a spec, an inbox and a git HEAD. The plain script prints one field; the client-like script reads what the fctry client reads and prints a plain line; statecore-statusline prints the whole line (and validates the state).",
      programs.map((p, k) => summary(p, times[k])),
      "per process",
    ),
  );
}

// (7), (8) and (13), the protocols' sections, each run in a process of its own by bench/run.sh
// (bench/node_section.mjs).

process.stdout.write(out.join("\n"));
log("done");
