// Type-checks every export of "statecore" (tsc --noEmit -p tsconfig.json). Never executed.
// A CommonJS-format file: `import` here compiles to `require("statecore-js")`. Each
// `@ts-expect-error` line must fail to type-check (tsc reports an unused directive otherwise):
// misspelt kinds, strategies, events and options are compile errors.
import {
  parse, canonical, serialize, merge, mergeText, validate, validateText, kinds, defaultDocument, schema,
  limits, etag, loadDocument, prepareDocument, applyUpdate, finishUpdate, checkIfMatch, parseLog,
  logLine, parseTimestamp, formatTimestamp, manifest, checkOptions, updateFile, queryFile,
  machine, fctry, hivemind, agency, errorFromRecord, openDocument, residentDocument, Document,
  StatecoreError, ParseError, LimitError, DataError, UsageError, MergeError, TimestampError,
  ValidationError, TransitionError, LogCorruptError, ConflictError, LockTimeoutError,
  // host layer (lib/host/host.d.ts)
  readDocument, readDocumentSync, updateDocument, updateDocumentSync, appendLine, appendLineSync,
  readLog, readLogSync, acquireLock, acquireLockSync, LOCK_LEASE_MS, LOCK_GRACE_MS,
  DEFAULT_TIMEOUT_MS, watch,
} from "statecore-js";
import type {
  Json, JsonObject, Bytes, DocumentKind, Issue, Report, KindInfo, Limits, MergeOptions,
  LoadResult, PreparedDocument, UpdateResult, Log, MachineDefinition, MachineEvent, FireResult,
  PrerequisiteCheck, InboxItem, ResumePlan, StatusLineSummary, FctryProject, MachineInstance, Guard, ErrorRecord,
  Lock, FctryState, FctryInbox, HivemindState, HivemindOutcome, RunnerStatus, RunnerStatusParse,
  FileResult, HelperOptions, FileUpdate, ResidentDocument, DocumentChange, WatchChange, Watcher,
} from "statecore-js";
import * as fh from "statecore-js/fctry";
import * as hm from "statecore-js/hivemind";
import type { HivemindWatcher } from "statecore-js/hivemind";
import * as ag from "statecore-js/agency";
import type { AgencySnapshotOptions } from "statecore-js/agency";

export async function usage(): Promise<void> {
  const data: Bytes = new Uint8Array([123, 125]);
  const doc: Json = parse("{}");
  const text: string = canonical(data) + serialize({ a: [1, null] }) + serialize(doc);
  const opts: MergeOptions = {
    strategy: "deep",
    rules: [{ path: "/steps", mode: "by_key", key: "id" }],
    stamp: { field: "lastUpdated", now: 0 },
  };
  const merged: Json = merge(doc, { a: 1 }, opts);
  // @ts-expect-error: a misspelt strategy does not type-check
  merge({}, {}, { strategy: "deeep" });
  // @ts-expect-error: a misspelt option does not type-check
  merge({}, {}, { strateg: "deep" });
  const mergedText: string = mergeText("{}", new Uint8Array(), null);
  const report: Report = validate("json", merged);
  // @ts-expect-error: a misspelt kind does not type-check
  validate("fctry.stat", {});
  const issues: Issue[] = validateText("agency.runner_status", "{}").errors;
  const list: KindInfo[] = kinds();
  const kind: DocumentKind = list[0]?.name ?? "json";
  const dflt: Json = defaultDocument("json");
  const emptyState: FctryState = defaultDocument("fctry.state");
  const noStatus: RunnerStatus | null = defaultDocument("agency.runner_status");
  const jsonSchema: { [key: string]: Json } = schema("fctry.state");
  void [jsonSchema.title, emptyState, noStatus];
  const lim: Limits = limits();
  const tag: string = etag("{}");
  const loaded: LoadResult<FctryState> = loadDocument("fctry.state", null);
  const step: string | null | undefined = loaded.document.workflowStep;
  const inboxLoaded: FctryInbox = loadDocument("fctry.inbox", "[]").document;
  const prepared: PreparedDocument = prepareDocument(kind, loaded.document);
  const updated: UpdateResult<JsonObject> = applyUpdate("json", "{}", { a: 1 }, { strategy: "shallow" }, tag);
  const finished: UpdateResult<HivemindState> = finishUpdate("hivemind.state", undefined, { state: "idle" });
  checkIfMatch(null, undefined);
  checkIfMatch(updated.etag, finished.etag);
  const log: Log = parseLog("{\"type\":\"x\"}\n");
  const line: string = logLine(log.records[0]);
  const ms: number = parseTimestamp("2026-01-19T12:00:00Z");
  const ts: string = formatTimestamp(ms + lim.max_depth);
  const table = manifest();
  void [table, step, inboxLoaded];
  try {
    checkOptions("update", { timout: 1 }, true);
  } catch (e) {
    if (e instanceof UsageError) void e.code;
  }
  const fileUpdate: FileUpdate<FctryState> = updateFile("fctry.state", "fctry_start_step", null, ["interviewer"], { now: 0 });
  const queried: Json = queryFile("fctry.state", "fctry_status_line", "{}", []);
  void [fileUpdate.text, queried];

  const guard: Guard = { all: [{ path: "/attempt", op: "lt", value: 3 }, { not: { path: "/x", op: "exists" } }] };
  const def: MachineDefinition = {
    name: "chunk",
    initial: "planned",
    states: [{ name: "planned" }, { name: "active", terminal: true, description: "working" }],
    transitions: [{ from: ["planned"], event: "start", to: "active", guard, auto: false, after_ms: 0 }],
  };
  const checked: Report = machine.check(def);
  const events: MachineEvent[] = machine.events(def, "planned", { attempt: 1 });
  const instance: MachineInstance = { state: "planned", previous: null };
  const fired: FireResult = machine.fire(def, instance, "start");
  const fired2: FireResult = machine.fire(def, "planned", events[0]?.event ?? "start", {});
  const diagram: string = machine.diagram(def);
  let state: FctryState = fctry.startCommand(null, "evolve", "2026-02-12T15:23:45Z");
  // @ts-expect-error: a misspelt command does not type-check
  fctry.startCommand(null, "evolv");
  state = fctry.startStep(state, "state-owner-scan");
  state = fctry.completeStep(state, "state-owner-scan", { summary: "scanned" }, Date.now());
  const check: PrerequisiteCheck = fctry.checkPrerequisites(state, "spec-writer", "evolve");
  const why: string | null = check.message;
  state = fctry.skipPrerequisites(state, "spec-writer", "evolve");
  state = fctry.addUntrackedChange(state, { file: "src/a.js", section: "#core-flow" });
  state = fctry.clearUntrackedChanges(state, ["core-flow"]);
  void why;
  let inbox: InboxItem[] = fctry.inboxAdd(null, "evolve", "Make onboarding faster");
  inbox = fctry.inboxTransition(inbox, inbox[0]?.id ?? "", "start");
  inbox = fctry.inboxBatch(fctry.inboxDismiss(inbox, "nope"), "incorporate");
  inbox = fctry.inboxAdd(inbox, "feature", "x", 0, new Uint8Array(32));
  const inboxDiagram: string = machine.diagram(fctry.inboxMachine());
  void inboxDiagram;
  let run = fctry.createBuildRun({}, { chunks: [{ id: 1, name: "A" }, { id: 2, dependsOn: [1] }], specVersion: "2.4" });
  run = fctry.chunkEvent(fctry.chunkEvent(run, 1, "start"), 1, "complete");
  const next: number[] = fctry.readyChunks(run);
  const layers: number[][] = fctry.dagLayers(run).layers;
  const plan: ResumePlan = fctry.resumePlan(fctry.resumeBuildRun(fctry.pauseBuildRun(run, "why?")), "2.5");
  const summary: StatusLineSummary = fctry.statusLine(run);
  const project: FctryProject = { name: "demo", state: "{}", gitHead: "ref: refs/heads/main\n", session: null };
  const projectSummary: StatusLineSummary = fctry.projectStatus(project);
  const statusText: string =
    fctry.renderStatusLine(summary, { color: true }) +
    fctry.statusLineText(null) +
    fctry.projectStatusText(project, { layout: "two-rows", icons: true }) +
    String(projectSummary.context);
  const feed = fctry.activityFeed([[{ kind: "chunk-verified", timestamp: "2026-02-17T14:32:05Z" }], []]);
  const health: { isolation: string; lastCheckpoint: string | null } = fctry.contextHealth(run, feed.events);
  void [next, layers, plan, statusText, health, fctry.finishBuildRun, machine.diagram(fctry.chunkMachine()), fctry.runMachine()];

  const record: ErrorRecord = { name: "ParseError", code: "E_PARSE", path: "", message: "m", details: {} };
  const err: StatecoreError = errorFromRecord(record);
  const classes: Array<typeof StatecoreError> = [
    ParseError, LimitError, DataError, UsageError, MergeError, TimestampError, ValidationError,
    TransitionError, LogCorruptError, ConflictError, LockTimeoutError,
  ];
  try {
    parse("{");
  } catch (e) {
    if (e instanceof ParseError) {
      const fields: [string, string, unknown] = [e.code, e.path, e.details];
      void fields;
    }
  }
  const custom = new StatecoreError("x", { code: "E_X", path: "/a", details: { n: 1 } });

  // host layer
  const hostOptions: HelperOptions = { ifMatch: null, now: 0, timeout: 5_000 };
  const read = readDocumentSync("/tmp/x.json", "fctry.state");
  const readAsync = await readDocument("/tmp/x.json", "json");
  const upd: FileResult<JsonObject> = updateDocumentSync("/tmp/x.json", "json", { a: 1 }, opts, { ifMatch: read.etag });
  const upd2 = await updateDocument("/tmp/x.json", "fctry.state", (d) => ({ ...d, specVersion: "y" }), null, hostOptions);
  // @ts-expect-error: a misspelt host option does not type-check
  updateDocumentSync("/tmp/x.json", "json", { a: 1 }, null, { timout: 100 });
  await appendLine("/tmp/x.jsonl", { type: "x" });
  appendLineSync("/tmp/x.jsonl", { type: "y" }, { timeout: DEFAULT_TIMEOUT_MS });
  const logged = readLogSync("/tmp/x.jsonl");
  const logged2 = await readLog("/tmp/x.jsonl");
  const lock: Lock = acquireLockSync("/tmp/x.json", LOCK_GRACE_MS);
  lock.release();
  (await acquireLock("/tmp/x.json", LOCK_LEASE_MS)).release();

  // fctry helpers over a project directory (lib/generated/fctry.d.ts)
  const dir = "/tmp/project";
  const statePath: string = fh.statePath(dir) + fh.inboxPath(dir);
  const st: FctryState = fh.readStateSync(dir).document;
  const stAsync = await fh.readState(dir);
  const ib: InboxItem[] = fh.readInboxSync(dir).document.concat((await fh.readInbox(dir)).document);
  const us = fh.updateStateSync(dir, (s) => ({ ...s, specVersion: "x" }), hostOptions);
  const us2 = await fh.updateState(dir, { specVersion: "1.2" }, { now: 0 });
  const ws = fh.writeStateSync(dir, { specVersion: "1.0" });
  let w: FileResult<FctryState> = fh.startCommandSync(dir, "evolve", hostOptions);
  w = await fh.startCommand(dir, "init");
  w = fh.startStepSync(dir, "interviewer", { timeout: 1 });
  w = await fh.startStep(dir, "interviewer");
  w = fh.completeStepSync(dir, "interviewer", { summary: "done" }, hostOptions);
  w = await fh.completeStep(dir, "interviewer", null, hostOptions);
  w = fh.skipPrerequisitesSync(dir, "spec-writer", "evolve", hostOptions);
  w = await fh.skipPrerequisites(dir, "spec-writer", null);
  w = fh.addUntrackedChangeSync(dir, { file: "src/a.js", section: "#core-flow" }, hostOptions);
  w = await fh.addUntrackedChange(dir, { file: "src/b.js" });
  w = fh.clearUntrackedChangesSync(dir, ["core-flow"], hostOptions);
  w = await fh.clearUntrackedChanges(dir);
  w = fh.createBuildRunSync(dir, { chunks: [{ id: 1 }] }, hostOptions);
  w = await fh.createBuildRun(dir, { chunks: [{ id: 1, dependsOn: [] }], specVersion: "2" });
  w = fh.chunkEventSync(dir, 1, "start", hostOptions);
  w = await fh.chunkEvent(dir, 1, "complete");
  w = fh.pauseBuildRunSync(dir, "why?", hostOptions);
  w = await fh.pauseBuildRun(dir, { text: "why?" });
  w = fh.resumeBuildRunSync(dir, hostOptions);
  w = await fh.resumeBuildRun(dir);
  w = fh.finishBuildRunSync(dir, hostOptions);
  w = await fh.finishBuildRun(dir, { now: 0 });
  const added = fh.inboxAddSync(dir, "feature", "dark mode", { random: "abc123", ...hostOptions });
  const addedItem: InboxItem = (await fh.inboxAdd(dir, "evolve", "x")).item;
  let ibw: FileResult<FctryInbox> = fh.inboxTransitionSync(dir, added.item.id, "start", hostOptions);
  ibw = await fh.inboxTransition(dir, addedItem.id, "retry");
  ibw = fh.inboxDismissSync(dir, addedItem.id);
  ibw = await fh.inboxDismiss(dir, addedItem.id, hostOptions);
  ibw = fh.inboxBatchSync(dir, "incorporate");
  ibw = await fh.inboxBatch(dir, "start", { timeout: 1 });
  const pre: PrerequisiteCheck = fh.checkPrerequisitesSync(dir, "interviewer", "evolve");
  const pre2: PrerequisiteCheck = await fh.checkPrerequisites(dir, "executor");
  const sl: StatusLineSummary = fh.statusLineSync(dir);
  const sl2: StatusLineSummary = await fh.statusLine(dir);
  const rp: ResumePlan = fh.resumePlanSync(dir, "2.5");
  const rp2: ResumePlan = await fh.resumePlan(dir);
  const rc: number[] = fh.readyChunksSync(dir).concat(await fh.readyChunks(dir));
  const dl = fh.dagLayersSync(dir).layers;
  const ch = (await fh.contextHealth(dir, [])).isolation;
  void [statePath, st.specVersion, stAsync.etag, ib, us.document.specVersion, us2.corruptCopy, ws.changed, w.changed,
    ibw.document[0]?.status, pre, pre2, sl, sl2, rp, rp2, rc, dl, ch];

  // the pure agency namespace (lib/generated/core.d.ts)
  const started: RunnerStatus = agency.initialRunnerStatus("2026-01-19T12:00:00Z");
  const asked = agency.updateRunnerStatus(started, { status: "needs_input", summary: "?", questions: ["Which?"] });
  const statusRead: RunnerStatusParse = agency.parseRunnerStatus(JSON.stringify(asked));
  const stall = agency.checkStall({ status_file_mod_time: 0, tmux_session_exists: true }, 900_000, null);
  const snap = agency.buildSnapshot(null, "{}", { tmux_active: true }, 0);
  const derived = agency.derive(snap);
  const runStatus: "stalled" | "idle" | string = derived.status;
  const table2: string = agency.renderLs([{ run_id: "r1", name: "n", pr: 1, snapshot: snap }]);
  const shown: string = agency.renderShow({ snapshot: snap }, Date.now());
  void [statusRead.status?.questions, statusRead.report?.valid, stall.stalled_duration, runStatus, table2, shown,
    agency.age(asked), agency.protocolDocument(), derived.archived];
  // the pure hivemind namespace (lib/generated/core.d.ts)
  const moved: HivemindOutcome = hivemind.onFile(null, "workspace/plan.md", "Checkpoints: 2", 0);
  const nextState: string = moved.state.state;
  const paused = hivemind.fire(moved.state, "pause", "2026-01-23T10:30:00Z");
  // @ts-expect-error: a misspelt event does not type-check
  hivemind.fire(moved.state, "pauze");
  const later = hivemind.followUp(paused.state, "review_checkpoint");
  const mode: "active" | "reading" | "idle" = hivemind.agents("executing").worker1;
  const said: string | null = hivemind.contextMessage("plan_review");
  void [nextState, later.ignored, mode, said, hivemind.diagram(), hivemind.machine().states, moved.notifications[0]?.agent];
  // hivemind helpers and the workspace watcher (lib/generated/hivemind.d.ts)
  const hp: string = hm.statePath(dir);
  const hs: HivemindState = hm.readStateSync(dir).document;
  const hsEtag: string | null = (await hm.readState(dir)).etag;
  let ho: FileResult<HivemindState, HivemindOutcome> = hm.fireSync(dir, "select_project", { project: dir }, { now: 0, timeout: 1_000 });
  ho = await hm.fire(dir, "give_task");
  ho = await hm.onFile(dir, "workspace/plan.md", "Checkpoints: 2");
  ho = hm.followUpSync(dir, "review_checkpoint", hostOptions);
  const hw = hm.writeStateSync(dir, { ...ho.document, project: "p" }, { timeout: 1, ifMatch: null });
  const hw2 = await hm.writeState(dir, hs);
  const watcher: HivemindWatcher = hm.watchWorkspace(
    dir,
    {
      onStateChanged: (s, outcome) => void [s.current_checkpoint, outcome.transitions[0]?.to],
      onNotify: (agent, message, s) => void [agent === "worker1", message.length, s.state],
      onIgnored: (path, reason) => void [path?.length, reason.length],
      onProblem: (problem, path) => void [problem.code, path],
      onError: (error) => void error,
    },
    { debounceMs: 100, now: () => Date.now(), timeout: 5_000 },
  );
  await watcher.ready;
  const resumed: HivemindOutcome | null = await watcher.fire("resume", { details: null });
  await watcher.close();
  void [hp, hsEtag, ho.result.scheduled[0]?.after_ms, ho.result.ignored, ho.result.problems, hw.etag, hw2.changed,
    resumed?.state.state];
  // agency host helpers over a worktree (lib/generated/agency.d.ts)
  const agKind: "agency.runner_status" = ag.KIND;
  const agThreshold: number = ag.DEFAULT_STALL_THRESHOLD_MS;
  const agPath: string = ag.statusPath(dir);
  let agW: FileResult<RunnerStatus | null> = ag.writeInitialRunnerStatusSync(dir, hostOptions);
  agW = await ag.writeInitialRunnerStatus(dir);
  agW = ag.writeRunnerStatusSync(dir, { status: "needs_input", summary: "?", questions: ["Which?"] }, hostOptions);
  agW = await ag.writeRunnerStatus(dir, { status: "blocked", summary: "x", blockers: ["y"], extra: 1 }, { now: 0 });
  const agStatus: RunnerStatus | null = agW.document;
  const agRead: RunnerStatusParse = ag.loadRunnerStatusSync(dir);
  const agRead2: RunnerStatus | null = (await ag.loadRunnerStatus(dir)).status;
  const agSo: AgencySnapshotOptions = { tmuxActive: true, now: Date.now(), thresholdMs: agThreshold };
  const agSnap = ag.snapshotSync(dir, "/tmp/meta.json", agSo);
  const agSnap2 = await ag.snapshot(dir, null);
  const agDerived: string = agency.derive(agSnap).display + agency.renderLs([{ run_id: "r", snapshot: agSnap2 }]);
  const agDoc: "created" | "exists" = ag.writeProtocolDocumentSync(dir);
  const agDoc2: "created" | "exists" = await ag.writeProtocolDocument(dir);
  void [agKind, agPath, agW.corruptCopy, agStatus?.updated_at, agRead.report?.errors, agRead2?.questions,
    agSnap.stall_result?.is_stalled, agDerived, agDoc, agDoc2];

  // Resident documents: the kind's methods, typed from the table.
  const opened: LoadResult<ResidentDocument<"hivemind.state">> = openDocument("hivemind.state", null);
  const hdoc = opened.document;
  const onFile: HivemindOutcome["notifications"] = hdoc.onFile("workspace/plan.md", null, 0).result.notifications;
  // @ts-expect-error: the outcome's state stays resident, it is not in the result
  void hdoc.fire("give_task").result.state;
  // @ts-expect-error: a fctry writer is not a method of a hivemind document
  hdoc.startStep("interviewer");
  const fdoc = residentDocument("fctry.state", {});
  const fstarted: DocumentChange = fdoc.startCommand("init", 0);
  const fstate: FctryState = fdoc.toJSON();
  const fsummary: StatusLineSummary = fdoc.statusLine();
  const fadded: InboxItem = residentDocument("fctry.inbox", []).inboxAdd("feature", "x", 0, "abc123").item;
  const isDoc: boolean = fdoc instanceof Document;
  void [onFile, fstarted, fstate, fsummary, fadded, isDoc, fdoc.get("/currentCommand"), fdoc.text()];

  void [text, mergedText, report, issues, dflt, prepared, line, ts, checked, fired, fired2,
    diagram, err, classes, custom, readAsync, upd, upd2, logged, logged2];
}

/** `watch`: the change's type, the options checked by name. */
export async function watching(): Promise<void> {
  const w: Watcher = watch(".", null, (change: WatchChange) => {
    const records: Json[] | null = change.records;
    const where: number | null = change.errors[0]?.line ?? null;
    void [records, where, change.document, change.exists];
  }, { debounceMs: 10, initial: false, onError: (e: unknown) => void e });
  await w.ready;
  await w.close();
  watch(".fctry/state.json", "fctry.state", () => {});
  // @ts-expect-error: a misspelt kind
  watch(".fctry/state.json", "fctry.stat", () => {});
  // @ts-expect-error: a misspelt option
  watch(".", null, () => {}, { debounce: 10 });
}

/** `statecore-js/store`: both stores, one interface. */
import { FileStore, PostgresStore } from "statecore-js/store";
import type { StoreAppend } from "statecore-js/store";
export async function stores(): Promise<void> {
  const files = new FileStore("/tmp/x");
  const pg = await PostgresStore.connect({ connectionString: "postgresql:///db", max: 2 });
  for (const store of [files, pg]) {
    const r = await store.update("p/.fctry/state.json", "fctry.state", (doc: FctryState) => ({ ...doc, specVersion: "2" }));
    const state: FctryState = r.document;
    const read = await store.read("p/.fctry/state.json", "fctry.state");
    void [state, read.etag];
    // @ts-expect-error: a misspelt kind
    await store.read("x", "fctry.stat");
  }
  const appended: StoreAppend = await pg.append("s/EVENTS.jsonl", "hive.event", {}, { id: "a" });
  void appended;
  await pg.close();
}
