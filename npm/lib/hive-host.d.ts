// Types of the hand-written part of `statecore-js/hive` (npm/lib/hive.cjs), re-exported by the
// generated lib/hive.d.ts (which declares its routines, from the core's host-routine table).
import type { HiveHealth, Now } from "./core";
import type { Store } from "./host";

/** The document kind of `STATE.json`. */
export declare const KIND: "hive.state";

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
