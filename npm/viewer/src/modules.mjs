// Which of the browser's core modules the page loads (docs/viewer.md § Built offline): the
// events of the first scan are held until its `ready`; then a workspace with one protocol
// loads that protocol's module only, and one with several (or none) the combined module
// (one module, every protocol: smaller than two protocols' modules, each with the base).
// A file of another protocol that appears later loads the combined module before its event
// is applied. The protocol of a file is its kind's (KIND_PROTOCOL, from the core's table).
import { init, KIND_PROTOCOL, load, loaded } from "../../lib/generated/web.mjs";

/** Where the server serves each module (scripts/build-viewer.sh copies them flat). */
const assetOf = (protocol) => (protocol === null ? "/assets/statecore_bg.wasm" : `/assets/statecore-${protocol}_bg.wasm`);

/** The protocol of a file event's kind (null: none). */
const protocolOf = (data) => (data && Object.hasOwn(KIND_PROTOCOL, data.kind ?? "") ? KIND_PROTOCOL[data.kind] : null);

/**
 * The page's modules: `hold(type, data)` is true while the first scan's events are held (they
 * are applied, in order, by the function given to `setApply` once their modules are loaded);
 * `before(type, data)` resolves once the module a later event needs is loaded. `ready`
 * resolves after the first load.
 */
export function createModules() {
  let held = [];
  let apply = null;
  let resolveReady;
  let rejectReady;
  const ready = new Promise((ok, fail) => {
    resolveReady = ok;
    rejectReady = fail;
  });
  const covers = (protocol) => protocol === null || loaded().includes("all") || loaded().includes(protocol);
  const protocolsOf = (events) => new Set(events.map(([, data]) => protocolOf(data)).filter((p) => p !== null));
  /** Loads what the first scan needs, then applies every event held (more may come meanwhile). */
  const flush = async () => {
    const protocols = protocolsOf(held);
    const [only] = protocols;
    await (protocols.size === 1 ? load(only, assetOf(only)) : init(assetOf(null)));
    // events of another protocol that came while it loaded: the combined module
    if ([...protocolsOf(held)].some((p) => !covers(p))) await init(assetOf(null));
    const events = held;
    held = null;
    for (const [type, data] of events) apply(type, data);
  };
  return {
    ready,
    /** The function that applies an event (the stream's). */
    setApply(fn) {
      apply = fn;
    },
    /** True while the first scan's events are held (this one included). */
    hold(type, data) {
      if (held === null) return false;
      held.push([type, data]);
      if (type === "ready" && held.filter(([t]) => t === "ready").length === 1) flush().then(resolveReady, rejectReady);
      return true;
    },
    /** Resolves once the module `data`'s file needs is loaded (the combined one for a new protocol). */
    before(type, data) {
      return type === "file" && !covers(protocolOf(data)) ? init(assetOf(null)) : undefined;
    },
  };
}
