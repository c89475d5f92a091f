// The server's event stream (`/events`: hello, file, ready) and the page's file store: every
// file's latest bytes, check and document by `<root>:<path>`, the connection's state, and
// what the page remembers across reconnects (the Hivemind transitions it saw live).
import { checkFile, fromBase64 } from "./check.mjs";

/** How many live transitions a Hivemind project keeps. */
const KEEP_TRANSITIONS = 10;

/** A new, empty store. `changed()` is called after every change. */
export function createStore(changed) {
  const store = {
    hello: null, // {root, data_dir, write}
    connection: "connecting", // connecting | live | disconnected
    ready: false, // the current connection's initial files are all in
    everReady: false,
    files: new Map(), // "<root>:<path>" -> file record
    fileEvents: 0, // file events received (all connections)
    lastChange: null, // Date of the last file event after the initial load
    transitions: new Map(), // "<root>:<group>" -> [{from, to, at}], newest first
    lastState: new Map(), // "<root>:<group>" -> the Hivemind state last seen
    stale: null, // after a reconnect: the keys not sent again yet
    changed,
  };
  return store;
}

/** The file record of a `file` event (its bytes checked by the core). */
function fileRecord(event) {
  const base = {
    key: `${event.root}:${event.path}`,
    path: event.path,
    root: event.root,
    abs: event.abs,
    role: event.role,
    kind: event.kind ?? null,
    group: event.group ?? "",
    mtime: event.mtime ?? null,
    // A log sent as its last bytes: where they start in the file, and its size.
    window: event.offset > 0 ? { offset: event.offset, size: event.size } : null,
    refused: null,
  };
  if (event.refused) {
    // The server did not read it (a link, a FIFO or device, over a limit): its reason stands
    // as the file's one problem.
    const issue = { code: String(event.refused.code), path: "", message: String(event.refused.message), line: null, column: null };
    const check = { file: event.path, kind: base.kind ?? "", valid: false, errors: [issue], warnings: [] };
    return { ...base, refused: event.refused, removed: false, bytes: null, check, document: null, text: null };
  }
  if (event.data === null || event.data === undefined) {
    return { ...base, removed: true, bytes: null, check: null, document: null, text: null };
  }
  const bytes = fromBase64(event.data);
  const { check, document, text } = checkFile(base, bytes);
  return { ...base, removed: false, bytes, check, document, text };
}

/** Remembers a Hivemind project's state; a change seen live is a transition. */
function noteHivemind(store, record) {
  if (record.role !== "hivemind.state" || record.removed) return;
  const doc = record.document;
  const state = doc && typeof doc === "object" && typeof doc.state === "string" ? doc.state : null;
  if (state === null) return;
  const key = `${record.root}:${record.group}`;
  const before = store.lastState.get(key);
  store.lastState.set(key, state);
  if (before === undefined || before === state) return;
  const list = [{ from: before, to: state, at: new Date() }, ...(store.transitions.get(key) ?? [])];
  store.transitions.set(key, list.slice(0, KEEP_TRANSITIONS));
}

/** Applies one server event to the store. */
export function applyEvent(store, type, data) {
  if (type === "hello") {
    // A (re)connection: the server sends every file again. The files kept from before are
    // replaced as they come, and those not sent again are dropped at `ready` (the page does
    // not blank in between).
    store.hello = data;
    store.stale = new Set(store.files.keys());
    store.ready = false;
    store.connection = "live";
  } else if (type === "file") {
    const record = fileRecord(data);
    store.files.set(record.key, record);
    store.stale?.delete(record.key);
    store.fileEvents += 1;
    if (store.ready) store.lastChange = new Date();
    noteHivemind(store, record);
  } else if (type === "ready") {
    for (const key of store.stale ?? []) store.files.delete(key);
    store.stale = null;
    store.ready = true;
    store.everReady = true;
  }
}

/**
 * Connects to `/events`, reconnecting when the server goes away. Returns a stop function.
 * `modules` (modules.mjs) holds the first scan's events until the core's module is loaded,
 * and each later event until the module it needs is; events are applied in order.
 */
export function connect(store, url = "/events", modules = null) {
  let source = null;
  let retry = null;
  let stopped = false;
  let queue = Promise.resolve();
  const apply = (type, data) => {
    try {
      applyEvent(store, type, data);
    } catch (error) {
      console.error(`statecore view: the ${type} event could not be applied`, error);
    }
    store.changed(type);
  };
  modules?.setApply?.(apply);
  const open = () => {
    source = new EventSource(url);
    source.addEventListener("open", () => {
      store.connection = "live";
      store.changed();
    });
    source.addEventListener("error", () => {
      store.connection = "disconnected";
      store.changed();
      // EventSource retries by itself unless the server refused the stream.
      if (source.readyState === EventSource.CLOSED && !stopped) {
        retry = setTimeout(open, 2000);
      }
    });
    for (const type of ["hello", "file", "ready"]) {
      source.addEventListener(type, (message) => {
        let data;
        try {
          data = JSON.parse(message.data);
        } catch {
          console.error(`statecore view: a ${type} event that is not JSON`, message.data);
          return;
        }
        if (modules?.hold(type, data)) return;
        queue = queue.then(() => modules?.before(type, data)).then(
          () => apply(type, data),
          (error) => console.error(`statecore view: the core's module for a ${type} event could not be loaded`, error),
        );
      });
    }
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}
