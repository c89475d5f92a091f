// What a Node user would write instead of statecore for a locked read-merge-validate-write of
// the bench's runner status (bench (3) and (3b), and bench/writers_child.mjs): deepmerge (arrays
// replaced, as statecore's merge does), ajv with the kind's JSON Schema (bench/schema.json),
// proper-lockfile and write-file-atomic; the `Dir` variants add an fsync of the directory after
// the rename, so that both sides make the same two fsyncs per update.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import deepmerge from "deepmerge";
import lockfile from "proper-lockfile";
import writeFileAtomic from "write-file-atomic";

const here = path.dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(fs.readFileSync(path.join(here, "schema.json"), "utf8"));
const ajv = new Ajv({ allowUnionTypes: true, strictTypes: false });
/** ajv's compiled validator of the runner status schema. */
export const validateAjv = ajv.compile(schema);
const overwriteArrays = (_target, source) => source;
/** deepmerge with arrays replaced (statecore's deep merge). */
export const deep = (a, b) => deepmerge(a, b, { arrayMerge: overwriteArrays });

/** `doc`, or an Error naming what ajv refused. */
export function ajvOrThrow(doc) {
  if (!validateAjv(doc)) throw new Error(`invalid: ${ajv.errorsText(validateAjv.errors)}`);
  return doc;
}

const text = (doc) => JSON.stringify(ajvOrThrow(doc), null, 2) + "\n";

function fsyncDirSync(dirPath) {
  const fd = fs.openSync(dirPath, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function fsyncDir(dirPath) {
  const handle = await fs.promises.open(dirPath, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * proper-lockfile's `lockSync` (which takes no `retries`), retried every 1–4 ms while another
 * process holds the lock, as a user sharing the file with other writers must.
 */
function lockSyncRetrying(file, wait) {
  for (;;) {
    try {
      return lockfile.lockSync(file, { realpath: false });
    } catch (e) {
      if (!wait || e.code !== "ELOCKED") throw e;
      Atomics.wait(pause, 0, 0, 1 + Math.floor(Math.random() * 4));
    }
  }
}
// `forever`, not a large `retries`: the retry module computes every timeout up front, and
// 100,000 of them cost about 10 ms per lock() call (bench (3b)'s async row was 7.6 ms an update).
const asyncOptions = (wait) =>
  wait ? { realpath: false, retries: { forever: true, minTimeout: 1, maxTimeout: 4 } } : { realpath: false };

/**
 * The four alternatives, each `(file, patch)`: sync / async, with the alternative's one fsync or
 * with the directory's too. `wait`: retry a held lock (several writers) instead of failing.
 */
export function lockedAlternatives({ wait = false } = {}) {
  const sync = (dirFsync) => (file, patch) => {
    const release = lockSyncRetrying(file, wait);
    try {
      writeFileAtomic.sync(file, text(deep(JSON.parse(fs.readFileSync(file, "utf8")), patch)));
      if (dirFsync) fsyncDirSync(path.dirname(file));
    } finally {
      release();
    }
  };
  const async = (dirFsync) => async (file, patch) => {
    const release = await lockfile.lock(file, asyncOptions(wait));
    try {
      await writeFileAtomic(file, text(deep(JSON.parse(await fs.promises.readFile(file, "utf8")), patch)));
      if (dirFsync) await fsyncDir(path.dirname(file));
    } finally {
      await release();
    }
  };
  return { sync: sync(false), async: async(false), syncDir: sync(true), asyncDir: async(true) };
}
