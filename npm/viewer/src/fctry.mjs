// A fctry project's panel (a directory holding `.fctry/`): the status line (the core's
// `projectStatusText` over the files `statecore fctry status` reads: state, config (the
// version registry), the spec's first 8 KB and the inbox; the branch is not watched), the
// spec with its active section, the build run's DAG, the inbox (Dismiss when writes are
// enabled), the activity feed over `.fctry/events/*.jsonl`, context health and the config:
// each block only when its file is there.
import { useMemo, useState } from "preact/hooks";
import { fctry } from "../../lib/generated/web.mjs";
import { Dag } from "./dag.mjs";
import { Spec } from "./markdown.mjs";
import { decodeText } from "./check.mjs";
import { byteCompare, fileOf, groupName } from "./model.mjs";
import { Block, FileBanners, Failure, Panel, Pill, attempt, html, isObject, localTime, short } from "./ui.mjs";

const SPEC_HEAD = 8192;

/**
 * The spec's first 8 KB, cut back to their last line break (as the command line reads it);
 * null when they are not UTF-8 (the command line then reads no section titles either).
 */
function specHead(bytes) {
  if (bytes.length <= SPEC_HEAD) return decodeText(bytes);
  const cut = bytes.subarray(0, SPEC_HEAD).lastIndexOf(0x0a) + 1;
  return decodeText(bytes.subarray(0, cut));
}

/** The text of a file (null: missing, or bytes that are not UTF-8). */
const textOf = (file) => (file ? file.text ?? null : null);

/** The spec rendered, or why it cannot be: bytes that are not UTF-8 are not guessed at. */
function SpecText({ spec, state }) {
  if (spec.text === null || spec.text === undefined) {
    return html`<div class="problem error" data-testid="spec-not-text">.fctry/spec.md is not UTF-8 text, so it is not shown (save it as UTF-8)</div>`;
  }
  return html`<${Spec} text=${spec.text} section=${state?.activeSection} number=${state?.activeSectionNumber} />`;
}

/** The status line of the project. */
function StatusLine({ name, state, config, spec, inbox }) {
  const line = useMemo(
    () =>
      attempt(() =>
        fctry.projectStatusText({
          name,
          state: textOf(state),
          config: textOf(config),
          spec: spec ? specHead(spec.bytes) : null,
          inbox: textOf(inbox),
        }),
      ),
    [name, state, config, spec, inbox],
  );
  return html`<pre class="status-line" data-testid="status-line">${line.value ?? `status line not shown: ${line.error}`}</pre>`;
}

/** The inbox's items with a Dismiss button each when the server allows writes. */
function Inbox({ file, group, write, token, message, setMessage }) {
  const [busy, setBusy] = useState(null);
  const items = file && Array.isArray(file.document) ? file.document : [];
  const dismiss = async (id) => {
    setBusy(id);
    setMessage(null);
    try {
      const response = await fetch("/api/inbox/dismiss", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Statecore-Token": token },
        body: JSON.stringify({ project: group, id }),
      });
      let answer = null;
      try {
        answer = await response.json();
      } catch {
        answer = null;
      }
      if (!response.ok || !answer || answer.ok !== true) {
        const why = answer && answer.message ? `${answer.code ? `${answer.code}: ` : ""}${answer.message}` : `HTTP ${response.status}`;
        setMessage(`dismiss ${id}: ${why}`);
      }
    } catch (error) {
      setMessage(`dismiss ${id}: ${error.message}`);
    } finally {
      setBusy(null);
    }
  };
  return html`<div>
    ${message ? html`<div class="write-error" role="alert">${message}</div>` : null}
    ${items.length === 0 ? html`<div class="muted">${file.document === null ? "inbox.json does not parse" : "the inbox is empty"}</div>` : null}
    <table class="table">
      <tbody>
        ${items.map((item) => {
          if (!isObject(item)) return html`<tr><td colspan="5" class="muted">${short(item)}</td></tr>`;
          const id = typeof item.id === "string" ? item.id : "";
          return html`<tr data-item-id=${id}>
            <td class="nowrap">${short(item.type ?? "", 20)}</td>
            <td><${Pill} status=${item.status} /></td>
            <td class="content" title=${typeof item.content === "string" ? item.content : ""}>
              ${short(item.content ?? "", 200)}
              ${item.error ? html`<div class="st-text-bad">${short(item.error, 200)}</div>` : null}
            </td>
            <td class="time">${localTime(item.timestamp)}</td>
            <td class="nowrap">${write && id ? html`<button type="button" class="dismiss" disabled=${busy === id} onClick=${() => dismiss(id)}>Dismiss</button>` : null}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

/** The activity feed over the event logs, newest first, and its events without a valid time. */
function Feed({ events, feed, sources }) {
  if (feed.error) return html`<${Failure} result=${feed} what="feed" />`;
  const list = feed.value.events.slice(-200).reverse();
  return html`<div>
    ${list.length === 0 ? html`<div class="muted">no events</div>` : null}
    <div class="feed-scroll"><table class="table feed">
      <tbody>
        ${list.map((e) => html`<tr>
          <td class="time" title=${typeof e.timestamp === "string" ? e.timestamp : ""}>${localTime(e.timestamp)}</td>
          <td class="kind">${short(e.kind ?? "", 40)}</td>
          <td class="chunk">${e.chunk !== undefined && e.chunk !== null ? short(e.chunk, 30) : ""}</td>
          <td class="summary">${short(e.summary ?? (Array.isArray(e.checks) ? e.checks.map((c) => `${c?.name}: ${c?.result}`).join(", ") : ""), 200)}</td>
        </tr>`)}
      </tbody>
    </table></div>
    ${feed.value.invalid.length
      ? html`<div class="feed-invalid"><strong>without a valid timestamp (${feed.value.invalid.length}):</strong>
          <ul>${feed.value.invalid.map((entry) => html`<li class="mono">${sources[entry.source]?.path ?? `source ${entry.source}`} #${entry.index}: ${short(sources[entry.source]?.document?.[entry.index], 160)}</li>`)}</ul>
        </div>`
      : null}
  </div>`;
}

/** The config (version registry). */
function Config({ file }) {
  const doc = file.document;
  const versions = isObject(doc) && isObject(doc.versions) ? doc.versions : {};
  const current = (key) => (isObject(versions[key]) ? versions[key].current : undefined);
  return html`<div>
    <table class="kv"><tbody>
      <tr><th>version</th><td class="mono">${short(current("external") ?? "–")}</td></tr>
      <tr><th>spec version</th><td class="mono">${short(current("spec") ?? "–")}</td></tr>
    </tbody></table>
    ${doc !== null ? html`<details><summary>config.json</summary><pre class="json">${JSON.stringify(doc, null, 2)}</pre></details>` : null}
  </div>`;
}

/** A fctry project's panel. */
export function FctryPanel({ store, panel, write, token }) {
  const state = fileOf(panel, "fctry.state");
  const inbox = fileOf(panel, "fctry.inbox");
  const spec = fileOf(panel, "fctry.spec");
  const config = fileOf(panel, "fctry.config");
  const events = panel.files.filter((f) => f.role === "fctry.events").sort((a, b) => byteCompare(a.path, b.path));
  const name = groupName(store, panel);
  const stateDoc = state && isObject(state.document) ? state.document : null;
  const [message, setMessage] = useState(null);
  const feed = useMemo(
    () => attempt(() => fctry.activityFeed(events.map((f) => (Array.isArray(f.document) ? f.document : [])))),
    events,
  );
  const health = useMemo(
    () => attempt(() => fctry.contextHealth(stateDoc, feed.value ? feed.value.events : [])),
    [stateDoc, feed],
  );
  return html`<${Panel} protocol="fctry" panelKey=${panel.key} title=${name} subtitle=${panel.group || "."} wide=${true}>
    <${StatusLine} name=${name} state=${state} config=${config} spec=${spec} inbox=${inbox} />
    <${FileBanners} files=${panel.files} />
    <div class="fctry-grid">
      ${state
        ? html`<${Block} title="Build run" testid="dag" cls="dag-block">
            ${state.document === null ? html`<div class="muted">state.json does not parse</div>` : html`<${Dag} state=${stateDoc} />`}
          </${Block}>`
        : null}
      ${spec
        ? html`<${Block} title="Spec" testid="spec" cls="spec-block" extra=${stateDoc?.activeSection ? `active: ${short(stateDoc.activeSection, 40)}${stateDoc.activeSectionNumber ? ` (${short(stateDoc.activeSectionNumber, 12)})` : ""}` : ""}>
            <${SpecText} spec=${spec} state=${stateDoc} />
          </${Block}>`
        : null}
      <div class="fctry-side">
        ${inbox
          ? html`<${Block} title="Inbox" testid="inbox" extra=${Array.isArray(inbox.document) ? `${inbox.document.length} items` : ""}>
              <${Inbox} file=${inbox} group=${panel.group} write=${write} token=${token} message=${message} setMessage=${setMessage} />
            </${Block}>`
          : null}
        ${state || events.length
          ? html`<${Block} title="Context health" testid="context-health">
              ${health.error
                ? html`<${Failure} result=${health} what="context health" />`
                : html`<table class="kv"><tbody>
                    <tr><th>isolation</th><td><span class="mono">${health.value.isolation}</span></td></tr>
                    <tr><th>last checkpoint</th><td>${localTime(health.value.lastCheckpoint)}</td></tr>
                  </tbody></table>`}
            </${Block}>`
          : null}
        ${config ? html`<${Block} title="Config" testid="config"><${Config} file=${config} /></${Block}>` : null}
      </div>
      ${events.length
        ? html`<${Block} title="Activity" testid="feed" cls="feed-block" extra=${feed.value ? `${feed.value.events.length} events from ${events.length} logs` : ""}>
            <${Feed} events=${events} feed=${feed} sources=${events} />
          </${Block}>`
        : null}
    </div>
  </${Panel}>`;
}
