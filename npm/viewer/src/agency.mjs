// agency's panel: the `agency ls` table (the core's `renderLs` over the rows agency-model.mjs
// builds, archived runs included and marked) with each run's line clickable, the clicked
// run's `agency show` (the core's `renderShow`), and the status files no run's meta.json
// points to. Each line's status (its colour, `data-status`) comes from the runs' files' bytes
// in one call (`runStatuses`: the core's `deriveFiles`), with a file that does not read named
// in the line's tooltip. tmux is not checked, so no run reads as stalled.
import { useEffect, useMemo, useState } from "preact/hooks";
import { agency } from "../../lib/generated/web.mjs";
import { runRows, runStatuses } from "./agency-model.mjs";
import { Block, FileBanners, Failure, Panel, Pill, attempt, html, isObject, localTime, short } from "./ui.mjs";

/** Re-renders every `ms` (ages and the stall watchdog depend on now). */
function useTick(ms) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return tick;
}

/** The status files no run claims: status, summary, updated_at. */
function Unclaimed({ files }) {
  if (!files.length) return null;
  return html`<${Block} title="Status files without a run" testid="agency-unclaimed">
    <table class="table">
      <thead><tr><th>file</th><th>status</th><th>summary</th><th>updated_at</th></tr></thead>
      <tbody>
        ${files.map((file) => {
          const doc = isObject(file.document) ? file.document : null;
          return html`<tr data-status-file=${`${file.root}:${file.path}`}>
            <td class="mono">${file.group || "."}</td>
            <td>${doc ? html`<${Pill} status=${doc.status} />` : html`<span class="pill st-bad">invalid</span>`}</td>
            <td>${short(doc?.summary ?? "", 160)}</td>
            <td class="time" title=${typeof doc?.updated_at === "string" ? doc.updated_at : ""}>${localTime(doc?.updated_at)}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </${Block}>`;
}

/** A run's file that did not read, as a tooltip (`meta.json: E_PARSE ...`). */
function fileError(error) {
  if (!error) return undefined;
  const name = error.file === "meta" ? "meta.json" : "runner_status.json";
  return `${name}: ${error.code}${error.path ? ` at ${error.path}` : ""}: ${error.message}`;
}

/** An agency panel (runs of one root and its unclaimed status files). */
export function AgencyPanel({ panel }) {
  const tick = useTick(30000);
  const [selected, setSelected] = useState(null);
  const now = useMemo(() => Date.now(), [panel, tick]);
  const rows = useMemo(() => runRows(panel.runs, now), [panel, now]);
  const derived = useMemo(() => attempt(() => runStatuses(panel.runs, now)), [panel, now]);
  const ls = useMemo(() => attempt(() => agency.renderLs(rows)), [rows]);
  const index = rows.findIndex((r) => r.run_id === selected);
  const show = useMemo(() => (index >= 0 ? attempt(() => agency.renderShow(rows[index], now)) : null), [rows, index, now]);
  const lines = ls.value ? ls.value.replace(/\n$/, "").split("\n") : [];
  const aligned = lines.length === rows.length + 1;
  return html`<${Panel} protocol="agency" panelKey=${panel.key} title=${panel.runs.length ? "agency runs" : "agency status files"} subtitle=${panel.root === "data" ? "data dir" : "."}>
    <${FileBanners} files=${panel.files} />
    ${rows.length
      ? html`<${Block} title="agency ls" testid="agency-ls" extra=${`${rows.length} run${rows.length === 1 ? "" : "s"}, archived included`}>
          <${Failure} result=${ls} what="the table" />
          <div class="ls mono" role="listbox">
            ${aligned
              ? lines.map((line, i) =>
                  i === 0
                    ? html`<div class="ls-head">${line}</div>`
                    : html`<div
                        class=${`ls-row ${rows[i - 1].run_id === selected ? "selected" : ""} ${derived.value ? `status-${derived.value[i - 1].status}` : ""}`}
                        data-run-id=${rows[i - 1].run_id}
                        data-status=${derived.value?.[i - 1]?.status}
                        title=${fileError(derived.value?.[i - 1]?.error)}
                        role="option"
                        tabindex="0"
                        onClick=${() => setSelected(rows[i - 1].run_id === selected ? null : rows[i - 1].run_id)}
                        onKeyDown=${(e) => (e.key === "Enter" ? setSelected(rows[i - 1].run_id) : null)}
                      >${line}</div>`,
                )
              : html`<pre>${ls.value ?? ""}</pre>
                  <div>${rows.map((r) => html`<button type="button" class="linkish" data-run-id=${r.run_id} onClick=${() => setSelected(r.run_id)}>${r.run_id}</button> `)}</div>`}
          </div>
          <div class="hint">click a run for its details · <span title="the viewer does not run tmux: no run reads as stalled">tmux not checked</span></div>
        </${Block}>`
      : null}
    ${show
      ? html`<${Block} title=${`agency show ${selected}`} testid="agency-show">
          ${show.value ? html`<pre class="show">${show.value}</pre>` : html`<${Failure} result=${show} what="the run" />`}
        </${Block}>`
      : null}
    <${Unclaimed} files=${panel.unclaimed} />
  </${Panel}>`;
}
