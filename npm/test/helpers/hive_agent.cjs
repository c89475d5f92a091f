"use strict";
// Test helper: `node hive_agent.cjs SESSION_DIR WORKER ROUNDS` acts as one hive worker on the
// session directory: spawnWorker, then ROUNDS - 2 milestones (heartbeat and recordProgress
// with files_created = r, in turn), then completeWorker: ROUNDS locked steps of
// `statecore-js/hive`, each appending its event line. Prints "ready", waits for a line on stdin,
// runs, prints "done" and exits 0. `loop` instead of ROUNDS: beats and progresses until killed
// (the crash test), printing "go" once the first step is done. With
// STATECORE_AGENT_STORE=postgres the session is in the PostgreSQL store of the PG*
// environment, SESSION_DIR its key prefix (the async helpers); otherwise files (the sync ones).
const hive = require("../../lib/host/hive.cjs");

const [dir, worker, rounds] = process.argv.slice(2);
const options = { timeout: 60_000 };
const inStore = process.env.STATECORE_AGENT_STORE === "postgres";

/** The helper `name` on the session: the async form with the store, else the sync one. */
const step = (name, ...args) => (inStore ? hive[name] : hive[`${name}Sync`])(dir, ...args, options);

async function milestone(r) {
  if (r % 2 === 0) await step("heartbeat", worker);
  else await step("recordProgress", worker, { metrics: { files_created: r } });
}

async function run() {
  if (rounds === "loop") {
    await milestone(0);
    process.stdout.write("go\n");
    for (let r = 1; ; r++) await milestone(r);
  }
  const n = Number(rounds);
  await step("spawnWorker", worker);
  for (let r = 1; r < n - 1; r++) await milestone(r);
  await step("completeWorker", worker, { notes: `${worker}.md` }, null);
  process.stdout.write("done\n", () => process.exit(0));
}

async function main() {
  if (inStore) {
    const { PostgresStore } = require("../../lib/store/store.cjs");
    options.store = await PostgresStore.connect();
  }
  await step("readState"); // loads the wasm (and connects) before "ready"
  process.stdout.write("ready\n");
  process.stdin.once("data", () =>
    run().catch((error) => {
      console.error(error);
      process.exit(1);
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
