"use strict";
/**
 * `statecore mcp [DIR]` (docs/mcp.md): a Model Context Protocol server over stdio whose tools
 * are the generated list lib/generated/mcp-tools.json (written by xtask from the core's operation and
 * host-routine tables; python/statecore/_mcp/server.py serves the same file). A generic driver: a call
 * looks its tool up, has the core check its arguments against the tool's input schema
 * (`mcpArguments`) and its paths (`mcpPath`), refuses a link or special file on the way, and
 * calls the library's helper or routine (a write: its one locked update). A refusal is a tool
 * result with `isError: true` carrying `{code, path, message}`; the server goes on.
 * The SDK (@modelcontextprotocol/sdk, an optional dependency) is loaded only here.
 */
const fs = require("node:fs");
const path = require("node:path");
const { tools: TOOLS } = require("../generated/mcp-tools.json");
const constants = require("../generated/constants.cjs");

/** Every tool by its name. */
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
/** What `tools/list` answers: each tool without the driver's `call`. */
const LISTED = TOOLS.map(({ call, ...tool }) => tool);

const core = () => require("../generated/core-node.cjs");

/** A statecore error of `code` at the arguments' pointer `at`. */
function refusal(code, at, message, details = {}) {
  return core().errorFromRecord({ code, path: at, message, details });
}

/** What a file-system entry is, for a message (`fifo`, `directory`, ...). */
function entryType(stat) {
  if (stat.isDirectory()) return "directory";
  if (stat.isFIFO()) return "fifo";
  if (stat.isSocket()) return "socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "device";
  return "special file";
}

/**
 * The absolute path of `names` below `root`, each existing step `lstat`ed: a link on the way
 * is `E_PATH_UNSAFE` (the server follows none: one could lead out of DIR), a non-directory
 * before the last name or a last entry that is not a `want` (`file` | `dir` | `any`: either)
 * `E_FILE_TYPE`.
 * Missing steps are left to the helper (a write creates them).
 */
function confine(root, names, want, argument) {
  let at = root;
  for (let i = 0; i < names.length; i += 1) {
    at = path.join(at, names[i]);
    let stat;
    try {
      stat = fs.lstatSync(at);
    } catch (error) {
      if (error.code === "ENOENT") return path.join(root, ...names);
      throw error;
    }
    const shown = names.slice(0, i + 1).join("/");
    if (stat.isSymbolicLink()) {
      throw refusal(
        "E_PATH_UNSAFE",
        `/${argument}`,
        `${shown} is a symbolic link: the server follows no links (one could lead out of its directory); name the file itself`,
        { path: shown, reason: "link" },
      );
    }
    const last = i === names.length - 1;
    const ok =
      last && want === "any" ? stat.isDirectory() || stat.isFile() : !last || want === "dir" ? stat.isDirectory() : stat.isFile();
    if (!ok) {
      const what = stat.isFile() ? "regular file" : entryType(stat);
      throw refusal(
        "E_FILE_TYPE",
        `/${argument}`,
        `${shown} is a ${what}, not a ${!last || want === "dir" ? "directory" : "regular file"}: the server reads and writes only regular files in directories`,
        { path: shown, type: what },
      );
    }
  }
  return at;
}

/** Confinement without a window (lib/mcp/confine.cjs). */
const pinning = () => require("./confine.cjs");
/** The most bytes a read takes: a document's limit and one (which shows a file over it). */
const READ_CAP = constants.maxDocumentBytes + 1;

/**
 * A step of `names` found not to be a directory as it was pinned (a link swapped in since
 * `confine` looked): refused as `confine` refuses it.
 */
const recheck = (root, names, argument) => (_stat, i) => confine(root, names.slice(0, i + 1), "dir", argument);

/** A protocol helper's call: its arguments in the helper's order, `now` and `random` as options (a reader's `now` too). */
async function callHelper(root, dirNames, tool, args) {
  const { module, js, mode, file, log, params, wrap } = tool.call;
  confine(root, dirNames, "dir", "dir");
  confine(root, [...dirNames, ...file], "file", "dir");
  if (log !== null) confine(root, [...dirNames, ...file.slice(0, -1), log], "file", "dir");
  const positional = [];
  const options = {};
  for (const [name, , kind] of params) {
    const value = args[name] ?? null;
    if (kind === "n" || kind === "r") {
      if (value !== null) options[kind === "n" ? "now" : "random"] = value;
    } else positional.push(value);
  }
  const helpers = require(`../host/${module}.cjs`);
  const sub = file.slice(0, -1);
  const names = [...dirNames, ...sub];
  const pinned = pinning().pinHelper(root, dirNames, sub, mode === "write", recheck(root, names, "dir"));
  const result = await pinning().usePinned(root, dirNames, pinned, () => {
    const at = pinned.rest.length === 0 ? pinned.at : path.join(pinned.at, ...pinned.rest);
    return helpers[js](at, ...positional, options);
  });
  return wrap ? { value: result } : result;
}

/**
 * A host routine's call (`hive_create_session_dir`, `agency_snapshot`, ...): its path
 * arguments below `dir`, each checked by the core and on the disk, then its parameters in the
 * routine's order (`jsArgs`: a value, or an options object of the arguments given).
 */
async function callRoutine(root, dirNames, tool, args) {
  const { module, js, paths, jsArgs, wrap } = tool.call;
  const C = core();
  confine(root, dirNames, "dir", "dir");
  const resolved = new Map();
  const pins = [];
  const namesList = [];
  try {
    for (const [name, what] of paths) {
      if (args[name] === undefined || args[name] === null) continue;
      const names = [...dirNames, ...C.mcpPath(args[name], name)];
      const file = what === "file";
      confine(root, names, file ? "file" : "any", name);
      // The routine is given its path through the pinned directories (docs/mcp.md § Confined
      // to DIR): a link swapped in after the check does not lead it out.
      const dirs = file ? names.slice(0, -1) : names;
      const pinned = pinning().pinDirs(root, dirs, recheck(root, dirs, name));
      pins.push(pinned);
      namesList.push(names);
      resolved.set(name, path.join(pinned.at, ...pinned.rest, ...(file ? names.slice(-1) : [])));
    }
  } catch (error) {
    for (const pinned of pins) pinned.close();
    throw error;
  }
  const value = (name) => (resolved.has(name) ? resolved.get(name) : (args[name] ?? null));
  const positional = jsArgs.map(([how, what]) => {
    if (how === "v") return value(what);
    const options = {};
    for (const [name, jsName] of what) if (value(name) !== null) options[jsName] = value(name);
    return options;
  });
  const library = require(`../host/${module}.cjs`);
  const result = await pinning().usePinnedAll(pins, namesList, () => library[js](...positional));
  return wrap ? { value: result } : result;
}

/** A generic tool's call (`validate`, `show`, `update`, `log_append`) on the file `path`. */
async function callGeneric(root, dirNames, tool, args) {
  const C = core();
  const names = [...dirNames, ...C.mcpPath(args.path, "path")];
  if (names.length === dirNames.length) {
    throw refusal("E_ARGUMENT", "/path", "path names the directory itself; name a file below it");
  }
  confine(root, dirNames, "dir", "dir");
  confine(root, names, "file", "path");
  const host = require("../host/host.cjs");
  const which = tool.call.generic;
  let kind = args.kind ?? null;
  if (kind === null && which !== "log_append") {
    const target = C.watchTarget(names.join("/"), null, true);
    kind = target?.kind ?? null;
  }
  const { withPinned, readPinned } = pinning();
  return withPinned(root, names, recheck(root, names, "path"), (file) => {
    if (which === "log_append") return host.appendLine(file, args.record);
    if (which === "update") return host.updateDocument(file, kind, args.patch, null, { ifMatch: args.if_match ?? null });
    const bytes = readPinned(file, () => confine(root, names, "file", "path"), READ_CAP);
    if (which === "show") return C.loadDocument(kind, bytes);
    if (bytes === null) throw refusal("E_ARGUMENT", "/path", `${names.join("/")} does not exist`);
    return C.validateText(kind, bytes);
  });
}

/** Runs the tool `name` with `args` below `root`: its structured result, or throws a refusal. */
async function callTool(root, name, args) {
  const tool = typeof name === "string" ? BY_NAME.get(name) : undefined;
  if (tool === undefined) {
    throw refusal("E_ARGUMENT", "/name", `there is no tool ${JSON.stringify(name)}: tools/list lists the tools`);
  }
  const checked = core().mcpArguments(tool.name, tool.inputSchema, JSON.stringify(args ?? {}));
  const dirNames = core().mcpPath(checked.dir ?? ".", "dir");
  if (tool.call.generic !== undefined) return callGeneric(root, dirNames, tool, checked);
  if (tool.call.routine !== undefined) return callRoutine(root, dirNames, tool, checked);
  return callHelper(root, dirNames, tool, checked);
}

/** The `{code, path, message}` of an error (a statecore error's own; another's code or `E_HOST`). */
function errorRecord(error) {
  if (typeof error?.code === "string" && error.code.startsWith("E_") && typeof error.path === "string") {
    return { code: error.code, path: error.path, message: error.message };
  }
  const code = typeof error?.code === "string" ? error.code : "E_HOST";
  return { code, path: "", message: String(error?.message ?? error) };
}

/** A tool call's result: the structured result as JSON text too, or the refusal as an error. */
async function answer(root, name, args) {
  try {
    const structured = await callTool(root, name, args);
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    const record = errorRecord(error);
    return { content: [{ type: "text", text: JSON.stringify(record) }], structuredContent: record, isError: true };
  }
}

/** Directories a resource listing never enters, how deep it goes, how many it lists. */
const SKIP = new Set(require("../binding/tables.cjs").SKIPPED_DIRECTORIES);
const MAX_DEPTH = constants.walkMaxDepth;
const MAX_RESOURCES = 1000;
const MIME = "application/json";

/** `statecore://a/b.json` of the relative path `a/b.json` (each name percent-encoded). */
const uriOf = (rel) => `statecore://${rel.split("/").map(encodeURIComponent).join("/")}`;

/** The kind of the protocol document at `rel` below DIR (the core's `watchTarget`; a log: null). */
function resourceKind(rel) {
  let target = null;
  try {
    target = core().watchTarget(rel, null, false);
  } catch {
    target = null;
  }
  return target !== null && !target.log ? target.kind : null;
}

/**
 * Each protocol document under `root` as a resource (the core's `watchTarget` says which
 * files are, and as what kind; logs are left out), links and special files skipped, sorted by
 * path: `{uri, name, description, mimeType}`.
 */
function listResources(root) {
  const found = [];
  const walk = (dir, names) => {
    if (names.length > MAX_DEPTH) return;
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIP.has(entry.name)) walk(path.join(dir, entry.name), [...names, entry.name]);
      if (!entry.isFile()) continue;
      const rel = [...names, entry.name].join("/");
      const kind = resourceKind(rel);
      if (kind !== null) found.push({ rel, kind });
    }
  };
  walk(root, []);
  found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return found.slice(0, MAX_RESOURCES).map(({ rel, kind }) => ({
    uri: uriOf(rel),
    name: rel,
    description: `a ${kind} document`,
    mimeType: MIME,
  }));
}

/** A resource's file and kind, `{file, kind}`, or the refusal of its URI (out of DIR, a link, ...). */
function resolveResource(root, uri) {
  const C = core();
  if (typeof uri !== "string" || !uri.startsWith("statecore://")) {
    throw refusal("E_ARGUMENT", "/uri", `${JSON.stringify(uri)} is not a statecore:// resource`);
  }
  let rel;
  try {
    rel = uri.slice("statecore://".length).split("/").map(decodeURIComponent).join("/");
  } catch {
    throw refusal("E_ARGUMENT", "/uri", `${JSON.stringify(uri)} is not a statecore:// resource`);
  }
  const names = C.mcpPath(rel, "uri");
  const file = confine(root, names, "file", "uri");
  const target = C.watchTarget(names.join("/"), null, true);
  return { file, names, kind: target.kind };
}

/** A resource's read: the document as statecore reads it, its etag and its validation. */
async function readResource(root, uri) {
  const { names, kind } = resolveResource(root, uri);
  const { withPinned, readPinned } = pinning();
  const loaded = await withPinned(root, names, recheck(root, names, "uri"), (file) =>
    core().loadDocument(kind, readPinned(file, () => confine(root, names, "file", "uri"), READ_CAP)),
  );
  return { contents: [{ uri, mimeType: MIME, text: JSON.stringify(loaded) }] };
}

/** Loads the SDK, or says how to install it. */
function sdk() {
  try {
    return {
      Server: require("@modelcontextprotocol/sdk/server/index.js").Server,
      StdioServerTransport: require("@modelcontextprotocol/sdk/server/stdio.js").StdioServerTransport,
      types: require("@modelcontextprotocol/sdk/types.js"),
    };
  } catch (error) {
    if (error?.code !== "MODULE_NOT_FOUND") throw error;
    process.stderr.write(
      "statecore mcp: needs the MCP SDK, an optional dependency left out of this install: npm install @modelcontextprotocol/sdk\n",
    );
    return null;
  }
}

/**
 * `statecore mcp [DIR] [--http [PORT]]`: serves DIR's tools over stdio until the client closes
 * (or over HTTP, lib/mcp/http.cjs); the exit status.
 */
async function main(argv) {
  const parsed = require("./http.cjs").parseArgs(argv);
  if (parsed === null) {
    process.stderr.write("usage: statecore mcp [DIR] [--http [PORT]]\n");
    return 2;
  }
  const given = parsed.dir ?? ".";
  let root;
  try {
    root = fs.realpathSync(given);
    if (!fs.statSync(root).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
  } catch (error) {
    process.stderr.write(`statecore mcp: ${given}: ${error.code ?? error.message}: give a directory\n`);
    return 2;
  }
  const loaded = sdk();
  if (loaded === null) return 2;
  if (parsed.port !== null) return require("./http.cjs").serveHttp(root, parsed.port, loaded, createServer);
  const { server, closed } = createServer(root, loaded);
  // The SDK closes the connection on a message over its buffer (10 MiB by default): room for
  // two documents at the library's limit, so arguments over it are refused as a tool error
  // (`E_LIMIT`, the core's `mcpArguments`) and the server goes on.
  const maxBufferSize = 2 * constants.maxDocumentBytes + 1024 * 1024;
  await server.connect(new loaded.StdioServerTransport(process.stdin, process.stdout, { maxBufferSize }));
  return closed.then(() => 0);
}

/**
 * One connection's server on `root` (the SDK `loaded`): its tools, resources and
 * subscriptions. Returns `{server, closed}`; `closed` resolves once the connection closed and
 * its watchers did.
 */
function createServer(root, loaded) {
  const { Server, types } = loaded;
  const { version } = require("../../package.json");
  const capabilities = { tools: {}, resources: { subscribe: true, listChanged: true } };
  const server = new Server({ name: "statecore", version }, { capabilities });
  const refuse = (error) => {
    const record = errorRecord(error);
    return new types.McpError(types.ErrorCode.InvalidParams, JSON.stringify(record), record);
  };
  const watching = require("./subscriptions.cjs").serveSubscriptions(server, types, {
    root,
    resolve: (uri) => resolveResource(root, uri),
    list: () => listResources(root),
    isResource: (rel) => resourceKind(rel) !== null,
    refuse,
    fail: (error) => process.stderr.write(`statecore mcp: watching: ${error?.message ?? error}\n`),
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => {
    const resources = listResources(root);
    await watching.listed(resources);
    return { resources };
  });
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(root, request.params.uri);
    } catch (error) {
      throw refuse(error);
    }
  });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: LISTED }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) =>
    answer(root, request.params.name, request.params.arguments),
  );
  const closed = new Promise((resolve) => {
    server.onclose = () => resolve(watching.close());
  });
  return { server, closed };
}

module.exports = { main, createServer, sdk, callTool, listResources, readResource, LISTED };
