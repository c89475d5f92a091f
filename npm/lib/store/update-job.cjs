"use strict";
/**
 * The driver of a PostgreSQL store's update job (docs/store.md § The update as a job): the
 * core decides which statements run, in which transaction, when the text the store kept is
 * trusted and what a failed statement means; this runs each step it asks for on one client of
 * the pool (`statement`, `begin`, `commit`, `rollback`, `drop`), applies the change (`apply`)
 * and keeps the texts, and feeds back what it saw. The Python twin is
 * python/statecore/_store/update_job.py.
 */
const documents = require("../host/documents.cjs");
const { meets } = require("../host/lock.cjs");

const core = () => documents.core();

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
 * Runs the update job of `key` (`setup` as the core takes it) on `client`, `apply(text)` (a
 * promise or not) making the update's result from a text (null: no row), `known` the text the
 * store kept (`{text, etag, trusted}` or undefined) and `cache` its rows (`Known`). Returns the
 * result of the last apply; raises the job's error or the host's own. The connection is
 * dropped (`client.release(error)`) when the job says it was lost.
 */
async function runUpdate(client, statements, setup, apply, known, cache, lostOf) {
  const job = core().storeJob("update", setup);
  const errors = [];
  let result = null;
  let row = null;
  let broken = null;
  /** A statement's parameter: a value, or the text or etag of the `result` or the `row`. */
  const param = (p) => {
    if (p === null || typeof p !== "object") return p;
    const from = (p.text ?? p.etag) === "result" ? result : row;
    return "text" in p ? from.text : from.etag;
  };
  /** One step performed: what the job is answered. */
  const take = async (step) => {
    try {
      switch (step.do) {
        case "apply": {
          result = await apply(step.on === "known" ? known.text : (row?.text ?? null));
          return { changed: result.changed, corrupt: result.corrupt, etag: result.etag };
        }
        case "statement": {
          const out = await client.query({ name: `statecore_${step.name}`, text: statements[step.name], values: step.params.map(param) });
          const first = out.rows[0];
          if (step.row === true) row = first ? { text: first.text, etag: first.etag } : null;
          const { text: _text, ...columns } = first ?? {};
          return { count: out.rowCount ?? out.rows.length, ...columns };
        }
        case "begin":
        case "commit":
        case "rollback":
          await client.query(step.do.toUpperCase());
          return {};
        case "drop":
          broken = errors.at(-1) ?? new Error("the store job dropped the connection");
          return {};
        default:
          throw new TypeError(`statecore: a store job asked for an unknown step ${JSON.stringify(step.do)}`);
      }
    } catch (error) {
      errors.push(error);
      return { failed: errors.length - 1, ...facts(error, lostOf(client)) };
    }
  };
  try {
    for (let step = job.first; ; ) {
      if (step.do === "raise") throw errors[step.failed];
      if (step.do === "done") return finish(step, setup.key, cache, result, row);
      let answer;
      if (step.do === "all") {
        const answers = [];
        for (const one of step.steps) {
          if (one.do === "done") return finish(one, setup.key, cache, result, row);
          const got = await take(one);
          answers.push(got);
          if (got.failed !== undefined || !meets(got, one.expect)) break;
        }
        answer = { answers };
      } else {
        answer = await take(step);
      }
      step = job.next(answer);
    }
  } finally {
    job.free();
    client.release(broken ?? undefined);
  }
}

/**
 * The job's end: the kept text set as it says (the `result`'s or the `row`'s; forgotten when
 * that is none), the last apply's result given.
 */
function finish(done, at, cache, result, row) {
  const kept = done.cache;
  if (kept === "leave") return result;
  const from = kept === "forget" ? null : kept.keep === "result" ? result : row;
  if (from) cache.remember(at, from, kept.trusted);
  else cache.forget(at);
  return result;
}

module.exports = { runUpdate, facts };
