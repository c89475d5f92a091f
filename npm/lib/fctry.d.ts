// Types of `statecore/fctry` (npm/lib/fctry.cjs): the fctry protocol over a project's
// `.fctry/state.json` and `.fctry/inbox.json`. Writers hold the file's lock across
// read-operation-validate-write and create `.fctry/` when it is missing; errors of the core
// (`UsageError`, `TransitionError`, `ValidationError`, `LockTimeoutError`, ...) propagate and
// leave the file untouched.
import type { ReadDocumentResult, UpdateDocumentResult } from "./host";
import type {
  BuildPlan,
  InboxItem,
  Now,
  PrerequisiteCheck,
  ResumePlan,
  StatusLineSummary,
  UntrackedChange,
} from "./core";

/** Options of every writer. */
export interface FctryOptions {
  /** The time the operation stamps: RFC 3339 text or epoch ms (default: the clock). */
  now?: Now;
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
  /** Require the file's current etag (null = the file must not exist); else `ConflictError`. */
  ifMatch?: string | null;
}

/** Options of `inboxAdd`. */
export interface InboxAddOptions extends FctryOptions {
  /** The id's 6 lowercase base36 characters (default: from the platform's random source). */
  random?: string;
}

/** What `inboxAdd` returns: the update's result and the new item (also `document[0]`). */
export interface InboxAddResult extends UpdateDocumentResult<InboxItem[]> {
  item: InboxItem;
}

/** The fctry command names. */
export type FctryCommand = "init" | "evolve" | "ref" | "review" | "execute";
/** An agent's output: needs a `summary`. */
export type StepOutput = { summary: string; [field: string]: unknown };
/** The inbox item events. */
export type InboxEvent = "start" | "complete" | "fail" | "incorporate" | "retry";
/** The chunk events. */
export type ChunkEvent = "start" | "complete" | "fail";

type Result<S> = Promise<UpdateDocumentResult<S>>;
type InboxResult = Promise<UpdateDocumentResult<InboxItem[]>>;

/** `<projectDir>/.fctry/state.json`. */
export declare function statePath(projectDir: string): string;
/** `<projectDir>/.fctry/inbox.json`. */
export declare function inboxPath(projectDir: string): string;

/**
 * Reads the state (never writes): a missing file is `{}` with etag null and no warning; an
 * unparseable one is `{}` with `corrupt: true` and a `W_UNPARSEABLE` warning.
 */
export declare function readState<S = any>(projectDir: string): Promise<ReadDocumentResult<S>>;
/** Synchronous `readState`. */
export declare function readStateSync<S = any>(projectDir: string): ReadDocumentResult<S>;
/** Reads the inbox (never writes): missing = `[]`; unparseable = `[]` + `W_UNPARSEABLE`. */
export declare function readInbox(projectDir: string): Promise<ReadDocumentResult<InboxItem[]>>;
/** Synchronous `readInbox`. */
export declare function readInboxSync(projectDir: string): ReadDocumentResult<InboxItem[]>;

/**
 * Locked update of the state. A patch object replaces top-level fields (shallow merge) and
 * stamps `lastUpdated` with `options.now` or the clock; a function gets the current state and
 * returns the new one (or a Promise of it; nothing is stamped). An unparseable file is kept as
 * `<file>.corrupt-<timestamp>` (`corruptCopy`) before being replaced.
 */
export declare function updateState<S = any>(
  projectDir: string,
  patchOrFunction: Record<string, unknown> | ((state: S) => S | void | Promise<S | void>),
  options?: FctryOptions,
): Result<S>;
/** Synchronous `updateState` (the function must not return a Promise). */
export declare function updateStateSync<S = any>(
  projectDir: string,
  patchOrFunction: Record<string, unknown> | ((state: S) => S | void),
  options?: FctryOptions,
): UpdateDocumentResult<S>;

/** `fctry.startCommand` on the state file, under its lock. */
export declare function startCommand<S = any>(projectDir: string, command: FctryCommand, options?: FctryOptions): Result<S>;
/** Synchronous `startCommand`. */
export declare function startCommandSync<S = any>(projectDir: string, command: FctryCommand, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.startStep` on the state file, under its lock. */
export declare function startStep<S = any>(projectDir: string, step: string, options?: FctryOptions): Result<S>;
/** Synchronous `startStep`. */
export declare function startStepSync<S = any>(projectDir: string, step: string, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.completeStep` on the state file (pass `null` as `output` to give options alone). */
export declare function completeStep<S = any>(projectDir: string, step: string, output?: StepOutput | null, options?: FctryOptions): Result<S>;
/** Synchronous `completeStep`. */
export declare function completeStepSync<S = any>(projectDir: string, step: string, output?: StepOutput | null, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.skipPrerequisites` on the state file (pass `null` as `command` to give options alone). */
export declare function skipPrerequisites<S = any>(projectDir: string, agent: string, command?: string | null, options?: FctryOptions): Result<S>;
/** Synchronous `skipPrerequisites`. */
export declare function skipPrerequisitesSync<S = any>(projectDir: string, agent: string, command?: string | null, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.addUntrackedChange` on the state file, under its lock. */
export declare function addUntrackedChange<S = any>(projectDir: string, change: UntrackedChange, options?: FctryOptions): Result<S>;
/** Synchronous `addUntrackedChange`. */
export declare function addUntrackedChangeSync<S = any>(projectDir: string, change: UntrackedChange, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.clearUntrackedChanges` on the state file (`sections` null: all of them). */
export declare function clearUntrackedChanges<S = any>(projectDir: string, sections?: string[] | null, options?: FctryOptions): Result<S>;
/** Synchronous `clearUntrackedChanges`. */
export declare function clearUntrackedChangesSync<S = any>(projectDir: string, sections?: string[] | null, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.createBuildRun` on the state file, under its lock. */
export declare function createBuildRun<S = any>(projectDir: string, plan: BuildPlan, options?: FctryOptions): Result<S>;
/** Synchronous `createBuildRun`. */
export declare function createBuildRunSync<S = any>(projectDir: string, plan: BuildPlan, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.chunkEvent` on the state file, under its lock. */
export declare function chunkEvent<S = any>(projectDir: string, id: number, event: ChunkEvent, options?: FctryOptions): Result<S>;
/** Synchronous `chunkEvent`. */
export declare function chunkEventSync<S = any>(projectDir: string, id: number, event: ChunkEvent, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.pauseBuildRun` on the state file, under its lock. */
export declare function pauseBuildRun<S = any>(projectDir: string, question: unknown, options?: FctryOptions): Result<S>;
/** Synchronous `pauseBuildRun`. */
export declare function pauseBuildRunSync<S = any>(projectDir: string, question: unknown, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.resumeBuildRun` on the state file, under its lock. */
export declare function resumeBuildRun<S = any>(projectDir: string, options?: FctryOptions): Result<S>;
/** Synchronous `resumeBuildRun`. */
export declare function resumeBuildRunSync<S = any>(projectDir: string, options?: FctryOptions): UpdateDocumentResult<S>;
/** `fctry.finishBuildRun` on the state file, under its lock. */
export declare function finishBuildRun<S = any>(projectDir: string, options?: FctryOptions): Result<S>;
/** Synchronous `finishBuildRun`. */
export declare function finishBuildRunSync<S = any>(projectDir: string, options?: FctryOptions): UpdateDocumentResult<S>;

/** `fctry.inboxAdd` on the inbox file, under its lock; the new item is `item` (= `document[0]`). */
export declare function inboxAdd(
  projectDir: string,
  type: InboxItem["type"],
  content: string,
  options?: InboxAddOptions,
): Promise<InboxAddResult>;
/** Synchronous `inboxAdd`. */
export declare function inboxAddSync(projectDir: string, type: InboxItem["type"], content: string, options?: InboxAddOptions): InboxAddResult;
/** `fctry.inboxTransition` (update one item's status) on the inbox file, under its lock. */
export declare function inboxTransition(projectDir: string, id: string, event: InboxEvent, options?: FctryOptions): InboxResult;
/** Synchronous `inboxTransition`. */
export declare function inboxTransitionSync(projectDir: string, id: string, event: InboxEvent, options?: FctryOptions): UpdateDocumentResult<InboxItem[]>;
/** `fctry.inboxDismiss` on the inbox file, under its lock (an absent id changes nothing). */
export declare function inboxDismiss(projectDir: string, id: string, options?: FctryOptions): InboxResult;
/** Synchronous `inboxDismiss`. */
export declare function inboxDismissSync(projectDir: string, id: string, options?: FctryOptions): UpdateDocumentResult<InboxItem[]>;
/** `fctry.inboxBatch` on the inbox file, under its lock. */
export declare function inboxBatch(projectDir: string, event: InboxEvent, options?: FctryOptions): InboxResult;
/** Synchronous `inboxBatch`. */
export declare function inboxBatchSync(projectDir: string, event: InboxEvent, options?: FctryOptions): UpdateDocumentResult<InboxItem[]>;

/** `fctry.checkPrerequisites` over the state file (read only, no lock). */
export declare function checkPrerequisites(projectDir: string, agent: string, command?: string | null): Promise<PrerequisiteCheck>;
/** Synchronous `checkPrerequisites`. */
export declare function checkPrerequisitesSync(projectDir: string, agent: string, command?: string | null): PrerequisiteCheck;
/** `fctry.statusLine` over the state file (read only, no lock). */
export declare function statusLine(projectDir: string): Promise<StatusLineSummary>;
/** Synchronous `statusLine`. */
export declare function statusLineSync(projectDir: string): StatusLineSummary;
/** `fctry.resumePlan` over the state file (read only, no lock). */
export declare function resumePlan(projectDir: string, currentSpecVersion?: string | null): Promise<ResumePlan>;
/** Synchronous `resumePlan`. */
export declare function resumePlanSync(projectDir: string, currentSpecVersion?: string | null): ResumePlan;
/** `fctry.readyChunks` over the state file (read only, no lock). */
export declare function readyChunks(projectDir: string): Promise<number[]>;
/** Synchronous `readyChunks`. */
export declare function readyChunksSync(projectDir: string): number[];
