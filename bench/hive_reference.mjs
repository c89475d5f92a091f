// A hive session's EVENTS.jsonl folded into its STATE.json the way a user would write it in
// Node: `readline` over `fs.createReadStream`, `JSON.parse` per line, each event applied to an
// object (docs/hive.md § Events). The alternative of bench Node (10); it must give the state
// statecore's replay gives (checked outside the timed runs). The twin of hive_reference.py.
//
// It does not validate lines, drop duplicates or handle torn tails. Times are compared as
// strings, which orders them when they share one form (as every line of the bench's log does:
// RFC 3339 in UTC with milliseconds); the duration of a completed worker parses them. readline
// drops the line ends, so `log_offset` counts each line's UTF-8 bytes and one `\n`.
import fs from "node:fs";
import readline from "node:readline";

const PHASE_STAMPS = {
  planning: "planning_started",
  spawning: "spawning_started",
  executing: "execution_started",
  synthesizing: "synthesis_started",
  complete: "completed_at",
  failed: "failed_at",
};
const WORKER_EVENTS = new Set([
  "spawn_attempted",
  "worker_spawned",
  "worker_heartbeat",
  "worker_progress",
  "worker_completed",
  "worker_failed",
]);

/** The v2 template (`state-v2-template.json`) of a new session. */
function created(sessionId, details, now) {
  return {
    version: "2.0",
    session_id: sessionId,
    task: details?.task ?? "",
    status: "initializing",
    timestamps: {
      created_at: now,
      updated_at: now,
      last_heartbeat: now,
      phase_transitions: {
        planning_started: null,
        spawning_started: null,
        execution_started: null,
        synthesis_started: null,
        completed_at: null,
      },
    },
    coordination_status: {
      phase: "planning",
      workers_planned: [],
      workers_spawned: [],
      workers_active: [],
      workers_completed: [],
      workers_failed: [],
      spawn_attempts: {},
      synthesis_ready: false,
      blocking_issues: [],
    },
    worker_states: {},
    queen_decisions: {
      complexity_assessment: { level: 1, factors: [], rationale: "" },
      worker_selection_rationale: "",
      coordination_strategy: "parallel",
      execution_plan: { phases: [] },
      escalation_triggers: [],
    },
    research_progress: {
      domains_identified: [],
      domains_completed: [],
      synthesis_status: "pending",
      key_findings: [],
      synthesis_file: null,
    },
    implementation_progress: {
      tasks_created: 0,
      tasks_assigned: 0,
      tasks_in_progress: 0,
      tasks_completed: 0,
      tasks_blocked: 0,
      blocking_issues: [],
    },
    quality_gates: {
      worker_selection_validated: false,
      all_workers_spawned: false,
      protocol_compliance_verified: false,
      outputs_validated: false,
      synthesis_complete: false,
    },
    metrics: {
      session_duration_seconds: 0,
      total_events_logged: 0,
      total_debug_entries: 0,
      worker_efficiency: {},
      token_usage_estimated: 0,
      coordination_overhead_seconds: 0,
    },
    session_metadata: {
      hive_mind_version: "2.0",
      protocol_version: "2.0",
      environment: "production",
      resumption_capability: "full",
      auto_recovery_enabled: true,
    },
  };
}

/** The template's worker (`worker-state-template.json`). */
function plannedWorker(task, focusAreas) {
  return {
    status: "planned",
    spawned_at: null,
    last_update: null,
    last_heartbeat: null,
    task,
    focus_areas: Array.isArray(focusAreas) ? focusAreas : [],
    outputs: { notes: null, json: null, artifacts: [] },
    metrics: { events_logged: 0, debug_entries: 0, files_created: 0, tokens_estimated: 0, duration_seconds: 0 },
    protocol_compliance: {
      startup_logged: false,
      configuration_logged: false,
      completion_logged: false,
      debug_logging_active: false,
    },
  };
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** `o[key] = now` unless it holds a later time (no stamp moves back). */
function advance(o, key, now) {
  const current = o[key];
  if (current == null || current <= now) o[key] = now;
}

/** Objects merged recursively, everything else (arrays, null) replaced, in place. */
function deepMerge(base, updates) {
  for (const [key, value] of Object.entries(updates)) {
    if (isObject(value) && isObject(base[key])) deepMerge(base[key], value);
    else base[key] = value;
  }
}

function changePhase(state, to, now) {
  if (state.status === to) return;
  state.status = to;
  state.coordination_status.phase = to;
  const times = state.timestamps;
  const transitions = times.phase_transitions;
  // Never before an earlier phase's stamp (or created_at).
  let at = now;
  for (const t of [times.created_at, ...Object.values(transitions)]) if (t && t > at) at = t;
  transitions[PHASE_STAMPS[to]] = at;
}

const remove = (list, name) => {
  const i = list.indexOf(name);
  if (i >= 0) list.splice(i, 1);
};
const push = (list, name) => {
  if (!list.includes(name)) list.push(name);
};

/** One event applied to `state` (`null` before `session_created`). */
export function apply(state, event, sessionId) {
  const { type: kind, timestamp: now, agent = "", details } = event;
  if (state === null) {
    state = created(sessionId, details, now);
  } else if (kind === "state_updated") {
    const before = state.status;
    const updates = details.updates;
    const target = updates.status ?? updates.coordination_status?.phase;
    if (details.strategy === "shallow") Object.assign(state, updates);
    else deepMerge(state, updates);
    if (target && target !== before) {
      state.status = before;
      changePhase(state, target, now);
    }
  } else if (kind === "phase_changed") {
    changePhase(state, details.to, now);
  } else if (kind === "workers_planned") {
    for (const w of details.workers) {
      state.worker_states[w.name] = plannedWorker(w.task, w.focus_areas);
      push(state.coordination_status.workers_planned, w.name);
    }
    if (details.rationale != null) state.queen_decisions.worker_selection_rationale = details.rationale;
  } else if (WORKER_EVENTS.has(kind)) {
    const name = details?.worker ?? agent;
    const worker = state.worker_states[name];
    const coordination = state.coordination_status;
    switch (kind) {
      case "worker_heartbeat":
        advance(worker, "last_heartbeat", now);
        break;
      case "worker_progress":
        for (const field of ["metrics", "protocol_compliance"]) {
          if (details[field]) Object.assign(worker[field], details[field]);
        }
        advance(worker, "last_update", now);
        advance(worker, "last_heartbeat", now);
        break;
      case "spawn_attempted": {
        const attempts = coordination.spawn_attempts;
        attempts[name] = details.attempt ?? (attempts[name] ?? 0) + 1;
        worker.status = "spawning";
        break;
      }
      case "worker_spawned":
        // A failed worker spawned again drops its error (the log keeps it).
        if (worker.status !== "active") delete worker.error;
        worker.status = "active";
        worker.spawned_at = now;
        advance(worker, "last_update", now);
        advance(worker, "last_heartbeat", now);
        worker.protocol_compliance.startup_logged = true;
        push(coordination.workers_spawned, name);
        push(coordination.workers_active, name);
        break;
      case "worker_completed": {
        const metrics = details.metrics ?? {};
        Object.assign(worker.outputs, details.outputs);
        Object.assign(worker.metrics, metrics);
        if (!("duration_seconds" in metrics) && worker.spawned_at) {
          worker.metrics.duration_seconds = Math.max(0, Date.parse(now) - Date.parse(worker.spawned_at)) / 1000;
        }
        worker.protocol_compliance.completion_logged = true;
        worker.status = "completed";
        advance(worker, "last_update", now);
        advance(worker, "last_heartbeat", now);
        remove(coordination.workers_active, name);
        push(coordination.workers_completed, name);
        break;
      }
      case "worker_failed": {
        const given = details.error;
        const error = typeof given === "string" ? { message: given } : { ...given };
        error.message = error.message.replace(/[\r\n]/g, " ");
        error.at ??= now;
        worker.status = "failed";
        worker.error = error;
        advance(worker, "last_update", now);
        if (coordination.workers_active.includes(name)) {
          remove(coordination.workers_active, name);
          push(coordination.workers_failed, name);
        }
        break;
      }
    }
  }
  // Every event: the counters and the session's stamps.
  state.metrics.total_events_logged += 1;
  const worker = state.worker_states[agent];
  if (worker) worker.metrics.events_logged += 1;
  advance(state.timestamps, "updated_at", now);
  advance(state.timestamps, "last_heartbeat", now);
  return state;
}

/** The state of the log at `file` and how many events it folded: `{state, events}`. */
export async function fold(file, sessionId) {
  let state = null;
  let offset = 0;
  let events = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    offset += Buffer.byteLength(line) + 1;
    if (!line.trim()) continue;
    state = apply(state, JSON.parse(line), sessionId);
    events++;
  }
  if (state === null) throw new Error(`${file}: no session_created`);
  state.session_metadata.log_offset = offset;
  return { state, events };
}
