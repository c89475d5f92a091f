// A throwaway PostgreSQL server for the store tests: the one `make test` started
// (STATECORE_PG_ENV names its env file), or one started with scripts/pg-server.sh and stopped
// when the test process exits. `database(t)` makes a fresh database for one test and gives its
// PG* variables. The twin of python/tests/pg_server.py.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO } from "./procs.mjs";

const SCRIPT = path.join(REPO, "scripts", "pg-server.sh");

/** The PG* variables of an env file the script wrote. */
function readEnv(file) {
  const out = {};
  for (const word of fs.readFileSync(file, "utf8").replace("export ", "").split(/\s+/)) {
    const [name, value] = word.split("=");
    if (name) out[name] = value;
  }
  return out;
}

let server = null;

/** The server's PG* variables, started on first use. */
export function pgServer() {
  if (server) return server;
  if (process.env.STATECORE_PG_ENV) {
    server = readEnv(process.env.STATECORE_PG_ENV);
    return server;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-pgtest-"));
  execFileSync("bash", [SCRIPT, "start", `${dir}/pg`, String(process.pid)], { stdio: "ignore" });
  server = readEnv(`${dir}/pg/env`);
  process.on("exit", () => {
    execFileSync("bash", [SCRIPT, "stop", `${dir}/pg`], { stdio: "ignore" });
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return server;
}

/** Runs SQL with psql as the server's superuser on `database`. */
export function psql(env, sql) {
  return execFileSync("psql", ["-v", "ON_ERROR_STOP=1", "-tAc", sql], { env: { ...process.env, ...env } })
    .toString()
    .trim();
}

/** A fresh database for the test `t`: its PG* variables (dropped after the test). */
export function database(t) {
  const base = pgServer();
  const name = `t_${Math.random().toString(16).slice(2, 14)}`;
  psql(base, `CREATE DATABASE ${name}`);
  const env = { ...base, PGDATABASE: name };
  t.after(() => psql(base, `DROP DATABASE ${name} WITH (FORCE)`));
  return env;
}
