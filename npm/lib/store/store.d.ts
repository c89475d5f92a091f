// Types of `statecore-js/store` (npm/lib/store/store.cjs, docs/store.md): the document stores.
import type {
  AppendOptions,
  DocumentKind,
  DocumentOf,
  LoadResult,
  MergeOptions,
  ReadLogOptions,
  StoreAppendOptions,
  StoreWatchOptions,
  UpdateOptions,
  WatchChange,
} from "../generated/core";
import type { AppendLineResult, FilePath, FileResult, StoreAppend } from "../host/host";

/** What a PostgreSQL append returns (generated from the core's host-routine table). */
export type { StoreAppend };

/** An update of a document: a patch merged with `MergeOptions`, or a function of it. */
export type StoreChange<D> = object | ((document: D) => D | void | Promise<D | void>);

/** What both stores do to a document, the same way (a `FileStore` under its file's lock, a
 * `PostgresStore` in one transaction that locks the row). */
export interface DocumentStore {
  /** The document at `key` with its etag (the default document when there is none). */
  read<K extends DocumentKind>(key: string, kind: K): Promise<LoadResult<DocumentOf<K>>>;
  /**
   * The change applied by the core (a patch merged with `mergeOptions`, or a function of the
   * document), validated, and written when it changed; `ifMatch` requires the etag
   * (`ConflictError`), `timeout` bounds the wait for the lock or row (`LockTimeoutError`).
   */
  update<K extends DocumentKind>(
    key: string,
    kind: K,
    change: StoreChange<DocumentOf<K>>,
    mergeOptions?: MergeOptions | null,
    hostOptions?: UpdateOptions,
  ): Promise<FileResult<DocumentOf<K>>>;
  /**
   * A change the core names applied to the document at `key`: a writer of the table
   * (`"fctry_start_step"`, `args` after the document), `""` (replace with `args[0]`) or
   * `"merge"` (`args` = `[patch, options]`), as `updateFile` takes it.
   */
  change<K extends DocumentKind>(
    key: string,
    kind: K,
    change: string,
    args?: unknown[],
    hostOptions?: UpdateOptions,
  ): Promise<FileResult<DocumentOf<K>, unknown>>;
  /** Releases what the store holds (nothing for files; the connections for PostgreSQL). */
  close(): Promise<void>;
}

/** Documents and logs as files under `root`: a key is a path below it (docs/locking.md). */
export interface FileStore extends DocumentStore {}
export declare class FileStore {
  constructor(root?: FilePath);
  /** The directory the keys are paths below. */
  readonly root: string;
  /** The file of `key` (checked: `PathUnsafeError`). */
  path(key: string): string;
  /**
   * Validates `value` as `kind` (`ValidationError`) and appends it to the log's file under its
   * lock (no `id`: exactly once is `PostgresStore`'s).
   */
  append(log: string, kind: DocumentKind, value: unknown, hostOptions?: AppendOptions): Promise<AppendLineResult>;
  /** The log's records, in order (a torn last line is left out). */
  readLog(log: string): Promise<unknown[]>;
}

/** node-postgres pool options (`connectionString`, `host`, `port`, `max`, ...). */
export interface PostgresStoreOptions {
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  /** Most connections held at once (default 4). */
  max?: number;
  /** Close a connection idle this long, in ms (default 0: kept until `close()`). */
  idleTimeoutMillis?: number;
  [option: string]: unknown;
}

/**
 * Documents and logs in PostgreSQL (docs/store.md): one row per document, updated in one
 * transaction that locks the row for the time of one core crossing; logs as an append-only
 * table with a per-log sequence. A lost connection is `StoreError` with `details.retryable`:
 * nothing was written. Needs the `pg` package.
 */
export interface PostgresStore extends DocumentStore {}
export declare class PostgresStore {
  /** A store whose schema is created or migrated (`StoreError` when it cannot connect). */
  static connect(options?: PostgresStoreOptions): Promise<PostgresStore>;
  /** Validates `value` as `kind` and appends it; with `id`, exactly once. */
  append(log: string, kind: DocumentKind, value: unknown, options?: StoreAppendOptions): Promise<StoreAppend>;
  /** The log's records after sequence number `after`, in order. */
  readLog(log: string, options?: ReadLogOptions): Promise<unknown[]>;
  /**
   * Calls `callback` for each change of a document or log whose key starts with `prefix`
   * (of `kind` only, when given), woken by LISTEN/NOTIFY: the same `WatchChange` a file
   * watcher reports. Resolves once the rows as they first were are reported.
   */
  watch(
    prefix: string,
    kind: DocumentKind | null,
    callback: (change: WatchChange) => void,
    options?: StoreWatchOptions & { onError?(error: unknown): void },
  ): Promise<{ close(): Promise<void> }>;
}
