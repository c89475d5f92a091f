"use strict";
// Test helper: `node specify_editing_helper.cjs FEATURE_DIR NAME STOP_FILE [unguarded]` is a
// tool updating the index.md a person is editing (npm/test/specify_edit.test.mjs): prints
// "ready", then adds one gap ("NAME n") at a time until STOP_FILE exists, then adds a last
// one ("NAME last"), and prints `{"landed", "raised", "other"}`: the updates that landed
// (their gap in the result), those refused with E_CONFLICT (a file the person was saving),
// and any other error (none is allowed), and `put_back`: the windows `[start, end]` (ms on the
// system's monotonic clock, as `process.hrtime`) in which this tool's own version stood at the
// path before it put the person's file back (docs/locking.md § Files people edit, the limits),
// watched through the fault-injection seam. `unguarded` writes as the host did before issue 35
// (read, update, replace, with no regard for the person): the test's check must then fail.
// python/tests/helpers/specify_editing_helper.py is its twin.
const fs = require("node:fs");
const specify = require("../../lib/host/specify.cjs");
const core = require("../../lib/generated/core-node.cjs");
const atomic = require("../../lib/host/atomic.cjs");

const [dir, name, stop, mode] = process.argv.slice(2);
const options = { timeout: 60_000 };
const gap = (question) => ({ priority: "Important", chk_source: "CHK100", fr_reference: "FR-100", question });

/** The update as the host made it before issue 35: the bytes read taken as the document. */
function unguarded(question) {
  const file = specify.indexPath(dir);
  const bytes = atomic.readMaybe.sync(file);
  const result = core.updateFile(specify.KIND, "specify_add_gaps", bytes, [[gap(question)]], { reset: true });
  require("../../lib/host/replace.cjs").writeAtomic.sync(file, result.text);
  return result;
}

function add(question) {
  return mode === "unguarded" ? unguarded(question) : specify.addGapsSync(dir, [gap(question)], options);
}

const out = { landed: 0, raised: 0, other: [], put_back: [] };
// The guarded replace's system calls when it puts the person's file back (link the old file,
// stat it, rename ours in, stat the old file, rename it back, unlink the held link), one after
// another.
const PUT_BACK = ["link", "stat", "rename", "stat", "rename", "unlink"];
const steps = [];

/** Records a put-back: its window runs from our rename to the unlink of the held link. */
function watch(step) {
  steps.push([step, Number(process.hrtime.bigint()) / 1e6]);
  steps.splice(0, steps.length - PUT_BACK.length);
  if (steps.map(([name]) => name).join() === PUT_BACK.join()) out.put_back.push([steps[2][1], steps[5][1]]);
}

function attempt(question) {
  try {
    const result = add(question);
    if (!result.document.gap_priority_queue.some((g) => g.question === question)) throw new Error(`${question} not in the result`);
    out.landed++;
  } catch (error) {
    if (error.code === "E_CONFLICT") out.raised++;
    else out.other.push(`${question}: ${error.code ?? ""} ${error.message}`);
  }
}

atomic.setFaultInjector(watch);
specify.readIndexSync(dir); // loads the wasm before "ready"
process.stdout.write("ready\n");
let n = 0;
while (!fs.existsSync(stop)) attempt(`${name} ${n++}`);
attempt(`${name} last`);
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
