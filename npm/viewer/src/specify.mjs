// A specify feature's panel (`.workflow/index.md`, read by the core as the `specify.index`
// document): the Priority Loop State and the Gap Priority Queue, with the clarifications the
// next iteration would ask (the core's `nextClarifications`).
import { useMemo } from "preact/hooks";
import { specify } from "../../lib/generated/web.mjs";
import { fileOf, groupName } from "./model.mjs";
import { Block, FileBanners, Panel, Pill, attempt, html, isObject, localTime, short } from "./ui.mjs";

const LOOP_FIELDS = [
  ["loop_status", "loop status"],
  ["current_iteration", "iteration"],
  ["stale_count", "stale count"],
  ["last_activity", "last activity"],
  ["termination_reason", "termination"],
  ["deferred_minor_gaps", "deferred minor gaps"],
];

/** `n / max` when a maximum is given. */
const outOf = (n, max) => (max === null || max === undefined ? short(n) : `${short(n)} / ${short(max)}`);

/**
 * An ID cell's text (`G-001`, `CHK001, CHK015`, `FR-003`): each token kept on one line (the
 * table's cells may break anywhere, which would split `G-001` into `G-0` and `01` in a narrow
 * panel); a line breaks only between tokens.
 */
const ids = (text) =>
  String(text)
    .split(/(\s+)/)
    .map((part) => (part === "" || /^\s+$/.test(part) ? part : html`<span class="nowrap">${part}</span>`));

/** A specify feature's panel. */
export function SpecifyPanel({ store, panel }) {
  const file = fileOf(panel, "specify.index");
  const doc = file && isObject(file.document) ? file.document : null;
  const loop = isObject(doc?.priority_loop_state) ? doc.priority_loop_state : null;
  const gaps = Array.isArray(doc?.gap_priority_queue) ? doc.gap_priority_queue.filter(isObject) : [];
  const next = useMemo(() => (doc ? attempt(() => specify.nextClarifications(doc)) : null), [doc]);
  const asked = new Map((next?.value ?? []).flatMap((c) => (Array.isArray(c.gaps) ? c.gaps : [c.gap_id ?? c.gap]).map((g) => [g, c.id])));
  return html`<${Panel} protocol="specify" panelKey=${panel.key} title=${groupName(store, panel)} subtitle=${panel.group || "."}>
    <${FileBanners} files=${panel.files} />
    <div data-testid="specify">
      <${Block} title="Priority Loop State" testid="specify-loop">
        ${loop
          ? html`<table class="kv"><tbody>
              ${LOOP_FIELDS.map(([key, label]) => {
                if (loop[key] === undefined || loop[key] === null) return null;
                const value =
                  key === "loop_status" ? html`<${Pill} status=${loop[key]} />`
                  : key === "current_iteration" ? outOf(loop[key], loop.max_iterations)
                  : key === "stale_count" ? outOf(loop[key], loop.max_stale)
                  : key === "last_activity" ? localTime(loop[key])
                  : short(loop[key], 200);
                return html`<tr data-field=${key}><th>${label}</th><td>${value}</td></tr>`;
              })}
              ${Object.keys(loop)
                .filter((k) => !LOOP_FIELDS.some(([f]) => f === k) && k !== "max_iterations" && k !== "max_stale")
                .map((k) => html`<tr data-field=${k}><th>${k}</th><td>${short(loop[k], 200)}</td></tr>`)}
            </tbody></table>`
          : html`<div class="muted">${file?.document === null ? "index.md does not parse" : "no Priority Loop State"}</div>`}
      </${Block}>
      <${Block} title="Gap Priority Queue" testid="specify-gaps" extra=${`${gaps.length} gap${gaps.length === 1 ? "" : "s"}`}>
        ${gaps.length
          ? html`<table class="table">
              <thead><tr><th>priority</th><th>gap</th><th>CHK</th><th>FR</th><th>question</th><th>status</th><th>stale</th><th>synced</th></tr></thead>
              <tbody>
                ${gaps.map((g) => html`<tr data-gap-id=${short(g.id, 40)}>
                  <td><${Pill} status=${g.priority} /></td>
                  <td class="mono">${ids(short(g.id, 40))}${asked.has(g.id) ? html` <span class="pill st-run" title="asked next">${asked.get(g.id)}</span>` : null}</td>
                  <td class="mono">${ids(short(g.chk_source ?? "", 20))}</td>
                  <td class="mono">${ids(short(g.fr_reference ?? "", 20))}</td>
                  <td>${short(g.question ?? "", 240)}</td>
                  <td><${Pill} status=${g.status} /></td>
                  <td>${g.stale ?? ""}</td>
                  <td>${g.synced === true ? "✓" : ""}</td>
                </tr>`)}
              </tbody>
            </table>`
          : html`<div class="muted">the queue is empty</div>`}
      </${Block}>
    </div>
  </${Panel}>`;
}
