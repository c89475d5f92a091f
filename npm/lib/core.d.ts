// Types of the pure statecore API (docs/api.md), shared by the Node entry (index.d.ts) and
// the browser entry (web.d.mts). Result objects use snake_case keys, as in every language.

// ---------------------------------------------------------------------------------------
// Values

/** A JSON primitive. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value, as `JSON.parse` returns it. */
export type Json = JsonPrimitive | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };
/** File contents: a string (encoded as UTF-8) or raw bytes (a `Buffer` is a `Uint8Array`). */
export type Bytes = string | Uint8Array;

/**
 * A document kind name (`kinds()` lists them; ARCHITECTURE §2). Any string is accepted by the
 * types; an unknown one is a `UsageError` (`E_KIND`) at run time.
 */
export type DocumentKind = "json" | "agency.runner_status" | (string & {});

// ---------------------------------------------------------------------------------------
// Reports and results

/** One problem in a document: stable `code`, JSON-pointer `path`, a message. */
export interface Issue {
  code: string;
  path: string;
  message: string;
}

/** A validation report: `valid` is true when `errors` is empty (warnings never invalidate). */
export interface Report {
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/** An entry of `kinds()`. */
export interface KindInfo {
  name: DocumentKind;
  description: string;
}

/** The documented limits (`limits()`). */
export interface Limits {
  /** Maximum nesting depth (`[]` has depth 1). */
  max_depth: number;
  /** Maximum size of a document's text, in bytes. */
  max_document_bytes: number;
  /** Maximum length of one string (key or value), in UTF-8 bytes. */
  max_string_bytes: number;
}

/** A merge strategy: top-level replace, recursive object merge, or RFC 7396 merge patch. */
export type MergeStrategy = "shallow" | "deep" | "merge_patch";

/** A per-path array rule of shallow and deep merges. */
export interface MergeRule {
  /** JSON pointer; a `*` segment matches any key or index. */
  path: string;
  mode: "append" | "replace" | "by_key";
  /** The identifying field for `by_key`. */
  key?: string;
}

/** Sets a top-level timestamp field after merging. */
export interface MergeStamp {
  field: string;
  /** RFC 3339 text (stored as given) or epoch milliseconds. */
  now: string | number;
}

/** Merge options; `null`/omitted = deep merge, no rules, no stamp. */
export interface MergeOptions {
  strategy?: MergeStrategy;
  rules?: MergeRule[];
  stamp?: MergeStamp;
}

/** What a reader makes of a file (`loadDocument`). */
export interface LoadResult<D = Json> {
  /** The document, or the kind's default when the file is missing or unparseable. */
  document: D;
  /** The etag of the file's bytes; null for a missing file. */
  etag: string | null;
  /** True when the bytes were not JSON (a writer keeps a copy before replacing them). */
  corrupt: boolean;
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/** A document ready to write (`prepareDocument`). */
export interface PreparedDocument {
  /** Canonical text to write. */
  text: string;
  /** Its etag. */
  etag: string;
  warnings: Issue[];
}

/** The pure update step (`applyUpdate`, `finishUpdate`). */
export interface UpdateResult<D = Json> {
  /** The new document. */
  document: D;
  /** Its canonical text. */
  text: string;
  /** Its etag. */
  etag: string;
  /** False when the new text equals the file's bytes (no write needed). */
  changed: boolean;
  /** True when the old bytes were not JSON (keep a `.corrupt-` copy first). */
  corrupt: boolean;
  warnings: Issue[];
}

/** A parsed JSONL log (`parseLog`). */
export interface Log<R = Json> {
  records: R[];
  /** The torn last line (1-based line, byte offset where it starts), or null. */
  torn: { line: number; offset: number } | null;
  /** True when the last record has no trailing newline (an appender writes one first). */
  needs_newline: boolean;
}

// ---------------------------------------------------------------------------------------
// State machines (docs/machine.md)

/** A guard comparison operator. */
export type GuardOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "exists" | "absent" | "in";

/** A condition over the context document, as data. */
export type Guard =
  | { path: string; op: GuardOp; value?: Json }
  | { all: Guard[] }
  | { any: Guard[] }
  | { not: Guard };

/** A state of a machine. */
export interface MachineState {
  name: string;
  description?: string;
  terminal?: boolean;
}

/** A transition rule; the first whose `from`, `event` and guard match wins. */
export interface MachineTransition {
  /** Source states, or `"*"` for every state. */
  from: string[] | "*";
  event: string;
  /** Target state, or `"$previous"`. */
  to: string;
  guard?: Guard;
  /** Fires by itself on entering a `from` state. */
  auto?: boolean;
  /** Delay of an automatic transition (0 = at once). */
  after_ms?: number;
}

/** A machine definition. */
export interface MachineDefinition {
  name: string;
  initial: string;
  states: MachineState[];
  transitions: MachineTransition[];
}

/** Where an instance is: `{state, previous}`, or just the state name. */
export type MachineInstance = string | { state: string; previous?: string | null };

/** A legal event from a state. */
export interface MachineEvent {
  event: string;
  to: string;
  auto: boolean;
}

/** One transition taken. */
export interface MachineStep {
  from: string;
  event: string;
  to: string;
}

/** A delayed automatic transition the host fires after `after_ms`. */
export interface ScheduledTransition {
  event: string;
  to: string;
  after_ms: number;
}

/** The outcome of `machine.fire`. */
export interface FireResult {
  state: string;
  previous: string | null;
  /** False when the event led to the current state. */
  changed: boolean;
  steps: MachineStep[];
  scheduled: ScheduledTransition[];
}

// ---------------------------------------------------------------------------------------
// Functions (docs/api.md). Object-API results are checked: a number a JS number cannot hold
// exactly is a `DataError` (`E_PRECISION`); the text API (`canonical`, `mergeText`) keeps it.

/** Parses JSON text (strict: duplicate keys, lone surrogates and limits are errors). */
export declare function parse<T = Json>(data: Bytes): T;
/** Parses JSON text and returns its canonical text, numbers exact. */
export declare function canonical(data: Bytes): string;
/** Canonical text: 2-space indent, `\n`, trailing newline. */
export declare function serialize(value: unknown): string;
/** Merges `patch` into `doc` (deep merge by default). */
export declare function merge<T = Json>(doc: unknown, patch: unknown, options?: MergeOptions | null): T;
/** `merge` over JSON text, returning canonical text (numbers exact). */
export declare function mergeText(docText: Bytes, patchText: Bytes, options?: MergeOptions | null): string;
/** Validates a document of a kind; problems are data, not exceptions. */
export declare function validate(kind: DocumentKind, doc: unknown): Report;
/** `validate` over JSON text. */
export declare function validateText(kind: DocumentKind, data: Bytes): Report;
/** Every document kind. */
export declare function kinds(): KindInfo[];
/** The document a reader gets for a missing file of this kind. */
export declare function defaultDocument<T = Json>(kind: DocumentKind): T;
/**
 * The JSON Schema (draft 2020-12) of a document kind, generated from the core's Rust types.
 * It states structure (fields, types, enums, required fields); `validate` also checks the
 * cross-field rules. Throws `UsageError` with code `E_KIND` for an unknown kind or one without a schema.
 */
export declare function schema(kind: DocumentKind): Record<string, Json>;
/** The documented limits. */
export declare function limits(): Limits;
/** The etag of a file's bytes: 32 hex digits. */
export declare function etag(data: Bytes): string;
/** What a reader makes of a file's bytes (`null` = missing file). */
export declare function loadDocument<D = Json>(kind: DocumentKind, data: Bytes | null | undefined): LoadResult<D>;
/** Validates and serializes a document for writing; `ValidationError` when invalid. */
export declare function prepareDocument(kind: DocumentKind, doc: unknown): PreparedDocument;
/** The pure read-merge-validate step over a file's bytes. */
export declare function applyUpdate<D = Json>(
  kind: DocumentKind,
  data: Bytes | null | undefined,
  patch: unknown,
  options?: MergeOptions | null,
  ifMatch?: string | null,
): UpdateResult<D>;
/** The update step for a document the host produced from the loaded one. */
export declare function finishUpdate<D = Json>(
  kind: DocumentKind,
  data: Bytes | null | undefined,
  doc: unknown,
  ifMatch?: string | null,
): UpdateResult<D>;
/** Throws `ConflictError` unless `ifMatch` is absent or equals `current`. */
export declare function checkIfMatch(current: string | null | undefined, ifMatch?: string | null): void;
/** Parses a JSONL log. */
export declare function parseLog<R = Json>(data: Bytes): Log<R>;
/** One JSONL line: compact JSON + `\n`. */
export declare function logLine(value: unknown): string;
/** Epoch milliseconds of an RFC 3339 timestamp. */
export declare function parseTimestamp(text: string): number;
/** RFC 3339 UTC text with milliseconds of epoch milliseconds. */
export declare function formatTimestamp(millis: number): string;

/** The generic state-machine engine. */
export declare const machine: {
  /** Checks a definition: a report (a malformed one throws `UsageError` `E_MACHINE`). */
  check(definition: MachineDefinition): Report;
  /** The legal events from `state` given a context document. */
  events(definition: MachineDefinition, state: string, context?: unknown): MachineEvent[];
  /** Fires an event; `TransitionError` when it is not legal. */
  fire(definition: MachineDefinition, instance: MachineInstance, event: string, context?: unknown): FireResult;
  /** The Mermaid `stateDiagram-v2` text. */
  diagram(definition: MachineDefinition): string;
};

// ---------------------------------------------------------------------------------------
// fctry (docs/fctry.md)

/** A host-supplied time: RFC 3339 text or epoch milliseconds; omitted = the host clock. */
export type Now = string | number;

/** The outcome of `fctry.checkPrerequisites`. */
export interface PrerequisiteCheck {
  ok: boolean;
  agent: string;
  command: string | null;
  /** Unmet requirements; each inner list is satisfied by any one of its steps. */
  missing: string[][];
  /** The seed's numbered "Workflow error" text, or null when nothing is missing. */
  message: string | null;
  /** The three numbered choices (empty when nothing is missing). */
  options: string[];
}

/** An untracked change: a file write outside fctry commands. */
export interface UntrackedChange {
  file: string;
  section?: string | null;
  sectionNumber?: string | null;
  timestamp?: string | null;
  [field: string]: unknown;
}

/** The fctry workflow operations: each returns the new state (lastUpdated stamped). */
export declare const fctry: {
  startCommand<S = any>(state: S | null, command: "init" | "evolve" | "ref" | "review" | "execute", now?: Now): S;
  startStep<S = any>(state: S | null, step: string, now?: Now): S;
  completeStep<S = any>(state: S | null, step: string, output?: { summary: string; [field: string]: unknown } | null, now?: Now): S;
  checkPrerequisites(state: unknown, agent: string, command?: string | null): PrerequisiteCheck;
  skipPrerequisites<S = any>(state: S | null, agent: string, command?: string | null, now?: Now): S;
  addUntrackedChange<S = any>(state: S | null, change: UntrackedChange, now?: Now): S;
  clearUntrackedChanges<S = any>(state: S | null, sections?: string[] | null, now?: Now): S;
  /** The inbox item lifecycle as a machine definition. */
  inboxMachine(): MachineDefinition;
  /** Adds an item first (`now` and `random` default to the host's clock and randomness). */
  inboxAdd(inbox: InboxItem[] | null, type: "evolve" | "reference" | "feature", content: string, now?: Now, random?: string): InboxItem[];
  inboxTransition(inbox: InboxItem[] | null, id: string, event: "start" | "complete" | "fail" | "incorporate" | "retry"): InboxItem[];
  inboxDismiss(inbox: InboxItem[] | null, id: string): InboxItem[];
  inboxBatch(inbox: InboxItem[] | null, event: "start" | "complete" | "fail" | "incorporate" | "retry"): InboxItem[];
  /** The chunk lifecycle as a machine definition (guards read `{retriesLeft}`). */
  chunkMachine(): MachineDefinition;
  /** The build run lifecycle as a machine definition. */
  runMachine(): MachineDefinition;
  createBuildRun<S = any>(state: S | null, plan: BuildPlan, now?: Now): S;
  chunkEvent<S = any>(state: S, id: number, event: "start" | "complete" | "fail", now?: Now): S;
  readyChunks(state: unknown): number[];
  dagLayers(state: unknown): { layers: number[][]; unplaced: number[] };
  pauseBuildRun<S = any>(state: S, question: unknown, now?: Now): S;
  resumeBuildRun<S = any>(state: S, now?: Now): S;
  finishBuildRun<S = any>(state: S, now?: Now): S;
  resumePlan(state: unknown, currentSpecVersion?: string | null): ResumePlan;
  /** What a status line shows. */
  statusLine(state: unknown): StatusLineSummary;
  /** One line of text from a summary (`color` adds ANSI colours). */
  renderStatusLine(summary: StatusLineSummary, options?: { color?: boolean } | null): string;
  /** The rendered line straight from the state file's bytes (null: no file). */
  statusLineText(data: Bytes | null, options?: { color?: boolean } | null): string;
  /** Event lists merged oldest first; entries without a valid timestamp are listed in `invalid`. */
  activityFeed<E = any>(sources: E[][]): { events: E[]; invalid: { source: number; index: number }[] };
  /** The context health indicator. */
  contextHealth(state: unknown, events?: unknown[] | null): { isolation: string; lastCheckpoint: string | null };
};

// ---------------------------------------------------------------------------------------
// hivemind (docs/hivemind.md)

/** The workflow's states (the seed's 15 and `blocked`). */
export type HivemindStateName =
  | "idle"
  | "project_selected"
  | "planning"
  | "plan_review"
  | "plan_revision"
  | "executing"
  | "checkpoint"
  | "checkpoint_review"
  | "checkpoint_fix"
  | "friction_logged"
  | "friction_sync"
  | "friction_resolution"
  | "complete"
  | "error"
  | "paused"
  | "blocked";

/** The agents. */
export type HivemindAgent = "lead" | "reviewer" | "worker1" | "worker2";

/** The events of the machine (`hivemind.machine()`); the host fires the ones not caused by files. */
export type HivemindEvent =
  | "select_project"
  | "give_task"
  | "plan_written"
  | "plan_approved"
  | "plan_feedback"
  | "plan_updated"
  | "checkpoint_reached"
  | "worker_crashed"
  | "review_checkpoint"
  | "approve_continue"
  | "approve_complete"
  | "approve_friction"
  | "checkpoint_issues"
  | "fixes_applied"
  | "friction_found"
  | "sync_friction"
  | "start_resolution"
  | "friction_resolved"
  | "new_task"
  | "retry"
  | "abandon"
  | "pause"
  | "resume"
  | "block"
  | "user_input";

/** The `hivemind.state` document (`workspace/state.json`); unknown fields are kept. */
export interface HivemindState {
  state: HivemindStateName;
  previous_state?: HivemindStateName | null;
  active_agents?: HivemindAgent[] | null;
  /** RFC 3339: when the last transition happened. */
  timestamp?: string | null;
  project?: string | null;
  current_checkpoint?: number | null;
  total_checkpoints?: number | null;
  friction_count?: number | null;
  error?: string | null;
  [field: string]: unknown;
}

/** One transition taken. */
export interface HivemindTransition {
  from: HivemindStateName;
  event: HivemindEvent;
  to: HivemindStateName;
}

/** A context message to send to an agent (its terminal). */
export interface HivemindNotification {
  agent: HivemindAgent;
  message: string;
}

/** An automatic follow-up to fire after `after_ms` (`hivemind.followUp`). */
export interface HivemindScheduled {
  event: HivemindEvent;
  to: HivemindStateName;
  after_ms: number;
}

/** What every workflow step returns (the core's outcome). */
export interface HivemindOutcome<S = HivemindState> {
  /** The new document (the old one when nothing changed). */
  state: S;
  /** False when nothing changed (then nothing was written). */
  changed: boolean;
  transitions: HivemindTransition[];
  notifications: HivemindNotification[];
  scheduled: HivemindScheduled[];
  /** Why nothing happened (a file that triggers nothing, a stale follow-up), or null. */
  ignored: string | null;
  /** Problems with a trigger file's content (`W_DECISION_MISSING`, `W_CHECKPOINTS_INVALID`, ...). */
  problems: Issue[];
}

/** The Hivemind workflow: pure functions over `workspace/state.json`'s document. */
export declare const hivemind: {
  /** The workflow as a machine definition (for `machine.*`). */
  machine(): MachineDefinition;
  /** Its Mermaid `stateDiagram-v2` text. */
  diagram(): string;
  /** Each agent's mode in a state. */
  agents(state: HivemindStateName): Record<HivemindAgent, "active" | "reading" | "idle">;
  /** The message agents get on entering a state, or null. */
  contextMessage(state: HivemindStateName): string | null;
  /** Fires a host event (`details`: `{project}` for `select_project`, `{error}` for `worker_crashed`). */
  fire(state: HivemindState | null, event: HivemindEvent, now?: Now, details?: { project?: string; error?: string } | null): HivemindOutcome;
  /** Fires a scheduled follow-up if it still applies. */
  followUp(state: HivemindState | null, event: "review_checkpoint" | "sync_friction", now?: Now): HivemindOutcome;
  /** What a file created or changed under `workspace/` does (`content`: its text, null if unreadable). */
  onFile(state: HivemindState | null, path: string, content: string | null, now?: Now): HivemindOutcome;
};

// ---------------------------------------------------------------------------------------
// agency (docs/agency.md)

/** The four runner statuses (case-sensitive). */
export type RunnerStatusName = "working" | "needs_input" | "blocked" | "ready_for_review";

/** The `agency.runner_status` document (`.agency/state/runner_status.json`); unknown fields are kept. */
export interface RunnerStatus {
  schema_version: string;
  status: RunnerStatusName;
  updated_at: string;
  summary: string;
  questions: string[];
  blockers: string[];
  how_to_test: string;
  risks: string[];
  [extra: string]: unknown;
}

/** A runner's milestone update: `status`/`summary` kept when left out, the details cleared. */
export interface RunnerStatusUpdate {
  status?: RunnerStatusName;
  summary?: string;
  questions?: string[];
  blockers?: string[];
  how_to_test?: string;
  risks?: string[];
  [extra: string]: unknown;
}

/** What a reader makes of the status file: none (`status: null`) when missing or invalid. */
export interface RunnerStatusParse {
  status: RunnerStatus | null;
  /** Null for a missing file; why a file counts as absent otherwise. */
  report: Report | null;
}

/** The watchdog's signals: the status file's modification time (null: no file) and tmux. */
export interface ActivitySignals {
  status_file_mod_time?: Now | null;
  tmux_session_exists?: boolean;
}

/** The watchdog's verdict; `stalled_duration` (ms) only when stalled. */
export interface StallResult {
  is_stalled: boolean;
  stalled_duration?: number;
}

/** What the host observed of a run, for `agency.derive`. */
export interface RunSnapshot {
  /** meta.json's object; null or absent when it is missing or unreadable (`broken`). */
  meta?: Record<string, unknown> | null;
  /** Default true; false adds the `archived` marker. */
  worktree_present?: boolean;
  tmux_active?: boolean;
  /** The status document; one that does not validate counts as absent. */
  runner_status?: Record<string, unknown> | null;
  runner_status_report?: Report | null;
  stall_result?: StallResult | null;
}

/** The facts a host adds to a worktree's files for `agency.buildSnapshot`. */
export interface SnapshotFacts {
  status_file_mod_time?: Now | null;
  tmux_active?: boolean;
  worktree_present?: boolean;
}

/** The 12 derived run statuses, in precedence order. */
export type RunStatusName =
  | "broken" | "merged" | "abandoned" | "failed" | "needs_attention" | "ready_for_review"
  | "needs_input" | "blocked" | "working" | "stalled" | "active" | "idle";

/** The derived run status: machine value, display string (`"merged (archived)"`), marker. */
export interface DerivedStatus {
  status: RunStatusName;
  display: string;
  archived: boolean;
  /** Milliseconds, only when `status` is `stalled`. */
  stalled_duration?: number;
}

/** One run for `agency.renderLs` / `agency.renderShow`. */
export interface RunRow {
  run_id?: string | null;
  name?: string | null;
  /** A number `n` shows as `#n`; a string as it is. */
  pr?: number | string | null;
  snapshot: RunSnapshot;
}

/** The agency runner status contract and watchdog: pure functions. */
export declare const agency: {
  /** The seed's initial runner status, stamped with `now`. */
  initialRunnerStatus(now?: Now): RunnerStatus;
  /** A runner's milestone write on the current document (null: none); throws `ValidationError` if invalid. */
  updateRunnerStatus(current: Record<string, unknown> | null, update: RunnerStatusUpdate, now?: Now): RunnerStatus;
  /** What a reader makes of the status file's bytes (null: no file). */
  parseRunnerStatus(data: string | Uint8Array | null): RunnerStatusParse;
  /** Milliseconds since `updated_at` (0 when it is in the future). */
  age(status: Record<string, unknown>, now?: Now): number;
  /** The stall watchdog (threshold default 15 minutes, inclusive). */
  checkStall(signals: ActivitySignals, now?: Now, thresholdMs?: number | null): StallResult;
  /** A run's snapshot from its files' bytes (null: missing) and the host's facts. */
  buildSnapshot(
    statusData: string | Uint8Array | null,
    metaData: string | Uint8Array | null,
    facts?: SnapshotFacts,
    now?: Now,
    thresholdMs?: number | null,
  ): Required<RunSnapshot>;
  /** The 12-level run status of a snapshot. */
  derive(snapshot: RunSnapshot): DerivedStatus;
  /** The `ls` table (RUN_ID NAME STATUS SUMMARY PR). */
  renderLs(rows: RunRow[]): string;
  /** The `show` output of one run with its `runner_status:` section. */
  renderShow(run: RunRow, now?: Now): string;
  /** The runner protocol document (`CLAUDE.md`). */
  protocolDocument(): string;
};

/** The summary `fctry.statusLine` returns. */
export interface StatusLineSummary {
  specVersion: string | null;
  section: string | null;
  sectionNumber: string | null;
  command: string | null;
  step: string | null;
  chunks: { completed: number; total: number; active: number; retrying: number; failed: number; blocked: number } | null;
  scenarios: { satisfied: number; total: number } | null;
  readiness: { aligned: number; total: number } | null;
  build: string | null;
  untracked: number;
  nextStep: string | null;
}

/** An approved build plan. */
export interface BuildPlan {
  chunks: { id: number; name?: string; sections?: string[]; scenarios?: string[]; dependsOn?: number[] }[];
  priorities?: string[];
  prioritySource?: "global" | "project" | "user-prompt";
  specVersion?: string;
  maxRetries?: number;
  convergencePhase?: string;
}

/** The resume protocol's answer. */
export interface ResumePlan {
  offer: boolean;
  completed: number[];
  remaining: number[];
  next: number[];
  changed: { id: number; name: string | null; specVersionAtBuild: string; sections: string[] }[];
  options: string[];
}

/** An item of `.fctry/inbox.json`. */
export interface InboxItem {
  id: string;
  type: "evolve" | "reference" | "feature";
  content: string;
  timestamp: string;
  status: "pending" | "processing" | "processed" | "error" | "incorporated";
  [field: string]: unknown;
}

// ---------------------------------------------------------------------------------------
// Errors (docs/api.md § Errors)

/** The record the core reports an error as. */
export interface ErrorRecord {
  name?: string;
  code: string;
  path?: string;
  message?: string;
  details?: unknown;
}

/** Fields of a new error. */
export interface ErrorFields {
  code?: string;
  path?: string;
  details?: any;
  cause?: unknown;
}

/** Base class of every statecore error. */
export declare class StatecoreError extends Error {
  constructor(message: string, fields?: ErrorFields);
  /** Stable code, e.g. `"E_PARSE"`. */
  code: string;
  /** JSON pointer to the offending place (`""` = the whole value). */
  path: string;
  /** Structured details. */
  details: any;
}
/** `E_PARSE`, `E_DUPLICATE_KEY`. */
export declare class ParseError extends StatecoreError {}
/** `E_LIMIT`. */
export declare class LimitError extends StatecoreError {}
/** `E_VALUE`, `E_PRECISION`. */
export declare class DataError extends StatecoreError {}
/** `E_KIND`, `E_OPTIONS`, `E_MACHINE`. */
export declare class UsageError extends StatecoreError {}
/** `E_MERGE`. */
export declare class MergeError extends StatecoreError {}
/** `E_TIMESTAMP`. */
export declare class TimestampError extends StatecoreError {}
/** `E_INVALID`; `details` is the report. */
export declare class ValidationError extends StatecoreError {}
/** `E_TRANSITION`. */
export declare class TransitionError extends StatecoreError {}
/** `E_LOG_CORRUPT`. */
export declare class LogCorruptError extends StatecoreError {}
/** `E_CONFLICT`. */
export declare class ConflictError extends StatecoreError {}
/** `E_LOCK_TIMEOUT` (host layer). */
export declare class LockTimeoutError extends StatecoreError {}

/** The error object for a record: class by `name`, else by `code`, else `StatecoreError`. */
export declare function errorFromRecord(record: ErrorRecord): StatecoreError;
