// Types of `statecore/agency` (npm/lib/agency.cjs): the host side of the agency runner status
// contract (docs/agency.md) over a worktree's `.agency/state/runner_status.json` and a
// repository's `CLAUDE.md`. Writers hold the file's lock across read-update-validate-write and
// create `.agency/state/` when it is missing; errors of the core (`ValidationError`,
// `LockTimeoutError`, ...) propagate and leave the file untouched. The pure functions
// (`derive`, `renderLs`, `renderShow`, ...) are `agency.*` of `statecore`.
import type { UpdateDocumentResult } from "./host";
import type { Now, RunnerStatus, RunnerStatusParse, RunnerStatusUpdate, RunSnapshot } from "./core";

export type {
  RunnerStatusName,
  RunnerStatus,
  RunnerStatusUpdate,
  RunnerStatusParse,
  ActivitySignals,
  StallResult,
  RunSnapshot,
  SnapshotFacts,
  RunStatusName,
  DerivedStatus,
  RunRow,
} from "./core";

/** The document kind of `runner_status.json`. */
export declare const KIND: "agency.runner_status";
/** The seed's default stall threshold: 15 minutes, in ms (900000). */
export declare const DEFAULT_STALL_THRESHOLD_MS: number;

/** Options of `writeRunnerStatus` and `writeInitialRunnerStatus`. */
export interface AgencyWriteOptions {
  /** The time stamped into `updated_at`: RFC 3339 text or epoch ms (default: the clock, read under the lock). */
  now?: Now;
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
}

/** Options of `snapshot`. */
export interface AgencySnapshotOptions {
  /** Whether the run's tmux session exists (the host checks it; default false). */
  tmuxActive?: boolean;
  /** The time the stall watchdog measures against (default: the clock). */
  now?: Now;
  /** The stall threshold in ms (default `DEFAULT_STALL_THRESHOLD_MS`). */
  thresholdMs?: number | null;
}

/** `<worktree>/.agency/state/runner_status.json`. */
export declare function statusPath(worktree: string): string;

/**
 * One milestone: a locked read → `agency.updateRunnerStatus(current, update, now)` → validate
 * → atomic write of the status file (`status`/`summary` kept when left out, the details
 * cleared, other fields kept). `ValidationError` (`E_INVALID`) leaves the file untouched; an
 * unparseable file is kept as `<file>.corrupt-<time>` (`corruptCopy`).
 */
export declare function writeRunnerStatus(
  worktree: string,
  update: RunnerStatusUpdate,
  options?: AgencyWriteOptions,
): Promise<UpdateDocumentResult<RunnerStatus>>;
/** Synchronous `writeRunnerStatus`. */
export declare function writeRunnerStatusSync(
  worktree: string,
  update: RunnerStatusUpdate,
  options?: AgencyWriteOptions,
): UpdateDocumentResult<RunnerStatus>;

/** What `agency run` does: writes the initial status (`working`), replacing any earlier one. */
export declare function writeInitialRunnerStatus(
  worktree: string,
  options?: AgencyWriteOptions,
): Promise<UpdateDocumentResult<RunnerStatus>>;
/** Synchronous `writeInitialRunnerStatus`. */
export declare function writeInitialRunnerStatusSync(
  worktree: string,
  options?: AgencyWriteOptions,
): UpdateDocumentResult<RunnerStatus>;

/**
 * The worktree's runner status (never writes): a missing file is `{status: null, report:
 * null}`, one that does not parse or validate `status: null` and the report saying why.
 */
export declare function loadRunnerStatus(worktree: string): Promise<RunnerStatusParse>;
/** Synchronous `loadRunnerStatus`. */
export declare function loadRunnerStatusSync(worktree: string): RunnerStatusParse;

/**
 * A run's snapshot for `agency.derive` / `renderLs` / `renderShow`: the status file and its
 * modification time (missing: none), `metaPath` (meta.json; null, missing or unreadable gives
 * `broken`), whether the worktree exists (absent: the `archived` marker) and `tmuxActive`.
 */
export declare function snapshot(
  worktree: string,
  metaPath: string | null,
  options?: AgencySnapshotOptions,
): Promise<Required<RunSnapshot>>;
/** Synchronous `snapshot`. */
export declare function snapshotSync(
  worktree: string,
  metaPath: string | null,
  options?: AgencySnapshotOptions,
): Required<RunSnapshot>;

/**
 * `agency init`: writes `<repoRoot>/CLAUDE.md` (the runner protocol) only when nothing of that
 * name exists, never overwriting one, even when created by another process at the same moment.
 */
export declare function writeProtocolDocument(repoRoot: string): Promise<"created" | "exists">;
/** Synchronous `writeProtocolDocument`. */
export declare function writeProtocolDocumentSync(repoRoot: string): "created" | "exists";
