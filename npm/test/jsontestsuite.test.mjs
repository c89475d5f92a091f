// JSONTestSuite (tests/vectors/JSONTestSuite/test_parsing) through `canonical(bytes)`: y_
// accepted, n_ rejected with a ParseError/LimitError, i_ outcomes as pinned by the Rust core.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sc from "statecore-js";
import { checkJsonTestSuiteFile } from "./corpus-runner.mjs";
import { jsonTestSuite, readJson, I_OUTCOMES } from "./files.mjs";

const pinned = readJson(I_OUTCOMES);
const files = jsonTestSuite();

test("all 318 parsing vectors are present", () => {
  assert.equal(files.length, 318);
});

for (const { name, data } of files) {
  test(name, () => {
    const failure = checkJsonTestSuiteFile(sc, name, data, pinned);
    assert.equal(failure, null, failure ?? "");
    // the module keeps working after every outcome
    assert.equal(sc.canonical("[1]"), "[\n  1\n]\n");
  });
}
