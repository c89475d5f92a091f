"use strict";
/**
 * The driver of a PostgreSQL store's jobs (docs/store.md § The update as a job, § Hive
 * sessions): the core decides which statements run, in which transaction, and what a failed
 * one means; this runs each step it asks for on one client of the pool (`statement`, `begin`,
 * `commit`, `rollback`, `drop`, a plan of them: `all`), hands the job's own steps (`apply`,
 * and a session's `replay` and `feed`) to the caller's `act`, and feeds back what it saw. The
 * Python twin is python/statecore/_store/job.py.
 */
const documents = require("../host/documents.cjs");
const { drive } = require("../host/jobs.cjs");
const { runAsync } = require("../host/drive.cjs");

const core = () => documents.core();

/** node-postgres's type parsers (loaded once: a `require` resolves its path each time). */
let pgTypes = null;

/** node-postgres's parsers, with a bigint column (a log's offsets and lengths) as a number. */
const TYPES = {
  getTypeParser(oid, format) {
    pgTypes ??= require("pg").types;
    return oid === pgTypes.builtins.INT8 ? Number : pgTypes.getTypeParser(oid, format);
  },
};

/**
 * What a failed step's error is to the job: the statement's SQLSTATE (null: none), whether
 * node-postgres says the connection failed (no SQLSTATE: a socket error such as ECONNRESET, or
 * its own "Connection terminated"), the driver's message, and whether the core refused it.
 */
function facts(error, lost = null) {
  const code = typeof error?.code === "string" ? error.code : "";
  const sqlstate = /^[0-9A-Z]{5}$/.test(code) ? code : null;
  const message = typeof error?.message === "string" ? error.message : String(error);
  const connection =
    sqlstate === null &&
    ((/^E[A-Z]+$/.test(code) && !code.startsWith("E_")) ||
      /^Connection terminated|connection error|Connection ended|is not queryable|the watcher's connection was lost/i.test(message));
  const refused = error instanceof core().StatecoreError;
  return { sqlstate, connection, message: String(lost?.message ?? message), refused };
}

/**
 * Runs `job` (its `first`, `next`, `free`) on `client` to its end: `{done, kept}`, the job's
 * last step and what the steps kept (`kept.result`: what `act` made last; `kept.row`: the
 * last row a statement with `row: true` read, `{text, etag}` or null). `act(step, kept,
 * rows)` performs a step of the job's own (`apply`, `replay`, `feed`: `rows(params)` runs the
 * step's statement) and answers it, a promise or not. Raises the job's error or the host's
 * own; drops the connection (`client.release(error)`) when the job says it was lost.
 */
async function runJob(client, statements, job, act, lostOf) {
  const kept = { result: null, row: null };
  let broken = null;
  let lastError = null;
  /** A statement of the schema run with its parameters: node-postgres's result. */
  const query = (name, params) =>
    client.query({ name: `statecore_${name}`, text: statements[name], values: params.map(param), types: TYPES });
  /** A statement's parameter: a value, or the text, etag or line of the `result` or `row`. */
  const param = (p) => {
    if (p === null || typeof p !== "object") return p;
    if ("line" in p) return kept.result.line.replace(/^\n|\n$/g, "");
    const from = (p.text ?? p.etag) === "result" ? kept.result : kept.row;
    return "text" in p ? (from?.text ?? null) : (from?.etag ?? null);
  };
  /** One step performed: what the job is answered (a failure kept by `fail`). */
  const take = async (step, fail) => {
    try {
      switch (step.do) {
        case "statement": {
          const out = await query(step.name, step.params);
          const first = out.rows[0];
          if (step.row === true) kept.row = first ? { text: first.text ?? null, etag: first.etag ?? null } : null;
          const { text: _text, ...columns } = first ?? {};
          return { count: out.rowCount ?? out.rows.length, ...columns };
        }
        case "begin":
        case "commit":
        case "rollback":
          await client.query(step.do.toUpperCase());
          return {};
        case "drop":
          broken = lastError ?? new Error("the store job dropped the connection");
          return {};
        default:
          return await act(step, kept, (params) => query(step.name, params));
      }
    } catch (error) {
      lastError = error;
      return { failed: fail(error), ...facts(error, lostOf(client)) };
    }
  };
  try {
    // The one job driver (lib/host/jobs.cjs), each step awaited.
    const done = await runAsync(
      drive(job, function* (step, fail) {
        return yield take(step, fail);
      }),
    );
    return { done, kept };
  } finally {
    client.release(broken ?? undefined);
  }
}

module.exports = { runJob, facts };
