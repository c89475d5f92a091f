// The agency host helpers (`statecore-js/agency`, lib/host/agency.cjs; docs/agency.md) on real files:
// the seed's E2E lifecycle (init → run → milestone writes → ls/show), refusals, damaged and
// missing files, the stall watchdog from a file's modification time, the create-only
// CLAUDE.md, and concurrent writers in two processes. Every helper is checked in its sync and
// async form. No test depends on the clock: `now` is always passed and mtimes are set.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { Child, NPM, tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const A = require("../lib/host/agency.cjs");
const { agency, ValidationError } = require("../lib/node.cjs");

const NOW = Date.UTC(2026, 0, 19, 12, 0, 0);
const MIN = 60_000;
const MODES = ["sync", "async"];

/** The helper `name` in `mode`, always returning a Promise (awaiting a sync value is harmless). */
const op = (mode, name) => async (...args) => (mode === "sync" ? A[`${name}Sync`](...args) : A[name](...args));

/** The least meta.json agency reads (schema_version and created_at; docs/agency.md § meta.json). */
const META = { schema_version: "1.0", created_at: "2026-01-19T10:00:00Z", run_id: "20260119-a3f2", name: "auth-fix" };

/** A repository with a worktree and its meta.json kept outside it, as agency does. */
function layout(t) {
  const repo = tempDir(t);
  const worktree = path.join(repo, "worktrees", "auth-fix");
  const meta = path.join(repo, "runs", "20260119-a3f2", "meta.json");
  fs.mkdirSync(path.dirname(meta), { recursive: true });
  fs.writeFileSync(meta, JSON.stringify(META));
  return { repo, worktree, meta, status: A.statusPath(worktree) };
}

/** `ls` and `show` of one run. */
function views(snap, now) {
  const row = { run_id: "20260119-a3f2", name: "auth-fix", pr: 123, snapshot: snap };
  return { derived: agency.derive(snap), ls: agency.renderLs([row]), show: agency.renderShow(row, now) };
}

/** The `ls` data row (the line after the header). */
const lsRow = (ls) => ls.split("\n")[1];

test("the ESM entry, the package self-reference and the .d.ts name the same API", async () => {
  const names = Object.keys(A).sort();
  assert.deepEqual(names, [
    "DEFAULT_STALL_THRESHOLD_MS", "KIND", "loadRunnerStatus", "loadRunnerStatusSync", "readStatus", "readStatusSync",
    "snapshot", "snapshotSync", "statusPath", "updateStatus", "updateStatusSync", "writeInitialRunnerStatus",
    "writeInitialRunnerStatusSync", "writeProtocolDocument", "writeProtocolDocumentSync", "writeRunnerStatus",
    "writeRunnerStatusSync", "writeStatus", "writeStatusSync",
  ]);
  const esm = await import("../lib/generated/agency.mjs");
  assert.deepEqual(Object.keys(esm).filter((k) => k !== "default").sort(), names);
  for (const name of names) assert.equal(esm[name], A[name], name);
  assert.equal(esm.default, A);
  assert.equal(require("statecore-js/agency"), A);
  assert.equal((await import("statecore-js/agency")).snapshot, A.snapshot);
  const dts = ["generated/agency.d.ts", "host/agency-host.d.ts"]
    .map((file) => fs.readFileSync(new URL(`../lib/${file}`, import.meta.url), "utf8"))
    .join("\n");
  const declared = [...new Set([...dts.matchAll(/^export declare (?:function|const) (\w+)/gm)].map((m) => m[1]))];
  assert.deepEqual(declared.sort(), names);
  assert.equal(A.KIND, "agency.runner_status");
  assert.equal(A.DEFAULT_STALL_THRESHOLD_MS, 900_000);
  assert.equal(A.statusPath("/w"), path.join("/w", ".agency", "state", "runner_status.json"));
});

for (const mode of MODES) {
  test(`E2E lifecycle (${mode}): init → run → milestones → ls/show reflect each change`, async (t) => {
    const { repo, worktree, meta, status } = layout(t);
    const writeProtocolDocument = op(mode, "writeProtocolDocument");
    const writeInitialRunnerStatus = op(mode, "writeInitialRunnerStatus");
    const writeRunnerStatus = op(mode, "writeRunnerStatus");
    const loadRunnerStatus = op(mode, "loadRunnerStatus");
    const snapshot = op(mode, "snapshot");

    // init: CLAUDE.md created once; an edited one is never touched again
    const claude = path.join(repo, "CLAUDE.md");
    assert.equal(await writeProtocolDocument(repo), "created");
    assert.equal(fs.readFileSync(claude, "utf8"), agency.protocolDocument());
    assert.deepEqual(fs.readdirSync(repo).sort(), ["CLAUDE.md", "runs"], "no temp file left");
    const edited = Buffer.from("# My rules\n\nkeep this\r\n");
    fs.writeFileSync(claude, edited);
    assert.equal(await writeProtocolDocument(repo), "exists");
    assert.deepEqual(fs.readFileSync(claude), edited);
    assert.deepEqual(fs.readdirSync(repo).sort(), ["CLAUDE.md", "runs"]);

    // before run: no status file, the tmux fallback
    assert.deepEqual(await loadRunnerStatus(worktree), { status: null, report: null });
    fs.mkdirSync(worktree, { recursive: true });
    let snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW });
    assert.equal(snap.runner_status, null);
    assert.equal(snap.stall_result.is_stalled, false);
    assert.equal(views(snap, NOW).derived.status, "active");
    snap = await snapshot(worktree, meta, { now: NOW });
    assert.equal(views(snap, NOW).derived.status, "idle");

    // run: the initial status, `.agency/state/` created
    const run = await writeInitialRunnerStatus(worktree, { now: NOW });
    assert.equal(run.changed, true);
    assert.equal(run.corruptCopy, null);
    assert.deepEqual(run.document, agency.initialRunnerStatus(NOW));
    assert.equal(run.document.status, "working");
    assert.deepEqual(JSON.parse(fs.readFileSync(status, "utf8")), run.document);
    let loaded = await loadRunnerStatus(worktree);
    assert.deepEqual(loaded.status, run.document);
    assert.equal(loaded.report.valid, true);
    snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW + MIN });
    assert.deepEqual(snap.meta, META);
    assert.equal(snap.worktree_present, true);
    let v = views(snap, NOW + MIN);
    assert.equal(v.derived.status, "working");
    assert.match(lsRow(v.ls), /^20260119-a3f2\s+auth-fix\s+working\s+Starting work\s+#123$/);

    // the milestones, each visible in load / snapshot / ls / show
    const milestones = [
      [{ status: "working", summary: "Implementing validation" }, "working", "working"],
      [
        { status: "needs_input", summary: "Which auth library?", questions: ["Passport or Auth.js?", "Sessions?"] },
        "needs_input",
        "needs input",
        ["  questions:", "    - Passport or Auth.js?", "    - Sessions?"],
      ],
      [{ status: "blocked", summary: "Cannot reach the DB", blockers: ["No DATABASE_URL"] }, "blocked", "blocked",
        ["  blockers:", "    - No DATABASE_URL"]],
      [
        { status: "ready_for_review", summary: "Auth done", how_to_test: "npm test", risks: ["token expiry"] },
        "ready_for_review",
        "ready for review",
        ["  how_to_test: npm test", "  risks:", "    - token expiry"],
      ],
    ];
    let at = NOW + MIN;
    for (const [update, runStatus, display, showLines = []] of milestones) {
      at += 5 * MIN;
      const written = await writeRunnerStatus(worktree, update, { now: at, timeout: 5_000 });
      assert.equal(written.changed, true);
      assert.equal(written.document.status, update.status);
      assert.equal(written.document.updated_at, new Date(at).toISOString());
      for (const field of ["questions", "blockers", "risks"]) {
        assert.deepEqual(written.document[field], update[field] ?? [], `${field} cleared unless given`);
      }
      loaded = await loadRunnerStatus(worktree);
      assert.deepEqual(loaded.status, written.document);
      // The file written at `at` (show's `updated:` is its modification time, as agency's).
      fs.utimesSync(status, new Date(at), new Date(at));
      snap = await snapshot(worktree, meta, { tmuxActive: true, now: at + 5 * MIN });
      v = views(snap, at + 5 * MIN);
      assert.equal(v.derived.status, runStatus);
      assert.equal(v.derived.display, display);
      assert.ok(lsRow(v.ls).includes(` ${display} `), v.ls);
      assert.ok(lsRow(v.ls).includes(update.summary), v.ls);
      const show = v.show.split("\n");
      for (const line of ["runner_status:", `  status: ${runStatus}`, "  updated: 5m ago", `  summary: ${update.summary}`,
        ...showLines]) {
        assert.ok(show.includes(line), `show has ${JSON.stringify(line)}:\n${v.show}`);
      }
    }
  });

  test(`an invalid update is refused and leaves the file byte for byte (${mode})`, async (t) => {
    const { worktree, status } = layout(t);
    await op(mode, "writeInitialRunnerStatus")(worktree, { now: NOW });
    const before = fs.readFileSync(status);
    for (const update of [
      { status: "needs_input", summary: "?" }, // questions required
      { status: "blocked", summary: "stuck", blockers: [] }, // blockers must be non-empty
      { status: "done" },
      { summary: "" },
    ]) {
      await assert.rejects(op(mode, "writeRunnerStatus")(worktree, update, { now: NOW + MIN }), (error) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.code, "E_INVALID");
        return true;
      });
      assert.deepEqual(fs.readFileSync(status), before, JSON.stringify(update));
    }
    assert.deepEqual(fs.readdirSync(path.dirname(status)), ["runner_status.json"], "no lock or temp file left");
  });

  test(`unknown fields in the file and in the update are kept (${mode})`, async (t) => {
    const { worktree, status } = layout(t);
    fs.mkdirSync(path.dirname(status), { recursive: true });
    const custom = { ...agency.initialRunnerStatus(NOW), runner: { name: "claude", pid: 42 } };
    fs.writeFileSync(status, `${JSON.stringify(custom).slice(0, -1)},"__proto__":{"polluted":true}}`);
    const written = await op(mode, "writeRunnerStatus")(worktree, { summary: "next", ticket: "AUTH-7" }, { now: NOW });
    assert.deepEqual(written.document.runner, { name: "claude", pid: 42 });
    assert.equal(written.document.ticket, "AUTH-7");
    assert.equal(written.document.status, "working", "status kept when left out");
    const disk = JSON.parse(fs.readFileSync(status, "utf8"));
    assert.deepEqual(disk.runner, { name: "claude", pid: 42 });
    assert.equal(Object.hasOwn(written.document, "__proto__"), true, "a __proto__ key is data");
    assert.equal(Object.getPrototypeOf(written.document), Object.prototype);
    assert.equal(Object.hasOwn(disk, "__proto__"), true);
  });

  test(`an unparseable status file counts as absent and is kept as a .corrupt- copy (${mode})`, async (t) => {
    const { worktree, meta, status } = layout(t);
    fs.mkdirSync(path.dirname(status), { recursive: true });
    const garbage = Buffer.from('{"status": "working", "summary": oops');
    fs.writeFileSync(status, garbage);
    const loaded = await op(mode, "loadRunnerStatus")(worktree);
    assert.equal(loaded.status, null);
    assert.equal(loaded.report.valid, false);
    assert.equal(loaded.report.errors[0].code, "E_PARSE");

    // fresh mtime: no stall, so the tmux fallback decides
    const mtime = Math.floor(fs.statSync(status).mtimeMs);
    let snap = await op(mode, "snapshot")(worktree, meta, { tmuxActive: true, now: mtime });
    assert.equal(snap.runner_status, null);
    assert.equal(snap.runner_status_report.errors[0].code, "E_PARSE");
    assert.equal(agency.derive(snap).status, "active");
    snap = await op(mode, "snapshot")(worktree, meta, { tmuxActive: false, now: mtime });
    assert.equal(agency.derive(snap).status, "idle");

    const written = await op(mode, "writeRunnerStatus")(worktree, { status: "working", summary: "recovered" }, { now: NOW });
    assert.ok(written.corruptCopy, "the damaged bytes were kept");
    assert.match(path.basename(written.corruptCopy), /^runner_status\.json\.corrupt-/);
    assert.deepEqual(fs.readFileSync(written.corruptCopy), garbage);
    assert.equal((await op(mode, "loadRunnerStatus")(worktree)).status.summary, "recovered");
  });

  test(`a FIFO for meta.json is broken and for the status file E_FILE_TYPE, never a wait (${mode})`, { skip: process.platform === "win32" }, async (t) => {
    const { worktree, meta } = layout(t);
    const snapshot = op(mode, "snapshot");
    await op(mode, "writeInitialRunnerStatus")(worktree, { now: NOW });
    fs.rmSync(meta);
    execFileSync("mkfifo", [meta]);
    const snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW });
    assert.equal(snap.meta, null);
    assert.equal(agency.derive(snap).status, "broken");
    const status = A.statusPath(worktree);
    fs.rmSync(status);
    execFileSync("mkfifo", [status]);
    await assert.rejects(snapshot(worktree, null, { now: NOW }), (error) => error.code === "E_FILE_TYPE" && error.message.includes("fifo"));
  });

  test(`meta.json missing, unreadable or not given → broken; worktree gone → archived (${mode})`, async (t) => {
    const { repo, worktree, meta } = layout(t);
    const snapshot = op(mode, "snapshot");
    await op(mode, "writeInitialRunnerStatus")(worktree, { now: NOW });
    for (const metaPath of [path.join(repo, "runs", "nope", "meta.json"), null, path.dirname(meta)]) {
      const snap = await snapshot(worktree, metaPath, { tmuxActive: true, now: NOW });
      assert.equal(snap.meta, null);
      assert.equal(agency.derive(snap).status, "broken", String(metaPath));
    }
    fs.writeFileSync(meta, "{not json");
    assert.equal(agency.derive(await snapshot(worktree, meta, { now: NOW })).status, "broken");

    // the worktree deleted: no status file, the archived marker on whatever level applies
    fs.writeFileSync(meta, JSON.stringify({ ...META, archive: { merged_at: "2026-01-19T13:00:00Z" } }));
    fs.rmSync(worktree, { recursive: true });
    let snap = await snapshot(worktree, meta, { now: NOW });
    assert.equal(snap.worktree_present, false);
    assert.equal(snap.runner_status, null);
    let v = views(snap, NOW);
    assert.deepEqual([v.derived.status, v.derived.display, v.derived.archived], ["merged", "merged (archived)", true]);
    assert.ok(lsRow(v.ls).includes("merged (archived)"), v.ls);
    fs.writeFileSync(meta, JSON.stringify(META));
    snap = await snapshot(worktree, meta, { now: NOW });
    v = views(snap, NOW);
    assert.deepEqual([v.derived.status, v.derived.display], ["idle", "idle (archived)"]);
    assert.ok(v.show.includes("(archived)"), v.show);
    // a meta.json agency would not read (no created_at, a flag of another type) is broken
    for (const broken of [{}, { ...META, created_at: undefined }, { ...META, flags: { abandoned: "yes" } }]) {
      fs.writeFileSync(meta, JSON.stringify(broken));
      v = views(await snapshot(worktree, meta, { now: NOW }), NOW);
      assert.deepEqual([v.derived.status, v.derived.display], ["broken", "broken (archived)"], JSON.stringify(broken));
      assert.ok(v.show.includes("meta: invalid\n"), v.show);
    }
  });

  test(`stall from the status file's mtime: stalled without a valid status, working above it (${mode})`, async (t) => {
    const { worktree, meta, status } = layout(t);
    const snapshot = op(mode, "snapshot");
    const old = (NOW - 45 * MIN) / 1000; // utimes takes seconds
    fs.mkdirSync(path.dirname(status), { recursive: true });
    fs.writeFileSync(status, JSON.stringify({ status: "working" })); // parses, does not validate
    fs.utimesSync(status, old, old);

    let snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW });
    assert.equal(snap.runner_status, null);
    assert.deepEqual(snap.stall_result, { is_stalled: true, stalled_duration: 45 * MIN });
    let v = views(snap, NOW);
    assert.equal(v.derived.status, "stalled");
    assert.equal(v.derived.stalled_duration, 45 * MIN);
    assert.match(lsRow(v.ls), /\sstalled\s+\(no activity for 45m\)\s/);
    // no tmux session: never stalled
    snap = await snapshot(worktree, meta, { tmuxActive: false, now: NOW });
    assert.equal(agency.derive(snap).status, "idle");
    // a threshold above the age: not stalled either
    snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW, thresholdMs: 46 * MIN });
    assert.equal(agency.derive(snap).status, "active");

    // a valid working status with the same old mtime: the seed puts working above stalled
    fs.writeFileSync(status, JSON.stringify(agency.initialRunnerStatus(NOW - 45 * MIN)));
    fs.utimesSync(status, old, old);
    snap = await snapshot(worktree, meta, { tmuxActive: true, now: NOW });
    assert.equal(snap.stall_result.is_stalled, true);
    v = views(snap, NOW);
    assert.equal(v.derived.status, "working");
    assert.ok(lsRow(v.ls).includes("Starting work"), v.ls);
  });

  test(`writeProtocolDocument never follows or replaces what is there (${mode})`, async (t) => {
    const repo = tempDir(t);
    const claude = path.join(repo, "CLAUDE.md");
    fs.symlinkSync(path.join(repo, "elsewhere.md"), claude); // dangling
    assert.equal(await op(mode, "writeProtocolDocument")(repo), "exists");
    assert.equal(fs.existsSync(path.join(repo, "elsewhere.md")), false);
    fs.unlinkSync(claude);
    fs.mkdirSync(claude);
    assert.equal(await op(mode, "writeProtocolDocument")(repo), "exists");
    assert.deepEqual(fs.readdirSync(repo), ["CLAUDE.md"]);
  });

  test(`writeProtocolDocument without hard links falls back to an exclusive create (${mode})`, async (t) => {
    const repo = tempDir(t);
    const refuse = () => {
      throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
    };
    const link = mode === "sync" ? t.mock.method(fs, "linkSync", refuse) : t.mock.method(fsp, "link", async () => refuse());
    assert.equal(await op(mode, "writeProtocolDocument")(repo), "created");
    assert.equal(link.mock.callCount(), 1, "the link was tried and refused");
    assert.equal(fs.readFileSync(path.join(repo, "CLAUDE.md"), "utf8"), agency.protocolDocument());
    assert.deepEqual(fs.readdirSync(repo), ["CLAUDE.md"], "the temp file removed");
    assert.equal(await op(mode, "writeProtocolDocument")(repo), "exists");
  });
}

test("racing writeProtocolDocument calls: exactly one creates, the file is complete", async (t) => {
  const repo = tempDir(t);
  const results = await Promise.all(Array.from({ length: 8 }, () => A.writeProtocolDocument(repo)));
  assert.deepEqual(results.sort(), ["created", ...Array(7).fill("exists")]);
  assert.equal(fs.readFileSync(path.join(repo, "CLAUDE.md"), "utf8"), agency.protocolDocument());
  assert.deepEqual(fs.readdirSync(repo), ["CLAUDE.md"], "every temp file removed");
});

test("concurrent writers: 8 async writes here and sync writes in a child process, none lost", async (t) => {
  const { worktree, status } = layout(t);
  A.writeInitialRunnerStatusSync(worktree, { now: NOW });
  const CHILD_WRITES = 8;
  // the child loads the package, says "ready", and when told "go" (stdin) writes synchronously,
  // one write per event-loop turn
  const script = `
    const A = require(process.argv[1]);
    process.stdin.once("data", () => {
      let i = 0;
      const step = () => {
        A.writeRunnerStatusSync(process.argv[2], { summary: "child " + i, ["child_" + i]: true }, { timeout: 60000 });
        if (++i < ${CHILD_WRITES}) return setImmediate(step);
        console.log("done");
        process.stdin.destroy();
      };
      step();
    });
    console.log("ready");
  `;
  const child = new Child(t, process.execPath, ["-e", script, path.join(NPM, "lib", "host", "agency.cjs"), worktree]);
  await new Promise((resolve, reject) => {
    const check = () => (child.lines.includes("ready") ? resolve() : undefined);
    child.proc.stdout.on("data", check);
    child.exited.then(() => reject(new Error(`child exited before ready: ${child.stderr}`)));
    check();
  });
  const writes = Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      A.writeRunnerStatus(worktree, { summary: `parent ${i}`, [`parent_${i}`]: true }, { timeout: 60_000 }),
    ),
  );
  child.send("go\n");
  const results = await writes;
  const exit = await child.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, child.stderr);
  assert.deepEqual(child.lines, ["ready", "done"]);
  for (const result of results) assert.equal(result.document.status, "working");

  // every write was atomic and read-modify-write under the lock: the file is valid and holds
  // every writer's own field; the lock and temp files are gone
  const { status: final, report } = A.loadRunnerStatusSync(worktree);
  assert.equal(report.valid, true);
  assert.ok(final);
  for (let i = 0; i < 8; i++) assert.equal(final[`parent_${i}`], true, `parent_${i}`);
  for (let i = 0; i < CHILD_WRITES; i++) assert.equal(final[`child_${i}`], true, `child_${i}`);
  assert.match(final.summary, /^(parent|child) \d$/);
  assert.equal(fs.existsSync(`${status}.lock`), false);
  assert.deepEqual(fs.readdirSync(path.dirname(status)), ["runner_status.json"]);
});

test("deriveFiles: a table of runs from the files as read gives what buildSnapshot + derive give each", async (t) => {
  const { worktree, meta } = layout(t);
  await A.writeInitialRunnerStatus(worktree, { now: NOW - 45 * MIN });
  const statusFile = A.statusPath(worktree);
  fs.utimesSync(statusFile, new Date(NOW - 45 * MIN), new Date(NOW - 45 * MIN));
  const torn = Buffer.from('{"schema_version": "1.0", "crea');
  const broken = Buffer.from('{"status": "working", "summary": "x", "status": "blocked"}');
  const metaBytes = fs.readFileSync(meta);
  const statusBytes = fs.readFileSync(statusFile);
  const mtime = Math.floor(fs.statSync(statusFile).mtimeMs);
  const runs = [
    { meta: metaBytes, status: statusBytes, facts: { tmux_active: true, status_file_mod_time: mtime } },
    { meta: metaBytes, status: broken, facts: { tmux_active: true, status_file_mod_time: mtime } },
    { meta: metaBytes, status: null, facts: { tmux_active: false, worktree_present: false } },
    { meta: torn, status: statusBytes, facts: {} },
    { meta: null, status: null, facts: {} },
  ];
  const data = Buffer.concat(runs.flatMap((r) => [r.meta, r.status].filter(Boolean)));
  const specs = runs.map((r) => ({ meta: r.meta?.length ?? null, status: r.status?.length ?? null, ...r.facts }));
  const got = agency.deriveFiles(data, specs, NOW);
  const want = runs.map((r) => agency.derive(agency.buildSnapshot(r.status, r.meta, r.facts, NOW)));
  assert.deepEqual(got.map(({ error, ...rest }) => rest), want);
  assert.deepEqual(got.map((r) => r.status), ["working", "stalled", "idle", "broken", "broken"]);
  assert.deepEqual(got.map((r) => r.error?.file ?? null), [null, "runner_status", null, "meta", null]);
  assert.equal(got[1].error.code, "E_DUPLICATE_KEY");
  assert.throws(() => agency.deriveFiles(data, specs.slice(1), NOW), (e) => e.code === "E_ARGUMENT" && e.path === "");
});
