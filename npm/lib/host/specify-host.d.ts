// Types of the hand-written part of `statecore-js/specify` (npm/lib/host/specify.cjs), re-exported by
// the generated lib/generated/specify.d.ts (which declares its routines and their `AppliedArtifact`, from the
// core's host-routine table).

/** The document kind of `index.md`. */
export declare const KIND: "specify.index";
