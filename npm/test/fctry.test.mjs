// The fctry wrappers supply the host's clock and randomness when the caller omits them (the
// core never reads either); the corpus covers the rules themselves.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sc from "../lib/node.mjs";

const { fctry, parseTimestamp } = sc;

test("omitted now stamps the host clock", () => {
  const before = Date.now();
  const state = fctry.startStep(fctry.startCommand({}, "evolve"), "state-owner-scan");
  const after = Date.now();
  const stamped = parseTimestamp(state.lastUpdated);
  assert.ok(before <= stamped && stamped <= after, `${before} <= ${stamped} <= ${after}`);
  assert.equal(state.workflowStep, "state-owner-scan");
});

test("inboxAdd makes ids from the host clock and 6 random base36 characters", () => {
  const before = Date.now();
  const inbox = fctry.inboxAdd(fctry.inboxAdd([], "evolve", "one"), "feature", "two");
  const after = Date.now();
  assert.deepEqual(inbox.map((i) => i.content), ["two", "one"]); // newest first
  for (const item of inbox) {
    const match = /^inbox-(\d+)-([0-9a-z]{6})$/.exec(item.id);
    assert.ok(match, item.id);
    const ms = Number(match[1]);
    assert.ok(before <= ms && ms <= after, `${before} <= ${ms} <= ${after}`);
  }
  assert.notEqual(inbox[0].id, inbox[1].id);
  assert.equal(sc.validate("fctry.inbox", inbox).valid, true);
});

test("unknown commands, steps and agents are UsageError E_ARGUMENT", () => {
  for (const call of [
    () => fctry.startCommand({}, "deploy"),
    () => fctry.startStep({}, "reviewer"),
    () => fctry.checkPrerequisites({}, "reviewer"),
  ]) {
    assert.throws(call, (e) => e instanceof sc.UsageError && e.code === "E_ARGUMENT");
  }
});
