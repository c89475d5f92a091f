// fast-check laws over the JS boundary (docs/conventions.md § Tests): merging {} is the identity, merging
// is idempotent, and values round-trip through parse/serialize. Small runs (tests, not fuzzing).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as sc from "statecore-js";

const RUNS = { numRuns: 200 };

// JSON values a JS number holds: safe integers and any finite double (a large integral
// double such as 2 ** 60 is written in its shortest form, which the object API accepts,
// see docs/api.md § Host values).
const number = fc.oneof(
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const key = fc.oneof(fc.string({ unit: "grapheme", maxLength: 6 }), fc.constantFrom("__proto__", "constructor", "a/b~c"));
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    fc.string({ unit: "grapheme", maxLength: 12 }),
    fc.array(tie("json"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.dictionary(key, tie("json"), { maxKeys: 4, noNullPrototype: true }),
}));
const object = fc.dictionary(key, json, { maxKeys: 5, noNullPrototype: true });
const strategy = fc.constantFrom("shallow", "deep", "merge_patch");

/** What a JSON round trip makes of a JS value (-0 becomes 0, ...): the expected result. */
const viaJson = (v) => JSON.parse(JSON.stringify(v));

test("merge(doc, {}) is doc", () => {
  fc.assert(
    fc.property(object, strategy, (doc, s) => {
      assert.deepStrictEqual(sc.merge(doc, {}, { strategy: s }), viaJson(doc));
    }),
    RUNS,
  );
});

test("merge is idempotent: merge(merge(d, p), p) = merge(d, p)", () => {
  fc.assert(
    fc.property(object, object, strategy, (doc, patch, s) => {
      const once = sc.merge(doc, patch, { strategy: s });
      assert.deepStrictEqual(sc.merge(once, patch, { strategy: s }), once);
    }),
    RUNS,
  );
});

test("parse(serialize(x)) deep-equals x", () => {
  fc.assert(
    fc.property(json, (x) => {
      assert.deepStrictEqual(sc.parse(sc.serialize(x)), viaJson(x));
    }),
    RUNS,
  );
});

test("serialize(parse(serialize(x))) === serialize(x)", () => {
  fc.assert(
    fc.property(json, (x) => {
      const text = sc.serialize(x);
      assert.equal(sc.serialize(sc.parse(text)), text);
      assert.equal(sc.canonical(text), text);
    }),
    RUNS,
  );
});
