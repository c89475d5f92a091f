// The command-line corpus (tests/cli/*.json) run against the npm package's `statecore`
// (bin/statecore.cjs) as a process: the same output, byte for byte, as the Python command
// (python/tests/test_cli.py) and the core (cli/tests/cli.rs). Every case runs with TZ=UTC
// (`env.utc_offset` 0). A case with `changes` (a command that goes on, tests/README.md) runs
// asynchronously: its steps' files are written as the command prints, each wait at most 10 s.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const { acquireLockSync } = createRequire(import.meta.url)("../lib/host/host.cjs");

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "..", "bin", "statecore.cjs");
const corpus = path.join(here, "..", "..", "tests", "cli");

/**
 * Checks one case's expectation against what the process gave (`stdout`, `stderr` exact;
 * `stdout_has`, `stderr_has` contained; `files`: the files' texts afterwards, null for none).
 */
function check(expect, root, stdout, stderr, code) {
  assert.equal(code, expect.code, `exit code\n${stdout}${stderr}`);
  if (typeof expect.stdout === "string") assert.equal(stdout, expect.stdout);
  if (typeof expect.stderr === "string") assert.equal(stderr, expect.stderr);
  for (const part of expect.stdout_has ?? []) assert.ok(stdout.includes(part), `stdout lacks ${part}:\n${stdout}`);
  for (const part of expect.stderr_has ?? []) assert.ok(stderr.includes(part), `stderr lacks ${part}:\n${stderr}`);
  for (const [name, text] of Object.entries(expect.files ?? {})) {
    const file = path.join(root, name);
    assert.equal(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null, text, `the file ${name} afterwards`);
  }
}

/**
 * A directory holding a `tmux` that lists `sessions` (none: it fails as tmux without a server
 * does), for the commands that ask tmux: made beside the case's directory, removed with it.
 */
function fakeTmux(root, sessions) {
  const bin = `${root}-bin`;
  fs.mkdirSync(bin);
  const lines = sessions.map((s) => `'${s.replaceAll("'", "'\\''")}'`).join(" ");
  const body = sessions.length === 0 ? 'echo "no server running" >&2; exit 1' : `printf '%s\\n' ${lines}`;
  fs.writeFileSync(path.join(bin, "tmux"), `#!/bin/sh\n[ "$1" = list-sessions ] || exit 1\n${body}\n`, { mode: 0o755 });
  return bin;
}

/** How long the runner waits for a command that goes on to print or to exit, in ms. */
const STEP_MS = 10_000;
/** How long the output must stay the same before a step (the hosts look every 100 ms). */
const QUIET_MS = 300;

/**
 * Writes a step's files (relative to `root`; null removes one), making directories, as the
 * tools that write them do: a text that extends the file's is appended in place (a log), any
 * other is written to a temp file renamed over it, so the command never sees the file half
 * written (tests/README.md).
 */
function writeStep(root, files) {
  for (const [name, text] of Object.entries(files ?? {})) {
    const file = path.join(root, name);
    if (text === null) {
      fs.rmSync(file, { force: true });
      continue;
    }
    const data = Buffer.from(text);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = fs.existsSync(file) && fs.statSync(file).isFile() ? fs.readFileSync(file) : null;
    if (old?.length && data.subarray(0, old.length).equals(old)) fs.appendFileSync(file, data.subarray(old.length));
    else {
      const tmp = path.join(path.dirname(file), `.${path.basename(file)}.step-tmp`);
      fs.writeFileSync(tmp, data);
      fs.renameSync(tmp, file);
    }
  }
}

/**
 * Runs a command that goes on: waits for its first output, then for each of `changes` writes
 * the step's files and waits for more output, then waits for its exit; each wait at most
 * STEP_MS, after which the process is killed and the case fails with what it printed.
 */
async function runChanges(argv, options, input, changes) {
  const child = spawn(process.execPath, [bin, ...argv], { ...options, stdio: ["pipe", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "", status: null, signal: null, closed: false };
  child.stdout.setEncoding("utf8").on("data", (text) => (out.stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text) => (out.stderr += text));
  child.on("close", (code, signal) => Object.assign(out, { status: code, signal, closed: true }));
  child.stdin.on("error", () => {}); // a command that never reads its input
  child.stdin.end(input);
  const printed = () => out.stdout.length + out.stderr.length;
  const until = async (what, ready) => {
    const deadline = Date.now() + STEP_MS;
    while (!ready()) {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        assert.fail(`no ${what} within ${STEP_MS} ms; so far:\n${out.stdout}${out.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // An answer's standard output and error arrive as two writes: after output shows, wait for
  // QUIET_MS without more, so that a step never follows half of an answer.
  const settled = async () => {
    for (let seen = -1; seen !== printed() && !out.closed; ) {
      seen = printed();
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    }
  };
  await until("first output", () => printed() > 0 || out.closed);
  await settled();
  for (const [index, step] of changes.entries()) {
    const before = printed();
    writeStep(options.cwd, step.files);
    await until(`output after step ${index + 1}`, () => printed() > before || out.closed);
    await settled();
  }
  await until("exit", () => out.closed);
  return out;
}

for (const file of fs.readdirSync(corpus).filter((f) => f.endsWith(".json")).sort()) {
  const { cases } = JSON.parse(fs.readFileSync(path.join(corpus, file), "utf8"));
  for (const c of cases) {
    test(`cli/${file}: ${c.name}`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-cli-"));
      try {
        for (const [name, text] of Object.entries(c.files ?? {})) {
          fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
          fs.writeFileSync(path.join(root, name), text);
        }
        for (const [name, time] of Object.entries(c.mtimes ?? {})) {
          fs.utimesSync(path.join(root, name), new Date(time), new Date(time));
        }
        const env = { ...process.env, TZ: "UTC", ...(c.env ?? {}) };
        for (const name of ["NO_COLOR", "STATECORE_NOW", "AGENCY_DATA_DIR", "XDG_DATA_HOME"]) {
          if (!c.env || !(name in c.env)) delete env[name];
        }
        env.PATH = `${fakeTmux(root, c.tmux ?? [])}${path.delimiter}${env.PATH}`;
        // The locks of `locked` are held by this process while the command runs.
        const held = (c.locked ?? []).map((name) => acquireLockSync(path.join(root, name)));
        let run;
        try {
          const input = c.stdin ?? "";
          run = c.changes
            ? await runChanges(c.argv, { cwd: root, env }, input, c.changes)
            : spawnSync(process.execPath, [bin, ...c.argv], { cwd: root, env, input, encoding: "utf8" });
        } finally {
          for (const lock of held) lock.release();
        }
        check(c.expect, root, run.stdout, run.stderr, run.status);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
        fs.rmSync(`${root}-bin`, { recursive: true, force: true });
      }
    });
  }
}

test("cli: twelve updates run at once, each under the lock the job takes, lose none and leave nothing beside the file", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-cli-"));
  try {
    const runs = Array.from({ length: 12 }, (_, i) => {
      const argv = ["update", "c.json", "--kind", "json", "--merge", `{"k${i}": ${i}}`];
      const child = spawn(process.execPath, [bin, ...argv], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
    });
    for (const run of await Promise.all(runs)) assert.equal(run.code, 0, run.stderr);
    const written = JSON.parse(fs.readFileSync(path.join(root, "c.json"), "utf8"));
    assert.deepEqual(Object.keys(written).sort(), Array.from({ length: 12 }, (_, i) => `k${i}`).sort());
    assert.deepEqual(fs.readdirSync(root), ["c.json"]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("cli: update writes a number JavaScript cannot hold exactly, as Python's does: the change never crosses into JavaScript", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-cli-"));
  try {
    const argv = ["update", "a.json", "--kind", "json", "--set", "/n=12345678901234567890"];
    const run = spawnSync(process.execPath, [bin, ...argv], { cwd: root, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(fs.readFileSync(path.join(root, "a.json"), "utf8"), '{\n  "n": 12345678901234567890\n}\n');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("cli: a number JavaScript cannot hold exactly, in a record it must append, is a clear error in Node, not a crash", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-cli-"));
  try {
    const argv = ["log", "append", "events.jsonl", '{"n": 12345678901234567890}'];
    const run = spawnSync(process.execPath, [bin, ...argv], { cwd: root, encoding: "utf8" });
    assert.equal(run.status, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^statecore: E_PRECISION: the number 12345678901234567890 cannot be represented exactly/);
    assert.equal(fs.existsSync(path.join(root, "events.jsonl")), false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/**
 * Runs `args` (a bin of the package) in `cwd` with a standard input that stays open, as `sleep
 * 60 |` gives (`input`: written first, the pipe kept open); its exit, within 20 s or not at all.
 */
function withOpenStdin(binary, args, cwd, input) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binary, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stdin.on("error", () => {});
    if (input) child.stdin.write(input);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: "still running after 20 s", stdout });
    }, 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, stdout });
    });
  });
}

test("fctry status with a standard input that never closes returns, and reads a session written to it", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-stdin-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, "proj", ".fctry"), { recursive: true });
  fs.writeFileSync(path.join(dir, "proj", ".fctry", "state.json"), '{"workflowStep": "interviewer"}\n');
  const statusline = path.join(here, "..", "bin", "statecore-statusline.cjs");
  for (const [binary, args] of [
    [bin, ["fctry", "status"]],
    [statusline, []],
  ]) {
    const silent = await withOpenStdin(binary, args, path.join(dir, "proj"), "");
    assert.equal(silent.code, 0, `${path.basename(binary)}: ${silent.code}`);
    assert.match(silent.stdout, /proj/);
    const session = JSON.stringify({ workspace: { current_dir: path.join(dir, "proj") } });
    const told = await withOpenStdin(binary, args, dir, session);
    assert.equal(told.code, 0, `${path.basename(binary)}: ${told.code}`);
    assert.match(told.stdout, /proj/, "the session written to the open pipe was read");
  }
});

test("the command line takes documents up to the library's 32 MiB, and names the limit it refuses", (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-big-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const MiB = 1024 * 1024;
  const write = (name, text) => fs.writeFileSync(path.join(dir, name), text);
  // 20 MiB: two strings of 10 MiB, each within the 16 MiB string limit.
  write("big.json", JSON.stringify({ a: "x".repeat(10 * MiB), b: "y".repeat(10 * MiB) }));
  write("long.json", JSON.stringify({ a: "x".repeat(17 * MiB) }));
  write("huge.json", JSON.stringify({ a: "x".repeat(15 * MiB), b: "y".repeat(15 * MiB), c: "z".repeat(3 * MiB) }));
  const run = (...args) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 128 * MiB });
  const valid = run("validate", "--kind", "json", "big.json");
  assert.equal(valid.status, 0, valid.stderr);
  const shown = run("show", "--kind", "json", "big.json");
  assert.equal(shown.status, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).b.length, 10 * MiB);
  const updated = run("update", "--kind", "json", "big.json", "--merge", '{"c": 1}');
  assert.equal(updated.status, 0, updated.stderr);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, "big.json"), "utf8")).c, 1);
  const long = run("validate", "--kind", "json", "long.json");
  assert.notEqual(long.status, 0);
  assert.match(long.stdout + long.stderr, /16777216/, "a document's string limit");
  const huge = run("validate", "--kind", "json", "huge.json");
  assert.notEqual(huge.status, 0);
  assert.match(huge.stdout + huge.stderr, /huge\.json.*33554432/s, "the file and the document limit");
  assert.doesNotMatch(huge.stdout + huge.stderr, /16777216/);
});
