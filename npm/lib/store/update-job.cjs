"use strict";
/**
 * The driver of a PostgreSQL store's update job (docs/store.md § The update as a job): the
 * core decides which statements run, in which transaction, when the text the store kept is
 * trusted and what a failed statement means; lib/store/job.cjs runs its steps, and this
 * applies the change (`apply`) and keeps the text the job says. The Python twin is
 * python/statecore/_store/update_job.py.
 */
const documents = require("../host/documents.cjs");

const core = () => documents.core();

/**
 * Runs the update job of `key` (`setup` as the core takes it) with `drive(job, act)` (the
 * store's: lib/store/job.cjs on a client of its pool), `apply(text)` (a promise or not)
 * making the update's result from a text (null: no row), `known` the text the store kept
 * (`{text, etag, trusted}` or undefined) and `cache` its rows (`Known`). Returns the result
 * of the last apply; raises the job's error or the host's own.
 */
async function runUpdate(drive, setup, apply, known, cache) {
  const act = async (step, kept) => {
    if (step.do !== "apply") throw new TypeError(`statecore: a store job asked for an unknown step ${JSON.stringify(step.do)}`);
    const result = (kept.result = await apply(step.on === "known" ? known.text : (kept.row?.text ?? null)));
    return { changed: result.changed, corrupt: result.corrupt, etag: result.etag };
  };
  const { done, kept } = await drive(core().storeJob("update", setup), act);
  return finish(done, setup.key, cache, kept);
}

/**
 * The job's end: the kept text set as it says (the `result`'s or the `row`'s; forgotten when
 * that is none), the last apply's result given.
 */
function finish(done, at, cache, { result, row }) {
  const kept = done.cache;
  if (kept === "leave") return result;
  const from = kept === "forget" ? null : kept.keep === "result" ? result : row;
  if (from) cache.remember(at, from, kept.trusted);
  else cache.forget(at);
  return result;
}

module.exports = { runUpdate };
