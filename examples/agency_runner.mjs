// A runner written in Node for `make demo` (examples/agency_demo.py): one milestone, one call.
// Usage: node agency_runner.mjs WORKTREE UPDATE_JSON
import { writeRunnerStatusSync } from "../npm/lib/generated/agency.mjs";

const [worktree, update] = process.argv.slice(2);
const { document } = writeRunnerStatusSync(worktree, JSON.parse(update));
console.log(`  node runner   ${worktree.split("/").pop()}: ${document.status} (${document.summary})`);
