// The fctry build run (`buildRun` of state.json) as a DAG: the core's `fctry.dagLayers`
// gives the layers (layer 0 needs nothing), each drawn as a column of chunk boxes coloured by
// status, with an edge from each dependency; chunks the core could not place (a cycle, an
// unknown dependency) go in a last column.
import { fctry } from "../../lib/generated/web.mjs";
import { html, Pill, attempt, Failure, isObject, localTime, short, statusClass } from "./ui.mjs";

const BOX_W = 168;
const BOX_H = 46;
const GAP_X = 44;
const GAP_Y = 10;
const TOP = 22;

/** Text cut to fit a box. */
const fit = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** The build run's DAG, from the state document. */
export function Dag({ state }) {
  const run = isObject(state) && isObject(state.buildRun) ? state.buildRun : null;
  if (!run) return html`<div class="muted">no build run</div>`;
  const chunks = Array.isArray(run.chunks) ? run.chunks.filter(isObject) : [];
  const layers = attempt(() => fctry.dagLayers(state));
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const columns = layers.value ? [...layers.value.layers] : [chunks.map((c) => c.id)];
  const unplaced = layers.value?.unplaced ?? [];
  if (unplaced.length) columns.push(unplaced);
  const place = new Map();
  columns.forEach((ids, x) => ids.forEach((id, y) => place.set(id, { x, y })));
  const width = Math.max(1, columns.length) * (BOX_W + GAP_X) - GAP_X + 2;
  const rows = Math.max(1, ...columns.map((c) => c.length));
  const height = TOP + rows * (BOX_H + GAP_Y);
  const pos = ({ x, y }) => ({ left: 1 + x * (BOX_W + GAP_X), top: TOP + y * (BOX_H + GAP_Y) });

  const edges = [];
  for (const chunk of chunks) {
    const to = place.get(chunk.id);
    if (!to || !Array.isArray(chunk.dependsOn)) continue;
    for (const dep of chunk.dependsOn) {
      const from = place.get(dep);
      if (!from) continue;
      const a = pos(from);
      const b = pos(to);
      const x1 = a.left + BOX_W;
      const y1 = a.top + BOX_H / 2;
      const x2 = b.left;
      const y2 = b.top + BOX_H / 2;
      const mid = (x1 + x2) / 2;
      edges.push(html`<path class="dag-edge" d=${`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2 - 4},${y2}`} marker-end="url(#dag-arrow)" />`);
    }
  }
  const boxes = [];
  for (const [id, p] of place) {
    const chunk = byId.get(id) ?? { id, status: "unknown" };
    const { left, top } = pos(p);
    const status = typeof chunk.status === "string" ? chunk.status : "planned";
    const name = typeof chunk.name === "string" ? chunk.name : "";
    const attemptText = Number.isInteger(chunk.attempt) && chunk.attempt > 1 ? ` · attempt ${chunk.attempt}` : "";
    const tip = [
      `#${id} ${name}`,
      `status: ${status}${attemptText}`,
      Array.isArray(chunk.dependsOn) && chunk.dependsOn.length ? `needs: ${chunk.dependsOn.map((d) => `#${d}`).join(", ")}` : "",
      Array.isArray(chunk.sections) && chunk.sections.length ? `sections: ${chunk.sections.join(", ")}` : "",
      chunk.error ? `error: ${short(chunk.error, 300)}` : "",
    ].filter(Boolean).join("\n");
    boxes.push(html`<g class=${`dag-chunk ${statusClass(status)}`} data-chunk-id=${String(id)} data-status=${status} transform=${`translate(${left},${top})`}>
      <title>${tip}</title>
      <rect width=${BOX_W} height=${BOX_H} rx="5" />
      <text x="8" y="18" class="dag-name">${fit(`#${id} ${name}`, 24)}</text>
      <text x="8" y="36" class="dag-status">${fit(status + attemptText, 26)}</text>
    </g>`);
  }
  const labels = columns.map((_, x) => html`<text class="dag-layer" x=${1 + x * (BOX_W + GAP_X)} y="12">${unplaced.length && x === columns.length - 1 ? "unplaced" : `layer ${x}`}</text>`);
  return html`<div>
    <div class="dag-meta">
      <${Pill} status=${run.status ?? "–"} />
      <span class="mono">${short(run.runId ?? "", 40)}</span>
      ${run.startedAt ? html`<span>started ${localTime(run.startedAt)}</span>` : null}
      ${run.lastCheckpoint ? html`<span>checkpoint ${localTime(run.lastCheckpoint)}</span>` : null}
      ${run.convergencePhase ? html`<span>phase ${short(run.convergencePhase, 40)}</span>` : null}
    </div>
    ${run.status === "paused" && run.pendingQuestion !== undefined && run.pendingQuestion !== null
      ? html`<div class="question">waiting on: ${short(run.pendingQuestion, 400)}</div>`
      : null}
    <${Failure} result=${layers} what="layers" />
    ${chunks.length
      ? html`<div class="dag-scroll"><svg class="dag" width=${width} height=${height} viewBox=${`0 0 ${width} ${height}`} role="img" aria-label="build run chunks">
          <defs><marker id="dag-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" class="dag-arrowhead" /></marker></defs>
          ${labels}${edges}${boxes}
        </svg></div>`
      : html`<div class="muted">the run has no chunks</div>`}
  </div>`;
}
