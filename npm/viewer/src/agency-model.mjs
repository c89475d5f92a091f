// agency's runs as `statecore agency ls` builds them (cli/src/cli/agency.rs): each run is a
// `repos/<repo>/runs/<run_id>/meta.json`, joined with the status file of its worktree
// (`<worktree_path>/.agency/state/runner_status.json`, found among the files by its `abs`
// path); its row `{run_id, name, pr, snapshot}` from the core's `buildSnapshot`; newest
// first, runs without a creation time (broken ones too) last, then by id. tmux is not
// checked by the viewer, so `tmux_active` is left out of the facts.
import { agency, parseTimestamp } from "../../lib/generated/web.mjs";

/** A path with `.` and `..` resolved by its text (as `cd` does). */
export function normalizePath(path) {
  const out = [];
  for (const part of String(path).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** `path` resolved against the directory `base` (absolute paths are kept). */
export function resolvePath(base, path) {
  return normalizePath(path.startsWith("/") ? path : `${base}/${path}`);
}

/** Compares strings by their UTF-16 units, as Rust's `str` order does for ASCII ids. */
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** What the viewer reads of one run's meta.json. */
function runOf(meta, hello) {
  const doc = meta.document;
  let broken = true;
  try {
    broken = !agency.checkMeta(doc ?? null).valid;
  } catch {
    broken = true;
  }
  const parts = meta.group.split("/").filter(Boolean);
  const runId = parts[parts.length - 1] ?? meta.group;
  const repoId = parts[parts.length - 3] ?? "";
  const path = !broken && typeof doc?.worktree_path === "string" ? doc.worktree_path : "";
  const worktree = path ? resolvePath(hello?.root ?? "/", path) : null;
  let created = null;
  if (!broken && typeof doc?.created_at === "string") {
    try {
      created = parseTimestamp(doc.created_at);
    } catch {
      created = null;
    }
  }
  return {
    meta,
    runId,
    repoId,
    broken,
    worktree,
    statusAbs: worktree ? `${worktree}/.agency/state/runner_status.json` : null,
    created,
    status: null,
  };
}

/** The agency panels: per root holding meta.json files or status files no run claims. */
export function agencyPanels(live, hello) {
  const metas = live.filter((f) => f.role === "agency.meta");
  const statuses = live.filter((f) => f.role === "agency.status");
  if (!metas.length && !statuses.length) return [];
  const byAbs = new Map(statuses.map((s) => [normalizePath(s.abs ?? ""), s]));
  const runs = metas.map((m) => runOf(m, hello));
  for (const run of runs) run.status = run.statusAbs ? byAbs.get(run.statusAbs) ?? null : null;
  runs.sort((a, b) => {
    if (a.created !== null && b.created !== null && a.created !== b.created) return b.created - a.created;
    if (a.created !== null && b.created === null) return -1;
    if (a.created === null && b.created !== null) return 1;
    return compare(a.runId, b.runId);
  });
  const claimed = new Set(runs.filter((r) => r.status).map((r) => r.status.key));
  const panels = new Map();
  const panel = (root) => {
    if (!panels.has(root)) {
      panels.set(root, { key: `agency:${root}:`, protocol: "agency", root, group: "", runs: [], unclaimed: [] });
    }
    return panels.get(root);
  };
  for (const run of runs) panel(run.meta.root).runs.push(run);
  for (const status of statuses) if (!claimed.has(status.key)) panel(status.root).unclaimed.push(status);
  for (const p of panels.values()) {
    p.files = [...p.runs.flatMap((r) => (r.status ? [r.meta, r.status] : [r.meta])), ...p.unclaimed];
    p.unclaimed.sort((a, b) => compare(a.path, b.path));
  }
  return [...panels.values()].sort((a, b) => (a.root === "data" ? -1 : b.root === "data" ? 1 : compare(a.root, b.root)));
}

/** The facts the viewer knows of a run (tmux is not checked). */
function factsOf(run) {
  const facts = {};
  if (run.status) {
    facts.worktree_present = true;
    if (run.status.mtime) facts.status_file_mod_time = run.status.mtime;
  }
  return facts;
}

/**
 * Every run's status from its files' bytes in one call (`agency.deriveFiles`): the files
 * joined into one buffer, their lengths and facts; a file that does not read is its run's
 * `error`. In the order of `runs`.
 */
export function runStatuses(runs, now) {
  let total = 0;
  const specs = runs.map((run) => {
    const meta = run.meta.bytes ?? null;
    const status = run.status?.bytes ?? null;
    total += (meta?.length ?? 0) + (status?.length ?? 0);
    return { meta: meta?.length ?? null, status: status?.length ?? null, ...factsOf(run) };
  });
  const data = new Uint8Array(total);
  let at = 0;
  for (const run of runs) {
    for (const bytes of [run.meta.bytes, run.status?.bytes]) {
      if (!bytes) continue;
      data.set(bytes, at);
      at += bytes.length;
    }
  }
  return agency.deriveFiles(data, specs, now);
}

/** Each run's row for `renderLs` / `renderShow`, at `now` (epoch ms). */
export function runRows(runs, now) {
  return runs.map((run) => {
    const facts = factsOf(run);
    let snapshot;
    try {
      snapshot = agency.buildSnapshot(run.status?.bytes ?? null, run.meta.bytes, facts, now);
    } catch (error) {
      snapshot = { meta: null };
      run.error = error.message;
    }
    const doc = run.meta.document;
    const pr = Number.isInteger(doc?.pr_number) && doc.pr_number !== 0 ? doc.pr_number : null;
    const name = typeof doc?.name === "string" ? doc.name : "";
    return { run_id: run.runId, name, pr, snapshot };
  });
}
