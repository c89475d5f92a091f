"use strict";
/**
 * The one driver of the core's jobs in the Node host (docs/locking.md § The lock as a job, §
 * The update as a job; docs/store.md § The update as a job): the job decides, the caller's
 * `take` performs each step it asks for, and this feeds the answers back, a plan (`all`) step
 * by step. The lock's, the file update's and the store's drivers are each a `take` run here.
 */

/**
 * Where an answer carries the bytes read doing its step (a `load` with `bytes`): they go to
 * the job beside the answer's JSON (`next(answer, bytes)`), which never holds them.
 */
const BYTES = Symbol("statecore.bytes");

/** Whether `value` is a JSON object (not null, not a list). */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `answer` is what a plan's step `expect`s of it: the core's rule (`lock_plan_meets`,
 * docs/locking.md § Plans; npm/test/lock_job.test.mjs runs this copy through its vectors). No
 * expectation takes any answer; a list, one of its objects; an object, each of its fields:
 * `age_under_ms: n` asks for numbers `now_ms` and `mtime_ms` with `0 <= now_ms - mtime_ms < n`,
 * any other key for the same scalar, or `[]` for an empty list (any other expected list, or an
 * object, is never met).
 */
function meets(answer, expect) {
  if (expect === undefined || expect === null) return true;
  if (Array.isArray(expect)) return expect.some((one) => isObject(one) && meets(answer, one));
  if (!isObject(expect) || !isObject(answer)) return false;
  for (const key of Object.keys(expect)) {
    const want = expect[key];
    if (key === "age_under_ms") {
      const { now_ms: now, mtime_ms: mtime } = answer;
      if (typeof now !== "number" || typeof mtime !== "number" || typeof want !== "number") return false;
      const age = now - mtime;
      if (!(age >= 0 && age < want)) return false;
    } else if (Array.isArray(want)) {
      // `[]` asks for an empty list; any other list is never met.
      const got = answer[key];
      if (want.length !== 0 || !Array.isArray(got) || got.length !== 0) return false;
    } else if (isObject(want) || !Object.hasOwn(answer, key) || answer[key] !== want) {
      return false;
    }
  }
  return true;
}

/**
 * Runs `job` (its `first`, `next`, `free`) to its end and returns its last step (`done`);
 * frees it. `take(step, fail)` is a generator performing one step and returning its answer (a
 * host's failure answered `{failed: fail(error)}`, which the job may ignore; thrown when the
 * job says `raise`). A plan (`all`) is taken step by step up to the first answer that fails or
 * is not what its step expects, or to its `done`, which ends the job without another crossing.
 */
function* drive(job, take) {
  const errors = [];
  const fail = (error) => errors.push(error) - 1;
  try {
    for (let step = job.first; ; ) {
      if (step.do === "done") return step;
      if (step.do === "raise") throw errors[step.failed];
      let answer;
      let bytes;
      if (step.do !== "all") {
        answer = yield* take(step, fail);
        bytes = answer[BYTES];
      } else {
        const answers = [];
        for (const one of step.steps) {
          if (one.do === "done") return one;
          const got = yield* take(one, fail);
          answers.push(got);
          if (got[BYTES] !== undefined) bytes = got[BYTES];
          if (got.failed !== undefined || !meets(got, one.expect)) break;
        }
        answer = { answers };
      }
      step = job.next(answer, bytes);
    }
  } finally {
    job.free();
  }
}

module.exports = { drive, meets, BYTES };
