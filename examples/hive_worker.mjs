// A hive worker (Node) for `make demo`: `node hive_worker.mjs SESSION_DIR WORKER STEPS`.
// Spawns, then heartbeats and records progress STEPS times (50 ms apart), then completes with
// its notes; each milestone is one locked step of `statecore/hive` that appends its line to
// EVENTS.jsonl and writes STATE.json. STEPS `hang`: spawns, beats twice, then hangs.
import hive from "../npm/lib/generated/hive.mjs";

const [dir, worker, steps] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await hive.spawnWorker(dir, worker);
const rounds = steps === "hang" ? 2 : Number(steps);
for (let r = 0; r < rounds; r++) {
  await sleep(50);
  await hive.heartbeat(dir, worker);
  await hive.recordProgress(dir, worker, { metrics: { files_created: r + 1 } });
}
if (steps === "hang") {
  console.log(`  ${worker} (node) stops answering`);
  await sleep(3_600_000);
}
await hive.completeWorker(dir, worker, { notes: `notes/${worker}.md` }, { tokens_estimated: 900 });
