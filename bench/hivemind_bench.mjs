// Bench (7a): hivemind `onFile` per call over 100,000 trigger events (a realistic mix:
// transitions, ignored files, follow-ups), statecore against the hand-written table in
// hivemind_reference.mjs; no target (the user's job, end to end, is row (7):
// hivemind_e2e.mjs). Both are first run over the whole sequence and must agree on every step.
import { check, formatNs, log, median, table } from "./lib.mjs";
import * as reference from "./hivemind_reference.mjs";

/** One pass through a workflow: [kind, path or event, content]. */
const PASS = [
  ["file", "workspace/plan.md", "# Plan\nCheckpoints: 2\n"],
  ["file", "workspace/plan-feedback.md", "Split chunk 2."],
  ["file", "workspace/notes.txt", "scratch"],
  ["file", "workspace/plan.md", "Checkpoints: 3"],
  ["file", "workspace/plan-approved.md", "ok"],
  ["file", "workspace/friction/slow-tests.md", "4 minutes"],
  ["follow", "sync_friction"],
  ["file", "workspace/friction/more.md", "x"],
  ["file", "workspace/friction-resolution.md", "cache deps"],
  ["file", "workspace/plan-approved.md", "ok"],
  ["file", "workspace/checkpoint.md", "auth"],
  ["follow", "review_checkpoint"],
  ["file", "workspace/checkpoint-approved.md", "looks good, done"],
  ["file", "workspace/checkpoint-issues.md", "tests fail"],
  ["file", "workspace/checkpoint.md", "fixed"],
  ["file", "workspace/checkpoint-approved.md", "**Decision:** continue"],
  ["file", "workspace/checkpoint.md", "api"],
  ["follow", "review_checkpoint"],
  ["file", "workspace/checkpoint-approved.md", "Decision: complete"],
];
const NOW = "2026-01-23T10:30:00Z";

export function hivemindSection({ sc, quick, out }) {
  log("(7) hivemind onFile over trigger events");
  const { hivemind } = sc;
  const messages = Object.fromEntries(
    hivemind.machine().states.map((s) => [s.name, hivemind.contextMessage(s.name)]).filter(([, m]) => m),
  );
  const N = quick ? 10_000 : 100_000;
  // Every pass starts from the same planning state (made once, outside the timing).
  const planning = hivemind.fire(hivemind.fire(null, "select_project", NOW, { project: "/p" }).state, "give_task", NOW).state;
  const start = () => planning;
  const implementations = {
    statecore: {
      file: (s, path, content) => hivemind.onFile(s, path, content, NOW),
      follow: (s, event) => hivemind.followUp(s, event, NOW),
    },
    reference: {
      file: (s, path, content) => reference.onFile(s, path, content, NOW, messages),
      follow: (s, event) => reference.followUp(s, event, NOW, messages),
    },
  };
  /** Runs n events; `each(i, outcome)` sees every outcome. A finished pass starts over. */
  const run = (impl, n, each) => {
    let state = start();
    for (let i = 0; i < n; i++) {
      const [kind, what, content] = PASS[i % PASS.length];
      if (i % PASS.length === 0) state = start();
      const outcome = kind === "file" ? impl.file(state, what, content) : impl.follow(state, what);
      if (each) each(i, outcome);
      state = outcome.state;
    }
    return state;
  };
  // Agreement on every step of one pass (and the final state of the whole run).
  const mine = [];
  run(implementations.statecore, PASS.length, (i, o) => mine.push(o));
  run(implementations.reference, PASS.length, (i, o) => {
    const m = mine[i];
    const same = JSON.stringify(m.state) === JSON.stringify(o.state) &&
      JSON.stringify(m.notifications) === JSON.stringify(o.notifications) &&
      JSON.stringify(m.scheduled) === JSON.stringify(o.scheduled) &&
      (m.ignored === null) === (o.ignored === undefined);
    check(`(7) the reference agrees with statecore at step ${i} (${PASS[i][1]})`, same,
      `${JSON.stringify(m.state)} vs ${JSON.stringify(o.state)}`);
  });
  check("(7) the pass ends complete", mine.at(-1).state.state === "complete");
  // A resident state document (docs/api.md § Resident documents): each event crosses with its
  // path and content only; the state stays in wasm memory. A pass starts over from a new
  // resident copy of the planning state (one crossing of the state per pass, timed).
  const runResident = (n, each) => {
    let doc = null;
    for (let i = 0; i < n; i++) {
      const [kind, what, content] = PASS[i % PASS.length];
      if (i % PASS.length === 0) {
        doc?.free();
        doc = sc.residentDocument("hivemind.state", planning);
      }
      const outcome = kind === "file" ? doc.onFile(what, content, NOW) : doc.followUp(what, NOW);
      if (each) each(i, outcome, doc);
    }
    doc?.free();
  };
  runResident(PASS.length, (i, o, doc) => {
    const m = mine[i];
    const same = JSON.stringify(doc.toJSON()) === JSON.stringify(m.state) &&
      JSON.stringify(o.result.notifications) === JSON.stringify(m.notifications) &&
      JSON.stringify(o.result.scheduled) === JSON.stringify(m.scheduled) &&
      o.result.ignored === m.ignored;
    check(`(7) the resident document agrees with onFile at step ${i} (${PASS[i][1]})`, same,
      `${JSON.stringify(doc.toJSON())} vs ${JSON.stringify(m.state)}`);
  });
  const samples = quick ? 1 : 3;
  const times = { statecore: [], resident: [], reference: [] };
  for (let k = 0; k < samples; k++) {
    for (const [name, impl] of Object.entries(implementations)) {
      const t0 = process.hrtime.bigint();
      run(impl, N);
      times[name].push(Number(process.hrtime.bigint() - t0) / N);
    }
    const t0 = process.hrtime.bigint();
    runResident(N);
    times.resident.push(Number(process.hrtime.bigint() - t0) / N);
  }
  const results = [
    { name: "statecore hivemind.onFile / followUp", statecore: true, median: median(times.statecore),
      min: Math.min(...times.statecore), max: Math.max(...times.statecore), samples },
    { name: "statecore resident state document: doc.onFile / doc.followUp", statecore: true,
      median: median(times.resident), min: Math.min(...times.resident), max: Math.max(...times.resident), samples },
    { name: "hand-written JS trigger table (bench/hivemind_reference.mjs)", reference: true, median: median(times.reference),
      min: Math.min(...times.reference), max: Math.max(...times.reference), samples },
  ];
  out.push(
    table(
      `Node (7a): hivemind trigger events per call (${N.toLocaleString("en")} events per sample; no target)`,
      `A workflow of ${PASS.length} events repeated: trigger files (some ignored), follow-ups; each event ` +
        "takes the state document and returns the new one with its notifications and follow-ups " +
        "(the resident row: the state stays in wasm memory and only the event crosses). No target: the user's job " +
        "is a trigger file written to the callback, row (7). " +
        `Whole run: statecore ${formatNs(median(times.statecore) * N)}, hand-written ${formatNs(median(times.reference) * N)}.`,
      results,
      "per event",
    ),
  );
}
