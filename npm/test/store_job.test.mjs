// The store's update job through the JS API (`storeJob`, docs/store.md § The update as a job):
// a setup of the store's own form crosses field by field, any other as JSON text for the core
// to check. Both must ask for the same steps: every case of the corpus
// (tests/conformance/store/update_jobs.json) is run here through `storeJob` as a driver would
// (the first step with the job, then `next` with each answer), once as written and once with a
// field the store never sends (so that it crosses as JSON), against the corpus's steps.
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
  test(`storeJob, field by field where it can: ${c.name}`, () => {
    assert.equal(kind, "update");
    assert.deepEqual(script(setup, answers), expected(c));
  });
}

test("a setup the store never sends crosses as JSON: the core refuses its misspelt field", () => {
  const setup = { key: "k", kind: "fctry.state", known: null, timeout: 5 };
  assert.throws(() => storeJob("update", setup), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/timeout");
  assert.throws(() => storeJob("update", { key: "k", kind: "fctry.state", known: { etag: "e", trusted: 1 } }), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/known/trusted");
  assert.throws(() => storeJob("update", { key: 5, kind: "fctry.state" }), (e) => e.code === "E_ARGUMENT" && e.path === "/setup/key");
  assert.throws(() => storeJob("renew", { key: "k", kind: "fctry.state" }), (e) => e.code === "E_ARGUMENT" && e.path === "/job");
});

test("a plain setup and the same setup as JSON give the same first step", () => {
  for (const c of cases) {
    if (c.error) continue;
    const [, setup] = c.args;
    // An inherited prototype keeps a setup off the field-by-field path (same fields, as JSON).
    const viaJson = Object.assign(Object.create({ unused: true }), setup);
    const a = storeJob("update", setup);
    const b = storeJob("update", viaJson);
    assert.deepEqual(a.first, b.first, c.name);
    a.free();
    b.free();
  }
});
