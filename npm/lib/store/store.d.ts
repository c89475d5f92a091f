// Types of `statecore-js/store` (npm/lib/store/store.cjs, docs/store.md): the document stores.
// Their classes are generated from the core's table of the stores' API
// (npm/lib/generated/store.d.ts); this file adds the types the host layer itself declares.
export { DocumentStore, FileStore, PostgresStore } from "../generated/store";
import type { StoreAppend } from "../host/host";

/** What a PostgreSQL append returns (generated from the core's host-routine table). */
export type { StoreAppend };

/** An update of a document: a patch merged with `MergeOptions`, or a function of it. */
export type StoreChange<D> = object | ((document: D) => D | void | Promise<D | void>);

/** A `PostgresStore`'s watcher (`store.watch`): `close()` stops it. */
export interface StoreWatcher {
  close(): Promise<void>;
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
