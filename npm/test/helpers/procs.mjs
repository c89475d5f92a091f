// Shared by the host tests: paths, temp dirs and child processes that are always cleaned up.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const NPM = path.resolve(HERE, "../..");
export const REPO = path.resolve(NPM, "..");
/** The repository's virtualenv Python, with the statecore wheel installed. */
export const PYTHON = path.join(REPO, ".venv", "bin", "python");
export const HELPERS = {
  nodeHolder: path.join(HERE, "lock_holder.cjs"),
  nodeWriter: path.join(HERE, "writer.cjs"),
  pyHolder: path.join(REPO, "python", "tests", "helpers", "lock_holder.py"),
  pyWriter: path.join(REPO, "python", "tests", "helpers", "writer.py"),
};

const require = createRequire(import.meta.url);
/** The host layer and the pure core, loaded from the built package. */
export const host = require("../../lib/host/host.cjs");
export const core = require("../../lib/generated/core-node.cjs");

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh temp dir, removed after the test. */
export function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-host-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const live = new Set();
process.on("exit", () => {
  for (const proc of live) {
    try {
      proc.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
});

/**
 * A child process whose stdout lines are collected; killed after the test if still alive.
 * `env`: variables added to this process's for it.
 */
export class Child {
  constructor(t, command, args, env = {}) {
    this.proc = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
    this.pid = this.proc.pid;
    this.lines = [];
    this.stderr = "";
    this.exit = null;
    live.add(this.proc);
    this.exited = new Promise((resolve) => {
      this.proc.on("exit", (code, signal) => {
        live.delete(this.proc);
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    let buffer = "";
    this.proc.stdout.setEncoding("utf8").on("data", (chunk) => {
      buffer += chunk;
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        this.lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
      }
    });
    this.proc.stderr.setEncoding("utf8").on("data", (chunk) => {
      this.stderr += chunk;
    });
    this.proc.stdin.on("error", () => {}); // a killed child closes its pipe
    t?.after(() => this.kill("SIGKILL"));
  }

  /** Waits (bounded) for a stdout line matching `predicate`; fails if the child exits first. */
  async waitLine(predicate, ms = 30_000) {
    for (let waited = 0; waited <= ms; waited += 2) {
      const line = this.lines.find(predicate);
      if (line !== undefined) return line;
      if (this.exit) break;
      await sleep(2);
    }
    throw new Error(
      `child ${this.pid} did not print the expected line (exit ${JSON.stringify(this.exit)}); ` +
        `stdout: ${JSON.stringify(this.lines)}; stderr: ${this.stderr}`,
    );
  }

  /** Waits for a JSON line having `key`, parsed. */
  async waitJson(key, ms) {
    return JSON.parse(await this.waitLine((l) => l.startsWith("{") && key in JSON.parse(l), ms));
  }

  send(text) {
    this.proc.stdin.write(text);
  }

  kill(signal = "SIGKILL") {
    if (this.exit === null) {
      try {
        this.proc.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}

/** A lock holder in `lang` ("node" | "python") for `file`, resolved once it holds the lock. */
export async function startHolder(t, lang, file) {
  const child =
    lang === "node"
      ? new Child(t, process.execPath, [HELPERS.nodeHolder, file])
      : new Child(t, PYTHON, [HELPERS.pyHolder, file]);
  child.hello = await child.waitJson("locked");
  return child;
}

/** A writer in `lang` (see helpers/writer.*). */
export function startWriter(t, lang, file, count, pad = 0, go = false) {
  const args = [file, String(count), String(pad), ...(go ? ["go"] : [])];
  return lang === "node"
    ? new Child(t, process.execPath, [HELPERS.nodeWriter, ...args])
    : new Child(t, PYTHON, [HELPERS.pyWriter, ...args]);
}

/** The pid of a process that has exited (and been reaped). */
export async function deadPid() {
  const child = new Child(null, process.execPath, ["-e", ""]);
  await child.exited;
  return child.pid;
}

/**
 * Runs agent processes that print "ready", start on a line on stdin and exit 0 when done:
 * `watch()` runs (awaited in a loop) while they work. A failing agent stops the others at once
 * and the deadline bounds the whole run; whatever happens, every agent is killed and reaped.
 * Returns the failure (null when every agent exited 0).
 */
export async function supervise(agents, deadlineMs, watch) {
  let failure = null;
  const fail = (why) => {
    failure ??= why;
    for (const a of agents) a.kill("SIGKILL");
  };
  const deadline = setTimeout(() => fail(`not finished after ${deadlineMs} ms`), deadlineMs);
  for (const a of agents) {
    a.exited.then((exit) => {
      if (exit.code !== 0) fail(`${a.name} exited ${JSON.stringify(exit)}: ${a.stderr}`);
    });
  }
  const allExited = Promise.all(agents.map((a) => a.exited));
  try {
    await Promise.all(agents.map((a) => a.waitLine((l) => l === "ready")));
    for (const a of agents) a.send("go\n");
    let finished = false;
    allExited.then(() => (finished = true));
    while (!finished && failure === null) {
      await watch();
      await sleep(0);
    }
  } finally {
    clearTimeout(deadline);
    for (const a of agents) a.kill("SIGKILL");
    await allExited;
  }
  return failure;
}
