// Bench Node (11), issue 16: the PostgreSQL store against a hand-written read-modify-write in
// Node, and the latency of a store watcher. The same fctry state (bench/fixtures) updated with
// the same patch (a new counter each time, so every update writes), one row, the same server
// and run (a throwaway one from scripts/pg-server.sh, or STATECORE_PG_ENV's).
// statecore: `PostgresStore.update` (row locked FOR UPDATE, one core crossing: parse, merge,
// validation, canonical text, etag; the row's text kept from the last write, so an
// uncontended update is one statement: docs/store.md § Updates), and two stores taking turns
// (the kept text stale each time). Hand-written: node-postgres, BEGIN, SELECT ... FOR
// UPDATE, JSON.parse, the same recursive merge as Python's, JSON.stringify(doc, null, 2),
// UPDATE, COMMIT (no validation, no etag). Samples interleave the two; async, so each sample
// is a run of updates awaited one after the other. Prints a markdown fragment on stdout
// (bench/run.sh puts it in RESULTS.md); never fails on speed.
//
//   node bench/store_bench.mjs [--quick]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assertSameJson, formatNs, log, median, summary, table } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const require = createRequire(path.join(root, "npm", "package.json"));
const pg = require("pg");
const { PostgresStore } = require(path.join(root, "npm", "lib", "store", "store.cjs"));

const quick = process.argv.includes("--quick");
const SAMPLES = quick ? 3 : 9;
const PER_SAMPLE = quick ? 50 : 200;
const LATENCIES = quick ? 50 : 300;
const KEY = "bench/.fctry/state.json";

/** The hand-written merge: objects merged recursively, anything else replaced. */
function deepMerge(doc, patch) {
  const out = { ...doc };
  for (const [key, value] of Object.entries(patch)) {
    const both = value && typeof value === "object" && !Array.isArray(value);
    out[key] = both && out[key] && typeof out[key] === "object" && !Array.isArray(out[key]) ? deepMerge(out[key], value) : value;
  }
  return out;
}

/** The server's PG* variables, and how to stop it (a no-op for a given one). */
function server() {
  if (process.env.STATECORE_PG_ENV) return { env: readEnv(process.env.STATECORE_PG_ENV), stop() {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-bench-pg-"));
  const script = path.join(root, "scripts", "pg-server.sh");
  execFileSync("bash", [script, "start", `${dir}/pg`, String(process.pid)], { stdio: ["ignore", 2, 2] });
  return {
    env: readEnv(`${dir}/pg/env`),
    stop: () => {
      execFileSync("bash", [script, "stop", `${dir}/pg`], { stdio: "ignore" });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readEnv(file) {
  const out = {};
  for (const word of fs.readFileSync(file, "utf8").replace("export ", "").split(/\s+/)) {
    const [name, value] = word.split("=");
    if (name) out[name] = value;
  }
  return out;
}

/** Runs async cases round-robin: `SAMPLES` samples of `PER_SAMPLE` awaited calls each. */
async function compareAsync(cases) {
  for (const c of cases) for (let i = 0; i < PER_SAMPLE; i++) await c.fn(); // warm-up
  const times = cases.map(() => []);
  for (let s = 0; s < SAMPLES; s++) {
    for (const [k, c] of cases.entries()) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < PER_SAMPLE; i++) await c.fn();
      times[k].push(Number(process.hrtime.bigint() - t0) / PER_SAMPLE);
    }
  }
  return cases.map((c, k) => summary(c, times[k]));
}

/** Commit-to-callback latency of `store.watch`: one update at a time, each awaited by its callback. */
async function watchLatency(store) {
  const waiting = [];
  const watcher = await store.watch("lat/", null, () => waiting.shift()?.(process.hrtime.bigint()), { initial: false });
  const fromCommit = [];
  const fromCall = [];
  try {
    for (let i = 0; i < LATENCIES; i++) {
      const seen = new Promise((resolve) => waiting.push(resolve));
      const t0 = process.hrtime.bigint();
      await store.update("lat/.fctry/state.json", "fctry.state", { progress: { done: i } });
      const committed = process.hrtime.bigint();
      const called = await seen;
      fromCommit.push(Math.max(0, Number(called - committed)));
      fromCall.push(Number(called - t0));
    }
  } finally {
    await watcher.close();
  }
  const p95 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)];
  return { fromCommit: [median(fromCommit), p95(fromCommit)], fromCall: [median(fromCall), p95(fromCall)] };
}

async function main() {
  const running = server();
  const env = running.env;
  const connection = { host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER, database: env.PGDATABASE };
  const admin = new pg.Client(connection);
  await admin.connect();
  const db = `bench_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin.query(`CREATE DATABASE ${db}`);
  const options = { ...connection, database: db };
  const store = await PostgresStore.connect(options);
  const client = new pg.Client(options);
  await client.connect();
  try {
    const state = JSON.parse(fs.readFileSync(path.join(here, "fixtures", "fctry_state.json"), "utf8"));
    const patch = JSON.parse(fs.readFileSync(path.join(here, "fixtures", "patch.json"), "utf8"));
    await client.query("CREATE TABLE bench_docs (key text PRIMARY KEY, text text NOT NULL)");
    await client.query("INSERT INTO bench_docs VALUES ('s', $1)", [`${JSON.stringify(state, null, 2)}\n`]);
    await store.update(KEY, "fctry.state", state);
    let count = 0;
    const nextPatch = () => deepMerge(patch, { progress: { done: ++count } });

    const statecoreUpdate = () => store.update(KEY, "fctry.state", nextPatch());
    const handWrittenOn = async (on) => {
      await on.query("BEGIN");
      try {
        const { rows } = await on.query("SELECT text FROM bench_docs WHERE key = 's' FOR UPDATE");
        const doc = deepMerge(JSON.parse(rows[0].text), nextPatch());
        await on.query("UPDATE bench_docs SET text = $1 WHERE key = 's'", [`${JSON.stringify(doc, null, 2)}\n`]);
        await on.query("COMMIT");
        return doc;
      } catch (error) {
        await on.query("ROLLBACK");
        throw error;
      }
    };
    const handWritten = () => handWrittenOn(client);
    const got = await statecoreUpdate();
    count -= 1; // the same patch for the check
    assertSameJson("store update", got.document, await handWritten());

    log("store: PostgresStore.update vs node-postgres SELECT ... FOR UPDATE");
    const results = await compareAsync([
      { name: "PostgresStore.update (statecore)", statecore: true, fn: statecoreUpdate },
      { name: "pg FOR UPDATE + JSON + object merge", fn: handWritten },
    ]);
    process.stdout.write(
      table(
        "Node PostgreSQL update (a fctry state, one row)",
        "One update of the same row in one transaction, the server on this machine (127.0.0.1, " +
          "fsync on), awaited one after the other. statecore also validates the document and " +
          "computes its etag; the hand-written one does neither.",
        results,
      ) + "\n",
    );

    // Two writers taking turns on one row: each update finds the row changed by the other
    // since its own last write (the text a PostgresStore keeps is stale every time).
    const other = await PostgresStore.connect(options);
    const client2 = new pg.Client(options);
    await client2.connect();
    try {
      let turn = 0;
      const stores = [store, other];
      const clients = [client, client2];
      const takingTurns = () => stores[turn++ % 2].update(KEY, "fctry.state", nextPatch());
      const handTurns = () => handWrittenOn(clients[turn++ % 2]);
      log("store: two writers taking turns on one row");
      const turns = await compareAsync([
        { name: "PostgresStore.update, 2 stores taking turns (statecore)", statecore: true, fn: takingTurns },
        { name: "pg FOR UPDATE + JSON + object merge, 2 clients taking turns", fn: handTurns },
      ]);
      process.stdout.write(
        table(
          "Node PostgreSQL update, two writers taking turns (one row)",
          "As above, but two stores (two connections) update the row in turn, so each finds it " +
            "changed since its own last write: the text a store keeps is stale every time and its " +
            "compare-and-swap returns the row instead (docs/store.md § Updates).",
          turns,
        ) + "\n",
      );
    } finally {
      await client2.end();
      await other.close();
    }

    log("store: watch latency");
    const latency = await watchLatency(store);
    process.stdout.write(
      [
        "### Node store watch latency",
        "",
        `${LATENCIES} updates of one row, each awaited by its \`store.watch\` callback (LISTEN/NOTIFY, then the row read and checked as its kind).`,
        "",
        "| measured | median | p95 |",
        "|---|---|---|",
        `| commit returned → callback | ${formatNs(latency.fromCommit[0])} | ${formatNs(latency.fromCommit[1])} |`,
        `| update called → callback | ${formatNs(latency.fromCall[0])} | ${formatNs(latency.fromCall[1])} |`,
        "",
      ].join("\n") + "\n",
    );
  } finally {
    await client.end();
    await store.close();
    await admin.query(`DROP DATABASE ${db} WITH (FORCE)`);
    await admin.end();
    running.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
