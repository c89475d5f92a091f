"use strict";
/**
 * The command line's facts from a store (docs/store.md § Store URLs): a path the core asks
 * about that is a store URL (`postgresql://host/database/KEY`) is read, listed and written in
 * that PostgreSQL store instead of the file system, with the same facts a file would give: a
 * document's text, a log's text as a file of its lines (pages by byte offset, as a file's), a
 * key with keys below it a directory. Each store is connected once per process. These are
 * async; the command line runs them through lib/store/sync.cjs. The Python twin is
 * python/statecore/_cli/store.py.
 */
const documents = require("../host/documents.cjs");
const { nameWanted } = require("./run.cjs");

const core = () => documents.core();

/** The stores connected so far, by connection string (Promises). */
const stores = new Map();

/** Whether `path` is a store URL (a cheap test: the core's `storeUrl` decides). */
const isStore = (path) => path.startsWith("postgresql://") || path.startsWith("postgres://");

/** The store of a URL (connected once), its key and its connection string. */
async function open(path) {
  const { conninfo, key } = core().storeUrl(path);
  if (!stores.has(conninfo)) {
    const { PostgresStore } = require("../store/store.cjs");
    const connecting = PostgresStore.connect({ connectionString: conninfo });
    connecting.catch(() => stores.delete(conninfo));
    stores.set(conninfo, connecting);
  }
  return { store: await stores.get(conninfo), key, conninfo };
}

/** What a statecore error is to a fact; anything else is thrown on. */
function known(error) {
  if (error instanceof core().StatecoreError) return error;
  throw error;
}

/** A bigint column (node-postgres gives its text) as a number, null kept. */
const num = (value) => (value === null ? null : Number(value));

/**
 * What a file at `path` would be: a document's text, a log's (or a page of it), a directory
 * when keys are below it, or missing. The core decides from the store's rows
 * (`cliStoreRead`); a log's lines are read when it asks for them.
 */
async function readFact(path, limit, offset) {
  try {
    const { store, key } = await open(path);
    const [found] = (await store.statement("read", key, "cli_read", key, key ? `${key}/` : "")).rows;
    const row = { ...found, mtime: num(found.mtime), log_bytes: num(found.log_bytes), log_mtime: num(found.log_mtime) };
    const read = core().cliStoreRead(row, offset ?? null, limit ?? null, null);
    if (read.fact) return read.fact;
    const { from, bytes } = read.log_page;
    const { rows } = await store.statement("read", key, "read_log_page", key, from, bytes);
    const log = rows.map(({ text, end_offset: end }) => ({ text, end_offset: Number(end) }));
    return core().cliStoreRead(row, offset ?? null, limit ?? null, log).fact;
  } catch (error) {
    const e = known(error);
    return { error: "unreadable", message: `${e.code}: ${e.message}` };
  }
}

/** The keys below `path` named one of `names` (every one when null), as store URLs. */
async function listFact(path, names) {
  try {
    const { store, key, conninfo } = await open(path);
    const wanted = names === null || names === undefined ? null : new Set(names);
    const keys = await store.keys(key ? `${key}/` : "");
    return { files: keys.filter((k) => nameWanted(wanted, k.split("/").at(-1))).map((k) => `${conninfo}/${k}`) };
  } catch (error) {
    const e = known(error);
    return { message: `${e.code}: ${e.message}` };
  }
}

/**
 * Carries out a write the core asked for on the store and gives its result or its error: an
 * update, or an append as the kind the core names (it asks for nothing else on a store URL).
 */
async function writeFact(need) {
  try {
    const { store, key } = await open(need.path);
    if (need.op === "append") {
      await store.append(key, need.kind, need.record);
      return { warnings: [], corrupt_copy: null };
    }
    const options = { now: need.now ?? null, ifMatch: need.if_match ?? null, timeout: need.timeout_ms ?? null };
    const result = await store.change(key, need.kind, need.change ?? "", need.args ?? [], options);
    const fact = { etag: result.etag, changed: result.changed, warnings: result.warnings, corrupt_copy: null };
    for (const extra of ["item", "result"]) if (extra in result) fact[extra] = result[extra];
    return fact;
  } catch (error) {
    const e = known(error);
    return { error: { code: e.code, path: e.path, message: e.message } };
  }
}

/**
 * The records of what a watched store URL names now (lib/cli/follow.cjs `look`): the key
 * itself, or the keys below it named one of `names` (every one when null), by URL: a
 * document's etag, a log's length. `{}` when nothing is there; `{error}` when the store
 * cannot be read (the path is then watched as missing).
 */
async function lookFact(path, names) {
  try {
    const { store, key, conninfo } = await open(path);
    const wanted = names === null || names === undefined ? null : new Set(names);
    const { rows } = await store.statement("read", key, "cli_look", key, key ? `${key}/` : "");
    const records = {};
    for (const { key: found, record } of rows) {
      if (found === key || nameWanted(wanted, found.split("/").at(-1))) records[`${conninfo}/${found}`] = record;
    }
    return { records };
  } catch (error) {
    return { error: known(error).code };
  }
}

/** Closes every store connected. */
async function closeAll() {
  await Promise.all([...stores.values()].map(async (s) => (await s).close()));
  stores.clear();
}

module.exports = { isStore, open, readFact, listFact, writeFact, lookFact, closeAll };
