// The JS boundary (docs/api.md § Host values, docs/conventions.md § The wasm boundary and the npm package): prototype safety, limits,
// values that are not JSON, precision, error objects, and a wasm instance that keeps working
// after every error.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sc from "statecore-js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Asserts `fn` throws a statecore error of `Class` with `code` (and `path` when given). */
function throwsCode(fn, Class, code, path) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected ${code}, nothing was thrown`);
  assert.ok(error instanceof Class, `expected ${Class.name}, got ${error?.name}: ${error?.message}`);
  assert.ok(error instanceof sc.StatecoreError && error instanceof Error);
  assert.equal(error.code, code, error.message);
  if (path !== undefined) assert.equal(error.path, path, error.message);
  // the wasm instance is still usable after every error
  assert.deepEqual(sc.merge({ a: 1 }, { b: 2 }), { a: 1, b: 2 });
  return error;
}

/** Asserts an object is a plain object whose `__proto__` is an own data property. */
function assertOwnProto(obj, inner) {
  assert.equal(Object.getPrototypeOf(obj), Object.prototype);
  assert.ok(Object.hasOwn(obj, "__proto__"), "__proto__ kept as an own key");
  const desc = Object.getOwnPropertyDescriptor(obj, "__proto__");
  assert.ok("value" in desc && desc.enumerable, "a data property");
  assert.deepEqual(JSON.stringify(desc.value), JSON.stringify(inner));
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
}

const PROTO_TEXT = '{"__proto__": {"polluted": 1}, "b": 2}';

test("parse keeps __proto__ as data", () => {
  const doc = sc.parse(PROTO_TEXT);
  assertOwnProto(doc, { polluted: 1 });
  assert.deepEqual(Object.keys(doc), ["__proto__", "b"]);
  assert.equal(doc.polluted, undefined);
  const nested = sc.parse('{"a": [{"__proto__": {"polluted": 1}}]}');
  assertOwnProto(nested.a[0], { polluted: 1 });
  const ctor = sc.parse('{"constructor": {"prototype": {"polluted": 1}}}');
  assert.deepEqual(Object.keys(ctor), ["constructor"]);
  assert.equal(ctor.constructor.prototype.polluted, 1);
  assert.equal(Object.getPrototypeOf(ctor), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.equal(sc.serialize(doc), sc.canonical(PROTO_TEXT));
});

test("merge keeps __proto__ as data in every strategy, nothing dropped", () => {
  const patch = JSON.parse(PROTO_TEXT); // JSON.parse makes an own "__proto__" key
  for (const strategy of ["shallow", "deep", "merge_patch"]) {
    const out = sc.merge({ x: 1 }, patch, { strategy });
    assertOwnProto(out, { polluted: 1 });
    assert.deepEqual(Object.keys(out), ["x", "__proto__", "b"]);
    // merging into an existing __proto__ member
    const again = sc.merge(out, JSON.parse('{"__proto__": {"more": 2}}'), { strategy });
    assertOwnProto(again, strategy === "shallow" ? { more: 2 } : { polluted: 1, more: 2 });
  }
  const deep = sc.merge(
    JSON.parse('{"a": {"__proto__": {"p": 1}}}'),
    JSON.parse('{"a": {"__proto__": {"q": 2}}, "constructor": {"prototype": {"polluted": 1}}}'),
  );
  assertOwnProto(deep.a, { p: 1, q: 2 });
  assert.equal(deep.constructor.prototype.polluted, 1);
  assert.equal({}.polluted, undefined);
});

test("other results keep __proto__ as data (loadDocument, applyUpdate, parseLog, validate)", () => {
  const loaded = sc.loadDocument("json", PROTO_TEXT);
  assertOwnProto(loaded.document, { polluted: 1 });
  const updated = sc.applyUpdate("json", PROTO_TEXT, JSON.parse('{"__proto__": {"x": 1}}'), null, null);
  assertOwnProto(updated.document, { polluted: 1, x: 1 });
  const log = sc.parseLog('{"__proto__": {"polluted": 1}}\n');
  assertOwnProto(log.records[0], { polluted: 1 });
  assert.equal(sc.validate("json", JSON.parse(PROTO_TEXT)).valid, true);
  assert.equal(sc.mergeText(PROTO_TEXT, "{}"), sc.canonical(PROTO_TEXT));
});

/** Nested arrays of `depth` levels (`[]` has depth 1) as text, and nested objects. */
const arrays = (depth) => "[".repeat(depth) + "]".repeat(depth);
function objects(depth) {
  let v = {};
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}

test("depth 127 and 128 pass, 129 is E_LIMIT (text, documents and patches)", () => {
  for (const depth of [127, 128]) {
    assert.equal(sc.canonical(arrays(depth)).length > 0, true);
    assert.equal(JSON.stringify(sc.parse(arrays(depth))), arrays(depth));
    const doc = objects(depth);
    assert.deepEqual(sc.merge(doc, {}), doc);
    assert.deepEqual(sc.merge({}, doc), doc);
    assert.deepEqual(sc.merge(doc, doc, { strategy: "merge_patch" }), doc);
    assert.equal(sc.validate("json", doc).valid, true);
  }
  throwsCode(() => sc.parse(arrays(129)), sc.LimitError, "E_LIMIT");
  throwsCode(() => sc.canonical(arrays(129)), sc.LimitError, "E_LIMIT");
  throwsCode(() => sc.merge(objects(129), {}), sc.LimitError, "E_LIMIT");
  throwsCode(() => sc.merge({}, objects(129)), sc.LimitError, "E_LIMIT");
  throwsCode(() => sc.mergeText("{}", JSON.stringify(objects(129))), sc.LimitError, "E_LIMIT");
  throwsCode(() => sc.serialize(objects(129)), sc.LimitError, "E_LIMIT");
  // far too deep for JSON.stringify itself: still a LimitError, never a crash
  let deep = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  throwsCode(() => sc.merge({ deep }, {}), sc.LimitError, "E_LIMIT");
});

test("a 10 MB string round-trips; a 17 MB string is E_LIMIT", () => {
  const ten = "é".repeat(5 * 1024 * 1024); // 10 MiB of UTF-8
  assert.equal(sc.merge({}, { s: ten }).s, ten);
  assert.equal(sc.parse(JSON.stringify({ s: ten })).s, ten);
  assert.equal(sc.serialize(ten), JSON.stringify(ten) + "\n");
  const big = "x".repeat(17 * 1024 * 1024);
  throwsCode(() => sc.merge({}, { s: big }), sc.LimitError, "E_LIMIT", "/s");
  throwsCode(() => sc.parse(JSON.stringify([big])), sc.LimitError, "E_LIMIT", "/0");
  throwsCode(() => sc.merge({ [big]: 1 }, {}), sc.LimitError, "E_LIMIT");
});

test("host values that are not JSON are DataError E_VALUE with their path", () => {
  const cycle = { a: { b: [] } };
  cycle.a.b.push(cycle);
  const cases = [
    [{ a: NaN }, "/a"],
    [{ a: [1, Infinity] }, "/a/1"],
    [{ a: { b: -Infinity } }, "/a/b"],
    [{ s: "ok", t: ["\ud800"] }, "/t/0"],
    [{ ["k\udc00"]: 1 }, "/k\udc00"],
    [{ f: () => 1 }, "/f"],
    [{ y: Symbol("s") }, "/y"],
    [{ u: [1, undefined] }, "/u/1"],
    [{ h: [1, , 2] }, "/h/1"], // eslint-disable-line no-sparse-arrays
    [Object.assign(Object.create(null), { z: [NaN] }), "/z/0"],
    [cycle, "/a/b/0"],
    [{ "a/b~c": NaN }, "/a~1b~0c"],
    [{ boxed: new Number(NaN) }, "/boxed"],
    [NaN, ""],
  ];
  for (const [value, path] of cases) {
    for (const call of [
      () => sc.merge(value, {}),
      () => sc.merge({}, value),
      () => sc.serialize(value),
      () => sc.validate("json", value),
      () => sc.logLine(value),
    ]) {
      const e = throwsCode(call, sc.DataError, "E_VALUE", path);
      assert.ok(typeof e.details.argument === "string");
    }
  }
  throwsCode(() => sc.serialize(undefined), sc.DataError, "E_VALUE", "");
  throwsCode(() => sc.merge({}, {}, { strategy: NaN }), sc.DataError, "E_VALUE", "/strategy");
  // a BigInt is an exact integer, written with all its digits (docs/api.md § Host values)
  assert.equal(sc.serialize({ n: 2n ** 70n + 1n, m: [-3n] }), '{\n  "n": 1180591620717411303425,\n  "m": [\n    -3\n  ]\n}\n');
  assert.equal(sc.serialize({ "\u0000statecore-bigint-00:1": "\u0000statecore-bigint-00:1" }), '{\n  "\\u0000statecore-bigint-00:1": "\\u0000statecore-bigint-00:1"\n}\n');
  // undefined object members are omitted, as in JSON; toJSON is honoured
  assert.deepEqual(sc.merge({ a: undefined, b: 1 }, {}), { b: 1 });
  assert.deepEqual(sc.merge({}, { at: new Date(0) }), { at: "1970-01-01T00:00:00.000Z" });
  // a toJSON that throws its own error is not rewritten
  assert.throws(() => sc.serialize({ toJSON() { throw new SyntaxError("mine"); } }), SyntaxError);
});

test("a BigInt's mark is drawn when the first BigInt is written: text like it passes as it is, before and after", () => {
  // A fresh process, so that no BigInt has been written yet when the look-alike text is.
  const script = `
    const sc = require(${JSON.stringify(fileURLToPath(new URL("../lib/node.cjs", import.meta.url)))});
    // The Date takes the checked path, where BigInts are put in place.
    const look = { "\\u0000statecore-bigint-00:1": "x statecore-bigint-7", at: new Date(0) };
    const before = sc.serialize(look);
    const big = sc.serialize({ n: 2n ** 64n });
    process.stdout.write(JSON.stringify([before, big, sc.serialize(look)]));`;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const [before, big, after] = JSON.parse(run.stdout);
  const expected = '{\n  "\\u0000statecore-bigint-00:1": "x statecore-bigint-7",\n  "at": "1970-01-01T00:00:00.000Z"\n}\n';
  assert.equal(before, expected);
  assert.equal(big, '{\n  "n": 18446744073709551616\n}\n');
  assert.equal(after, expected);
});

test("plain data and other host values cross alike (the replacer-free path and the checked one)", () => {
  // Plain objects, arrays and primitives are written without the checking replacer; anything
  // else (another prototype, a toJSON, a getter's object, more than 64 levels) takes it.
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const nullProto = Object.assign(Object.create(null), { a: { b: [1, "é", true, null] } });
  assert.deepEqual(sc.merge({}, nullProto), { a: { b: [1, "é", true, null] } });
  assert.deepEqual(sc.merge({}, { p: new Point() }), { p: { x: 1 } });
  assert.deepEqual(sc.merge({}, { g: { get v() { return 2; } } }), { g: { v: 2 } });
  let deep = { leaf: 1 };
  for (let i = 0; i < 100; i++) deep = { d: deep };
  assert.deepEqual(sc.merge({}, deep), deep);
  let deepNaN = { leaf: NaN };
  for (let i = 0; i < 100; i++) deepNaN = { d: deepNaN };
  throwsCode(() => sc.merge({}, deepNaN), sc.DataError, "E_VALUE", "/d".repeat(100) + "/leaf");
});

test("arguments of the wrong type are DataError E_VALUE", () => {
  throwsCode(() => sc.parse(42), sc.DataError, "E_VALUE");
  throwsCode(() => sc.parse("\ud800"), sc.DataError, "E_VALUE");
  throwsCode(() => sc.validate(1, {}), sc.DataError, "E_VALUE");
  throwsCode(() => sc.formatTimestamp("0"), sc.DataError, "E_VALUE");
  throwsCode(() => sc.formatTimestamp(1.5), sc.DataError, "E_VALUE");
  throwsCode(() => sc.formatTimestamp(NaN), sc.DataError, "E_VALUE");
  throwsCode(() => sc.checkIfMatch(5, null), sc.DataError, "E_VALUE");
});

test("bytes arguments: string, Uint8Array and Buffer are the same bytes", () => {
  const text = '{"é": [1, 2.50, 1e2]}';
  const want = sc.canonical(text);
  assert.equal(sc.canonical(new TextEncoder().encode(text)), want);
  assert.equal(sc.canonical(Buffer.from(text)), want);
  assert.equal(sc.etag(Buffer.from(text)), sc.etag(text));
  assert.match(sc.etag(text), /^[0-9a-f]{32}$/);
  // a BOM is skipped; invalid UTF-8 is a ParseError
  assert.equal(sc.canonical(new Uint8Array([0xef, 0xbb, 0xbf, 0x31])), "1\n");
  throwsCode(() => sc.parse(new Uint8Array([0x22, 0xff, 0x22])), sc.ParseError, "E_PARSE");
});

test("integers no double holds: parse refuses (E_PRECISION, path), the text API keeps them", () => {
  const text = '{"a": [1, 9007199254740993], "b": -12345678901234567890123}';
  throwsCode(() => sc.parse(text), sc.DataError, "E_PRECISION", "/a/1");
  throwsCode(() => sc.parse("1e400"), sc.DataError, "E_PRECISION", "");
  // the path points into the document, as from parse (not into the result around it)
  throwsCode(() => sc.loadDocument("json", text), sc.DataError, "E_PRECISION", "/a/1");
  throwsCode(() => sc.parseLog('{"n": 18446744073709551617}\n'), sc.DataError, "E_PRECISION", "/records/0/n");
  assert.equal(sc.parse("[9007199254740991, -9007199254740991]")[0], Number.MAX_SAFE_INTEGER);
  // integers a double holds exactly come back exactly, however large (docs/api.md)
  assert.deepEqual(sc.parse("[9007199254740992, 100000000000000000000]"), [2 ** 53, 1e20]);
  assert.deepEqual(sc.merge({ a: 1e20, b: 2 ** 60 }, {}), { a: 1e20, b: 2 ** 60 });
  const canonical = sc.canonical(text);
  assert.match(canonical, /9007199254740993/);
  assert.match(canonical, /-12345678901234567890123/);
  const merged = sc.mergeText(text, '{"c": 1e400, "d": 1.10}');
  assert.equal(
    merged, // exponents are written with a sign (docs/merge.md § Documents)
    '{\n  "a": [\n    1,\n    9007199254740993\n  ],\n  "b": -12345678901234567890123,\n  "c": 1e+400,\n  "d": 1.10\n}\n',
  );
});

test("errors are real Error objects with code, path, details", () => {
  const e = throwsCode(() => sc.parse('{"a": 1,\n "a": 2}'), sc.ParseError, "E_DUPLICATE_KEY", "/a");
  assert.equal(e.name, "ParseError");
  assert.ok(e.stack.includes("ParseError"));
  assert.equal(e.details.line, 2);
  const invalid = throwsCode(() => sc.prepareDocument("agency.runner_status", { nope: 1 }), sc.ValidationError, "E_INVALID");
  assert.equal(typeof invalid.details, "object");
  throwsCode(() => sc.validate("no.such.kind", {}), sc.UsageError, "E_KIND");
  throwsCode(() => sc.merge({}, {}, { strategy: "sideways" }), sc.UsageError, "E_OPTIONS", "/strategy");
  throwsCode(() => sc.merge([], {}), sc.MergeError, "E_MERGE");
  throwsCode(() => sc.parseTimestamp("yesterday"), sc.TimestampError, "E_TIMESTAMP");
  throwsCode(() => sc.checkIfMatch("a", "b"), sc.ConflictError, "E_CONFLICT");
  throwsCode(() => sc.parseLog('{}\nnot json\n{}\n'), sc.LogCorruptError, "E_LOG_CORRUPT");
  const def = { name: "m", initial: "a", states: [{ name: "a" }, { name: "b" }], transitions: [] };
  throwsCode(() => sc.machine.fire(def, "a", "go"), sc.TransitionError, "E_TRANSITION");
  throwsCode(() => sc.machine.check({ name: 1 }), sc.UsageError, "E_MACHINE");
});

test("errorFromRecord picks the class by name, then by code", () => {
  const rec = { name: "LockTimeoutError", code: "E_LOCK_TIMEOUT", path: "/x", message: "m", details: { ms: 5 } };
  const e = sc.errorFromRecord(rec);
  assert.ok(e instanceof sc.LockTimeoutError && e instanceof sc.StatecoreError);
  assert.deepEqual([e.name, e.code, e.path, e.message, e.details], ["LockTimeoutError", "E_LOCK_TIMEOUT", "/x", "m", { ms: 5 }]);
  assert.ok(sc.errorFromRecord({ code: "E_CONFLICT", message: "c" }) instanceof sc.ConflictError);
  assert.ok(sc.errorFromRecord({ name: "__proto__", code: "E_WHAT" }).constructor === sc.StatecoreError);
  const own = new sc.ValidationError("bad", { code: "E_INVALID", details: { valid: false } });
  assert.deepEqual([own.name, own.path, own.details.valid], ["ValidationError", "", false]);
});

test("many failures in a row leave the module working", () => {
  for (let i = 0; i < 200; i++) {
    assert.throws(() => sc.parse("{"), sc.ParseError);
    assert.throws(() => sc.merge({ a: NaN }, {}), sc.DataError);
    assert.throws(() => sc.parse(arrays(200)), sc.LimitError);
    assert.deepEqual(sc.parse(`{"i": ${i}}`), { i });
  }
});

test("loadDocument gives the core's document whether JS parses the bytes or the core sends it", () => {
  // The bytes' own JSON (JS parses them): a BOM, escapes, exact doubles, __proto__ as data.
  const own = sc.loadDocument("json", Buffer.from('\uFEFF{"s": "\\u00e9\\n", "n": [1e2, 0.1, -2.5E-3], "__proto__": {"p": 1}}'));
  assert.deepEqual(JSON.stringify(own.document), '{"s":"é\\n","n":[100,0.1,-0.0025],"__proto__":{"p":1}}');
  assertOwnProto(own.document, { p: 1 });
  assert.equal(own.corrupt, false);
  // A negative zero is read as zero (docs/api.md § Host values): the core sends its document.
  const zero = sc.loadDocument("json", '{"a": -0, "b": [-0.0, 1]}');
  assert.ok(Object.is(zero.document.a, 0) && Object.is(zero.document.b[0], 0));
  // Unparseable, refused or missing: the default document, sent by the core.
  assert.deepEqual(sc.loadDocument("json", '{"a": 1, "a": 2}').document, {});
  assert.deepEqual(sc.loadDocument("json", "{").document, {});
  assert.deepEqual(sc.loadDocument("json", null).document, {});
  // The same fields, in the same order, either way.
  assert.deepEqual(Object.keys(own), ["document", "etag", "corrupt", "valid", "errors", "warnings"]);
  assert.deepEqual(Object.keys(zero), Object.keys(own));
});

test("a result's document is parsed when first read, from what the call checked", () => {
  // A reader's bytes are decoded during the call: a buffer changed afterwards changes nothing.
  const bytes = Buffer.from('{"a": [1, 2], "s": "x"}');
  const loaded = sc.loadDocument("json", bytes);
  bytes.fill(0x20);
  assert.deepEqual(loaded.document, { a: [1, 2], s: "x" });
  assert.equal(loaded.document, loaded.document, "parsed once, then kept");
  // An update's document comes from its text; the text alone builds no objects.
  const updated = sc.applyUpdate("json", '{"a": 1}', { b: 2 }, null, null);
  assert.equal(updated.text, '{\n  "a": 1,\n  "b": 2\n}\n');
  assert.deepEqual(updated.document, { a: 1, b: 2 });
  updated.document.a = 5;
  assert.equal(updated.document.a, 5, "the same object every time");
  updated.document = { c: 3 };
  assert.deepEqual(updated.document, { c: 3 }, "assigning replaces it");
  // Enumerable, first, and materialized by JSON.stringify and spread.
  assert.deepEqual(Object.keys(updated), ["document", "text", "etag", "changed", "corrupt", "warnings"]);
  assert.equal(JSON.parse(JSON.stringify(loaded)).document.s, "x");
  assert.deepEqual({ ...loaded }.document, { a: [1, 2], s: "x" });
  // Where it waits is not part of the result: a copy holds the document and nothing else.
  assert.deepEqual(Object.getOwnPropertySymbols({ ...loaded }), []);
  assert.deepEqual(Object.keys({ ...updated }), Object.keys(updated));
  // Assigned before it was ever read: the assignment wins, the text is never parsed.
  const early = sc.loadDocument("json", '{"a": 1}');
  early.document = null;
  assert.equal(early.document, null);
  // Each result keeps its own document.
  const [one, two] = [sc.loadDocument("json", '{"n": 1}'), sc.loadDocument("json", '{"n": 2}')];
  assert.deepEqual([two.document.n, one.document.n], [2, 1]);
});
