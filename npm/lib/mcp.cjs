"use strict";
/**
 * `statecore mcp [DIR]` (docs/mcp.md): a Model Context Protocol server over stdio whose tools
 * are the generated list lib/mcp-tools.json (written by xtask from the core's operation table;
 * python/statecore/_mcp.py serves the same file). A generic driver: a call looks its tool up,
 * asks the core whether its paths are inside DIR (`mcpPath`), refuses a link or special file
 * on the way, and calls the library's helper (a write: its one locked update). A refusal is a
 * tool result with `isError: true` carrying `{code, path, message}`; the server goes on.
 * The SDK (@modelcontextprotocol/sdk, an optional dependency) is loaded only here.
 */
const fs = require("node:fs");
const path = require("node:path");
const { tools: TOOLS } = require("./mcp-tools.json");
const constants = require("./generated/constants.cjs");

/** Every tool by its name. */
const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
/** What `tools/list` answers: each tool without the driver's `call`. */
const LISTED = TOOLS.map(({ call, ...tool }) => tool);

const core = () => require("./generated/core-node.cjs");

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
 * before the last name or a last entry that is not a `want` (`file` | `dir`) `E_FILE_TYPE`.
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
    const ok = !last || want === "dir" ? stat.isDirectory() : stat.isFile();
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

/** The arguments checked against the tool's input schema's names (the core checks their values). */
function checkArguments(tool, args) {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw refusal("E_ARGUMENT", "", `the arguments of ${tool.name} must be an object`);
  }
  const size = Buffer.byteLength(JSON.stringify(args));
  if (size > constants.maxDocumentBytes) {
    throw refusal(
      "E_LIMIT",
      "",
      `the arguments of ${tool.name} are ${size} bytes, over the ${constants.maxDocumentBytes}-byte limit of a document`,
      { limit: constants.maxDocumentBytes, actual: size },
    );
  }
  const { properties, required = [] } = tool.inputSchema;
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(properties, key)) {
      throw refusal("E_ARGUMENT", `/${key}`, `${tool.name} has no argument ${JSON.stringify(key)} (it takes ${Object.keys(properties).join(", ")})`);
    }
  }
  for (const key of required) {
    if (args[key] === undefined || args[key] === null) {
      throw refusal("E_ARGUMENT", `/${key}`, `${tool.name} needs the argument ${JSON.stringify(key)}`);
    }
  }
  for (const key of ["dir", "path"]) {
    if (args[key] !== undefined && args[key] !== null && typeof args[key] !== "string") {
      throw refusal("E_ARGUMENT", `/${key}`, `${key} must be a string (a path relative to the server's directory)`);
    }
  }
}

/** A protocol helper's call: its arguments in the helper's order, `now` and `random` as options. */
async function callHelper(root, dirNames, tool, args) {
  const { module, js, mode, file, log, params, wrap } = tool.call;
  const dir = confine(root, dirNames, "dir", "dir");
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
  const helpers = require(`./host/${module}.cjs`);
  const result =
    mode === "write" ? await helpers[js](dir, ...positional, options) : await helpers[js](dir, ...positional);
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
  const file = confine(root, names, "file", "path");
  const host = require("./host/host.cjs");
  const which = tool.call.generic;
  if (which === "log_append") return host.appendLine(file, args.record);
  let kind = args.kind ?? null;
  if (kind === null) {
    const target = C.watchTarget(names.join("/"), null, true);
    kind = target?.kind ?? null;
  }
  if (which === "validate") {
    let bytes;
    try {
      bytes = fs.readFileSync(file, { flag: fs.constants.O_RDONLY | fs.constants.O_NONBLOCK });
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
      throw refusal("E_ARGUMENT", "/path", `${names.join("/")} does not exist`);
    }
    return C.validateText(kind, bytes);
  }
  if (which === "show") return host.readDocument(file, kind);
  return host.updateDocument(file, kind, args.patch, null, { ifMatch: args.if_match ?? null });
}

/** Runs the tool `name` with `args` below `root`: its structured result, or throws a refusal. */
async function callTool(root, name, args) {
  const tool = typeof name === "string" ? BY_NAME.get(name) : undefined;
  if (tool === undefined) {
    throw refusal("E_ARGUMENT", "/name", `there is no tool ${JSON.stringify(name)}: tools/list lists the tools`);
  }
  args = args ?? {};
  checkArguments(tool, args);
  const dirNames = core().mcpPath(args.dir ?? ".", "dir");
  return tool.call.generic === undefined
    ? callHelper(root, dirNames, tool, args)
    : callGeneric(root, dirNames, tool, args);
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
const SKIP = new Set([".git", "node_modules"]);
const MAX_DEPTH = 16;
const MAX_RESOURCES = 1000;
const MIME = "application/json";

/** `statecore://a/b.json` of the relative path `a/b.json` (each name percent-encoded). */
const uriOf = (rel) => `statecore://${rel.split("/").map(encodeURIComponent).join("/")}`;

/**
 * Each protocol document under `root` as a resource (the core's `watchTarget` says which
 * files are, and as what kind; logs are left out), links and special files skipped, sorted by
 * path: `{uri, name, description, mimeType}`.
 */
function listResources(root) {
  const C = core();
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
      let target = null;
      try {
        target = C.watchTarget(rel, null, false);
      } catch {
        target = null;
      }
      if (target !== null && !target.log) found.push({ rel, kind: target.kind });
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

/** A resource's read: the document as statecore reads it, its etag and its validation. */
async function readResource(root, uri) {
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
  const loaded = await require("./host/host.cjs").readDocument(file, target.kind);
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

/** `statecore mcp [DIR]`: serves DIR's tools over stdio until the client closes; the exit status. */
async function main(argv) {
  if (argv.length > 1 || argv.some((a) => a.startsWith("-"))) {
    process.stderr.write("usage: statecore mcp [DIR]\n");
    return 2;
  }
  let root;
  try {
    root = fs.realpathSync(argv[0] ?? ".");
    if (!fs.statSync(root).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
  } catch (error) {
    process.stderr.write(`statecore mcp: ${argv[0] ?? "."}: ${error.code ?? error.message}: give a directory\n`);
    return 2;
  }
  const loaded = sdk();
  if (loaded === null) return 2;
  const { Server, StdioServerTransport, types } = loaded;
  const { version } = require("../package.json");
  const server = new Server({ name: "statecore", version }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({ resources: listResources(root) }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(root, request.params.uri);
    } catch (error) {
      const record = errorRecord(error);
      throw new types.McpError(types.ErrorCode.InvalidParams, JSON.stringify(record), record);
    }
  });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: LISTED }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) =>
    answer(root, request.params.name, request.params.arguments),
  );
  // The SDK closes the connection on a message over its buffer (10 MiB by default): room for
  // two documents at the library's limit, so arguments over it are refused as a tool error
  // (`E_LIMIT`, checkArguments) and the server goes on.
  const maxBufferSize = 2 * constants.maxDocumentBytes + 1024 * 1024;
  await server.connect(new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize }));
  return new Promise((resolve) => {
    server.onclose = () => resolve(0);
  });
}

module.exports = { main, callTool, listResources, readResource, LISTED };
