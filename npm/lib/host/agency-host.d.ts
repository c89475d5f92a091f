// Types of the hand-written part of `statecore-js/agency` (npm/lib/host/agency.cjs), re-exported by the
// generated lib/generated/agency.d.ts (which declares its routines, from the core's host-routine table).
/** The document kind of `runner_status.json`. */
export declare const KIND: "agency.runner_status";
/** The seed's default stall threshold (the core's): 15 minutes, in ms. */
export declare const DEFAULT_STALL_THRESHOLD_MS: number;
