// Types of the hand-written part of `statecore-js/hive` (npm/lib/host/hive.cjs), re-exported by the
// generated lib/generated/hive.d.ts (which declares its routines, from the core's host-routine table).
import type { HiveHealth } from "../generated/core";

/** The document kind of `STATE.json`. */
export declare const KIND: "hive.state";

/** One session's health, or why it could not be read. */
export type SessionHealth =
  | { session: string; health: HiveHealth }
  | { session: string; error: { code: string; message: string } };
