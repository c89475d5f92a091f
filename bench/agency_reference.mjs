// A straightforward JS implementation of the agency run status (the seed's internal/status/
// derive.go: the 12-level precedence) and of the `ls` table, the way a tool author would write
// it by hand: the comparison for bench (8). Only for the bench; it must agree with statecore on
// every run of the bench's snapshots (checked before timing). Like most hand-written code it
// trusts its input: it does not check the snapshot's shape (unknown fields, wrong types), which
// statecore reports as E_ARGUMENT.

const RUNNER_STATUSES = new Set(["working", "needs_input", "blocked", "ready_for_review"]);
const DISPLAY = {
  broken: "broken", merged: "merged", abandoned: "abandoned", failed: "failed",
  needs_attention: "needs attention", ready_for_review: "ready for review", needs_input: "needs input",
  blocked: "blocked", working: "working", stalled: "stalled", active: "active", idle: "idle",
};

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
// Blank as in Go's strings.TrimSpace / Rust's str::trim (Unicode White_Space): unlike JS's
// String.prototype.trim, U+0085 is space and U+FEFF is not.
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
const nonBlank = (v) => typeof v === "string" && !BLANK.test(v);
const nonEmptyArray = (v) => Array.isArray(v) && v.length > 0;

// RFC 3339 date-time with a zone (what Go's time.RFC3339 and chrono accept).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
function isTimestamp(text) {
  const m = RFC3339.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (!days || day < 1 || day > days || hour > 23 || minute > 59 || second > 60) return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

/** The runner status rules: true when the document validates (no errors; warnings are fine). */
export function validRunnerStatus(s) {
  if (!isObject(s)) return false;
  const status = s.status;
  if (!RUNNER_STATUSES.has(status)) return false; // missing, null, not a string, wrong case
  if (!nonBlank(s.summary)) return false;
  if (status === "needs_input" && !nonEmptyArray(s.questions)) return false;
  if (status === "blocked" && !nonEmptyArray(s.blockers)) return false;
  if (status === "ready_for_review" && !nonBlank(s.how_to_test)) return false;
  for (const key of ["schema_version", "summary", "how_to_test", "updated_at"]) {
    if (s[key] != null && typeof s[key] !== "string") return false;
  }
  if (typeof s.updated_at === "string" && !isTimestamp(s.updated_at)) return false;
  for (const key of ["questions", "blockers", "risks"]) {
    const list = s[key];
    if (list == null) continue;
    if (!Array.isArray(list)) return false;
    for (const item of list) if (typeof item !== "string") return false;
  }
  return true;
}

/** The level of a snapshot, and what `ls` needs: [status, archived, stalled ms or null, runner]. */
function classify(snapshot) {
  const archived = snapshot.worktree_present === false;
  const tmux = snapshot.tmux_active === true;
  const stall = snapshot.stall_result;
  const stalledMs = stall && stall.is_stalled === true ? (stall.stalled_duration ?? 0) : null;
  const runner = validRunnerStatus(snapshot.runner_status) ? snapshot.runner_status : null;
  const meta = snapshot.meta;
  let status;
  if (!isObject(meta)) status = "broken";
  else if (typeof meta.archive?.merged_at === "string" && meta.archive.merged_at !== "") status = "merged";
  else if (meta.flags?.abandoned === true) status = "abandoned";
  else if (meta.flags?.setup_failed === true) status = "failed";
  else if (meta.flags?.needs_attention === true) status = "needs_attention";
  else if (runner) status = runner.status; // ready_for_review, needs_input, blocked, working
  else if (stalledMs !== null && tmux) status = "stalled";
  else if (tmux) status = "active";
  else status = "idle";
  return [status, archived, status === "stalled" ? stalledMs : null, runner];
}

/** `derive(snapshot)`: `{status, display, archived}`, plus `stalled_duration` (ms) when stalled. */
export function derive(snapshot) {
  const [status, archived, stalledMs] = classify(snapshot);
  const display = archived ? `${DISPLAY[status]} (archived)` : DISPLAY[status];
  const out = { status, display, archived };
  if (stalledMs !== null) out.stalled_duration = stalledMs;
  return out;
}

// --- ls -----------------------------------------------------------------------------------
const COLUMNS = [["RUN_ID", 20], ["NAME", 16], ["STATUS", 18], ["SUMMARY", 27], ["PR", 0]];
const oneLine = (text) => text.replace(/\p{Cc}/gu, " ");
const length = (text) => {
  let n = 0;
  for (const _ of text) n++; // code points, not UTF-16 units
  return n;
};

function truncate(text) {
  if (length(text) <= 40) return text;
  return Array.from(text).slice(0, 39).join("") + "…";
}

/** A stall duration: `45m`, `2h`, `2h15m` (whole minutes, rounded down). */
function formatStall(ms) {
  const minutes = Math.floor(Math.max(ms, 0) / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
}

function prCell(pr) {
  if (typeof pr === "number") return `#${pr}`;
  if (typeof pr === "string" && pr !== "") return oneLine(pr);
  return "-";
}

/** The seed's `ls` table of rows `{run_id, name, pr, snapshot}`. */
export function renderLs(rows) {
  const table = [COLUMNS.map(([title]) => title)];
  for (const row of rows) {
    const [status, archived, stalledMs, runner] = classify(row.snapshot);
    let summary = "-";
    if (stalledMs !== null) summary = `(no activity for ${formatStall(stalledMs)})`;
    else if (runner) summary = truncate(oneLine(runner.summary));
    table.push([
      oneLine(row.run_id ?? "-"),
      oneLine(row.name ?? "-"),
      archived ? `${DISPLAY[status]} (archived)` : DISPLAY[status],
      summary,
      prCell(row.pr),
    ]);
  }
  const widths = COLUMNS.map(([, least]) => least);
  for (const cells of table) {
    cells.forEach((cell, i) => {
      widths[i] = Math.max(widths[i], length(cell) + 2);
    });
  }
  let out = "";
  for (const cells of table) {
    for (let i = 0; i < cells.length - 1; i++) out += cells[i].padEnd(widths[i] - length(cells[i]) + cells[i].length);
    out += cells[cells.length - 1] + "\n";
  }
  return out;
}
