"use strict";
/**
 * `statecore mcp [DIR] --http [PORT]` (docs/mcp.md § Over HTTP): the streamable HTTP transport
 * of the MCP SDK on 127.0.0.1 only, one session a connection's server (lib/mcp/server.cjs
 * `createServer`). Each request first passes the viewer's Host and Origin checks (the core's
 * `viewRequest`, the rule `statecore view` follows: a page of another name that resolves here,
 * DNS rebinding, or of another site is refused), then its body is read up to a bound. The
 * npm twin of python/statecore/_mcp/http.py.
 */
const http = require("node:http");
const { randomUUID } = require("node:crypto");
const constants = require("../generated/constants.cjs");

/** The port when `--http` names none. */
const DEFAULT_PORT = 8767;
/** The most bytes of a request's body read: two documents at the library's limit and a MiB. */
const BODY_LIMIT = 2 * constants.maxDocumentBytes + 1024 * 1024;
/** The path the transport answers on. */
const ENDPOINT = "/mcp";
/** The most sessions open at once (a client that never closes its session holds one). */
const MAX_SESSIONS = 64;
/** A session with no request in flight this long is closed (the Python SDK's default too). */
const IDLE_MS = 30 * 60 * 1000;

/**
 * `[DIR] [--http [PORT]]` read: `{dir, port}` (`port` null: stdio; 0: any free port), or
 * null when the arguments are not that.
 */
function parseArgs(argv) {
  let dir = null;
  let port = null;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === "--http") {
      if (port !== null) return null;
      port = DEFAULT_PORT;
      if (i + 1 < argv.length && /^[0-9]+$/.test(argv[i + 1])) {
        port = Number(argv[i + 1]);
        i += 1;
        if (port > 65535) return null;
      }
    } else if (arg.startsWith("-") || dir !== null) return null;
    else dir = arg;
  }
  return { dir, port };
}

/** Answers `status` with a JSON body `{code, message}` and closes the connection. */
function refuse(res, status, code, message) {
  if (res.headersSent) return res.destroy();
  const body = JSON.stringify({ code, message });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Connection: "close" });
  res.end(body);
}

/** The request's body, at most BODY_LIMIT bytes: its text, or null when it is longer (or cut). */
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(size > BODY_LIMIT ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(null));
    req.on("close", () => resolve(null));
  });
}

/**
 * Serves `root` over HTTP on 127.0.0.1:`port` with the SDK `loaded`, each session a server
 * from `createServer(root, loaded)`; prints the address on stderr. Resolves with the exit
 * status once the process is told to stop (SIGINT, SIGTERM).
 */
async function serveHttp(root, port, loaded, createServer) {
  const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const { viewRequest } = require("../generated/core-node.cjs");
  const sessions = new Map(); // session id -> its transport
  const activity = new Map(); // transport -> {busy, last}: requests in flight, the last one's end
  let bound = port;
  const reaper = setInterval(() => {
    const now = Date.now();
    for (const [transport, seen] of activity) {
      if (seen.busy === 0 && now - seen.last > IDLE_MS) transport.close().catch(() => undefined);
    }
  }, 60_000);
  reaper.unref();

  /** A new session's transport, its server connected; null when there are too many. */
  const open = async () => {
    if (sessions.size >= MAX_SESSIONS) return null;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    const { server } = createServer(root, loaded);
    activity.set(transport, { busy: 0, last: Date.now() });
    transport.onclose = () => {
      activity.delete(transport);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      server.close().catch(() => undefined);
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req, res) => {
    // The viewer's rule: only its own address, only its own page's origin.
    const asked = { method: "GET", path: "/" };
    if (req.headers.host !== undefined) asked.host = req.headers.host;
    if (req.headers.origin !== undefined) asked.origin = req.headers.origin;
    const route = viewRequest(asked, { port: bound, token: "", write: false, name: "the MCP server" });
    if (route.route === "refused") return refuse(res, route.status, route.code, route.message);
    const target = (req.url ?? "").split("?")[0];
    if (target !== ENDPOINT) {
      return refuse(res, 404, "E_NOT_FOUND", `the MCP server answers on ${ENDPOINT} only`);
    }
    let body;
    if (req.method === "POST") {
      if (Number(req.headers["content-length"] ?? 0) > BODY_LIMIT) {
        return refuse(res, 413, "E_LIMIT", `a request's body is at most ${BODY_LIMIT} bytes`);
      }
      const text = await readBody(req);
      if (text === null) {
        return refuse(res, 413, "E_LIMIT", `a request's body is at most ${BODY_LIMIT} bytes`);
      }
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(res, 400, "E_PARSE", "a request's body must be a JSON-RPC message in JSON");
      }
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (id !== undefined) return refuse(res, 404, "E_SESSION", "no such session: initialize a new one");
      transport = await open();
      if (transport === null) {
        return refuse(res, 503, "E_BUSY", `${MAX_SESSIONS} sessions are open: close one (DELETE) and try again`);
      }
    }
    const seen = activity.get(transport);
    if (seen !== undefined) {
      seen.busy += 1;
      res.once("close", () => {
        seen.busy -= 1;
        seen.last = Date.now();
      });
    }
    await transport.handleRequest(req, res, body);
    // A new transport whose first request did not open a session (not an initialize) is dropped.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
      await transport.close().catch(() => undefined);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(`statecore mcp: ${error?.message ?? error}\n`);
      if (!res.writableEnded) refuse(res, 500, "E_HOST", "the request could not be answered");
    });
  });
  // A client slow to send its request is dropped (the default waits 5 minutes for a body).
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  try {
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  } catch (error) {
    process.stderr.write(`statecore mcp: 127.0.0.1:${port}: ${error.code ?? error.message}: choose another port\n`);
    return 2;
  }
  bound = server.address().port;
  process.stderr.write(`statecore mcp: serving ${root} on http://127.0.0.1:${bound}${ENDPOINT}\n`);
  return new Promise((resolve) => {
    const stop = async () => {
      clearInterval(reaper);
      server.close();
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

module.exports = { parseArgs, serveHttp, DEFAULT_PORT, BODY_LIMIT, ENDPOINT };
