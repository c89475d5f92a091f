// The page's header: the directory viewed (and agency's data directory), the connection
// (live / disconnected; EventSource reconnects by itself), read-only or writes enabled, and
// the time of the last change (before any live change: the newest file's modification time).
import { html, localTime } from "./ui.mjs";

/** The header. */
export function Header({ store, writable }) {
  const hello = store.hello;
  const connection = store.connection === "live" ? "live" : "disconnected";
  let newest = null;
  for (const f of store.files.values()) if (f.mtime && (!newest || f.mtime > newest)) newest = f.mtime;
  return html`<header class="top">
    <div class="title">
      <strong>statecore view</strong>
      <span class="mono root" title="the directory viewed">${hello?.root ?? "…"}</span>
      ${hello?.data_dir ? html`<span class="mono root muted" title="agency's data directory">data: ${hello.data_dir}</span>` : null}
    </div>
    <div class="state">
      <span class=${`conn conn-${connection}`} data-testid="connection" title=${store.connection === "connecting" ? "connecting" : ""}>${connection}</span>
      <span class=${`mode ${writable ? "mode-write" : ""}`} data-testid="mode">${writable ? "writes enabled" : "read-only"}</span>
      <span class="last" data-testid="last-change">
        ${store.lastChange ? `last change ${localTime(store.lastChange)}` : newest ? `newest file ${localTime(newest)}` : "no change yet"}
      </span>
      ${!store.ready && store.hello ? html`<span class="muted">loading…</span>` : null}
    </div>
  </header>`;
}
