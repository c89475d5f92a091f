// Types of the Node host layer (npm/lib/host/host.cjs): locked, atomic file I/O around the core.
// The lock protocol is described in docs/locking.md. The routines and the types they give are
// generated from the core's host-routine table (lib/generated/host-api.d.ts, re-exported here); written
// here: the host layer's own objects (a lock, a watcher, a store, a path).
import type { LockRecord, ReadOptions, UpdateOptions, WatchOptions } from "../generated/core";

export * from "../generated/host-api";

/** A document store (docs/store.md). */
export type Store = import("../store/store").FileStore | import("../store/store").PostgresStore;

/** The host options of `updateDocument`: a helper's, and `bigint` (BigInt results). */
export type DocumentUpdateOptions = UpdateOptions & ReadOptions;

/**
 * A file path: a string, a Buffer or a `file:` URL (resolved once to an absolute path);
 * anything else is `UsageError` `E_ARGUMENT`.
 */
export type FilePath = string | Buffer | URL;

/** A held lock on `<file>.lock`. */
export declare class Lock {
  private constructor();
  /** The lock file path. */
  readonly path: string;
  /** Our owner record. */
  readonly record: LockRecord;
  /**
   * Removes the lock file if it still holds our token; true when it did (false in another
   * process than the one that took it, or when the file system fails).
   */
  release(): boolean;
}

/** Lease of a lock held on another host, in ms (60000). */
export declare const LOCK_LEASE_MS: number;
/** Grace period before a malformed lock record is broken, in ms (2000). */
export declare const LOCK_GRACE_MS: number;
/** Default lock timeout, in ms (10000). */
export declare const DEFAULT_TIMEOUT_MS: number;

/** Options of `watch`: the core's `WatchOptions`, and where errors go. */
export interface WatchHostOptions extends WatchOptions {
  /**
   * Anything thrown while watching (a file that cannot be read, chokidar's errors, the
   * callback's own errors); the watcher keeps running. Without it errors go to `console.error`.
   */
  onError?(error: unknown): void;
}

/** A running watcher. */
export interface Watcher {
  /** Resolves once watching has begun and each file as it first was has been reported. */
  readonly ready: Promise<void>;
  /** Stops watching; no callback is called once the Promise resolves. */
  close(): Promise<void>;
}
