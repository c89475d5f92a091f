// Types of `watchWorkspace`'s handlers and watcher (npm/lib/host/hivemind.cjs), the hand-written
// part of `statecore-js/hivemind` (re-exported by the generated lib/generated/hivemind.d.ts, which declares
// `watchWorkspace` from the core's host-routine table).
import type { HivemindAgent, HivemindEvent, HivemindDetails, HivemindOutcome, HivemindState, Issue, Now } from "../generated/core";

/** What the watcher reports; every handler is optional. */
export interface HivemindHandlers {
  /** The state changed (and was written): after a trigger file, a follow-up or `watcher.fire`. */
  onStateChanged?(state: HivemindState, outcome: HivemindOutcome): void;
  /** Send `message` to `agent` (one call per notification, after `onStateChanged`). */
  onNotify?(agent: HivemindAgent, message: string, state: HivemindState): void;
  /**
   * Nothing happened, and why: `path` is the trigger file (`workspace/...`), or null for a
   * follow-up or `watcher.fire`.
   */
  onIgnored?(path: string | null, reason: string): void;
  /** A problem with a trigger file's content (`path` as in `onIgnored`). */
  onProblem?(problem: Issue, path: string | null): void;
  /**
   * Anything thrown while reacting (the core's errors, lock timeouts, a handler's own errors,
   * chokidar's errors); the watcher keeps running. Without it errors go to `console.error`.
   */
  onError?(error: unknown): void;
}

/** A running watcher. */
export interface HivemindWatcher {
  /** Resolves when the initial scan is done (files written after it are seen). */
  readonly ready: Promise<void>;
  /**
   * Fires a host event in turn with the file reactions, reports it to the handlers and arms its
   * follow-ups (resuming into `checkpoint` schedules the review again). Resolves with the
   * outcome (null once closed); rejects when the core refuses the event.
   */
  fire(event: HivemindEvent, options?: { now?: Now; details?: HivemindDetails | null }): Promise<HivemindOutcome | null>;
  /**
   * Stops watching and drops pending debounces and follow-up timers; a reaction already
   * running finishes. No handler is called after the Promise resolves.
   */
  close(): Promise<void>;
}
