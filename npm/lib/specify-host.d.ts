// Types of the hand-written part of `statecore-js/specify` (npm/lib/specify.cjs), re-exported by
// the generated lib/specify.d.ts.
import type { SpecifyArtifact } from "./core";

/** The document kind of `index.md`. */
export declare const KIND: "specify.index";

/** An artifact as it was applied. */
export type AppliedArtifact = SpecifyArtifact & {
  /** `written`, `deleted`, or `absent` (a delete of a file that was not there). */
  result: "written" | "deleted" | "absent";
};

/**
 * An agent's artifacts applied in the feature's directory: every path checked first (the
 * core's lexical rules, then no symbolic link or non-directory on the way), a refusal
 * refusing the batch before anything is written; each file written atomically or deleted.
 * `specs/<featureId>/` in front of a path is read as the directory itself.
 */
export declare function applyArtifacts(featureDir: string, artifacts: SpecifyArtifact[], featureId?: string | null): Promise<AppliedArtifact[]>;
/** Synchronous `applyArtifacts`. */
export declare function applyArtifactsSync(featureDir: string, artifacts: SpecifyArtifact[], featureId?: string | null): AppliedArtifact[];
