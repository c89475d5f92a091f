// The Files panel of a root: every file the server sent, in byte order of its path, with its
// verdict (valid, invalid, warnings, removed) from the core's check, and for a file with
// problems each one as `line:column  CODE  /pointer  message`.
import { verdictOf } from "./check.mjs";
import { Panel, Problems, html, localTime } from "./ui.mjs";

const VERDICT_CLASS = { valid: "st-ok", invalid: "st-bad", warnings: "st-warn", removed: "st-idle", refused: "st-bad" };

/** A byte count as people read it. */
function bytesText(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}

/** The Files panel of one root. */
export function FilesPanel({ store, panel }) {
  const dir = panel.root === "data" ? store.hello?.data_dir : store.hello?.root;
  const counts = { valid: 0, invalid: 0, warnings: 0, removed: 0, refused: 0 };
  for (const f of panel.files) counts[verdictOf(f)] += 1;
  const summary = Object.entries(counts).filter(([, n]) => n).map(([v, n]) => `${n} ${v}`).join(", ");
  return html`<${Panel} protocol="files" panelKey=${panel.key} title=${`Files (${panel.root})`} subtitle=${dir ?? ""} wide=${true}>
    <div class="files-summary">${summary || "no files"}</div>
    <table class="table files">
      <thead><tr><th>path</th><th>kind</th><th>verdict</th><th>modified</th></tr></thead>
      <tbody>
        ${panel.files.map((file) => {
          const verdict = verdictOf(file);
          const check = file.check;
          const records = check && typeof check.records === "number" ? ` · ${check.records} records` : "";
          const window = file.window ? ` · its last ${bytesText(file.window.size - file.window.offset)} of ${bytesText(file.window.size)}` : "";
          return html`<tr data-file=${`${file.root}:${file.path}`} data-verdict=${verdict} class=${`verdict-${verdict}`}>
            <td class="mono path">
              ${file.path}
              ${verdict === "invalid" || verdict === "warnings" || verdict === "refused" ? html`<${Problems} check=${check} />` : null}
            </td>
            <td class="mono small">${check?.kind || file.kind || file.role}${records}${window}</td>
            <td><span class=${`pill ${VERDICT_CLASS[verdict]}`}>${verdict}</span></td>
            <td class="time" title=${file.mtime ?? ""}>${localTime(file.mtime)}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </${Panel}>`;
}
