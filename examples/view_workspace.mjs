// A workspace with every protocol the viewer shows, written through the npm package's own
// helpers (locked, atomic, validated): a fctry project mid-build (spec, registry, inbox, event
// logs), a Hivemind team executing, two agency runs (data directory and worktrees), a hive
// session with workers, and a specify workflow with gaps. Used by `make demo`
// (examples/view_demo.mjs) and the viewer's browser test (npm/test/browser/viewer.mjs).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as agency from "../npm/lib/generated/agency.mjs";
import * as fctry from "../npm/lib/generated/fctry.mjs";
import * as hive from "../npm/lib/generated/hive.mjs";
import * as hivemind from "../npm/lib/generated/hivemind.mjs";
import * as specify from "../npm/lib/generated/specify.mjs";
import { fctry as pure } from "../npm/lib/node.mjs";

const NOW = "2026-02-17T14:00:00Z";

const SPEC = `---
title: Shop
spec-version: 1.3
---
# Shop

## 1. Overview {#overview}
A small shop whose agents keep their state in statecore files.

## 2. Flows {#flows}

### 2.1 Browse {#browse}
Visitors browse the catalogue.

### 2.2 Core Flow {#core-flow}
Checkout: cart, address, payment, receipt. **Being written now.**

### 2.3 Returns {#returns}
A return within 30 days.

## 3. Spec Viewer {#spec-viewer}
The viewer follows the active section live.
`;

const PLAN = {
  specVersion: "1.3",
  prioritySource: "project",
  priorities: ["correctness", "speed"],
  maxRetries: 2,
  convergencePhase: "core",
  chunks: [
    { id: 1, name: "Cart model", sections: ["#core-flow"], scenarios: ["Cart survives a reload"], dependsOn: [] },
    { id: 2, name: "Address form", sections: ["#core-flow"], scenarios: [], dependsOn: [1] },
    { id: 3, name: "Payment", sections: ["#core-flow"], scenarios: ["Card declined"], dependsOn: [1] },
    { id: 4, name: "Receipt email", sections: ["#core-flow"], scenarios: [], dependsOn: [2, 3] },
  ],
};

/** Writes a JSONL file of `records`. */
function jsonl(path, records) {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, records.map((r) => JSON.stringify(r) + "\n").join(""));
}

/** The fctry project `shop/`: a build with one chunk done, one active, one retrying. */
async function fctryProject(dir) {
  const shop = join(dir, "shop");
  mkdirSync(join(shop, ".fctry"), { recursive: true });
  writeFileSync(join(shop, ".fctry", "spec.md"), SPEC);
  writeFileSync(join(shop, ".fctry", "config.json"), JSON.stringify({ versions: { spec: { current: "1.3" } } }, null, 2) + "\n");
  await fctry.startCommand(shop, "execute", { now: NOW });
  await fctry.updateState(shop, (s) => {
    let state = pure.createBuildRun(s, PLAN, NOW);
    state = pure.chunkEvent(state, 1, "start", NOW);
    state = pure.chunkEvent(state, 1, "complete", "2026-02-17T14:10:00Z");
    state = pure.chunkEvent(state, 2, "start", "2026-02-17T14:11:00Z");
    state = pure.chunkEvent(state, 3, "start", "2026-02-17T14:11:00Z");
    state = pure.chunkEvent(state, 3, "fail", "2026-02-17T14:20:00Z");
    return {
      ...state,
      workflowStep: "executor-build",
      activeSection: "#core-flow",
      activeSectionNumber: "2.2",
      specVersion: "1.3",
      nextStep: "Review the payment chunk's retry",
      scenarioScore: { satisfied: 5, total: 8 },
    };
  });
  await fctry.inboxAdd(shop, "evolve", "Make checkout one page", { now: NOW, random: "ab12cd" });
  await fctry.inboxAdd(shop, "reference", "https://example.com/checkout-patterns", { now: "2026-02-17T14:05:00Z", random: "cd34ef" });
  jsonl(join(shop, ".fctry", "events", "lifecycle.jsonl"), [
    { kind: "chunk-started", chunk: "Chunk 1: Cart model", timestamp: "2026-02-17T14:00:00Z", summary: "Cart model started" },
    { kind: "chunk-completed", chunk: "Chunk 1: Cart model", timestamp: "2026-02-17T14:10:00Z", summary: "Cart model done" },
    { kind: "chunk-started", chunk: "Chunk 3: Payment", timestamp: "2026-02-17T14:11:00Z", summary: "Payment started" },
  ]);
  jsonl(join(shop, ".fctry", "events", "verification.jsonl"), [
    { kind: "chunk-verified", chunk: "Chunk 1: Cart model", timestamp: "2026-02-17T14:10:30Z", summary: "4/4 checks passed", mode: "full" },
  ]);
  jsonl(join(shop, ".fctry", "events", "context.jsonl"), [
    { kind: "context-boundary", chunk: "Chunk 3: Payment", timestamp: "2026-02-17T14:11:00Z", summary: "Payment in a fresh subagent", isolation: "subagent" },
    { kind: "context-checkpointed", chunk: "Chunk 1: Cart model", timestamp: "2026-02-17T14:10:05Z", summary: "Checkpoint after the cart" },
  ]);
  return shop;
}

/** The Hivemind team `team/`: a plan approved, workers executing. */
async function hivemindProject(dir) {
  const team = join(dir, "team");
  mkdirSync(join(team, "workspace"), { recursive: true });
  await hivemind.fire(team, "select_project", { project: "shop" }, { now: NOW });
  await hivemind.fire(team, "give_task", null, { now: NOW });
  await hivemind.onFile(team, "workspace/plan.md", "# Plan\n", { now: NOW });
  await hivemind.onFile(team, "workspace/plan-approved.md", "ok\n", { now: NOW });
  return team;
}

/** agency: a data directory with two runs, each with its worktree's status file. */
async function agencyRuns(dir) {
  const data = join(dir, "agency-data");
  const runs = [
    ["20260217-a3f2", "checkout-page", { status: "needs_input", summary: "Which payment provider?", questions: ["Stripe or Adyen?"] }],
    ["20260216-e7f3", "receipt-email", { status: "working", summary: "Writing the email template" }],
  ];
  for (const [id, name, status] of runs) {
    const worktree = join(dir, "worktrees", id);
    const meta = {
      schema_version: "1.0",
      run_id: id,
      repo_id: "shop",
      name,
      created_at: `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T09:00:00Z`,
      worktree_path: worktree,
      flags: {},
      archive: { merged_at: null },
    };
    mkdirSync(join(data, "repos", "shop", "runs", id), { recursive: true });
    writeFileSync(join(data, "repos", "shop", "runs", id, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
    await agency.writeInitialRunnerStatus(worktree);
    await agency.writeRunnerStatus(worktree, status);
  }
  return data;
}

/** A hive session `sessions/auth-client` with three workers. */
async function hiveSession(dir) {
  const sessions = join(dir, "sessions");
  await hive.createSessionDir(sessions, "auth-client", "an API client with OAuth", { now: NOW });
  const session = join(sessions, "auth-client");
  await hive.changePhase(session, "planning", { now: NOW });
  const workers = [
    { name: "researcher", task: "Compare OAuth libraries" },
    { name: "writer", task: "Write the client" },
    { name: "tester", task: "Test the token refresh" },
  ];
  await hive.planWorkers(session, workers, "three domains", { now: NOW });
  await hive.changePhase(session, "spawning", { now: NOW });
  for (const { name } of workers) {
    await hive.recordSpawnAttempt(session, name, { now: NOW });
    await hive.spawnWorker(session, name, { now: NOW });
  }
  await hive.changePhase(session, "executing", { now: NOW });
  await hive.recordProgress(session, "writer", { metrics: { files_created: 3, tokens_estimated: 12000 } }, { now: "2026-02-17T14:05:00Z" });
  await hive.completeWorker(session, "researcher", { notes: "Auth.js chosen" }, null, { now: "2026-02-17T14:06:00Z" });
  return session;
}

/** A specify workflow `specs/login` with gaps found by validation. */
async function specifyWorkflow(dir) {
  const feature = join(dir, "specs", "login");
  await specify.start(feature, { now: NOW });
  await specify.applyStateUpdates(feature, { priority_loop_state: { loop_status: "spec_writing" } }, { now: NOW });
  await specify.applyStateUpdates(feature, { priority_loop_state: { loop_status: "validating" } }, { now: NOW });
  await specify.addGaps(
    feature,
    [
      { priority: "Critical", chk_source: "CHK015", fr_reference: "FR-003", question: "What does a failed login show?" },
      { priority: "Important", chk_source: "CHK022", fr_reference: "FR-007", question: "Session timeout?" },
    ],
    { now: NOW },
  );
  return feature;
}

/** Writes the whole workspace under `dir`; returns where each part is. */
export async function buildWorkspace(dir) {
  return {
    shop: await fctryProject(dir),
    team: await hivemindProject(dir),
    agencyData: await agencyRuns(dir),
    session: await hiveSession(dir),
    feature: await specifyWorkflow(dir),
  };
}
