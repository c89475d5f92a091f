// Helpers of the viewer's tests (viewer_server.test.mjs, browser/viewer.mjs): start
// `statecore view` as a process, make raw HTTP requests with chosen headers, and read its
// Server-Sent Events.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";

export const BIN = fileURLToPath(new URL("../../bin/statecore.cjs", import.meta.url));
export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
export const PYTHON = `${REPO}.venv/bin/python`;

/**
 * Starts `statecore view DIR --port 0 ...args`; resolves with its URL once it has printed it.
 * `limitMs`: a viewer that has not printed it by then is killed and the Promise rejected.
 */
export function startViewer(dir, args = [], { limitMs = null } = {}) {
  const child = spawn(process.execPath, [BIN, "view", dir, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = limitMs === null ? null : setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`statecore view printed no URL within ${limitMs} ms: ${stderr}`));
    }, limitMs);
    child.stdout.on("data", (d) => {
      stdout += d;
      const m = stdout.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[0], port: Number(m[1]), banner: stdout, stop: () => stop(child) });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`statecore view exited (${code}): ${stderr}`));
    });
  });
}

/** `promise`, or a rejection naming `what` when it has not settled within `ms`. */
export function within(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** The resident memory of process `pid` now (`rss`) and at its peak (`hwm`), in bytes (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
  return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
}

/** Ends a viewer process and waits for it. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on("exit", resolve);
    child.kill("SIGINT");
  });
}

/**
 * One HTTP request to 127.0.0.1:port with exactly the headers given (`host: null` sends none):
 * `{status, headers, body}`.
 */
export function request(port, { method = "GET", path = "/", headers = {}, body } = {}) {
  const sent = { host: `127.0.0.1:${port}`, ...headers };
  if (sent.host === null) delete sent.host;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method, path, headers: sent, setHost: false },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The page's token, read from its HTML as the page reads it. */
export async function pageToken(port) {
  const page = await request(port);
  return page.body.match(/name="statecore-token" content="([0-9a-f]*)"/)?.[1] ?? null;
}

/**
 * Reads `/events`: `events` (each `{event, data}`, in order), `waitFor(predicate, ms)` (the
 * first event, from `from` on, that matches; rejects once the server closed the stream),
 * `close()`.
 */
export function openEvents(port) {
  const events = [];
  const waiters = new Set();
  let res;
  let ended = false; // the server closed the stream
  const req = httpRequest({ host: "127.0.0.1", port, path: "/events", headers: { host: `127.0.0.1:${port}` } }, (r) => {
    res = r;
    // Chunks are kept as they come and joined once an event ends: a big event (a 20 MiB file)
    // arrives in hundreds of chunks, and re-reading what came before on each would be slow.
    let parts = [];
    const emit = (bytes) => {
      const block = bytes.toString("utf8");
      const event = block.match(/^event: (.*)$/m)?.[1];
      const data = block.match(/^data: (.*)$/m)?.[1];
      if (!event) return;
      events.push({ event, data: JSON.parse(data), at: performance.now() });
      for (const waiter of waiters) waiter();
    };
    r.on("data", (chunk) => {
      let at = 0;
      const last = parts.at(-1);
      if (last && last.at(-1) === 0x0a && chunk[0] === 0x0a) {
        // The blank line that ends an event straddles two chunks.
        const all = Buffer.concat(parts);
        parts = [];
        emit(all.subarray(0, all.length - 1));
        at = 1;
      }
      for (let end; (end = chunk.indexOf("\n\n", at)) >= 0; at = end + 2) {
        emit(Buffer.concat([...parts, chunk.subarray(at, end)]));
        parts = [];
      }
      if (at < chunk.length) parts.push(chunk.subarray(at));
    });
    r.on("close", () => {
      ended = true;
      for (const waiter of waiters) waiter();
    });
  });
  req.end();
  const waitFor = (predicate, ms, from = 0) =>
    new Promise((resolve, reject) => {
      const look = () => {
        const found = events.slice(from).find(predicate);
        if (found || ended) {
          waiters.delete(look);
          clearTimeout(timer);
          if (found) resolve(found);
          else reject(new Error("the server closed the stream before a matching event"));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching event within ${ms} ms; got ${events.map((e) => e.event + ":" + (e.data.path ?? "") + (e.data.data ? " " + text(e).slice(0, 60) : "")).join(", ")}`));
      }, ms);
      waiters.add(look);
      look();
    });
  return { events, waitFor, close: () => (res ? res.destroy() : req.destroy()) };
}

/** The text of a file event's bytes. */
export function text(event) {
  return event.data.data === null ? null : Buffer.from(event.data.data, "base64").toString("utf8");
}
