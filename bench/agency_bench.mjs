// Bench (8): agency `derive` over 10,000 runs (and the `ls` table of all of them), statecore
// against the hand-written table in agency_reference.mjs. The snapshots are made by a seeded
// PRNG (the same ones every run, and for bench/python_bench.py, which imports makeRuns): every
// one of the 12 levels, archived runs, valid and invalid runner statuses, stalled and not.
// Both implementations first go over all of them and must agree on every run.
import { isDeepStrictEqual } from "node:util";
import { check, formatNs, log, median, table } from "./lib.mjs";
import * as reference from "./agency_reference.mjs";

export const RUNS = 10_000;
export const SEED = 0x5eed_a9e1;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["auth-fix", "bug-fix", "feature-x", "oauth-login", "flaky-tests", "db-migration", "docs",
  "refactor-cli-arguments-parser", "perf", "i18n-dates", "payments-retry", "ui-darkmode"];
const RUNNERS = ["claude", "codex"];
const SUMMARIES = [
  "Starting work", "Implementing validation", "Which auth library?", "Implementing OAuth but need clarification",
  "Waiting for the staging database credentials", "Refactoring the CLI argument parser into subcommands",
  "Tests pass locally; CI is red on macOS only", "Done: see report.md", "Écrire les tests d'intégration",
  "修复登录页面的错误", "Migrating 🚀 deploy scripts to the new runner 🧪🧪", "Line one\nline two",
  "Tab\tseparated", "x", "Reviewing the diff of 14 files before asking for a review, including the generated ones",
];
const QUESTIONS = ["Which OAuth provider should I use?", "Should sessions persist across restarts?", "Keep the v1 API?"];
const BLOCKERS = ["No access to the staging database", "CI runner is down", "Waiting on the design review"];
const HOW_TO_TEST = ["go test ./...", "npm test && open http://localhost:3000/login", "Run `make e2e`"];
const TIMESTAMPS = ["2026-01-19T12:00:00Z", "2026-01-19T12:40:00.123Z", "2026-01-19T13:40:00+01:00",
  "2026-01-19T07:00:00-05:00", "2024-02-29T12:00:00Z", "2026-01-19t12:00:00z", "2026-01-19 12:00:00Z"];
const BAD_TIMESTAMPS = ["yesterday", "2026-01-19 12:00", "2026-01-19T12:00:00", "2026-02-30T12:00:00Z",
  "2026-01-19T25:00:00Z", "2026-01-19T12:00:00+0100", "19/01/2026 12:00", ""];
const MIN = 60_000;
const STALLS = [15 * MIN, 15 * MIN + 30_000, 45 * MIN, 59 * MIN + 59_999, 60 * MIN, 2 * 60 * MIN,
  135 * MIN, 26 * 60 * MIN + 5 * MIN];

/**
 * Makes `n` rows `{run_id, name, pr, snapshot}` (deterministic: the same for the same seed).
 * With `observed` (an array), also pushes per run what the files held before the snapshot was
 * made: `{meta, runner_status, tmux, worktree, stall_result}` (`meta` undefined: no file).
 */
export function makeRuns(n = RUNS, seed = SEED, observed = null) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chance = (p) => random() < p;
  /** One of `options` ([weight, make]) by weight. */
  const weighted = (options) => {
    const total = options.reduce((s, [w]) => s + w, 0);
    let r = random() * total;
    for (const [w, make] of options) if ((r -= w) < 0) return make();
    return options.at(-1)[1]();
  };

  const validStatus = () => {
    const status = pick(["working", "working", "needs_input", "blocked", "ready_for_review"]);
    const doc = chance(0.8)
      ? { schema_version: "1.0", status, updated_at: pick(TIMESTAMPS), summary: pick(SUMMARIES),
          questions: [], blockers: [], how_to_test: "", risks: [] }
      : { status, summary: pick(SUMMARIES) }; // a minimal document
    if (status === "needs_input") doc.questions = QUESTIONS.slice(0, 1 + Math.floor(random() * 3));
    if (status === "blocked") doc.blockers = [pick(BLOCKERS)];
    if (status === "ready_for_review") doc.how_to_test = pick(HOW_TO_TEST);
    if (chance(0.2)) doc.risks = ["Touches the session store"];
    if (chance(0.05)) doc.progress = { done: 3, total: 7 }; // an unknown field: a warning only
    if (chance(0.05)) doc.how_to_test = status === "ready_for_review" ? doc.how_to_test : null;
    if (chance(0.03)) doc.summary = "\u00a0" + doc.summary; // still not blank
    return doc;
  };
  const invalidStatus = () => {
    const doc = validStatus();
    weighted([
      [3, () => { doc.status = pick(["Working", "NEEDS_INPUT", "Blocked", "Ready_For_Review", "WORKING"]); }],
      [2, () => { doc.status = pick(["needs input", "ready for review", " working", "working "]); }],
      [2, () => { doc.status = pick(["done", "idle", "in_progress", "", "stalled"]); }],
      [1, () => { delete doc.status; }],
      [1, () => { doc.status = pick([null, 1, true, ["working"]]); }],
      [2, () => { doc.summary = pick(["", "   ", "\t\n", "\u00a0", "\u2003", "\u3000", "\u0085", null]); }],
      [1, () => { doc.summary = pick([42, ["Starting work"], { text: "x" }]); }],
      [1, () => { delete doc.summary; }],
      [3, () => {
        doc.status = "needs_input";
        weighted([[3, () => { doc.questions = []; }], [1, () => { delete doc.questions; }],
          [1, () => { doc.questions = null; }], [1, () => { doc.questions = "Which one?"; }],
          [1, () => { doc.questions = ["Which one?", 2]; }]]);
      }],
      [2, () => {
        doc.status = "blocked";
        weighted([[3, () => { doc.blockers = []; }], [1, () => { delete doc.blockers; }],
          [1, () => { doc.blockers = { reason: "CI" }; }]]);
      }],
      [2, () => {
        doc.status = "ready_for_review";
        weighted([[3, () => { doc.how_to_test = ""; }], [1, () => { doc.how_to_test = "  \n"; }],
          [1, () => { delete doc.how_to_test; }], [1, () => { doc.how_to_test = 5; }]]);
      }],
      [2, () => { doc.updated_at = pick([...BAD_TIMESTAMPS, 1768824000000]); }],
      [1, () => { doc.schema_version = pick([1, 1.0, true]); }],
      [1, () => { doc.risks = pick(["none", [1], [null], {}]); }],
      [1, () => { doc.questions = ["ok", 2]; }], // a wrong item on any status
    ]);
    return doc;
  };

  const rows = [];
  for (let i = 0; i < n; i++) {
    const day = 20260101 + (i % 28);
    const run_id = `${day}-${Math.floor(random() * 0x10000).toString(16).padStart(4, "0")}`;
    const name = chance(0.01) ? "name\twith a tab" : pick(NAMES);
    // meta.json: usually a real one; sometimes unreadable (broken).
    let meta = {
      schema_version: "1.0", run_id, name, runner: pick(RUNNERS), parent_branch: "main",
      branch: `agency/${name}-${run_id.slice(-4)}`, worktree_path: `/home/u/.agency/worktrees/${run_id}`,
      created_at: pick(TIMESTAMPS), tmux_session_name: `agency-${run_id}`,
      flags: { needs_attention: false, setup_failed: false, abandoned: false },
      archive: { archived_at: null, merged_at: null },
    };
    let worktree = true;
    const metaKind = weighted([[8, () => "normal"], [3, () => "broken"], [5, () => "merged"], [4, () => "abandoned"],
      [3, () => "failed"], [5, () => "attention"], [2, () => "not set"], [2, () => "archived"]]);
    const pr = weighted([[6, () => null], [3, () => 100 + Math.floor(random() * 900)], [1, () => pick(["", "draft"])]]);
    if (typeof pr === "number" && chance(0.5)) meta.pr_number = pr;
    switch (metaKind) {
      case "broken":
        meta = pick([null, undefined, "not json", [], 42]);
        break;
      case "merged":
        meta.archive = { archived_at: "2026-01-20T09:00:00Z", merged_at: "2026-01-20T08:59:00Z" };
        worktree = chance(0.7) ? false : true;
        if (chance(0.3)) meta.flags.abandoned = true; // merged wins
        break;
      case "abandoned":
        meta.flags.abandoned = true;
        if (chance(0.3)) meta.flags.needs_attention = true;
        worktree = !chance(0.3);
        break;
      case "failed":
        meta.flags.setup_failed = true;
        if (chance(0.5)) meta.flags.needs_attention = true;
        break;
      case "attention":
        meta.flags.needs_attention = true;
        break;
      case "not set": // look set but are not: only JSON true sets a flag, only a non-empty string merges
        weighted([
          [1, () => { meta.flags = { abandoned: "true", setup_failed: 1, needs_attention: "yes" }; }],
          [1, () => { meta.archive = { merged_at: "" }; }],
          [1, () => { meta.archive = { merged_at: 1768900000000 }; }],
          [1, () => { meta.flags = null; meta.archive = null; }],
          [1, () => { delete meta.flags; delete meta.archive; }],
          [1, () => { meta.flags = ["abandoned"]; meta.archive = "merged"; }],
        ]);
        break;
      case "archived":
        meta.archive.archived_at = "2026-01-21T10:00:00Z";
        worktree = false;
        break;
    }
    // The runner status file and the tmux / watchdog observations.
    const runnerKind = weighted([[40, () => "valid"], [25, () => "invalid"], [30, () => "none"], [5, () => "not an object"]]);
    const runner_status = runnerKind === "valid" ? validStatus()
      : runnerKind === "invalid" ? invalidStatus()
      : runnerKind === "none" ? null
      : pick(["working", ["working"], 3]);
    const tmux = weighted([[65, () => true], [25, () => false], [5, () => undefined], [5, () => null]]);
    const stalled = tmux === true ? chance(0.45) : chance(0.05); // a stale verdict without tmux: not stalled
    const stall_result = weighted([
      [10, () => (stalled ? { is_stalled: true, stalled_duration: chance(0.5) ? pick(STALLS) : 15 * MIN + Math.floor(random() * 8 * 3600_000) } : { is_stalled: false })],
      [1, () => (stalled ? { is_stalled: true } : { is_stalled: null })],
      [1, () => (chance(0.5) ? null : undefined)],
    ]);
    const snapshot = { meta, worktree_present: worktree, tmux_active: tmux, runner_status, stall_result };
    observed?.push({ meta, runner_status: runnerKind === "none" ? undefined : runner_status, tmux, worktree, stall_result });
    if (runnerKind === "invalid" && chance(0.5)) {
      // As build_snapshot leaves it: the document dropped, the report saying why.
      snapshot.runner_status = null;
      snapshot.runner_status_report = { valid: false, errors: [{ code: "E_STATUS_UNKNOWN", path: "/status", message: "..." }], warnings: [] };
    } else if (runnerKind === "valid" && chance(0.5)) {
      snapshot.runner_status_report = { valid: true, errors: [], warnings: [] };
    }
    if (worktree && chance(0.1)) delete snapshot.worktree_present; // default true
    else if (worktree && chance(0.05)) snapshot.worktree_present = null;
    for (const key of Object.keys(snapshot)) if (snapshot[key] === undefined) delete snapshot[key];
    rows.push({ run_id, name, pr, snapshot });
  }
  return rows;
}

/** The clock of the runs made from files (epoch ms): 2026-01-23T10:30:00Z. */
export const FILES_NOW = Date.parse("2026-01-23T10:30:00Z");

/**
 * The runs of `makeRuns` as a viewer reads them: per run `{meta, status, facts}`, meta.json's
 * and runner_status.json's bytes (a Buffer each, as read from the file; null: no file) and the
 * facts `build_snapshot` takes (tmux, the worktree, the status file's modification time). A
 * stalled snapshot's status file was last modified its stall duration ago (others less than
 * the threshold ago); a few files are torn (cut short, as a crashed writer leaves them).
 */
export function makeFileRuns(n = RUNS, seed = SEED) {
  const observed = [];
  makeRuns(n, seed, observed);
  const random = prng(seed ^ 0x0f11e5);
  const torn = (text) => (random() < 0.02 ? text.slice(0, Math.floor(random() * text.length)) : text);
  const bytes = (value, pretty) => {
    if (value === undefined) return null;
    if (value === "not json") return Buffer.from(value);
    return Buffer.from(torn(pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value)));
  };
  return observed.map((o) => {
    const meta = bytes(o.meta, true);
    const status = bytes(o.runner_status, random() < 0.7);
    const facts = {};
    if (o.tmux !== undefined) facts.tmux_active = o.tmux;
    if (!o.worktree || random() < 0.9) facts.worktree_present = o.worktree;
    if (status !== null) {
      const stall = o.stall_result;
      const age = stall?.is_stalled === true ? (stall.stalled_duration ?? 15 * MIN) : Math.floor(random() * 14 * MIN);
      const mod = FILES_NOW - age;
      facts.status_file_mod_time = random() < 0.1 ? new Date(mod).toISOString() : mod;
    }
    return { meta, status, facts };
  });
}

/** statecore over file runs: the files in one buffer, their lengths and facts, one call. */
export function deriveFilesWith(sc, runs, now) {
  const parts = [];
  const specs = new Array(runs.length);
  for (let i = 0; i < runs.length; i++) {
    const { meta, status, facts } = runs[i];
    if (meta !== null) parts.push(meta);
    if (status !== null) parts.push(status);
    specs[i] = {
      meta: meta === null ? null : meta.length,
      status: status === null ? null : status.length,
      status_file_mod_time: facts.status_file_mod_time,
      tmux_active: facts.tmux_active,
      worktree_present: facts.worktree_present,
    };
  }
  return sc.agency.deriveFiles(Buffer.concat(parts), specs, now);
}

/** (8): the viewer's job, a table of runs from their files' bytes, statecore against JSON.parse + the table. */
function filesSection({ sc, quick, out }) {
  log("(8) agency run statuses from the files' bytes of 10,000 runs");
  const runs = makeFileRuns(RUNS);
  const mine = deriveFilesWith(sc, runs, FILES_NOW);
  const theirs = reference.deriveFiles(runs, FILES_NOW);
  const counts = {};
  let errors = 0;
  let bytes = 0;
  for (const [i, m] of mine.entries()) {
    const comparable = { ...m };
    if (m.error !== undefined) {
      comparable.error = m.error.file;
      errors++;
    }
    check(`(8) the reference agrees with statecore on the files of run ${i}`, isDeepStrictEqual(comparable, theirs[i]),
      `\n  meta:      ${runs[i].meta}\n  status:    ${runs[i].status}\n  facts:     ${JSON.stringify(runs[i].facts)}` +
        `\n  statecore: ${JSON.stringify(m)}\n  reference: ${JSON.stringify(theirs[i])}`);
    counts[m.status] = (counts[m.status] ?? 0) + 1;
  }
  for (const r of runs) bytes += (r.meta?.length ?? 0) + (r.status?.length ?? 0);
  const LEVELS = ["broken", "merged", "abandoned", "failed", "needs_attention", "ready_for_review", "needs_input",
    "blocked", "working", "stalled", "active", "idle"];
  for (const level of LEVELS) check(`(8) the file runs cover level ${level}`, (counts[level] ?? 0) > 0);
  check("(8) some files do not read", errors > 0);

  const samples = quick ? 1 : 9;
  const times = { statecore: [], reference: [] };
  const timeOne = (fn) => {
    const t0 = process.hrtime.bigint();
    const all = fn();
    const ns = Number(process.hrtime.bigint() - t0) / runs.length;
    check("(8) every run has a status", all.length === runs.length);
    return ns;
  };
  for (let s = 0; s < samples + 1; s++) {
    const a = timeOne(() => deriveFilesWith(sc, runs, FILES_NOW));
    const b = timeOne(() => reference.deriveFiles(runs, FILES_NOW));
    if (s === 0) continue; // a warm-up round
    times.statecore.push(a);
    times.reference.push(b);
  }
  const row = (name, t, statecore) => ({ name, statecore, median: median(t), min: Math.min(...t), max: Math.max(...t), samples });
  const mix = LEVELS.map((l) => `${l} ${counts[l]}`).join(", ");
  out.push(
    table(
      `Node (8): agency run statuses from the files' bytes of ${RUNS.toLocaleString("en")} runs`,
      `The viewer's job: every run's meta.json and runner_status.json as read (Buffers, ${(bytes / 1e6).toFixed(1)} MB in all; ` +
        `${errors} runs with a file that does not parse, torn or not JSON) and the host's facts (tmux, the worktree, the status ` +
        `file's modification time), to each run's status: ${mix}. statecore: the files joined into one buffer, ` +
        "their lengths and facts, one `agency.deriveFiles(data, runs, now)` call (strict reads: duplicate keys, limits; " +
        "the result says which file did not read). Hand-written: `JSON.parse` of each file (one that throws counts as " +
        "missing), the watchdog and the 12-level table. Time per run, the whole table per sample, interleaved. " +
        `Whole table: statecore ${formatNs(median(times.statecore) * RUNS)}, hand-written ${formatNs(median(times.reference) * RUNS)}. ` +
        `Both agree on all ${RUNS.toLocaleString("en")} runs, and on which file did not read.`,
      [
        row("statecore agency.deriveFiles(data, runs, now), one call", times.statecore, true),
        row("hand-written JS: JSON.parse of the files + the watchdog + the 12-level table (bench/agency_reference.mjs)", times.reference, false),
      ],
      "per run",
    ),
  );
}

export function agencySection({ sc, quick, out }) {
  filesSection({ sc, quick, out });
  log("(8a) agency derive over 10,000 snapshots (objects in)");
  const rows = makeRuns(RUNS);
  const snapshots = rows.map((r) => r.snapshot);
  const derive = sc.agency.derive;
  const refDerive = reference.derive;

  // Agreement on every run (status, display, archived, stalled_duration: the whole output).
  const counts = {};
  let archived = 0;
  let stalledRuns = 0;
  let invalidRunner = 0;
  for (const [i, snapshot] of snapshots.entries()) {
    const mine = derive(snapshot);
    const theirs = refDerive(snapshot);
    check(`(8) the reference agrees with statecore on run ${i}`, isDeepStrictEqual(mine, theirs),
      `\n  snapshot:  ${JSON.stringify(snapshot)}\n  statecore: ${JSON.stringify(mine)}\n  reference: ${JSON.stringify(theirs)}`);
    counts[mine.status] = (counts[mine.status] ?? 0) + 1;
    archived += mine.archived;
    stalledRuns += mine.stalled_duration !== undefined;
    const rs = snapshot.runner_status;
    if (rs != null && !reference.validRunnerStatus(rs)) invalidRunner++;
  }
  // The mix covers every level, archived runs and invalid runner statuses.
  const LEVELS = ["broken", "merged", "abandoned", "failed", "needs_attention", "ready_for_review", "needs_input",
    "blocked", "working", "stalled", "active", "idle"];
  for (const level of LEVELS) check(`(8) the snapshots cover level ${level}`, (counts[level] ?? 0) > 0);
  check("(8) the snapshots cover archived runs", archived > 0 && archived < RUNS);
  check("(8) the snapshots cover invalid runner statuses", invalidRunner > 0);
  // The runner status rules, as statecore's validate sees them, on every document of the mix.
  let documents = 0;
  for (const { runner_status: rs } of snapshots) {
    if (rs === null || rs === undefined || typeof rs !== "object" || Array.isArray(rs)) continue;
    documents++;
    const valid = sc.validate("agency.runner_status", rs).valid;
    check("(8) the reference's runner status rules agree with statecore's validate", valid === reference.validRunnerStatus(rs),
      JSON.stringify(rs));
  }
  // The batch call gives the same results as one call per run.
  check("(8) deriveAll(snapshots) equals derive of each", isDeepStrictEqual(sc.agency.deriveAll(snapshots), snapshots.map((s) => derive(s))));
  // The ls table of all the runs, byte for byte.
  const mineLs = sc.agency.renderLs(rows);
  const theirsLs = reference.renderLs(rows);
  if (mineLs !== theirsLs) {
    const a = mineLs.split("\n");
    const b = theirsLs.split("\n");
    const k = a.findIndex((line, j) => line !== b[j]);
    check("(8) the reference's ls table equals statecore's renderLs", false,
      `at line ${k}:\n  statecore: ${JSON.stringify(a[k])}\n  reference: ${JSON.stringify(b[k])}`);
  }

  // Timing: the whole 10,000 per sample, interleaved.
  const samples = quick ? 1 : 7;
  const times = { derive: [], batch: [], refDerive: [], ls: [], refLs: [] };
  const batchAll = () => {
    const t0 = process.hrtime.bigint();
    const all = sc.agency.deriveAll(snapshots);
    return [Number(process.hrtime.bigint() - t0) / snapshots.length, all.length];
  };
  const deriveAll = (fn) => {
    const t0 = process.hrtime.bigint();
    let n = 0;
    for (let i = 0; i < snapshots.length; i++) n += fn(snapshots[i]).archived ? 1 : 0;
    return [Number(process.hrtime.bigint() - t0) / snapshots.length, n];
  };
  const lsAll = (fn) => {
    const t0 = process.hrtime.bigint();
    const text = fn(rows);
    return [Number(process.hrtime.bigint() - t0) / rows.length, text.length];
  };
  for (let s = 0; s < samples; s++) {
    times.derive.push(deriveAll(derive)[0]);
    times.batch.push(batchAll()[0]);
    times.refDerive.push(deriveAll(refDerive)[0]);
    times.ls.push(lsAll(sc.agency.renderLs)[0]);
    times.refLs.push(lsAll(reference.renderLs)[0]);
  }
  const row = (name, t, statecore) => ({ name, statecore, median: median(t), min: Math.min(...t), max: Math.max(...t), samples });
  const mix = ["broken", "merged", "abandoned", "failed", "needs_attention", "ready_for_review", "needs_input", "blocked",
    "working", "stalled", "active", "idle"].map((l) => `${l} ${counts[l]}`).join(", ");
  out.push(
    table(
      `Node (8a): agency derive over ${RUNS.toLocaleString("en")} snapshot objects (no target)`,
      `${RUNS.toLocaleString("en")} snapshots from a seeded PRNG: ${mix}; ${archived} archived, ` +
        `${invalidRunner} with a runner status that does not validate (wrong case, unknown status, blank summary, ` +
        "no questions / blockers / how_to_test, wrong types, bad updated_at). Time per run: one `derive(snapshot)` " +
        "call each (statecore copies the snapshot across the wasm boundary as JSON and the result back), or one " +
        "`deriveAll(snapshots)` call for all of them (the list crosses once). No target: a call that takes JS objects " +
        "must at least write them out, which alone costs more than the hand-written table (docs/performance.md); " +
        "the viewer's job is row (8), from the files' bytes. " +
        `Whole pass: statecore ${formatNs(median(times.derive) * RUNS)}, hand-written ${formatNs(median(times.refDerive) * RUNS)}. ` +
        `Both agree on all ${RUNS.toLocaleString("en")} runs, and on the validity of all ${documents} runner status documents.`,
      [
        row("statecore agency.derive(snapshot)", times.derive, true),
        row("statecore agency.deriveAll(snapshots), one call", times.batch, true),
        { ...row("hand-written JS 12-level table + runner status rules (bench/agency_reference.mjs)", times.refDerive, false), reference: true },
      ],
      "per run",
    ),
  );
  out.push(
    table(
      `Node (8b): agency ls table of the same ${RUNS.toLocaleString("en")} runs, one call`,
      `\`renderLs(rows)\` over all ${RUNS.toLocaleString("en")} rows \`{run_id, name, pr, snapshot}\` in one call ` +
        `(derive each, SUMMARY cut to 40 characters or "(no activity for 45m)", columns widened to the longest cell); ` +
        `time per run. Whole table (${mineLs.length.toLocaleString("en")} characters, identical on both sides): ` +
        `statecore ${formatNs(median(times.ls) * RUNS)}, hand-written ${formatNs(median(times.refLs) * RUNS)}.`,
      [
        row("statecore agency.renderLs(rows)", times.ls, true),
        row("hand-written JS ls rendering (bench/agency_reference.mjs)", times.refLs, false),
      ],
      "per run",
    ),
  );
}
