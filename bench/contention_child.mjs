// One process of the contention bench (bench/contention.mjs): `node contention_child.mjs IMPL
// FILE COUNT [WARM]`. Loads everything, warms up on a private copy of FILE (WARM increments,
// default 20), says "ready" on stdout,
// waits for a line on stdin, then increments the counter of FILE (`{"counter": n}`) COUNT times
// in a tight loop, each a locked read-modify-write, as fast as it can. Prints one JSON line at
// the end: `{"longest_ms": the longest single increment (its wait for the lock included)}`.
// IMPL: statecore-sync, statecore-async (updateDocumentSync / updateDocument with a function),
// alternative-sync, alternative-async (proper-lockfile + write-file-atomic + the directory's
// fsync: the same two fsyncs as statecore's).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import lockfile from "proper-lockfile";
import writeFileAtomic from "write-file-atomic";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const sc = require(path.join(process.env.STATECORE_NPM_LIB ?? path.join(here, "..", "npm", "lib"), "node.cjs"));
const [impl, file, countText, warmText = "20"] = process.argv.slice(2);
const count = Number(countText);
const warmups = Number(warmText);

const bump = (doc) => ({ ...doc, counter: doc.counter + 1 });
const text = (doc) => JSON.stringify(doc, null, 2) + "\n";
const pause = new Int32Array(new SharedArrayBuffer(4));

function fsyncDirSync(dir) {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** proper-lockfile's lockSync (no retries of its own), retried every 1–4 ms while held. */
function lockSyncRetrying(target) {
  for (;;) {
    try {
      return lockfile.lockSync(target, { realpath: false });
    } catch (e) {
      if (e.code !== "ELOCKED") throw e;
      Atomics.wait(pause, 0, 0, 1 + Math.floor(Math.random() * 4));
    }
  }
}

const increment = {
  "statecore-sync": (target) => sc.updateDocumentSync(target, "json", bump),
  "statecore-async": (target) => sc.updateDocument(target, "json", bump),
  "alternative-sync": (target) => {
    const release = lockSyncRetrying(target);
    try {
      writeFileAtomic.sync(target, text(bump(JSON.parse(fs.readFileSync(target, "utf8")))));
      fsyncDirSync(path.dirname(target));
    } finally {
      release();
    }
  },
  "alternative-async": async (target) => {
    const release = await lockfile.lock(target, {
      realpath: false,
      retries: { forever: true, minTimeout: 1, maxTimeout: 4 },
    });
    try {
      const doc = JSON.parse(await fs.promises.readFile(target, "utf8"));
      await writeFileAtomic(target, text(bump(doc)));
      const handle = await fs.promises.open(path.dirname(target), "r");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } finally {
      await release();
    }
  },
}[impl];
if (!increment || !file || !(count > 0) || !Number.isInteger(warmups) || warmups < 0) {
  console.error(`usage: contention_child.mjs IMPL FILE COUNT [WARM] (got ${process.argv.slice(2).join(" ")})`);
  process.exit(2);
}
// Warm-up outside the clock on a private copy, removed (with its lock files) before "ready".
const warm = `${file}.warm-${process.pid}.json`;
fs.writeFileSync(warm, text({ counter: 0 }));
for (let i = 0; i < warmups; i++) await increment(warm);
for (const name of fs.readdirSync(path.dirname(file))) {
  if (name.startsWith(path.basename(warm))) fs.rmSync(path.join(path.dirname(file), name), { force: true, recursive: true });
}
process.stdout.write("ready\n");
process.stdin.once("data", async () => {
  let longest = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await increment(file);
    longest = Math.max(longest, performance.now() - t0);
  }
  process.stdout.write(JSON.stringify({ longest_ms: longest }) + "\n", () => process.exit(0));
});
