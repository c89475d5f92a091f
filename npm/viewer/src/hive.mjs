// A hive session's panel (`STATE.json` and `EVENTS.jsonl` of a session directory): the
// session id, task, status and coordination phase, the workers (status, last update,
// metrics, the core's health check with how long a worker has been silent), and the log's record count and problems. Without a
// STATE.json, the state the core recovers from EVENTS.jsonl is shown, marked as such.
import { useMemo } from "preact/hooks";
import { hive } from "../../lib/generated/web.mjs";
import { fileOf, groupName } from "./model.mjs";
import { Block, FileBanners, Failure, Panel, Pill, attempt, elapsed, html, isObject, localTime, short } from "./ui.mjs";

const METRICS = [
  ["events_logged", "events"],
  ["files_created", "files"],
  ["tokens_estimated", "tokens"],
  ["duration_seconds", "seconds"],
  ["debug_entries", "debug"],
];

/** A worker's metrics as short text. */
function metricsText(metrics) {
  if (!isObject(metrics)) return "";
  const known = METRICS.filter(([k]) => metrics[k] !== undefined && metrics[k] !== null).map(([k, label]) => `${label} ${short(metrics[k], 20)}`);
  const other = Object.keys(metrics).filter((k) => !METRICS.some(([m]) => m === k)).map((k) => `${k} ${short(metrics[k], 20)}`);
  return [...known, ...other].join(" · ");
}

/** The health badge of a worker the core's check flagged: the problem, and for how long (its title says more). */
function healthBadge(flag) {
  const since = typeof flag.since_ms === "number" ? flag.since_ms : null;
  switch (flag.problem) {
    case "timeout":
      return since === null ? ["timeout", "no heartbeat for the timeout or longer"] : [`timeout ${elapsed(since)}`, `no heartbeat for ${elapsed(since)} (last seen ${flag.last_seen})`];
    case "clock_skew":
      return since === null ? ["clock skew", "a heartbeat in the future"] : [`clock skew ${elapsed(-since)}`, `a heartbeat ${elapsed(-since)} in the future (${flag.last_seen}): clock skew`];
    case "no_heartbeat":
      return ["no heartbeat", "no heartbeat recorded"];
    case "unreadable_heartbeat":
      return ["unreadable heartbeat", `a heartbeat that is not an RFC 3339 time: ${short(flag.last_seen, 80)}`];
    default:
      return [short(flag.problem ?? "unhealthy", 30), short(flag, 300)];
  }
}

/** The workers' table. */
function Workers({ state, health }) {
  const workers = isObject(state?.worker_states) ? Object.entries(state.worker_states) : [];
  if (!workers.length) return html`<div class="muted">no workers yet</div>`;
  const flagged = new Map((health?.value?.unhealthy ?? []).map((u) => [u.worker, u]));
  return html`<table class="table">
    <thead><tr><th>worker</th><th>status</th><th>last update</th><th>metrics</th><th>task</th></tr></thead>
    <tbody>
      ${workers.map(([name, w]) => {
        const worker = isObject(w) ? w : {};
        const flag = flagged.get(name);
        return html`<tr data-worker=${name}>
          <td class="mono nowrap">${name}</td>
          <td><${Pill} status=${worker.status} />${flag ? html` <span class="pill st-warn" data-health=${flag.problem} title=${healthBadge(flag)[1]}>${healthBadge(flag)[0]}</span>` : null}</td>
          <td class="time" title=${typeof worker.last_update === "string" ? worker.last_update : ""}>${localTime(worker.last_update)}</td>
          <td class="mono small">${metricsText(worker.metrics)}</td>
          <td>${short(worker.task ?? "", 120)}${isObject(worker.error) || typeof worker.error === "string" ? html`<div class="st-text-bad">${short(worker.error?.message ?? worker.error, 200)}</div>` : null}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** A hive session's panel. */
export function HivePanel({ store, panel }) {
  const stateFile = fileOf(panel, "hive.state");
  const events = fileOf(panel, "hive.events");
  const sessionName = groupName(store, panel);
  const recovered = useMemo(() => {
    if (stateFile || !events || !events.bytes) return null;
    return attempt(() => hive.recoverState(events.bytes, sessionName));
  }, [stateFile, events, sessionName]);
  const state = isObject(stateFile?.document) ? stateFile.document : isObject(recovered?.value?.state) ? recovered.value.state : null;
  const health = useMemo(() => (state ? attempt(() => hive.checkWorkerHealth(state, Date.now())) : null), [state]);
  const coordination = isObject(state?.coordination_status) ? state.coordination_status : {};
  const records = events ? events.check?.records ?? (Array.isArray(events.document) ? events.document.length : null) : null;
  return html`<${Panel} protocol="hive" panelKey=${panel.key} title=${sessionName} subtitle=${panel.group || "."}>
    <${FileBanners} files=${panel.files} />
    <div data-testid="hive">
      ${!stateFile ? html`<div class="note">no STATE.json${recovered?.value ? ": the state recovered from EVENTS.jsonl" : ""}</div>` : null}
      <${Failure} result=${recovered} what="the recovered state" />
      <table class="kv"><tbody>
        <tr><th>session</th><td class="mono" data-field="session_id">${short(state?.session_id ?? "–", 80)}</td></tr>
        <tr><th>task</th><td data-field="task">${short(state?.task ?? "–", 400)}</td></tr>
        <tr><th>status</th><td data-field="status"><${Pill} status=${state?.status} />${coordination.phase && coordination.phase !== state?.status ? html` <span class="muted">phase</span> <${Pill} status=${coordination.phase} />` : null}</td></tr>
        <tr><th>updated</th><td>${localTime(state?.timestamps?.updated_at)}</td></tr>
        <tr><th>events</th><td data-field="records">${events ? `${records ?? "?"} records in EVENTS.jsonl` : "no EVENTS.jsonl"}</td></tr>
      </tbody></table>
      <${Block} title="Workers" testid="hive-workers" extra=${health?.value ? `${health.value.checked} active checked, ${health.value.unhealthy.length} flagged` : ""}>
        <${Workers} state=${state} health=${health} />
      </${Block}>
    </div>
  </${Panel}>`;
}
