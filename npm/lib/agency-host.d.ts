// Types of the hand-written part of `statecore-js/agency` (npm/lib/agency.cjs), re-exported by the
// generated lib/agency.d.ts.
import type { Now, RunSnapshot } from "./core";

/** The document kind of `runner_status.json`. */
export declare const KIND: "agency.runner_status";
/** The seed's default stall threshold (the core's): 15 minutes, in ms. */
export declare const DEFAULT_STALL_THRESHOLD_MS: number;

/** Options of `snapshot`. */
export interface AgencySnapshotOptions {
  /** Whether the run's tmux session is alive (the host checks it). */
  tmuxActive?: boolean;
  /** The time (default: the clock). */
  now?: Now;
  /** The stall threshold in ms (default 15 minutes). */
  thresholdMs?: number | null;
}

/**
 * A run's snapshot for `agency.derive` / `renderLs` / `renderShow`: the status file and its
 * modification time, meta.json (kept outside the worktree; null or unreadable: `broken`),
 * whether the worktree exists (absent: `archived`) and `tmuxActive`.
 */
export declare function snapshot(worktree: string, metaPath: string | null, options?: AgencySnapshotOptions): Promise<RunSnapshot>;
/** Synchronous `snapshot`. */
export declare function snapshotSync(worktree: string, metaPath: string | null, options?: AgencySnapshotOptions): RunSnapshot;

/**
 * `agency init`'s CLAUDE.md, written only when nothing of that name exists: never overwrites,
 * even when another process creates it at the same moment.
 */
export declare function writeProtocolDocument(repoRoot: string): Promise<"created" | "exists">;
/** Synchronous `writeProtocolDocument`. */
export declare function writeProtocolDocumentSync(repoRoot: string): "created" | "exists";
