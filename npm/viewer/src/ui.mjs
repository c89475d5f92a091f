// Shared pieces of the page: the panel frame, the banners of invalid files with their
// problems (`line:column  CODE  /pointer  message`), status colours and the one time format
// of every panel (`localTime`, and `elapsed` for durations: the core's `formatDuration`).
// Every string taken from a file is rendered as text (preact escapes it).
import { html } from "htm/preact";
import { formatDuration } from "../../lib/generated/web.mjs";
import { verdictOf } from "./check.mjs";

export { html };

const STATUS_CLASSES = [
  ["ok", ["done", "completed", "complete", "satisfied", "success", "merged", "aligned", "incorporated", "processed", "pass", "passed", "ready_for_review", "resolved", "synced", "approved"]],
  ["run", ["active", "running", "working", "executing", "processing", "spawning", "in_progress", "clarifying", "scaffolding", "planning", "validating", "retrying", "reading", "live"]],
  ["bad", ["failed", "error", "broken", "fail", "abandoned", "invalid", "terminated", "critical", "disconnected"]],
  ["warn", ["blocked", "needs_input", "needs_attention", "paused", "stalled", "partial", "warnings", "important", "checkpoint_review", "plan_review", "deferred"]],
  ["idle", ["pending", "planned", "idle", "not_started", "queued", "removed", "minor"]],
];
const STATUS_MAP = new Map(STATUS_CLASSES.flatMap(([cls, names]) => names.map((n) => [n, cls])));

/** The colour class of a status word (`st-ok`, `st-run`, `st-bad`, `st-warn`, `st-idle`). */
export function statusClass(status) {
  const word = String(status ?? "").toLowerCase().trim().split(/[\s(]/)[0];
  return `st-${STATUS_MAP.get(word) ?? "other"}`;
}

/** A status word as a coloured pill. */
export function Pill({ status, title }) {
  if (status === null || status === undefined || status === "") return html`<span class="muted">–</span>`;
  return html`<span class=${`pill ${statusClass(status)}`} title=${title}>${String(status)}</span>`;
}

const pad = (n) => String(n).padStart(2, "0");

/**
 * A time as every panel shows it: the page's local time, `HH:MM:SS` today and
 * `YYYY-MM-DD HH:MM:SS` on another day (the same on every browser, whatever its locale);
 * `–` for none, and a value that is not a time as it is.
 */
export function localTime(value) {
  if (value === null || value === undefined || value === "") return "–";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  if (date.toDateString() === new Date().toDateString()) return time;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/**
 * A stall or elapsed time (milliseconds) as every surface shows it: the core's
 * `formatDuration` (`45m`, `2h15m`, and from 48 hours on `2d`, `282d15h`).
 */
export function elapsed(ms) {
  return formatDuration(ms);
}

/** A JSON value as short one-line text. */
export function short(value, max = 120) {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = String(text).replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One problem: `line:column  CODE  /pointer  message`. */
export function problemText(issue) {
  const place = issue.line === null || issue.line === undefined ? "-:-" : `${issue.line}:${issue.column ?? 1}`;
  return `${place}  ${issue.code}  ${issue.path ?? ""}  ${issue.message}`;
}

/** A file's errors then warnings, one line each. */
export function Problems({ check }) {
  if (!check) return null;
  const errors = check.errors ?? [];
  const warnings = check.warnings ?? [];
  if (!errors.length && !warnings.length) return null;
  return html`<ul class="problems">
    ${errors.map((e) => html`<li class="problem error" data-code=${e.code}>${problemText(e)}</li>`)}
    ${warnings.map((w) => html`<li class="problem warning" data-code=${w.code}>${problemText(w)}</li>`)}
  </ul>`;
}

/** The banners of a panel's files that are invalid (red) or have warnings (amber). */
export function FileBanners({ files }) {
  const shown = files.filter((f) => !f.removed && verdictOf(f) !== "valid");
  if (!shown.length) return null;
  return shown.map((file) => {
    const verdict = verdictOf(file);
    const unparsed = verdict === "invalid" && file.document === null;
    const bad = verdict === "invalid" || verdict === "refused";
    return html`<div class=${`banner ${bad ? "banner-bad" : "banner-warn"}`} data-banner=${verdict} data-banner-file=${`${file.root}:${file.path}`}>
      <div class="banner-title">
        <strong>${verdict === "refused" ? "refused (not read)" : bad ? "invalid" : "warnings"}</strong>${" "}
        <span class="mono">${file.path}</span>
        ${unparsed ? html` <span class="muted">(does not parse: shown from the other files)</span>` : null}
      </div>
      <${Problems} check=${file.check} />
    </div>`;
  });
}

/** A panel: its frame, title and `data-panel` hook. */
export function Panel({ panelKey, title, subtitle, wide, children, protocol }) {
  return html`<section class=${`panel panel-${protocol}${wide ? " wide" : ""}`} data-panel=${panelKey}>
    <header class="panel-head">
      <span class="panel-kind">${protocol}</span>
      <h2>${title}</h2>
      ${subtitle ? html`<span class="panel-sub mono">${subtitle}</span>` : null}
    </header>
    <div class="panel-body">${children}</div>
  </section>`;
}

/** A titled block inside a panel. */
export function Block({ title, testid, children, extra, cls }) {
  return html`<div class=${`block ${cls ?? ""}`} data-testid=${testid}>
    <h3>${title}${extra ? html` <span class="block-extra">${extra}</span>` : null}</h3>
    ${children}
  </div>`;
}

/** Runs a derivation, returning `{value}` or `{error}` (an odd document never blanks a panel). */
export function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: error?.message ?? String(error), code: error?.code };
  }
}

/** The message of a derivation that failed. */
export function Failure({ result, what }) {
  if (!result || !("error" in result)) return null;
  return html`<div class="failure">${what} not shown: ${result.code ? `${result.code}: ` : ""}${result.error}</div>`;
}

/** True when a value is a plain JSON object. */
export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
