"use strict";
/**
 * The subscriptions of `statecore mcp` (docs/mcp.md § Subscriptions): `resources/subscribe`
 * on a `statecore://` URI watches that file with the library's `watch` (lib/watch.cjs, on the
 * one file-watching primitive, lib/file-watch.cjs), so a change is sent as
 * `notifications/resources/updated` once the file reads whole (a torn write is never sent);
 * once a client has listed the resources, a protocol document created or removed under DIR
 * sends `notifications/resources/list_changed`. Unsubscribing, and the connection closing,
 * close the watchers. The npm twin of python/statecore/_mcp/subscriptions.py.
 */
const path = require("node:path");
const { watch } = require("../host/watch.cjs");
const { watchFiles } = require("../host/file-watch.cjs");

/** Every watcher open now, across the servers of this process (what a test counts). */
const OPEN = new Set();

/** How many watchers are open now (subscriptions and resource lists of every connection). */
const openWatchers = () => OPEN.size;

/** Opens a watcher made by `start` and counts it; its `close` uncounts it. */
function opened(start) {
  const watcher = start();
  OPEN.add(watcher);
  return {
    ready: watcher.ready,
    close: async () => {
      OPEN.delete(watcher);
      await watcher.close();
    },
  };
}

/**
 * Serves subscriptions on `server` (the SDK's low-level `Server`, with `types` its schemas)
 * for the directory `root`: `resolve(uri)` is the server's check of a resource's URI (the
 * read's: `{file, kind}` or the read's refusal), `list()` the resource list, `isResource(rel)`
 * whether a path below `root` is one (its kind a protocol document's), `refuse(error)`
 * the JSON-RPC error of a refusal. Returns `{listed, close}`: `listed()` is called when a
 * client lists the resources (it starts the watcher of the list), `close()` closes every
 * watcher of this connection.
 */
function serveSubscriptions(server, types, { root, resolve, list, isResource, refuse, fail }) {
  const subscribed = new Map(); // uri -> its watcher
  let lister = null;
  let closed = false;

  server.setRequestHandler(types.SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    let checked;
    try {
      checked = resolve(uri);
    } catch (error) {
      throw refuse(error);
    }
    if (closed || subscribed.has(uri)) return {};
    const send = () => server.sendResourceUpdated({ uri }).catch(() => undefined);
    let watcher;
    try {
      watcher = opened(() => watch(checked.file, checked.kind, send, { initial: false, onError: fail }));
    } catch (error) {
      throw refuse(error); // its directory does not exist (yet): ENOENT
    }
    subscribed.set(uri, watcher);
    await watcher.ready;
    return {};
  });

  server.setRequestHandler(types.UnsubscribeRequestSchema, async (request) => {
    const watcher = subscribed.get(request.params.uri);
    subscribed.delete(request.params.uri);
    if (watcher !== undefined) await watcher.close();
    return {};
  });

  /** Starts watching the list, once: an added or removed protocol document sends list_changed. */
  const listed = async (resources) => {
    if (closed || lister !== null) return;
    let last = JSON.stringify(resources.map((r) => r.uri));
    let again = false; // a look at the list is queued already
    const look = async () => {
      again = false;
      const now = JSON.stringify(list().map((r) => r.uri));
      if (now === last) return;
      last = now;
      await server.sendResourceListChanged().catch(() => undefined);
    };
    const react = (file) => {
      const rel = path.relative(root, file).split(path.sep).join("/");
      if (!isResource(rel) || again) return undefined;
      again = true;
      return look();
    };
    const options = { ignored: () => false, events: ["add", "unlink"] };
    lister = opened(() => watchFiles(root, options, react, fail));
    await lister.ready;
  };

  const close = async () => {
    closed = true;
    const all = [...subscribed.values(), ...(lister === null ? [] : [lister])];
    subscribed.clear();
    lister = null;
    await Promise.all(all.map((watcher) => watcher.close()));
  };
  return { listed, close };
}

module.exports = { serveSubscriptions, openWatchers };
