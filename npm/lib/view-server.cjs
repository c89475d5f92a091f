// `statecore view` (docs/viewer.md): the viewer's server, the host side of the core's
// `view_file` and `view_request`. It watches the directory (and agency's data directory) with
// chokidar, keeps the raw bytes of every file the core says the viewer shows, pushes them to
// the page over Server-Sent Events, and serves the page bundled in dist/viewer/. How to answer a
// request is the core's decision (`viewRequest`); this file only reads, listens and writes.
// No part of a request names a file: an asset is looked up by name among the bundle's files,
// a dismissal's project among the fctry projects found.
"use strict";
const { createServer } = require("node:http");
const { readdirSync, readFileSync, statSync } = require("node:fs");
const { join, relative, sep } = require("node:path");
const chokidar = require("chokidar");
const { viewFile, viewRequest, viewFailure, CONSTANTS } = require("./core-node.cjs");

const BUNDLE = join(__dirname, "..", "dist", "viewer");
const KEEPALIVE_MS = 15_000;
/** A file is looked at again this long after each event: a write chokidar folded into the
 * previous one (a rename then an in-place write within a few ms) is still sent. */
const RECHECK_MS = 150;
/** Directories never watched (as `validate` skips them). */
const SKIPPED = new Set([".git", "node_modules"]);

/** The bundled page's files by name; the page's HTML with this run's token in it. */
function loadBundle(token) {
  let names;
  try {
    names = readdirSync(BUNDLE);
  } catch {
    throw new Error(`the viewer's page is not built (${BUNDLE}): run scripts/build-viewer.sh`);
  }
  const assets = new Map();
  for (const name of names) assets.set(name, readFileSync(join(BUNDLE, name)));
  const html = assets.get("index.html");
  if (!html) throw new Error(`the viewer's page is not built (${BUNDLE}/index.html is missing)`);
  const page = Buffer.from(html.toString("utf8").replace("%STATECORE_TOKEN%", token));
  return { assets, page };
}

/** The files the viewer shows, by `<root>:<path>`, and the page's event streams. */
class Files {
  constructor(bases) {
    this.bases = bases;
    this.files = new Map();
    this.seen = new Map(); // key -> "mtimeNs:size:ino" of the bytes sent
    this.rechecks = new Map();
    this.clients = new Set();
    this.ready = false;
  }

  /** Reads the file at `abs` (`rel` in root `root`) and sends it; `removed`: it is gone. */
  update(root, base, abs, removed) {
    const rel = relative(base, abs).split(sep).join("/");
    const role = viewFile(rel, null);
    if (!role) return;
    const key = `${root}:${role.path}`;
    let data = null;
    let mtime = null;
    let seen = null;
    if (!removed) {
      try {
        const before = statSync(abs, { bigint: true });
        const bytes = readFileSync(abs);
        mtime = new Date(Number(before.mtimeMs)).toISOString();
        seen = signature(before);
        data = bytes.toString("base64");
      } catch {
        removed = true; // gone between the event and the read: its removal follows
      }
    }
    this.recheck(key, () => this.update(root, base, abs, false), abs);
    this.put(root, role, abs, { data, mtime, seen, removed });
  }

  /**
   * Sends the file `role` (the core's `viewFile`) of root `root` as it now is: its bytes
   * (`data`, base64) and `mtime`, `seen` what tells this version from the next; or `removed`.
   */
  put(root, role, abs, { data, mtime, seen, removed }) {
    const key = `${root}:${role.path}`;
    if (removed && !this.files.has(key)) return;
    if (!removed && this.seen.get(key) === seen && this.files.get(key)?.data === data) return;
    const file = { path: role.path, root, abs, role: role.role, kind: role.kind, group: role.group, data, mtime };
    if (removed) {
      this.files.delete(key);
      this.seen.delete(key);
    } else {
      this.files.set(key, file);
      this.seen.set(key, seen);
    }
    this.broadcast("file", file);
  }

  /** Looks at the file again RECHECK_MS after its last event; sends it if it changed since. */
  recheck(key, again, abs) {
    clearTimeout(this.rechecks.get(key));
    const timer = setTimeout(() => {
      this.rechecks.delete(key);
      let now = null;
      try {
        now = signature(statSync(abs, { bigint: true }));
      } catch {
        now = null;
      }
      if (now !== (this.seen.get(key) ?? null)) again();
    }, RECHECK_MS);
    timer.unref();
    this.rechecks.set(key, timer);
  }

  /** Sends one event to every page. */
  broadcast(event, data) {
    const text = frame(event, data);
    for (const res of this.clients) res.write(text);
  }

  /** A page's stream: hello, every file, ready (now or once the first scan ends). */
  attach(res, hello) {
    res.write(frame("hello", hello));
    for (const file of this.files.values()) res.write(frame("file", file));
    if (this.ready) res.write(frame("ready", {}));
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  /** The groups of the fctry projects found in the watched directory. */
  projects() {
    const found = new Set();
    for (const file of this.files.values()) {
      if (file.root === "dir" && file.role.startsWith("fctry.")) found.add(file.group);
    }
    return [...found];
  }
}

/** What tells one version of a file from the next: its mtime (ns), size and inode. */
function signature(stat) {
  return `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

/** One Server-Sent Event. */
function frame(event, data) {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Watches the store URL `url` as root `root` (docs/store.md § Store URLs): its rows and logs
 * below the URL's key, each sent whole as a file would be (a log as the text of its lines),
 * on every committed change (`PostgresStore.watch`). Resolves once every one was sent.
 */
async function watchStore(files, root, url) {
  const cliStore = require("./cli-store.cjs");
  const { store, key } = await cliStore.open(url);
  const prefix = key ? `${key}/` : "";
  let sending = Promise.resolve();
  const send = (change) => {
    const rel = change.path.slice(prefix.length);
    const role = viewFile(rel, null);
    if (!role) return;
    const abs = `${url.replace(/\/+$/, "")}/${rel}`;
    sending = sending.then(async () => {
      const fact = await cliStore.readFact(abs);
      const removed = fact.text === undefined;
      const data = removed ? null : Buffer.from(fact.text).toString("base64");
      const mtime = removed ? null : new Date(fact.mtime).toISOString();
      files.put(root, role, abs, { data, mtime, seen: data, removed });
    });
  };
  const watcher = await store.watch(prefix, null, send, { initial: true });
  await sending;
  return { close: () => watcher.close() };
}

/** Watches `base` as root `root`; resolves once its first scan is done. */
function watch(files, root, base) {
  if (/^postgres(ql)?:\/\//.test(base)) return watchStore(files, root, base);
  const watcher = chokidar.watch(base, {
    ignored: (path) => path.split(sep).some((part) => SKIPPED.has(part)),
    followSymlinks: false,
    ignoreInitial: false,
  });
  watcher.on("add", (abs) => files.update(root, base, abs, false));
  watcher.on("change", (abs) => files.update(root, base, abs, false));
  watcher.on("unlink", (abs) => files.update(root, base, abs, true));
  return new Promise((resolve, reject) => {
    watcher.on("ready", () => resolve(watcher));
    watcher.on("error", reject);
  });
}

/** Reads a request's body, at most `limit` bytes (the core refuses one that reaches it). */
function readBody(req, limit) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      if (size >= limit) return;
      chunks.push(chunk.subarray(0, limit - size));
      size += Math.min(chunk.length, limit - size);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(""));
  });
}

/** The request as the core reads it: only the headers it decides on. */
async function describe(req) {
  const request = { method: req.method ?? "", path: req.url ?? "" };
  const header = (name) => req.headers[name];
  if (header("host") !== undefined) request.host = header("host");
  if (header("origin") !== undefined) request.origin = header("origin");
  if (header("x-statecore-token") !== undefined) request.token = String(header("x-statecore-token"));
  if (header("content-type") !== undefined) request.content_type = header("content-type");
  if (req.method === "POST") request.body = await readBody(req, CONSTANTS.viewBodyBytes + 1);
  return request;
}

/** Answers `status` with a JSON body. */
function json(res, route, status, body) {
  res.writeHead(status, { ...route.headers, "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * Serves the viewer (`serve`: the core's `CliServe`). Resolves once listening, with the server
 * and a `close()`; prints the banner with the page's URL.
 */
async function serveView(serve, options = {}) {
  const out = options.stdout ?? process.stdout;
  const { assets, page } = loadBundle(serve.token);
  const roots = [["dir", serve.root]];
  if (serve.data_dir) roots.push(["data", serve.data_dir]);
  const files = new Files(Object.fromEntries(roots));
  const watchers = await Promise.all(roots.map(([root, base]) => watch(files, root, base)));
  files.ready = true;
  files.broadcast("ready", {});
  const facts = { port: 1, token: serve.token, write: serve.write, assets: [...assets.keys(), "index.html"] };
  const hello = { root: serve.root, data_dir: serve.data_dir, write: serve.write };

  const server = createServer(async (req, res) => {
    const route = viewRequest(await describe(req), { ...facts, projects: files.projects() });
    const head = (type) => ({ ...route.headers, "Content-Type": type });
    switch (route.route) {
      case "page":
        res.writeHead(200, head(route.content_type));
        res.end(req.method === "HEAD" ? undefined : page);
        return;
      case "asset": {
        const body = route.asset === "index.html" ? page : assets.get(route.asset);
        res.writeHead(200, head(route.content_type));
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      case "events": {
        res.writeHead(200, { ...head(route.content_type), Connection: "keep-alive" });
        files.attach(res, hello);
        return;
      }
      case "dismiss": {
        try {
          await dismiss(serve.root, route.project, route.id);
          return json(res, route, 200, { ok: true });
        } catch (error) {
          const failed = viewFailure({ code: String(error?.code ?? "E_VIEW_WRITE"), message: String(error?.message ?? error) });
          return json(res, failed, failed.status, { code: failed.code, message: failed.message });
        }
      }
      default:
        if (route.allow) res.setHeader("Allow", route.allow);
        return json(res, route, route.status, { code: route.code, message: route.message });
    }
  });
  const keepalive = setInterval(() => {
    for (const res of files.clients) res.write(": keep-alive\n\n");
  }, KEEPALIVE_MS);
  keepalive.unref();

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(serve.port, "127.0.0.1", resolve);
  });
  facts.port = server.address().port;
  const url = `http://127.0.0.1:${facts.port}/`;
  out.write(serve.banner.replace("{url}", url));
  const close = async () => {
    clearInterval(keepalive);
    for (const res of files.clients) res.end();
    for (const timer of files.rechecks.values()) clearTimeout(timer);
    await Promise.all(watchers.map((w) => w.close()));
    if (roots.some(([, base]) => /^postgres(ql)?:\/\//.test(base))) await require("./cli-store.cjs").closeAll();
    await new Promise((resolve) => server.close(resolve));
  };
  return { server, url, close };
}

/** Dismisses the inbox item `id` of the fctry project `project` below `root` (a directory or a store URL). */
async function dismiss(root, project, id) {
  const fctry = require("./fctry.cjs");
  if (!/^postgres(ql)?:\/\//.test(root)) return fctry.inboxDismiss(join(root, project), id);
  const { store, key } = await require("./cli-store.cjs").open(root);
  return fctry.inboxDismiss([key, project].filter(Boolean).join("/") || ".", id, { store });
}

/** Why listening failed, as the command prints it. */
function listenError(error, port) {
  if (error?.code === "EADDRINUSE") {
    return `port ${port} is in use: give --port N, or --port 0 for any free port`;
  }
  if (error?.code === "EACCES") return `port ${port} cannot be used (EACCES): give --port N above 1023, or 0`;
  return String(error?.message ?? error);
}

module.exports = { serveView, listenError };
