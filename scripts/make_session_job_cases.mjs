// Writes tests/conformance/store/session_jobs.json (a maintainer's tool, not run by the tests):
// each case a hive session's job in a store (docs/store.md § Hive sessions) given the answers a
// PostgreSQL store would give on one path, and the steps the core's `store_job_script` asks for
// over them as the expectation, reviewed by hand before they were kept. Needs the built npm
// package:
//
//     node scripts/make_session_job_cases.mjs
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { storeJobScript } = createRequire(import.meta.url)(path.join(root, "npm", "lib", "host", "documents.cjs")).core();
const OUT = path.join(root, "tests", "conformance", "store", "session_jobs.json");

const KEY = "sessions/s1/STATE.json";
const setup = (extra = {}) => ({ key: KEY, kind: "hive.state", ...extra });
const OK = {};
const row = (etag) => ({ count: 1, etag });
const NONE = { count: 0 };
const bytes = (n) => ({ count: 1, bytes: n });
const NOLOG = { count: 0 };
const WRITTEN = { count: 1 };
const MISSED = { count: 0 };
const plan = (...answers) => ({ answers });
/** An apply's answer: the core's `update_logged` (or a replay's commit) as the job sees it. */
const out = ({ replay_from = null, corrupt = false, line = true, write = true, log_offset = 150, torn = false } = {}) => ({
  replay_from,
  corrupt,
  line,
  write,
  log_offset,
  torn,
});
const appended = (end) => ({ count: 1, seq: 3, appended: true, end_offset: end });
const failed = (n, { sqlstate = null, connection = false, refused = false, message = "the driver's message" } = {}) => ({
  failed: n,
  sqlstate,
  connection,
  message,
  refused,
});
const OPENING = plan(OK, row("e1"), bytes(100));
const FINISH = plan(appended(150), WRITTEN, OK);

const steps = [
  ["a step: the opening in one plan, the change applied, the line appended, the state written and committed in one plan", setup(), [OPENING, out(), FINISH]],
  ["a session's first step: no row, no log yet (an INSERT)", setup(), [plan(OK, NONE, NOLOG), out({ log_offset: 80 }), plan(appended(80), WRITTEN, OK)]],
  [
    "a line appended outside a step got in first: rolled back, run again",
    setup(),
    [OPENING, out(), plan(appended(190)), OK, plan(OK, row("e1"), bytes(190)), out({ log_offset: 240 }), plan(appended(240), WRITTEN, OK)],
  ],
  [
    "another writer created the state meanwhile: rolled back, run again",
    setup(),
    [plan(OK, NONE, NOLOG), out({ log_offset: 80 }), plan(appended(80), MISSED), OK, plan(OK, row("e2"), bytes(80)), out({ log_offset: 160 }), plan(appended(160), WRITTEN, OK)],
  ],
  ["nothing to append or write (a rebuild that changed nothing): committed", setup(), [OPENING, out({ line: false, write: false }), plan(OK)]],
  [
    "the state behind its log: the lines from its offset fed to a replay, then appended and written",
    setup(),
    [plan(OK, row("e1"), bytes(300)), out({ replay_from: 100 }), OK, { count: 2, end_offset: 300 }, out({ log_offset: 350 }), plan(appended(350), WRITTEN, OK)],
  ],
  [
    "an unreadable state: its text kept, the whole log replayed",
    setup(),
    [OPENING, out({ replay_from: 0, corrupt: true }), { count: 1 }, OK, { count: 4, end_offset: 100 }, out({ log_offset: 150 }), FINISH],
  ],
  ["no state and a log: replayed from its start, nothing kept", setup(), [plan(OK, NONE, bytes(100)), out({ replay_from: 0, corrupt: true }), OK, { count: 4, end_offset: 100 }, out(), FINISH]],
  [
    "a long log: fed a page of 1000 lines at a time, each from where the last ended",
    setup(),
    [plan(OK, row("e1"), bytes(90000)), out({ replay_from: 0 }), OK, { count: 1000, end_offset: 60000 }, { count: 1000, end_offset: 89000 }, { count: 12, end_offset: 90000 }, out({ log_offset: 90050 }), plan(appended(90050), WRITTEN, OK)],
  ],
  [
    "a replay that asks for the whole log: a second replay",
    setup(),
    [OPENING, out({ replay_from: 60 }), OK, { count: 1, end_offset: 100 }, out({ replay_from: 0, corrupt: true }), { count: 1 }, OK, { count: 3, end_offset: 100 }, out(), FINISH],
  ],
  [
    "a third replay is never asked for: rolled back, E_STORE",
    setup(),
    [OPENING, out({ replay_from: 60 }), OK, { count: 1, end_offset: 100 }, out({ replay_from: 0 }), OK, { count: 3, end_offset: 100 }, out({ replay_from: 0 }), OK],
  ],
  ["a line of the log read torn: rolled back, E_STORE", setup(), [OPENING, out({ replay_from: 60 }), OK, { count: 1, end_offset: 100 }, out({ torn: true }), OK]],
  ["a timeout: lock_timeout set in the opening, in whole ms (at least 1)", setup({ timeout_ms: 0.4 }), [plan(OK, OK, row("e1"), bytes(100)), out(), FINISH]],
  ["the row held past the timeout: rolled back, E_LOCK_TIMEOUT", setup({ timeout_ms: 250 }), [plan(OK, OK, failed(0, { sqlstate: "55P03" })), OK]],
  ["the change refused (the host's error): rolled back and raised", setup(), [OPENING, failed(0, { refused: true }), OK]],
  ["the connection lost at BEGIN: dropped, E_STORE", setup(), [plan(failed(0, { connection: true })), OK]],
  ["the connection lost at COMMIT: dropped, E_STORE", setup(), [OPENING, out(), plan(appended(150), WRITTEN, failed(0, { sqlstate: "08006", connection: true })), OK]],
  ["a statement's own error while appending: rolled back, raised", setup(), [OPENING, out(), plan(failed(0, { sqlstate: "23505" })), OK]],
  [
    "other writers in the way eight times: E_STORE",
    setup(),
    Array.from({ length: 8 }, () => [OPENING, out(), plan(appended(190)), OK]).flat(),
  ],
];
const reads = [
  ["a state that folds its whole log: one statement, one apply, done", setup(), [bytes(100), out({ line: false, write: false })]],
  ["a state behind its log: rebuilt in a step's transaction", setup(), [bytes(300), out({ replay_from: 100, line: false, write: false }), plan(OK, row("e1"), bytes(300)), out({ replay_from: 100 }), OK, { count: 2, end_offset: 300 }, out({ line: false }), plan(WRITTEN, OK)]],
  ["no state, no log: one apply, done (the kind's default)", setup(), [{ count: 1 }, out({ line: false, write: false })]],
  ["the read's connection lost: dropped, E_STORE naming the read", setup(), [failed(0, { connection: true }), OK]],
  ["the read's apply refused: raised", setup(), [bytes(100), failed(0, { refused: true })]],
];
const errors = [
  ["a session's job takes no known text: E_ARGUMENT at it", "session_step", { ...setup(), known: { etag: "e", trusted: true } }, "/setup/known"],
  ["a session's job has no function: E_ARGUMENT at it", "session_read", { ...setup(), function: true }, "/setup/function"],
  ["a kind kept without a log: E_ARGUMENT at the kind", "session_step", { key: "docs/.fctry/state.json", kind: "fctry.state" }, "/setup/kind"],
  ["a misspelt field: E_ARGUMENT at it", "session_step", { ...setup(), timeout: 5 }, "/setup/timeout"],
];

const cases = [];
for (const [job, list] of [["session_step", steps], ["session_read", reads]]) {
  for (const [name, s, answers] of list) {
    const expect = storeJobScript(job, s, answers);
    cases.push({ name: `${job}: ${name}`, op: "store_job_script", args: [job, s, answers], expect });
  }
}
for (const [name, job, s, at] of errors) {
  let code;
  let where;
  try {
    storeJobScript(job, s, []);
  } catch (error) {
    code = error.code;
    where = error.path;
  }
  if (where !== at) throw new Error(`${name}: ${code} at ${where}, not at ${at}`);
  cases.push({ name: `${job}: ${name}`, op: "store_job_script", args: [job, s, []], error: { code, path: at } });
}
const description =
  "A hive session's jobs in a store (docs/store.md § Hive sessions), `session_step` and `session_read`, each given the answers a PostgreSQL store gives on one path: the steps the core asks for. Written by scripts/make_session_job_cases.mjs, reviewed by hand.";
fs.writeFileSync(OUT, `${JSON.stringify({ description, cases }, null, 2)}\n`);
console.log(`wrote ${cases.length} cases to ${path.relative(root, OUT)}`);
