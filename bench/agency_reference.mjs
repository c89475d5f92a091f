// A straightforward JS implementation of the agency run status (the seed's internal/status/
// derive.go: the 12-level precedence) and of the `ls` table, the way a tool author would write
// it by hand: the comparison for bench (8). Only for the bench; it must agree with statecore on
// every run of the bench's snapshots (checked before timing). Like most hand-written code it
// trusts its input: it does not check the snapshot's shape (unknown fields, wrong types), which
// statecore reports as E_ARGUMENT. An `updated_at` that is not RFC 3339 is only a warning (the
// client reads any string), so it does not make a status invalid.

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
  for (const key of ["questions", "blockers", "risks"]) {
    const list = s[key];
    if (list == null) continue;
    if (!Array.isArray(list)) return false;
    for (const item of list) if (typeof item !== "string") return false;
  }
  return true;
}

// meta.json as agency's Go client decodes it into its typed record: a field of another type
// (null is fine), or no schema_version or created_at, makes the run broken.
const META_STRINGS = ["schema_version", "run_id", "repo_id", "name", "runner", "runner_cmd",
  "parent_branch", "branch", "worktree_path", "created_at", "tmux_session_name", "pr_url",
  "last_push_at", "last_verify_at", "last_report_sync_at", "last_report_hash"];
const META_OBJECTS = {
  flags: { setup_failed: "boolean", tmux_failed: "boolean", needs_attention: "boolean",
    needs_attention_reason: "string", abandoned: "boolean" },
  setup: { command: "string", exit_code: "integer", duration_ms: "integer", timed_out: "boolean",
    log_path: "string", output_ok: "boolean", output_summary: "string" },
  archive: { archived_at: "string", merged_at: "string" },
};
const typed = (v, type) => v == null
  || (type === "integer" ? Number.isInteger(v) : typeof v === type);

function metaReadable(meta) {
  if (!isObject(meta)) return false;
  if (!META_STRINGS.every((k) => typed(meta[k], "string"))) return false;
  if (!meta.schema_version || !meta.created_at) return false;
  if (!typed(meta.pr_number, "integer")) return false;
  for (const [key, fields] of Object.entries(META_OBJECTS)) {
    const v = meta[key];
    if (v == null) continue;
    if (!isObject(v)) return false;
    for (const [k, type] of Object.entries(fields)) if (!typed(v[k], type)) return false;
  }
  return true;
}

/** The level of a snapshot, and what `ls` needs: [status, archived, stalled ms or null, runner]. */
function classify(snapshot) {
  const tmux = snapshot.tmux_active === true;
  const stall = snapshot.stall_result;
  const stalledMs = stall && stall.is_stalled === true ? (stall.stalled_duration ?? 0) : null;
  const runner = validRunnerStatus(snapshot.runner_status) ? snapshot.runner_status : null;
  const meta = snapshot.meta;
  let status;
  if (!metaReadable(meta)) status = "broken";
  else if (typeof meta.archive?.merged_at === "string" && meta.archive.merged_at !== "") status = "merged";
  else if (meta.flags?.abandoned === true) status = "abandoned";
  else if (meta.flags?.setup_failed === true) status = "failed";
  else if (meta.flags?.needs_attention === true) status = "needs_attention";
  else if (runner) status = runner.status; // ready_for_review, needs_input, blocked, working
  else if (stalledMs !== null && tmux) status = "stalled";
  else if (tmux) status = "active";
  else status = "idle";
  // A broken run is always archived, as agency shows it (no readable meta, no worktree known).
  const archived = status === "broken" || snapshot.worktree_present === false;
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

function truncate(text, width = 40) {
  if (length(text) <= width) return text;
  return Array.from(text).slice(0, width - 1).join("") + "…";
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
      status === "broken" ? "<broken>" : row.name ? truncate(oneLine(row.name), 50) : "<untitled>",
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

// --- a table of runs from their files' bytes (bench (8)) -----------------------------------
const DEFAULT_THRESHOLD_MS = 15 * 60_000;

/**
 * The run statuses of runs `{meta, status, facts}` (each file's bytes, a Buffer, or null when
 * missing; the facts as `build_snapshot` takes them), the way a viewer would write it by hand:
 * `JSON.parse` of each file (one that does not parse counts as missing, and is named in
 * `error`), the watchdog, then `derive`.
 */
export function deriveFiles(runs, now, thresholdMs = DEFAULT_THRESHOLD_MS) {
  const out = new Array(runs.length);
  for (let i = 0; i < runs.length; i++) {
    const { meta: metaBytes, status: statusBytes, facts } = runs[i];
    let error;
    let meta = null;
    if (metaBytes !== null) {
      try {
        meta = JSON.parse(metaBytes.toString("utf8"));
      } catch {
        error = "meta";
      }
    }
    let status = null;
    if (statusBytes !== null) {
      try {
        status = JSON.parse(statusBytes.toString("utf8"));
      } catch {
        error ??= "runner_status";
      }
    }
    const mod = facts.status_file_mod_time;
    const modMs = mod == null ? null : typeof mod === "number" ? mod : Date.parse(mod);
    const stalled = facts.tmux_active === true && modMs !== null && now - modMs >= thresholdMs;
    const derived = derive({
      meta,
      worktree_present: facts.worktree_present,
      tmux_active: facts.tmux_active,
      runner_status: status,
      stall_result: stalled ? { is_stalled: true, stalled_duration: now - modMs } : null,
    });
    if (error !== undefined) derived.error = error;
    out[i] = derived;
  }
  return out;
}
