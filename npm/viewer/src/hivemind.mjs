// A Hivemind project's panel (`workspace/state.json`): the workflow diagram (the core's
// Mermaid text, drawn once; the current state, a name found in the machine's own list,
// highlighted by a class on its drawn node), the agents' modes in the current state,
// the context message agents get there, and the last transitions the page saw live.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { hivemind } from "../../lib/generated/web.mjs";
import { renderMermaid } from "./mermaid.mjs";
import { fileOf, groupName } from "./model.mjs";
import { Block, FileBanners, Panel, Pill, attempt, html, isObject, localTime, short } from "./ui.mjs";

let states = null;
/** The workflow's state names, from the machine. */
function stateNames() {
  if (!states) {
    const machine = hivemind.machine();
    states = new Set((machine.states ?? []).map((s) => (typeof s === "string" ? s : s.name)));
  }
  return states;
}

/**
 * The Mermaid source of the workflow, drawn once: the current state is highlighted on the
 * drawn SVG (`highlight`), so a transition costs a class change, not a new Mermaid render
 * (a render takes a second or more; docs/viewer.md § The stream).
 */
function diagramText() {
  return hivemind.diagram().replace(/\n*$/, "\n");
}

/** The drawn node of state `name` (Mermaid's node ids end in `-state-NAME-N`). */
function stateNode(svg, name) {
  const suffix = new RegExp(`(^|-)state-${name.replace(/[^A-Za-z0-9_]/g, "")}-\\d+$`);
  for (const node of svg.querySelectorAll("g.node")) {
    if (node.getAttribute("data-id") === name || suffix.test(node.id)) return node;
  }
  return null;
}

/** Marks the node of `current` (a checked state name, or null) as the current one, alone. */
function highlight(box, current) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  for (const node of svg.querySelectorAll("g.node.current")) node.classList.remove("current");
  const node = current ? stateNode(svg, current) : null;
  if (node) node.classList.add("current");
}

const ZOOMS = [
  ["fit", null],
  ["50%", 0.5],
  ["100%", 1],
];

/** Sizes the drawn SVG (`zoom` null: fit the box) and centres the current state in view. */
function place(box, zoom) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  const width = Number(svg.getAttribute("viewBox")?.split(/\s+/)[2]) || svg.getBBox().width;
  if (zoom === null) {
    svg.setAttribute("width", "100%");
    svg.style.maxWidth = `${width}px`;
  } else {
    svg.setAttribute("width", `${Math.round(width * zoom)}px`);
    svg.style.maxWidth = "none";
  }
  const node = svg.querySelector("g.current");
  if (!node || zoom === null) return;
  const a = node.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  box.scrollLeft += a.left + a.width / 2 - (b.left + b.width / 2);
  box.scrollTop += a.top + a.height / 2 - (b.top + b.height / 2);
}

/** The workflow diagram, drawn by Mermaid once loaded; the current state highlighted on it. */
function Diagram({ current }) {
  const box = useRef(null);
  const [svgReady, setSvgReady] = useState(false);
  const [drawn, setDrawn] = useState(null);
  const [error, setError] = useState(null);
  const [zoom, setZoom] = useState(null); // fit: the whole diagram, at most its own size
  const text = useMemo(() => attempt(() => diagramText()), []);
  useEffect(() => {
    if (!text.value) return undefined;
    let live = true;
    renderMermaid(text.value).then(
      (svg) => {
        if (!live || !box.current) return;
        box.current.innerHTML = svg; // Mermaid's own output (strict), from the core's text
        setSvgReady(true);
        setError(null);
      },
      (e) => live && setError(e?.message ?? String(e)),
    );
    return () => {
      live = false;
    };
  }, [text.value]);
  useEffect(() => {
    if (!svgReady || !box.current) return;
    highlight(box.current, current);
    place(box.current, zoom);
    setDrawn(current ?? "");
  }, [svgReady, current]);
  useEffect(() => {
    if (box.current) place(box.current, zoom);
  }, [zoom]);
  return html`<div data-testid="hivemind-diagram" data-state=${drawn === null ? undefined : drawn}>
    <div class="zoom">
      ${ZOOMS.map(([label, value]) => html`<button type="button" class=${zoom === value ? "on" : ""} onClick=${() => setZoom(value)}>${label}</button>`)}
    </div>
    ${error || text.error ? html`<div class="failure">diagram not drawn: ${error ?? text.error}</div>` : null}
    ${drawn === null && !error ? html`<div class="muted">drawing…</div>` : null}
    <div class=${`mermaid-box${zoom === null ? " fit" : ""}`} ref=${box}></div>
  </div>`;
}

/** A Hivemind project's panel. */
export function HivemindPanel({ store, panel }) {
  const file = fileOf(panel, "hivemind.state");
  const doc = file && isObject(file.document) ? file.document : null;
  const raw = doc && typeof doc.state === "string" ? doc.state : null;
  const known = raw !== null && stateNames().has(raw);
  const current = known ? raw : null;
  const agents = useMemo(() => (current ? attempt(() => hivemind.agents(current)) : null), [current]);
  const message = useMemo(() => (current ? attempt(() => hivemind.contextMessage(current)) : null), [current]);
  const transitions = store.transitions.get(`${panel.root}:${panel.group}`) ?? [];
  const activeAgents = Array.isArray(doc?.active_agents) ? doc.active_agents.map((a) => short(a, 20)) : [];
  return html`<${Panel} protocol="hivemind" panelKey=${panel.key} title=${groupName(store, panel)} subtitle=${panel.group || "."} wide=${true}>
    <${FileBanners} files=${panel.files} />
    <div class="hm-top">
      <span>state</span> <${Pill} status=${raw ?? "unknown"} />
      ${raw !== null && !known ? html`<span class="st-text-bad"> not a state of the workflow</span>` : null}
      ${doc?.previous_state ? html`<span class="muted"> from ${short(doc.previous_state, 30)}</span>` : null}
      ${doc?.timestamp ? html`<span class="muted"> since ${localTime(doc.timestamp)}</span>` : null}
    </div>
    <table class="kv"><tbody>
      ${doc?.project ? html`<tr><th>project</th><td class="mono">${short(doc.project, 120)}</td></tr>` : null}
      <tr><th>checkpoint</th><td>${doc?.current_checkpoint ?? "–"} / ${doc?.total_checkpoints ?? "?"}</td></tr>
      <tr><th>friction</th><td>${doc?.friction_count ?? 0}</td></tr>
      ${doc?.error ? html`<tr><th>error</th><td class="st-text-bad">${short(doc.error, 300)}</td></tr>` : null}
    </tbody></table>
    <div class="hm-grid">
    <${Block} title="Workflow" cls="hm-diagram"><${Diagram} current=${current} /></${Block}>
    <div class="hm-side">
    <${Block} title="Agents" testid="hivemind-agents">
      ${agents?.value
        ? html`<table class="table"><tbody>
            ${Object.entries(agents.value).map(([name, mode]) => html`<tr data-agent=${name}>
              <td>${name}</td><td><${Pill} status=${mode} /></td>
              <td class="muted">${activeAgents.includes(name) ? "listed active in state.json" : ""}</td>
            </tr>`)}
          </tbody></table>`
        : html`<div class="muted">${agents?.error ?? "no current state"}</div>`}
    </${Block}>
    <${Block} title="Notifications" testid="hivemind-notifications">
      ${message?.value ? html`<div class="context-message" data-testid="hivemind-context">${message.value}</div>` : html`<div class="muted">no message in this state</div>`}
      ${transitions.length
        ? html`<ol class="transitions">
            ${transitions.map((t) => html`<li><span class="time">${localTime(t.at)}</span> <span class="mono">${t.from} → ${t.to}</span></li>`)}
          </ol>`
        : html`<div class="muted">no transition seen since the page opened</div>`}
    </${Block}>
    </div>
    </div>
  </${Panel}>`;
}
