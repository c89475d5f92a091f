// `statecore view` (docs/viewer.md): the viewer's server, the host side of the core's
// `view_file`, `view_read`, `view_backlog` and `view_request`. It watches the directory (and
// agency's data directory) through lib/host/file-watch.cjs, reads every file the core says the viewer shows
// through the library's reader (a link never followed, a FIFO or device never opened, a
// document up to the library's limit, a log's last page), keeps each one's event, pushes them
// to the page over Server-Sent Events with a bounded queue per page (docs/viewer.md § Bounds),
// and serves the page bundled in dist/viewer/. How to answer a request, what to read and which
// stream to drop are the core's decisions; this file only reads, listens and writes.
// No part of a request names a file: an asset is looked up by name among the bundle's files,
// a dismissal's project among the fctry projects found.
"use strict";
const { createServer } = require("node:http");
const { readdirSync, readFileSync, realpathSync } = require("node:fs");
const { lstat, realpath } = require("node:fs/promises");
const { createHash } = require("node:crypto");
const { dirname, join, relative, sep } = require("node:path");
const { viewFile, viewRequest, viewFailure, viewRead, viewBacklog, CONSTANTS } = require("../generated/core-node.cjs");
const { fileType, readMaybe } = require("../host/atomic.cjs");

const BUNDLE = join(__dirname, "..", "..", "dist", "viewer");
const KEEPALIVE_MS = 15_000;
/** A file is looked at again this long after each event, as every watcher does (lib/host/file-watch.cjs). */
const { RECHECK_MS, watchFiles } = require("../host/file-watch.cjs");

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

/** Base64 is encoded this many bytes at a time (a multiple of 3): no string as large as a file. */
const ENCODE_CHUNK = 3 * 256 * 1024;

/** One event as bytes. */
function frame(event, data) {
  return Buffer.from(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * One `file` event as bytes: `fields` as JSON with `data`, the base64 of `bytes` (null: none),
 * encoded into the frame piece by piece.
 */
function fileFrame(fields, bytes) {
  const head = `event: file\ndata: ${JSON.stringify(fields).slice(0, -1)},"data":`;
  if (bytes === null) return Buffer.from(`${head}null}\n\n`);
  const prefix = Buffer.from(`${head}"`);
  const suffix = Buffer.from('"}\n\n');
  const out = Buffer.allocUnsafe(prefix.length + Math.ceil(bytes.length / 3) * 4 + suffix.length);
  let at = prefix.copy(out, 0);
  for (let i = 0; i < bytes.length; i += ENCODE_CHUNK) {
    at += out.write(bytes.subarray(i, i + ENCODE_CHUNK).toString("base64"), at, "latin1");
  }
  suffix.copy(out, at);
  return out;
}

/** Bytes of frames and reads released since the last collection. */
let releasedBytes = 0;
/**
 * V8's full collection (`--expose-gc` set at run time: this module is loaded only by
 * `statecore view`'s process; null where it cannot be).
 */
const collect = (() => {
  try {
    require("node:v8").setFlagsFromString("--expose-gc");
    return require("node:vm").runInNewContext("gc");
  } catch {
    return null;
  }
})();

/**
 * Notes that a frame (or bytes read) of `bytes` is no longer held. V8 returns a released
 * Buffer's memory only at its next collection, which a process with a small heap runs only
 * after 64 MiB more were allocated outside it: the viewer collects once 8 MiB were released
 * (`collectDue`, before each read, so that the next file's bytes reuse that memory; and soon
 * after streams were dropped), so that its memory stays under `view_memory_bytes`
 * (docs/viewer.md § Bounds).
 */
function released(bytes, soon = false) {
  releasedBytes += bytes;
  if (soon && releasedBytes >= 8 * 1024 * 1024) setImmediate(collectDue);
}

/** Collects when 8 MiB or more were released since the last collection. */
function collectDue() {
  if (releasedBytes < 8 * 1024 * 1024 || collect === null) return;
  releasedBytes = 0;
  collect();
}

/** A digest of bytes: tells one content from another without keeping it. */
function digest(bytes) {
  return bytes === null ? null : createHash("sha256").update(bytes).digest("base64");
}

/**
 * One page's stream, with a bounded queue (docs/viewer.md § Bounds): it is given one frame at
 * a time and the next only once it has taken it (`drain`); meanwhile each file's latest version
 * is what waits (`pending`, by file: a newer version replaces the one waiting). `inFlight`:
 * the frame it holds and has not taken, for the core's `viewBacklog`.
 */
class Client {
  constructor(res, files) {
    this.res = res;
    this.files = files;
    this.pending = new Map(); // key -> an explicit frame {id, frame}, or null: the file's current one
    this.inFlight = null; // {id, bytes, version: the server's version count when written} while blocked
    this.closed = false;
  }

  /** Queues `key`: its current version when sent, or `explicit` (`{id, frame}`). */
  want(key, explicit = null) {
    if (this.closed) return;
    this.pending.set(key, explicit);
    this.pump();
  }

  /** Writes what waits, one frame after another, until the stream does not take more. */
  pump() {
    while (!this.closed && this.inFlight === null && this.pending.size) {
      const [key, explicit] = this.pending.entries().next().value;
      this.pending.delete(key);
      const record = explicit ?? this.files.files.get(key);
      if (record) this.write(record.frame, record.id);
    }
  }

  /** Writes one frame; when the stream does not take it at once, waits for `drain`. */
  write(buffer, id = "") {
    if (this.res.write(buffer)) return;
    this.inFlight = { id, bytes: buffer.length, version: this.files.version };
    this.res.once("drain", () => {
      this.inFlight = null;
      this.pump();
    });
  }

  /** Closes the stream (the page reconnects and is sent every file again). */
  close(destroy) {
    this.closed = true;
    this.pending.clear();
    if (destroy) this.res.destroy();
    else this.res.end();
  }
}

/** The files the viewer shows, by `<root>:<path>`, and the page's event streams. */
class Files {
  constructor() {
    this.files = new Map(); // key -> {id, frame, fields, seen, digest, refused}
    this.held = 0; // bytes of the frames in `files`
    this.version = 0;
    this.rechecks = new Map();
    this.clients = new Set();
    this.ready = false;
    this.reads = new Map(); // key -> the read waiting ({root, role, abs, dir}); one read at a time
    this.reading = null;
  }

  /**
   * Reads the file at `abs` (under root `root` at `base`, which is `real` with its links
   * resolved) when its turn comes, and sends it.
   */
  update(root, base, abs, real) {
    const rel = relative(base, abs).split(sep).join("/");
    const role = viewFile(rel, null);
    if (!role) return;
    // The directory it must be in, links resolved: one on its path is never followed.
    const dir = join(real, relative(base, dirname(abs)));
    this.reads.set(`${root}:${role.path}`, { root, role, abs, dir });
    this.reading ??= this.readAll();
  }

  /** Reads the files waiting, one at a time (a burst of events of one file is one read). */
  async readAll() {
    while (this.reads.size) {
      const [key, job] = this.reads.entries().next().value;
      this.reads.delete(key);
      try {
        await this.read(key, job);
      } catch (error) {
        this.refuse(key, job, null, { code: "E_VIEW_UNREADABLE", message: `${job.role.path} could not be read: ${error?.message ?? error}` });
      }
    }
    this.reading = null;
  }

  /** Resolves once no read waits. */
  async settled() {
    while (this.reading) await this.reading;
  }

  /**
   * Reads one file through the library's reader (docs/viewer.md § Bounds): `lstat` (a link is
   * never followed), the core's `viewRead` (what to read, or why not), then the bytes it names
   * with a descriptor that refuses a link and never blocks on a FIFO.
   */
  async read(key, job) {
    collectDue();
    const { role, abs } = job;
    const held = this.held - (this.files.get(key)?.frame.length ?? 0);
    let stat;
    let plan;
    let bytes = null;
    for (let round = 0; round < 3; round++) {
      try {
        // A directory on its path that is (or became) a link: chokidar does not enter one,
        // but a recheck or an unlink names the path through it.
        if ((await realpath(dirname(abs))) !== job.dir) return this.refuse(key, job, null, linkedPath(role.path));
        stat = await lstat(abs, { bigint: true });
      } catch (error) {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return this.remove(key);
        return this.refuse(key, job, null, unreadable(role.path, error));
      }
      plan = viewRead({ path: role.path, type: fileType(stat) ?? "file", size: Number(stat.size), held });
      if (plan.action === "refuse") return this.refuse(key, job, signature(stat), plan);
      try {
        bytes = await readMaybe.async(abs, plan.length, true, false, plan.offset);
      } catch (error) {
        if (typeof error?.code === "string" && error.code.startsWith("E_")) return this.refuse(key, job, signature(stat), error);
        return this.refuse(key, job, null, unreadable(role.path, error));
      }
      if (bytes === null) return this.remove(key);
      if (bytes.length <= plan.length) break; // else it grew while read: look again
    }
    this.accept(key, job, bytes, plan, Number(stat.size), new Date(Number(stat.mtimeMs)).toISOString(), signature(stat));
  }

  /**
   * Sends the bytes `bytes` read as `plan` says of a file of `size` bytes: a log's from the
   * first line that starts in them; `recheck`: looks at the file again a moment later.
   */
  accept(key, job, bytes, plan, size, mtime, seen, recheck = true) {
    const { root, role, abs } = job;
    let offset = plan.offset;
    bytes = bytes.subarray(0, plan.length);
    if (plan.tail) {
      const cut = bytes.indexOf(0x0a) + 1 || bytes.length;
      bytes = bytes.subarray(cut);
      offset += cut;
    }
    const fields = { path: role.path, root, abs, role: role.role, kind: role.kind, group: role.group, mtime, offset, size };
    this.put(key, fields, bytes, seen, null);
    released(plan.length); // the bytes read: garbage once in the frame
    if (recheck) this.recheck(key, job);
  }

  /** Shows the file as refused (`reason`: its `code` and `message`); its bytes are not sent. */
  refuse(key, job, seen, reason) {
    const { root, role, abs } = job;
    const refused = { code: String(reason?.code ?? "E_VIEW_UNREADABLE"), message: String(reason?.message ?? reason) };
    const fields = { path: role.path, root, abs, role: role.role, kind: role.kind, group: role.group, mtime: null, refused };
    this.put(key, fields, null, seen, refused);
    if (seen !== null) this.recheck(key, job);
  }

  /** Sends a file's new version to every page (nothing when it is the version last sent). */
  put(key, fields, bytes, seen, refused) {
    const sum = digest(bytes);
    const old = this.files.get(key);
    if (old && seen !== null && old.seen === seen && old.digest === sum && old.refused?.code === refused?.code) return;
    const record = { id: `${key}#${++this.version}`, frame: fileFrame(fields, bytes), fields, seen, digest: sum, refused };
    this.held += record.frame.length - (old?.frame.length ?? 0);
    this.files.set(key, record);
    for (const client of this.clients) client.want(key);
    this.backlog();
    if (old) released(old.frame.length);
  }

  /** Sends a file's removal to every page. */
  remove(key) {
    const old = this.files.get(key);
    clearTimeout(this.rechecks.get(key));
    this.rechecks.delete(key);
    if (!old) return;
    this.files.delete(key);
    this.held -= old.frame.length;
    released(old.frame.length);
    const removal = { id: "", frame: fileFrame({ ...old.fields, mtime: null, refused: undefined }, null) };
    for (const client of this.clients) client.want(key, removal);
  }

  /** Looks at the file again RECHECK_MS after it was read; reads it again if it changed since. */
  recheck(key, job) {
    clearTimeout(this.rechecks.get(key));
    const timer = setTimeout(async () => {
      this.rechecks.delete(key);
      let now = null;
      try {
        now = signature(await lstat(job.abs, { bigint: true }));
      } catch {
        now = null;
      }
      if (now !== (this.files.get(key)?.seen ?? null)) {
        this.reads.set(key, job);
        this.reading ??= this.readAll();
      }
    }, RECHECK_MS);
    timer.unref();
    this.rechecks.set(key, timer);
  }

  /**
   * Drops the streams the core's `viewBacklog` names: those that do not take what they are
   * sent, once the older versions they hold pass `view_stale_bytes`.
   */
  backlog() {
    const stuck = [...this.clients].filter((client) => client.inFlight !== null);
    if (!stuck.length) return;
    const facts = stuck.map((client) => ({
      queued: client.res.writableLength,
      behind: this.version - client.inFlight.version,
      frames: [{ id: client.inFlight.id, bytes: client.inFlight.bytes, current: client.inFlight.id === "" || this.isCurrent(client.inFlight.id) }],
    }));
    if (facts.every((f) => f.frames[0].current)) return;
    for (const i of viewBacklog(facts).drop) {
      stuck[i].close(true);
      this.clients.delete(stuck[i]);
      released(stuck[i].inFlight.bytes, true);
    }
  }

  /** Whether the frame `id` carries its file's current version. */
  isCurrent(id) {
    return this.files.get(id.slice(0, id.lastIndexOf("#")))?.id === id;
  }

  /** Sends one event to every page. */
  broadcast(event, data) {
    const record = { id: "", frame: frame(event, data) };
    for (const client of this.clients) client.want(`\0${event}`, record);
  }

  /** A page's stream: hello, every file, ready (now or once the first scan ends). */
  attach(res, hello) {
    const client = new Client(res, this);
    this.clients.add(client);
    res.on("close", () => {
      client.closed = true;
      client.pending.clear();
      this.clients.delete(client);
    });
    client.pending.set("\0hello", { id: "", frame: frame("hello", hello) });
    for (const key of this.files.keys()) client.pending.set(key, null);
    if (this.ready) client.pending.set("\0ready", { id: "", frame: frame("ready", {}) });
    client.pump();
  }

  /** The groups of the fctry projects found in the watched directory. */
  projects() {
    const found = new Set();
    for (const { fields, refused } of this.files.values()) {
      if (fields.root === "dir" && fields.role.startsWith("fctry.") && !refused) found.add(fields.group);
    }
    return [...found];
  }
}

/** What a file below a linked directory is shown as. */
function linkedPath(path) {
  return {
    code: "E_FILE_TYPE",
    message: `${path} is below a symbolic link (a directory on its path is a link, or was replaced by one): the viewer never follows a link`,
  };
}

/** What a file that cannot be read is shown as. */
function unreadable(path, error) {
  return { code: "E_VIEW_UNREADABLE", message: `${path} cannot be read (${error?.code ?? error}): the viewer shows it as refused` };
}

/** What tells one version of a file from the next: its mtime (ns), size and inode. */
function signature(stat) {
  return `${stat.mtimeNs}:${stat.size}:${stat.ino}`;
}

/**
 * Watches the store URL `url` as root `root` (docs/store.md § Store URLs): its rows and logs
 * below the URL's key, each sent whole as a file would be (a log as the text of its lines),
 * on every committed change (`PostgresStore.watch`). Resolves once every one was sent.
 */
async function watchStore(files, root, url) {
  const cliStore = require("../cli/store.cjs");
  const { store, key } = await cliStore.open(url);
  const prefix = key ? `${key}/` : "";
  let sending = Promise.resolve();
  const send = (change) => {
    const rel = change.path.slice(prefix.length);
    const role = viewFile(rel, null);
    if (!role) return;
    const abs = `${url.replace(/\/+$/, "")}/${rel}`;
    const key = `${root}:${role.path}`;
    const job = { root, role, abs };
    sending = sending.then(async () => {
      const fact = await cliStore.readFact(abs);
      if (fact.text === undefined) return files.remove(key);
      const bytes = Buffer.from(fact.text);
      const held = files.held - (files.files.get(key)?.frame.length ?? 0);
      const plan = viewRead({ path: role.path, type: "file", size: bytes.length, held });
      if (plan.action === "refuse") return files.refuse(key, job, null, plan);
      const mtime = new Date(fact.mtime).toISOString();
      files.accept(key, job, bytes.subarray(plan.offset), plan, bytes.length, mtime, "store", false);
    });
  };
  const watcher = await store.watch(prefix, null, send, { initial: true });
  await sending;
  return { close: () => watcher.close() };
}

/**
 * Watches `base` as root `root` through the one file-watching primitive (lib/host/file-watch.cjs:
 * links not followed, `.git` and `node_modules` skipped); every event of a file queues its
 * read (a burst of events of one file is one read). Resolves once the first scan's files are
 * read; a watching error after that is written to stderr.
 */
function watch(files, root, base) {
  if (/^postgres(ql)?:\/\//.test(base)) return watchStore(files, root, base);
  const real = realpathSync(base);
  let started = false;
  return new Promise((resolve, reject) => {
    const fail = (error) => (started ? console.error("statecore view:", error) : reject(error));
    const options = { ignored: () => false, debounceMs: 0, initial: true, events: ["add", "change", "unlink"] };
    const watcher = watchFiles(base, options, (abs) => files.update(root, base, abs, real), fail);
    watcher.ready
      .then(() => files.settled())
      .then(() => {
        started = true;
        resolve(watcher);
      });
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
  const files = new Files();
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
    for (const client of files.clients) if (client.inFlight === null) client.write(Buffer.from(": keep-alive\n\n"));
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
    for (const client of files.clients) client.close(false);
    for (const timer of files.rechecks.values()) clearTimeout(timer);
    await Promise.all(watchers.map((w) => w.close()));
    if (roots.some(([, base]) => /^postgres(ql)?:\/\//.test(base))) await require("../cli/store.cjs").closeAll();
    await new Promise((resolve) => server.close(resolve));
  };
  return { server, url, close };
}

/** Dismisses the inbox item `id` of the fctry project `project` below `root` (a directory or a store URL). */
async function dismiss(root, project, id) {
  const fctry = require("../host/fctry.cjs");
  if (!/^postgres(ql)?:\/\//.test(root)) return fctry.inboxDismiss(join(root, project), id);
  const { store, key } = await require("../cli/store.cjs").open(root);
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
