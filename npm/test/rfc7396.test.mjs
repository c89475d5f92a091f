// RFC 7396 Appendix A vectors through `merge(doc, patch, {strategy: "merge_patch"})`.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sc from "statecore-js";
import { checkRfc7396Case } from "./corpus-runner.mjs";
import { readJson, RFC7396 } from "./files.mjs";

const cases = readJson(RFC7396);

test("all 16 vectors are present", () => assert.equal(cases.length, 16));

for (const c of cases) {
  test(c.comment, () => {
    const failure = checkRfc7396Case(sc, c);
    assert.equal(failure, null, failure ?? "");
  });
}
