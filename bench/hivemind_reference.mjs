// A straightforward JS implementation of the Hivemind trigger table (docs/hivemind.md), the
// way a watcher would write it by hand: the comparison for bench (7). Only for the bench; it
// must agree with statecore on every step of the bench's sequence (checked before timing).
// `ClientWatcher` (at the end) is the client's watcher around it, for the end-to-end row.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// chokidar as statecore's watcher loads it (npm/node_modules), so both watch the same way.
const chokidar = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "npm", "package.json"))("chokidar");

const ACTIVE = {
  project_selected: ["lead"], planning: ["lead"], plan_review: ["reviewer"], plan_revision: ["lead"],
  executing: ["worker1", "worker2"], checkpoint_review: ["reviewer"], checkpoint_fix: ["lead", "worker1", "worker2"],
  friction_resolution: ["lead"],
};
const READING = { checkpoint: ["worker1", "worker2"], friction_logged: ["lead", "reviewer", "worker1", "worker2"],
  friction_sync: ["lead", "reviewer", "worker1", "worker2"] };
const WORKING = ["planning", "plan_review", "plan_revision", "executing", "checkpoint", "checkpoint_review", "checkpoint_fix"];
const FRICTION = ["friction_logged", "friction_sync", "friction_resolution"];
const FOLLOW_UP = { checkpoint: "review_checkpoint", friction_logged: "sync_friction" };
const FOLLOW_TO = { review_checkpoint: "checkpoint_review", sync_friction: "friction_sync" };

const DECISION_HELP =
  '[HIVEMIND] checkpoint-approved.md needs one decision line: "Decision: continue" (more work), ' +
  '"Decision: complete" (all done) or "Decision: friction" (friction to resolve first).';

function marker(text, key) {
  const values = [];
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.trim().replace(/^[#\->\s]+/, "");
    const i = line.indexOf(":");
    if (i < 0) continue;
    if (line.slice(0, i).trim().replace(/^[*_`]+|[*_`]+$/g, "").trim().toLowerCase() !== key) continue;
    values.push(line.slice(i + 1).trim().replace(/^[*_`\s]+|[*_`\s]+$/g, "").replace(/\.+$/, "").trim().toLowerCase());
  }
  return values;
}

/** The outcome of moving `state` to `to` (the seed's transition()), with messages. */
function enter(state, to, now, messages) {
  const next = { ...state, previous_state: state.state, state: to, active_agents: ACTIVE[to] ?? [], timestamp: now };
  const message = messages[to];
  const agents = [...(ACTIVE[to] ?? []), ...(READING[to] ?? [])];
  const order = ["lead", "reviewer", "worker1", "worker2"];
  const notifications = message ? order.filter((a) => agents.includes(a)).map((agent) => ({ agent, message })) : [];
  const scheduled = FOLLOW_UP[to] ? [{ event: FOLLOW_UP[to], to: FOLLOW_TO[FOLLOW_UP[to]], after_ms: 500 }] : [];
  return { state: next, notifications, scheduled };
}

const ignored = (state, reason) => ({ state, notifications: [], scheduled: [], ignored: reason });

/** `on_file` by hand: the new state (a new object) and what the host must do. */
export function onFile(state, path, content, now, messages) {
  const name = path.replace(/\\/g, "/").replace(/^\.\//, "").replace(/^workspace\//, "");
  if (!path.startsWith("workspace/") || !name.endsWith(".md")) return ignored(state, "not a trigger");
  const s = state.state;
  const go = (to, extra = {}) => enter({ ...state, ...extra }, to, now, messages);
  if (name === "friction-resolution.md") {
    if (s === "friction_resolution") return go("plan_review");
    if (s === "friction_sync") return enter(enter(state, "friction_resolution", now, messages).state, "plan_review", now, messages);
    return ignored(state, "nothing");
  }
  if (name.startsWith("friction/")) {
    if (!WORKING.includes(s) || FRICTION.includes(s)) return ignored(state, "friction handled");
    return go("friction_logged", { friction_count: (state.friction_count ?? 0) + 1 });
  }
  if (name === "plan.md" && (s === "planning" || s === "plan_revision")) {
    const values = marker(content, "checkpoints");
    const n = Number(values[0]);
    const total = values.length && Number.isInteger(n) && n >= 1 && values.every((v) => v === values[0]) ? n : state.total_checkpoints;
    return go("plan_review", { total_checkpoints: total });
  }
  if (name === "plan-approved.md" && s === "plan_review") return go("executing");
  if (name === "plan-feedback.md" && s === "plan_review") return go("plan_revision");
  if (name === "checkpoint.md" && s === "executing") {
    const current = (state.current_checkpoint ?? 0) + 1;
    const total = state.total_checkpoints == null ? null : Math.max(state.total_checkpoints, current);
    return go("checkpoint", { current_checkpoint: current, total_checkpoints: total });
  }
  if (name === "checkpoint.md" && s === "checkpoint_fix") return go("checkpoint_review");
  if (name === "checkpoint-approved.md" && s === "checkpoint_review") {
    const values = marker(content, "decision");
    const to = { continue: "executing", complete: "complete", friction: "friction_logged" }[values[0]];
    if (!to || !values.every((v) => v === values[0])) {
      return { ...ignored(state, "no decision"), notifications: [{ agent: "reviewer", message: DECISION_HELP }] };
    }
    return go(to);
  }
  if (name === "checkpoint-issues.md" && s === "checkpoint_review") return go("checkpoint_fix");
  return ignored(state, "nothing");
}

/** A follow-up by hand. */
export function followUp(state, event, now, messages) {
  if (FOLLOW_UP[state.state] !== event) return ignored(state, "no longer applies");
  return enter(state, FOLLOW_TO[event], now, messages);
}

// --- the client's watcher (bench (7) end to end) --------------------------------------------

/**
 * The Hivemind client's watcher, re-implemented from its logic (ui/modules/watcher.js of
 * anamnesos/hivemind, read for behaviour): chokidar on `workspace/` (`ignoreInitial`, the same
 * `ignored` patterns), and per trigger `readState()` (`readFileSync` + `JSON.parse`), the
 * decision, then `transition()`, which reads the state again, writes it with `writeState()`
 * (`JSON.stringify(state, null, 2)` to `state.json.tmp`, `renameSync` over state.json; no
 * lock, no fsync), tells the renderer (`onStateChanged`) and notifies the agents
 * (`onNotify`); a follow-up is a `setTimeout` that transitions again. The decision is this
 * file's `onFile` / `followUp` (statecore's documented rules, so that both give the same
 * states; the client decided "complete" by a word anywhere in the file). With `fsync`, the
 * temp file and the directory are fsynced as statecore does (the same durability).
 */
export class ClientWatcher {
  constructor(projectDir, handlers, { now, messages, fsync = false }) {
    this.workspace = path.join(projectDir, "workspace");
    this.stateFile = path.join(this.workspace, "state.json");
    this.h = handlers;
    this.now = now;
    this.messages = messages;
    this.fsync = fsync;
    this.timers = new Set();
    this.watcher = chokidar.watch(this.workspace, {
      ignoreInitial: true,
      persistent: true,
      ignored: [/node_modules/, /\.git/, /instances\//, /state\.json$/],
    });
    this.watcher.on("add", (file) => this.handleFileChange(file));
    this.watcher.on("change", (file) => this.handleFileChange(file));
    this.ready = new Promise((resolve) => this.watcher.once("ready", resolve));
  }

  readState() {
    if (fs.existsSync(this.stateFile)) return JSON.parse(fs.readFileSync(this.stateFile, "utf-8"));
    return null;
  }

  writeState(state) {
    if (!fs.existsSync(this.workspace)) fs.mkdirSync(this.workspace, { recursive: true });
    const temp = `${this.stateFile}.tmp`;
    const content = JSON.stringify(state, null, 2);
    if (this.fsync) {
      const fd = fs.openSync(temp, "w");
      try {
        fs.writeSync(fd, content);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } else {
      fs.writeFileSync(temp, content, "utf-8");
    }
    fs.renameSync(temp, this.stateFile);
    if (this.fsync) {
      const dir = fs.openSync(this.workspace, "r");
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    }
  }

  /** The client's `transition`: the state read again, written, the renderer told, the agents notified. */
  transition(outcome) {
    this.readState();
    this.writeState(outcome.state);
    this.h.onStateChanged?.(outcome.state, outcome);
    for (const { agent, message } of outcome.notifications) this.h.onNotify?.(agent, message, outcome.state);
    for (const { event, after_ms: afterMs } of outcome.scheduled) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const next = followUp(this.readState(), event, this.now(), this.messages);
        if (next.ignored === undefined) this.transition(next);
      }, afterMs);
      this.timers.add(timer);
    }
  }

  handleFileChange(filePath) {
    const state = this.readState();
    const where = `workspace/${path.relative(this.workspace, filePath).split(path.sep).join("/")}`;
    const name = path.basename(filePath);
    // The client reads a trigger's content where its rule needs it.
    const content = name === "plan.md" || name === "checkpoint-approved.md" ? fs.readFileSync(filePath, "utf-8") : null;
    const outcome = onFile(state, where, content, this.now(), this.messages);
    if (outcome.ignored !== undefined) {
      for (const { agent, message } of outcome.notifications) this.h.onNotify?.(agent, message, state);
      return;
    }
    this.transition(outcome);
  }

  async close() {
    for (const timer of this.timers) clearTimeout(timer);
    await this.watcher.close();
  }
}
