// Part 3 of `make demo`: a scripted Hivemind project in a fresh temp directory.
// The Node host runs `watchWorkspace` (statecore/hivemind); Python "agents"
// (examples/hivemind_agent.py, one process per step) write the trigger files under workspace/;
// the watcher moves workspace/state.json and prints each transition and each notification an
// agent's terminal would get. Story: a plan with 2 checkpoints, feedback and a revision,
// checkpoint 1 with issues and a fix, friction logged and resolved, checkpoint 2, an approval
// without a Decision line (nothing changes), then `Decision: complete`.
// Any step that does not reach its state in time fails the demo (exit 1).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { watchWorkspace } from "../npm/lib/generated/hivemind.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const python = join(root, ".venv", "bin", "python");
const agentScript = join(root, "examples", "hivemind_agent.py");
const STEP_TIMEOUT_MS = 15_000;

const project = mkdtempSync(join(tmpdir(), "hivemind-demo-"));
let waiting = null; // {done(kind, value), cancel()}: the step being waited for
const errors = []; // everything reported to onError (any one fails the demo)
const signal = (kind, value) => waiting?.done(kind, value);

const progress = (s) =>
  s.total_checkpoints || s.current_checkpoint
    ? `   [checkpoint ${s.current_checkpoint}/${s.total_checkpoints ?? "?"}, friction ${s.friction_count}]`
    : "";

const watcher = watchWorkspace(project, {
  onStateChanged(state, outcome) {
    for (const t of outcome.transitions) console.log(`  ${t.from} → ${t.to} (${t.event})${progress(state)}`);
    signal("state", state.state);
  },
  onNotify(agent, message) {
    console.log(`      → ${agent}: ${message}`);
  },
  onIgnored(path, reason) {
    console.log(`  (nothing happens: ${reason})`);
  },
  onProblem(problem) {
    console.log(`  ! ${problem.code}: ${problem.message}`);
    signal("problem", problem.code);
  },
  onError(error) {
    errors.push(error);
    signal("error", error);
  },
});

/** Resolves when `kind` is reported with `value` (a state, a problem code); rejects on errors. */
function expect(kind, value) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${kind} ${value}`)), STEP_TIMEOUT_MS);
    waiting = {
      cancel() {
        clearTimeout(timer);
        waiting = null;
        resolve();
      },
      done(k, v) {
        if (k === "error" || (k === kind && v === value)) {
          clearTimeout(timer);
          waiting = null;
          k === "error" ? reject(v) : resolve();
        }
      },
    };
  });
}

/** One agent process writes FILE; waits until the workflow reaches `until` (a state or problem). */
async function agent(name, file, content, until) {
  const reached = expect(until.problem ? "problem" : "state", until.problem ?? until);
  let said;
  try {
    said = execFileSync(python, [agentScript, project, name, file, content], { encoding: "utf8" });
  } catch (error) {
    waiting?.cancel();
    throw error;
  }
  process.stdout.write(said);
  await reached;
}

/** A host event (the user's action), through the watcher so its follow-ups are armed. */
async function user(event, text, details) {
  console.log(`user ${text}`);
  await watcher.fire(event, { details });
}

let failed = false;
try {
  await watcher.ready;
  console.log(`Hivemind in a fresh temp project: the watcher (node) reacts to trigger files written by`);
  console.log(`agent processes (python examples/hivemind_agent.py); transitions and notifications:`);
  await user("select_project", "selects the project folder", { project });
  await user("give_task", "gives the task: a todo app");
  await agent("lead", "plan.md", "# Plan: todo app\n\nCheckpoints: 2\n\n1. storage\n2. UI\n", "plan_review");
  await agent("reviewer", "plan-feedback.md", "Say which storage.\n", "plan_revision");
  await agent("lead", "plan.md", "# Plan: todo app (SQLite)\n\nCheckpoints: 2\n", "plan_review");
  await agent("reviewer", "plan-approved.md", "Approved.\n", "executing");
  // checkpoint → checkpoint_review happens by itself 500 ms later (a scheduled follow-up)
  await agent("worker1", "checkpoint.md", "Storage done.\n", "checkpoint_review");
  await agent("reviewer", "checkpoint-issues.md", "No migration for the schema.\n", "checkpoint_fix");
  await agent("worker2", "checkpoint.md", "Storage done, with a migration.\n", "checkpoint_review");
  await agent("reviewer", "checkpoint-approved.md", "Storage approved.\n\nDecision: continue\n", "executing");
  // friction_logged → friction_sync is automatic too
  await agent("worker1", "friction/slow-tests.md", "The UI tests take 4 minutes.\n", "friction_sync");
  await agent("lead", "friction-resolution.md", "Run the UI tests headless.\n", "plan_review");
  await agent("reviewer", "plan-approved.md", "Approved with the friction fix.\n", "executing");
  await agent("worker2", "checkpoint.md", "UI done.\n", "checkpoint_review");
  // words are not decisions: without a `Decision:` line nothing changes
  await agent("reviewer", "checkpoint-approved.md", "Looks complete to me.\n", { problem: "W_DECISION_MISSING" });
  await agent("reviewer", "checkpoint-approved.md", "All done.\n\nDecision: complete\n", "complete");
} catch (error) {
  failed = true;
  console.error(`hivemind demo failed: ${error?.stack ?? error}`);
} finally {
  await watcher.close();
  rmSync(project, { recursive: true, force: true });
}
if (errors.length) {
  failed = true;
  console.error(`hivemind demo: the watcher reported ${errors.length} error(s): ${errors.join("; ")}`);
}
if (!failed) console.log("complete; the watcher is closed and the temp project removed");
process.exitCode = failed ? 1 : 0;
