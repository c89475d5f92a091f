"use strict";
// Test helper: `node hive_agent.cjs SESSION_DIR WORKER ROUNDS` acts as one hive worker on the
// session directory: spawnWorker, then ROUNDS - 2 milestones (heartbeat and recordProgress
// with files_created = r, in turn), then completeWorker: ROUNDS locked steps of
// `statecore/hive`, each appending its event line. Prints "ready", waits for a line on stdin,
// runs, prints "done" and exits 0. `loop` instead of ROUNDS: beats and progresses until killed
// (the crash test), printing "go" once the first step is done.
const hive = require("../../lib/hive.cjs");

const [dir, worker, rounds] = process.argv.slice(2);
const options = { timeout: 60_000 };

function milestone(r) {
  if (r % 2 === 0) hive.heartbeatSync(dir, worker, options);
  else hive.recordProgressSync(dir, worker, { metrics: { files_created: r } }, options);
}

function run() {
  if (rounds === "loop") {
    milestone(0);
    process.stdout.write("go\n");
    for (let r = 1; ; r++) milestone(r);
  }
  const n = Number(rounds);
  hive.spawnWorkerSync(dir, worker, options);
  for (let r = 1; r < n - 1; r++) milestone(r);
  hive.completeWorkerSync(dir, worker, { notes: `${worker}.md` }, null, options);
  process.stdout.write("done\n", () => process.exit(0));
}

hive.readStateSync(dir); // loads the wasm before "ready"
process.stdout.write("ready\n");
process.stdin.once("data", run);
