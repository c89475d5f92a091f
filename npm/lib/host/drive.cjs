"use strict";
/**
 * The drivers of the Node host layer's routines (docs/architecture.md): a routine is written
 * once, as a generator over an I/O table, and yields what the table's calls return; `runSync`
 * drives it with a synchronous table, `runAsync` with a promise-based one, awaiting each
 * yielded value and throwing failures back into the generator. lib/host/atomic.cjs's file
 * primitives and lib/host/steps.cjs's routines both run on them.
 */

/** Whether `value` is a promise (or another thenable). */
function isThenable(value) {
  return typeof value?.then === "function";
}

/** Drives a routine synchronously (the yielded values are already results). */
function runSync(steps) {
  let step = steps.next();
  while (!step.done) {
    step = isThenable(step.value)
      ? steps.throw(
          new TypeError(
            "a function returned a Promise: use the async form (without Sync), not the Sync one",
          ),
        )
      : steps.next(step.value);
  }
  return step.value;
}

/** Drives a routine, awaiting each yielded value (failures are thrown back into it). */
async function runAsync(steps) {
  let step = steps.next();
  while (!step.done) {
    let value;
    try {
      value = await step.value;
    } catch (error) {
      step = steps.throw(error);
      continue;
    }
    step = steps.next(value);
  }
  return step.value;
}

/**
 * `{sync, async}` of one `routine(io, ...args)`: `sync(...args)` runs it on `tables.sync`,
 * `async(...args)` (a Promise) on `tables.async`.
 */
function both(routine, tables) {
  return Object.freeze({
    sync: (...args) => runSync(routine(tables.sync, ...args)),
    async: (...args) => runAsync(routine(tables.async, ...args)),
  });
}

module.exports = { runSync, runAsync, both };
