// Types of the Node host layer (npm/lib/host.cjs): locked, atomic file I/O around the core.
// The lock protocol is described in docs/locking.md.
import type {
  AppendOptions,
  DocumentKind,
  DocumentOf,
  Issue,
  Json,
  LoadResult,
  LockRecord,
  LogRead,
  MergeOptions,
  UpdateOptions,
  ReadOptions,
  WatchChange,
  WatchOptions,
} from "./core";

/** What a read returns: the core's `loadDocument` over the file's bytes. */
export type DocumentFile<D = Json> = LoadResult<D>;

/** What a locked update returns (`updateDocument`, and every writer of the protocol helpers). */
export type FileResult<D = Json, R = never> = {
  /** The document now in the file. */
  document: D;
  /** Its etag (pass it as `ifMatch` to the next update for compare-and-swap); null when there is no file. */
  etag: string | null;
  /** False when nothing was written (the new text equalled the file, or the outcome changed nothing). */
  changed: boolean;
  warnings: Issue[];
  /** The `<file>.corrupt-<timestamp>` copy of unparseable old bytes, or null. */
  corruptCopy: string | null;
} & ([R] extends [never] ? unknown : { /** The operation's own result (a Hivemind outcome). */ result: R });

/**
 * What a step (or a read) of a file kept with its event log gives (a hive session's
 * STATE.json, docs/hive.md § Files): a file result, and what a replay of the log met when
 * the state had to be rebuilt (null otherwise).
 */
export type LoggedResult<D = Json, R = never> = FileResult<D, R> & {
  recovered: Omit<import("./core").HiveRecovered, "state" | "warnings"> | null;
};

/** A document store (docs/store.md). */
export type Store = import("./store").FileStore | import("./store").PostgresStore;

/** Options of a locked update (checked: a misspelt key is a `UsageError` `E_OPTIONS`). */
export type HelperOptions = UpdateOptions & {
  /**
   * Keep the file's document in this store instead (docs/store.md): the directory argument is
   * then a key prefix (`storeFileKey`). Async helpers only.
   */
  store?: Store;
};

/** Options of a reader helper (checked: any other key is `E_OPTIONS`). */
export interface ReaderOptions {
  /** Read the file's document from this store instead, the directory a key prefix (async only). */
  store?: Store;
}

/**
 * Options of a step or a read of a file kept with its event log (a hive session's): the
 * core's, and the store the session is kept in (docs/store.md § Hive sessions; async only).
 */
export type SessionOptions = import("./core").LoggedOptions & { store?: Store };

/** The host options of `updateDocument`: a helper's, and `bigint` (BigInt results). */
export type DocumentUpdateOptions = UpdateOptions & ReadOptions;

/** What `appendLine` returns. */
export interface AppendLineResult {
  warnings: Issue[];
  /** Where a repaired torn tail's bytes were kept, or null. */
  corruptCopy: string | null;
}

/** What `repairLog` returns. */
export interface RepairLogResult {
  /** The torn last line cut off, or null when there was none (nothing written). */
  tornLine: number | null;
  warnings: Issue[];
  /** Where its bytes were kept, or null. */
  corruptCopy: string | null;
}

/** What `readLog` returns. */
export type ReadLogResult = LogRead;

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

/** Reads a document (never writes; a missing file gives the kind's default). */
export declare function readDocument<K extends DocumentKind>(file: FilePath, kind: K, options?: ReadOptions): Promise<DocumentFile<DocumentOf<K>>>;
/** Synchronous `readDocument`. */
export declare function readDocumentSync<K extends DocumentKind>(file: FilePath, kind: K, options?: ReadOptions): DocumentFile<DocumentOf<K>>;

/**
 * Locked read-validate-write with a function of the current document that returns the new one
 * (or changes it and returns nothing); merge options do not apply (pass null). Throws
 * `ValidationError` (file untouched), `ConflictError`, `LockTimeoutError`.
 */
export declare function updateDocument<K extends DocumentKind>(
  file: FilePath,
  kind: K,
  update: (document: DocumentOf<K>) => DocumentOf<K> | void | Promise<DocumentOf<K> | void>,
  options?: null,
  hostOptions?: DocumentUpdateOptions,
): Promise<FileResult<DocumentOf<K>>>;
/** Locked read-merge-validate-write of a patch merged with `options`: one crossing into the core. */
export declare function updateDocument<K extends DocumentKind>(
  file: FilePath,
  kind: K,
  patch: unknown,
  options?: MergeOptions | null,
  hostOptions?: DocumentUpdateOptions,
): Promise<FileResult<DocumentOf<K>>>;
/** Synchronous `updateDocument` (the function must not return a Promise). */
export declare function updateDocumentSync<K extends DocumentKind>(
  file: FilePath,
  kind: K,
  update: (document: DocumentOf<K>) => DocumentOf<K> | void,
  options?: null,
  hostOptions?: DocumentUpdateOptions,
): FileResult<DocumentOf<K>>;
/** Synchronous `updateDocument` of a patch. */
export declare function updateDocumentSync<K extends DocumentKind>(
  file: FilePath,
  kind: K,
  patch: unknown,
  options?: MergeOptions | null,
  hostOptions?: DocumentUpdateOptions,
): FileResult<DocumentOf<K>>;

/** Appends one JSONL record under the lock (one write(), fsync); repairs a torn tail first. */
export declare function appendLine(file: FilePath, value: unknown, hostOptions?: AppendOptions): Promise<AppendLineResult>;
/** Synchronous `appendLine`. */
export declare function appendLineSync(file: FilePath, value: unknown, hostOptions?: AppendOptions): AppendLineResult;

/** Cuts a JSONL log's torn last line off under the lock, keeping a copy; nothing else changes. */
export declare function repairLog(file: FilePath, hostOptions?: AppendOptions): Promise<RepairLogResult>;
/** Synchronous `repairLog`. */
export declare function repairLogSync(file: FilePath, hostOptions?: AppendOptions): RepairLogResult;

/** Reads a JSONL log (a torn last line is dropped with a warning; never writes). */
export declare function readLog(file: FilePath): Promise<ReadLogResult>;
/** Synchronous `readLog`. */
export declare function readLogSync(file: FilePath): ReadLogResult;

/** Takes the sidecar lock `<file>.lock`, waiting up to `timeout` ms (default 10000). */
export declare function acquireLock(file: FilePath, timeout?: number | null): Promise<Lock>;
/** Synchronous `acquireLock`. */
export declare function acquireLockSync(file: FilePath, timeout?: number | null): Lock;

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

/**
 * Watches a file, or every file statecore knows under a directory (of `kind` only, when
 * given), and calls `callback` with each change checked as its kind (docs/watch.md). A write
 * still under way (a torn document or last log line) is read again until it reads or the
 * writer's lock is gone; a log reports the records appended since the last change. A named
 * file's kind is `kind`, or the kind its name gives (`UsageError` `E_KIND` at once when none).
 */
export declare function watch(
  pathOrDir: FilePath,
  kind: DocumentKind | null,
  callback: (change: WatchChange) => void,
  options?: WatchHostOptions,
): Watcher;
