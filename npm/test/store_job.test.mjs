// The store's update job through the JS API (`storeJob`, docs/store.md § The update as a job):
// every case of the corpus (tests/conformance/store/update_jobs.json) is run here through
// `storeJob` as a driver would (the first step with the job, then `next` with each answer),
// against the corpus's steps; a setup the core refuses is refused at the field it names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { storeJob } from "statecore-js";
import { readJson } from "./files.mjs";

const { cases } = readJson("conformance/store/update_jobs.json");

/** The steps a job asks for given `answers`, as the core's `script` lists them. */
function script(setup, answers) {
  let job;
  try {
    job = storeJob("update", setup);
  } catch (error) {
    return { error: { code: error.code, path: error.path } };
  }
  const steps = [job.first];
  try {
    for (const answer of answers) {
      const last = steps.at(-1).do;
      if (last === "done" || last === "raise") break;
      steps.push(job.next(answer));
    }
  } catch (error) {
    steps.push({ do: "error", error: { code: error.code, path: error.path } });
  } finally {
    job.free();
  }
  return steps;
}

/** A corpus case's expected steps, errors cut to their code and path. */
function expected(c) {
  if (c.error) return { error: { code: c.error.code, path: c.error.path } };
  return c.expect.map((step) => (step.do === "error" ? { do: "error", error: { code: step.error.code, path: step.error.path } } : step));
}

for (const c of cases) {
  const [kind, setup, answers] = c.args;
  test(`storeJob, driven: ${c.name}`, () => {
    assert.equal(kind, "update");
    assert.deepEqual(script(setup, answers), expected(c));
  });
}

test("the core refuses a setup's misspelt or mistyped field, and a job it has not got", () => {
  const setup = { key: "k", kind: "fctry.state", known: null, timeout: 5 };
  assert.throws(() => storeJob("update", setup), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/timeout");
  assert.throws(() => storeJob("update", { key: "k", kind: "fctry.state", known: { etag: "e", trusted: 1 } }), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/known/trusted");
  assert.throws(() => storeJob("update", { key: 5, kind: "fctry.state" }), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/key");
  assert.throws(() => storeJob("renew", { key: "k", kind: "fctry.state" }), (e) => e.code === "E_ARGUMENT" && e.path === "/job");
});
