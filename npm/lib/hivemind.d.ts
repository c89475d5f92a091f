// Types of `statecore/hivemind` (npm/lib/hivemind.cjs): the Hivemind workflow (docs/hivemind.md)
// over a project's `workspace/state.json`, and the watcher that drives it from trigger files.
// Writers hold the file's lock across read-operation-validate-write and create `workspace/`
// when it is missing; errors of the core (`TransitionError`, `UsageError`, `ValidationError`,
// `LockTimeoutError`, ...) propagate and leave the file untouched.
import type { HostIssue, ReadDocumentResult, UpdateDocumentResult } from "./host";
import type {
  Now,
  HivemindAgent,
  HivemindEvent,
  HivemindOutcome,
  HivemindState,
  HivemindStateName,
} from "./core";

export type {
  HivemindStateName,
  HivemindAgent,
  HivemindEvent,
  HivemindState,
  HivemindTransition,
  HivemindNotification,
  HivemindScheduled,
  HivemindOutcome,
} from "./core";

/** Options of `fire`. */
export interface HivemindFireOptions {
  /** The time of the transition: RFC 3339 text or epoch ms (default: the clock). */
  now?: Now;
  /** Event details: `{project}` for `select_project`, `{error}` for `worker_crashed`. */
  details?: Record<string, unknown> | null;
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
}

/** Options of `writeState`. */
export interface HivemindWriteOptions {
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
  /** Require the file's current etag (null = the file must not exist); else `ConflictError`. */
  ifMatch?: string | null;
}

/** What the watcher reports; every handler is optional. */
export interface HivemindHandlers<S = HivemindState> {
  /** The state changed (and was written): after a trigger file, a follow-up or `watcher.fire`. */
  onStateChanged?(state: S, outcome: HivemindOutcome<S>): void;
  /** Send `message` to `agent` (one call per notification, after `onStateChanged`). */
  onNotify?(agent: HivemindAgent, message: string, state: S): void;
  /**
   * Nothing happened, and why: `path` is the trigger file (`workspace/...`), or null for a
   * follow-up or `watcher.fire`.
   */
  onIgnored?(path: string | null, reason: string): void;
  /** A problem with a trigger file's content (`path` as in `onIgnored`). */
  onProblem?(problem: HostIssue, path: string | null): void;
  /**
   * Anything thrown while reacting (the core's errors, lock timeouts, a handler's own errors,
   * chokidar's errors); the watcher keeps running. Without it errors go to `console.error`.
   */
  onError?(error: unknown): void;
}

/** Options of `watchWorkspace`. */
export interface HivemindWatchOptions {
  /** Quiet time of a path before reacting to it, in ms (default 50): a burst gives one reaction. */
  debounceMs?: number;
  /** The clock of every transition (default `Date.now`). */
  now?: () => Now;
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
}

/** A running watcher. */
export interface HivemindWatcher<S = HivemindState> {
  /** Resolves when the initial scan is done (files written after it are seen). */
  readonly ready: Promise<void>;
  /**
   * Fires a host event in turn with the file reactions, reports it to the handlers and arms its
   * follow-ups (resuming into `checkpoint` schedules the review again). Resolves with the
   * outcome (null once closed); rejects when the core refuses the event.
   */
  fire(
    event: HivemindEvent,
    options?: { now?: Now; details?: Record<string, unknown> | null },
  ): Promise<HivemindOutcome<S> | null>;
  /**
   * Stops watching and drops pending debounces and follow-up timers; a reaction already
   * running finishes. No handler is called after the Promise resolves.
   */
  close(): Promise<void>;
}

/** `<projectDir>/workspace/state.json`. */
export declare function statePath(projectDir: string): string;

/** Reads the state (never writes): a missing file is the idle default with etag null. */
export declare function readState<S = HivemindState>(projectDir: string): Promise<ReadDocumentResult<S>>;
/** Synchronous `readState`. */
export declare function readStateSync<S = HivemindState>(projectDir: string): ReadDocumentResult<S>;

/** Writes `state` (validated: `ValidationError` leaves the file untouched), locked and atomic. */
export declare function writeState<S = HivemindState>(
  projectDir: string,
  state: S,
  options?: HivemindWriteOptions,
): Promise<UpdateDocumentResult<S>>;
/** Synchronous `writeState`. */
export declare function writeStateSync<S = HivemindState>(
  projectDir: string,
  state: S,
  options?: HivemindWriteOptions,
): UpdateDocumentResult<S>;

/**
 * Fires a host event under the lock: reads the state, applies `hivemind.fire`, writes the new
 * state when it changed and returns the outcome. `TransitionError` for an illegal event (the
 * file untouched). The caller arms `scheduled` itself (or uses `watcher.fire`).
 */
export declare function fire<S = HivemindState>(
  projectDir: string,
  event: HivemindEvent,
  options?: HivemindFireOptions,
): Promise<HivemindOutcome<S>>;
/** Synchronous `fire`. */
export declare function fireSync<S = HivemindState>(
  projectDir: string,
  event: HivemindEvent,
  options?: HivemindFireOptions,
): HivemindOutcome<S>;

/**
 * Watches `<projectDir>/workspace` (created if missing) with chokidar and moves `state.json` by
 * the trigger files written there (`hivemind.onFile` under the lock; written only when it
 * changed), one reaction at a time, each path debounced; fires scheduled follow-ups after their
 * delay. state.json and its lock, temp and `.corrupt-` files are never reacted to.
 */
export declare function watchWorkspace<S = HivemindState>(
  projectDir: string,
  handlers?: HivemindHandlers<S>,
  options?: HivemindWatchOptions,
): HivemindWatcher<S>;
