// The page of `statecore view`: follows the server's event stream, loads the core's module the
// workspace needs once the first scan is in (modules.mjs: one protocol's, or the combined
// one), then draws every panel from the files it sends (checked and derived here, by the
// core). Renders are coalesced; after each, `body[data-changes]` counts the file events
// drawn and `body[data-ready]` is "1" once the first `ready` has been drawn.
import { render } from "preact";
import { AgencyPanel } from "./agency.mjs";
import { FctryPanel } from "./fctry.mjs";
import { FilesPanel } from "./files.mjs";
import { Header } from "./header.mjs";
import { HivePanel } from "./hive.mjs";
import { HivemindPanel } from "./hivemind.mjs";
import { panelsOf } from "./model.mjs";
import { SpecifyPanel } from "./specify.mjs";
import { createModules } from "./modules.mjs";
import { connect, createStore } from "./stream.mjs";
import { html } from "./ui.mjs";

/** The per-run token the server put in the page ("" when read-only). */
function pageToken() {
  const value = document.querySelector('meta[name="statecore-token"]')?.getAttribute("content") ?? "";
  return value === "%STATECORE_TOKEN%" ? "" : value;
}

/** The whole page. */
function App({ store, token }) {
  const writable = store.hello?.write === true && token !== "";
  const panels = panelsOf(store);
  const none = !panels.fctry.length && !panels.hivemind.length && !panels.hive.length && !panels.specify.length && !panels.agency.length;
  return html`
    <${Header} store=${store} writable=${writable} />
    <main class="grid">
      ${panels.fctry.map((p) => html`<${FctryPanel} key=${p.key} store=${store} panel=${p} write=${writable} token=${token} />`)}
      ${panels.hivemind.map((p) => html`<${HivemindPanel} key=${p.key} store=${store} panel=${p} />`)}
      ${panels.hive.map((p) => html`<${HivePanel} key=${p.key} store=${store} panel=${p} />`)}
      ${panels.specify.map((p) => html`<${SpecifyPanel} key=${p.key} store=${store} panel=${p} />`)}
      ${panels.agency.map((p) => html`<${AgencyPanel} key=${p.key} panel=${p} />`)}
      ${none && store.ready ? html`<div class="empty">No protocol file found under ${store.hello?.root ?? "the directory"} yet: the page updates as files appear.</div>` : null}
      ${panels.files.map((p) => html`<${FilesPanel} key=${p.key} store=${store} panel=${p} />`)}
    </main>`;
}

/** A message in place of the page when the core cannot load. */
function fatal(root, message) {
  root.textContent = "";
  const box = document.createElement("div");
  box.className = "fatal";
  box.textContent = message;
  root.append(box);
  document.body.dataset.error = message;
}

async function main() {
  const root = document.getElementById("app");
  const token = pageToken();
  const modules = createModules();
  let drawing = false; // once the first scan's module is loaded
  let timer = null;
  const draw = () => {
    timer = null;
    render(html`<${App} store=${store} token=${token} />`, root);
    document.body.dataset.changes = String(store.fileEvents);
    if (store.everReady) document.body.dataset.ready = "1";
  };
  const store = createStore((type) => {
    if (!drawing || (timer !== null && type !== "ready")) return;
    clearTimeout(timer);
    timer = setTimeout(draw, type === "ready" ? 0 : 20);
  });
  connect(store, "/events", modules);
  try {
    await modules.ready;
  } catch (error) {
    fatal(root, `statecore's core (wasm) could not be loaded: ${error?.message ?? error}`);
    return;
  }
  root.textContent = "";
  drawing = true;
  draw();
}

main();
