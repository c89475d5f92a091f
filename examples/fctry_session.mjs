// One step of the scripted fctry session (examples/fctry_session.sh), as a Node agent process.
// Every write is one locked read-modify-write of .fctry/state.json: a `statecore/fctry` helper
// (one call per milestone), or updateDocumentSync with several pure fctry operations when an
// agent writes more in the same update. Events go to JSONL logs under .fctry/events/
// (appendLineSync). The same
// actions exist in fctry_session.py, so the session can switch language at any step.
// Usage: node fctry_session.mjs PROJECT ACTION ARGS...; prints a short note (or a block).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  fctry, validate, updateDocumentSync, readDocumentSync, appendLineSync, readLogSync,
} from "../npm/lib/node.mjs";
import * as files from "../npm/lib/generated/fctry.mjs";

const [project, action, ...args] = process.argv.slice(2);
const stateFile = join(project, ".fctry", "state.json");
const logFile = (source) => join(project, ".fctry", "events", `${source}.jsonl`);
const fields = (text) => (text ? JSON.parse(text) : {});
const read = () => readDocumentSync(stateFile, "fctry.state").document;
const update = (apply) => updateDocumentSync(stateFile, "fctry.state", apply).document;
const chunkOf = (state, id) => state.buildRun.chunks.find((c) => c.id === id);
const fail = (message) => {
  console.error(`fctry_session.mjs ${action}: ${message}`);
  process.exit(1);
};

function record(source, event) {
  const report = validate("fctry.event", event);
  if (!report.valid) fail(`invalid event: ${JSON.stringify(report.errors)}`);
  appendLineSync(logFile(source), event);
}

const actions = {
  // /fctry:<name>: step 0 of the command.
  command: ([name]) => files.startCommandSync(project, name),
  // An agent starts / completes its step (FIELDS: other seed fields the agent writes).
  start: ([step, extra]) => update((s) => ({ ...fctry.startStep(s, step), ...fields(extra) })),
  complete: ([step, summary, extra]) =>
    update((s) => ({ ...fctry.completeStep(s, step, { summary }), ...fields(extra) })),
  // Prerequisites: prints "ok" or the Workflow error; EXPECT (ok | missing) must hold.
  check: ([agent, command, expect]) => {
    const result = files.checkPrerequisitesSync(project, agent, command);
    if (result.ok !== (expect === "ok")) fail(`expected ${expect}, got ${JSON.stringify(result)}`);
    console.log(result.ok ? "prerequisites met" : result.message);
  },
  // The user chose "(2) Skip".
  skip: ([agent, command]) => {
    const state = files.skipPrerequisitesSync(project, agent, command).document;
    const skip = (state.skippedPrerequisites ?? []).at(-1);
    if (skip?.agent !== agent) fail("the skip was not recorded");
    console.log("skip recorded");
  },
  // The approved plan: executor-plan done, build run created, executor-build started.
  plan: ([file]) => {
    const plan = JSON.parse(readFileSync(file, "utf8"));
    const state = update((s) => {
      s = fctry.createBuildRun(s, plan);
      const layers = fctry.dagLayers(s).layers.map((l) => `[${l.join(",")}]`).join(" ");
      s = fctry.completeStep(s, "executor-plan", { summary: `layers ${layers}` });
      return fctry.startStep(s, "executor-build");
    });
    console.log(state.agentOutputs["executor-plan"].summary);
  },
  // A chunk event (start | complete | fail); a completion or failure is a lifecycle event.
  chunk: ([id, event]) => {
    const state = files.chunkEventSync(project, Number(id), event).document;
    const chunk = chunkOf(state, Number(id));
    const attempt = chunk.status === "retrying" ? `, attempt ${chunk.attempt}` : "";
    if (event !== "start") {
      record("lifecycle", {
        kind: `chunk-${chunk.status}`, chunk: `Chunk ${chunk.id}: ${chunk.name}`,
        timestamp: state.lastUpdated, summary: `${chunk.status}${attempt}`,
      });
    }
    // The note: the attempt a start or a retry begins; nothing for a completion.
    if (event === "start") console.log(`attempt ${chunk.attempt}`);
    else if (event === "fail") console.log(`${chunk.status}${attempt}`);
  },
  // The Observer's verification of a chunk (CHECKS: [{name, result}]).
  verify: ([id, checks]) => {
    const list = JSON.parse(checks);
    const passed = list.filter((c) => c.result === "pass").length;
    const chunk = chunkOf(read(), Number(id));
    record("verification", {
      kind: passed === list.length ? "chunk-verified" : "verification-failed",
      chunk: `Chunk ${chunk.id}: ${chunk.name}`, timestamp: new Date().toISOString(),
      summary: `${passed}/${list.length} checks passed`, checks: list, mode: "full",
    });
    console.log(`${passed}/${list.length} passed`);
  },
  // A file write outside fctry commands.
  edit: ([file, section, sectionNumber, extra]) =>
    update((s) => ({ ...fctry.addUntrackedChange(s, { file, section, sectionNumber }), ...fields(extra) })),
  // The Executor re-entering: what the resume protocol offers.
  resume: ([specVersion]) => {
    const state = read();
    const plan = fctry.resumePlan(state, specVersion);
    if (!plan.offer) fail(`no resume offered: ${JSON.stringify(plan)}`);
    const edited = new Set((state.untrackedChanges ?? []).map((c) => c.section?.replace(/^#/, "")));
    console.log(`${state.buildRun.runId} was interrupted: completed ${plan.completed.join(", ")}; ` +
      `remaining ${plan.remaining.join(", ")}; next ${plan.next.join(", ")}`);
    for (const c of plan.changed) {
      const touched = c.sections.filter((s) => edited.has(s.replace(/^#/, "")));
      console.log(`chunk ${c.id} (${c.name}) built against v${c.specVersionAtBuild}, spec now v${specVersion}: ` +
        (touched.length ? `${touched.join(", ")} edited → FLAGGED: rebuild or keep?` : `${c.sections.join(", ")} unchanged`));
    }
    console.log(plan.options.join("  "));
  },
  // The build is done: buildRun cleared (or kept as partial), executor-build completed.
  finish: ([summary, extra]) => {
    const state = update((s) => ({
      ...fctry.completeStep(fctry.finishBuildRun(s), "executor-build", { summary }), ...fields(extra),
    }));
    console.log(state.buildRun === null ? "buildRun cleared" : `run ${state.buildRun.status}`);
  },
  // The activity feed: lifecycle and verification events, oldest first.
  feed: () => {
    const sources = ["lifecycle", "verification"].map((s) => readLogSync(logFile(s)).records);
    const { events, invalid } = fctry.activityFeed(sources);
    if (invalid.length) fail(`events without a valid timestamp: ${JSON.stringify(invalid)}`);
    for (const e of events) {
      console.log(`${e.timestamp.slice(11, 23)}  ${e.kind.padEnd(19)} ${e.chunk.padEnd(26)} ${e.summary}`);
    }
  },
};

if (!(action in actions)) fail("unknown action");
actions[action](args);
