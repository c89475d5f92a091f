// Types for the Node host layer (npm/lib/host.cjs): locked, atomic file I/O around the core.
// The lock protocol is described in docs/locking.md.

/** A problem or note, as the core reports it. */
export interface HostIssue {
  code: string;
  path: string;
  message: string;
}

/** What `readDocument` returns: the core's `loadDocument` over the file's bytes. */
export interface ReadDocumentResult<D = any> {
  /** The document, or the kind's default when the file is missing or unparseable. */
  document: D;
  /** The etag of the file's bytes; null when the file does not exist. */
  etag: string | null;
  /** True when the file is not JSON (the next writer keeps a `.corrupt-` copy). */
  corrupt: boolean;
  valid: boolean;
  errors: HostIssue[];
  warnings: HostIssue[];
}

/** What `updateDocument` returns. */
export interface UpdateDocumentResult<D = any> {
  /** The document now in the file. */
  document: D;
  /** Its etag (pass it as `ifMatch` to the next update for compare-and-swap). */
  etag: string;
  /** False when the new text equalled the file's bytes (nothing was written). */
  changed: boolean;
  warnings: HostIssue[];
  /** The `<file>.corrupt-<timestamp>` copy of unparseable old bytes, or null. */
  corruptCopy: string | null;
}

/** Host options of `updateDocument` (merge options are the 4th argument). */
export interface UpdateHostOptions {
  /** Require the file's current etag (null = the file must not exist); else `ConflictError`. */
  ifMatch?: string | null;
  /** The clock for a `stamp` without `now`: RFC 3339 text or epoch ms (default: the clock). */
  now?: string | number | null;
  /** Milliseconds to wait for the lock before `LockTimeoutError` (default 10000). */
  timeout?: number;
}

/** Merge options, as in `merge` (strategy, rules, stamp). */
export interface HostMergeOptions {
  strategy?: "shallow" | "deep" | "merge_patch";
  rules?: Array<{ path: string; mode: "append" | "replace" | "by_key"; key?: string }>;
  stamp?: { field: string; now?: string | number };
}

/** What `appendLine` returns. */
export interface AppendLineResult {
  warnings: HostIssue[];
  /** Where a repaired torn tail's bytes were kept, or null. */
  corruptCopy: string | null;
}

/** What `readLog` returns. */
export interface ReadLogResult<R = any> {
  records: R[];
  /** The torn last line that was dropped (1-based line, byte offset), or null. */
  torn: { line: number; offset: number } | null;
  warnings: HostIssue[];
}

/** The owner record stored in a lock file (docs/locking.md). */
export interface LockOwnerRecord {
  pid: number;
  start: string | null;
  boot: string | null;
  host: string;
  token: string;
  acquired_at: string;
}

/** A held lock on `<file>.lock`. */
export declare class Lock {
  private constructor();
  /** The lock file path. */
  readonly path: string;
  /** Our owner record. */
  readonly record: LockOwnerRecord;
  /** Removes the lock file if it still holds our token; true when it did. */
  release(): boolean;
}

export type UpdateFunction<D = any> = (document: D) => D | void;
export type AsyncUpdateFunction<D = any> = (document: D) => D | void | Promise<D | void>;

/** Reads a document (never writes; a missing file gives the kind's default). */
export declare function readDocument<D = any>(file: string, kind: string): Promise<ReadDocumentResult<D>>;
export declare function readDocumentSync<D = any>(file: string, kind: string): ReadDocumentResult<D>;

/**
 * Locked read-merge-validate-write with a function of the current document that returns the
 * new one (or mutates it and returns nothing); merge options do not apply (pass null).
 * Throws `ValidationError` (file untouched), `ConflictError`, `LockTimeoutError`.
 */
export declare function updateDocument<D = any>(
  file: string,
  kind: string,
  update: AsyncUpdateFunction<D>,
  options?: null,
  hostOptions?: UpdateHostOptions,
): Promise<UpdateDocumentResult<D>>;
/** Locked read-merge-validate-write of a patch merged with `options`. */
export declare function updateDocument<D = any>(
  file: string,
  kind: string,
  patch: unknown,
  options?: HostMergeOptions | null,
  hostOptions?: UpdateHostOptions,
): Promise<UpdateDocumentResult<D>>;
/** Synchronous `updateDocument` (the function must not return a Promise). */
export declare function updateDocumentSync<D = any>(
  file: string,
  kind: string,
  update: UpdateFunction<D>,
  options?: null,
  hostOptions?: UpdateHostOptions,
): UpdateDocumentResult<D>;
export declare function updateDocumentSync<D = any>(
  file: string,
  kind: string,
  patch: unknown,
  options?: HostMergeOptions | null,
  hostOptions?: UpdateHostOptions,
): UpdateDocumentResult<D>;

/** Appends one JSONL record under the lock (one write(), fsync); repairs a torn tail first. */
export declare function appendLine(file: string, value: unknown, hostOptions?: { timeout?: number }): Promise<AppendLineResult>;
export declare function appendLineSync(file: string, value: unknown, hostOptions?: { timeout?: number }): AppendLineResult;

/** Reads a JSONL log (a torn last line is dropped with a warning; never writes). */
export declare function readLog<R = any>(file: string): Promise<ReadLogResult<R>>;
export declare function readLogSync<R = any>(file: string): ReadLogResult<R>;

/** Takes the sidecar lock `<file>.lock`, waiting up to `timeout` ms (default 10000). */
export declare function acquireLock(file: string, timeout?: number): Promise<Lock>;
export declare function acquireLockSync(file: string, timeout?: number): Lock;

/** Lease of a lock held on another host, in ms (60000). */
export declare const LOCK_LEASE_MS: number;
/** Grace period before a malformed lock record is broken, in ms (2000). */
export declare const LOCK_GRACE_MS: number;
/** Default lock timeout, in ms (10000). */
export declare const DEFAULT_TIMEOUT_MS: number;
