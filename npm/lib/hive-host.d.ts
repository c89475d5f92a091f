// Types of the hand-written part of `statecore-js/hive` (npm/lib/hive.cjs), re-exported by the
// generated lib/hive.d.ts.
import type { HiveHealth, HiveState, HiveStep, Now } from "./core";
import type { LoggedResult, SessionOptions, Store } from "./host";

/** The document kind of `STATE.json`. */
export declare const KIND: "hive.state";

/**
 * Makes `<sessionsDir>/<sessionId>/` with the session's first event line (`session_created`)
 * and its STATE.json; `E_ARGUMENT` when the session exists or the id is not one path component.
 * `store`: the session in a store, `sessionsDir` a key prefix (docs/store.md § Hive sessions).
 */
export declare function createSessionDir(sessionsDir: string, sessionId: string, task: string, options?: SessionOptions): Promise<LoggedResult<HiveState, HiveStep>>;
/** Synchronous `createSessionDir`. */
export declare function createSessionDirSync(sessionsDir: string, sessionId: string, task: string, options?: SessionOptions): LoggedResult<HiveState, HiveStep>;

/** Options of `checkSessions` (checked: a misspelt key is `E_OPTIONS`). */
export interface CheckSessionsOptions {
  /** The time (default: the clock). */
  now?: Now | null;
  /** The heartbeat timeout in ms (default 5 minutes, inclusive). */
  timeoutMs?: number | null;
  /** How long to wait for a session's lock when its state must be rebuilt, in ms. */
  timeout?: number | null;
  /** The sessions under the key prefix `sessionsDir` of this store instead (async only). */
  store?: Store;
}

/** One session's health, or why it could not be read. */
export type SessionHealth =
  | { session: string; health: HiveHealth }
  | { session: string; error: { code: string; message: string } };

/** `checkWorkerHealth` of every session of `sessionsDir`, by name. */
export declare function checkSessions(sessionsDir: string, options?: CheckSessionsOptions): Promise<SessionHealth[]>;
/** Synchronous `checkSessions`. */
export declare function checkSessionsSync(sessionsDir: string, options?: CheckSessionsOptions): SessionHealth[];
