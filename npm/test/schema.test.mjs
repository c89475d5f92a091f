// The JSON Schemas (`schema(kind)`, also shipped as `statecore-js/schemas/<kind>.json`) checked by
// an independent validator: ajv 2020 in its default strict mode with ajv-formats, so
// `format: "date-time"` is asserted. Every document of the corpus (tests/README.md, "Schemas")
// is schema-valid exactly when `validate` reports no structural error: the codes of a field's
// presence, type, enum values and timestamp format (cross-field rules are `validate`'s alone).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { kinds, manifest, schema, validate } from "statecore-js";
import { corpusFiles, readJson } from "./files.mjs";

/** The structural codes: what a schema states. */
const STRUCTURAL = new Set([
  "E_TYPE",
  "E_ENUM",
  "E_REQUIRED",
  "E_TIMESTAMP_FORMAT",
  "E_STATUS_MISSING",
  "E_STATUS_UNKNOWN",
  "E_SUMMARY_MISSING",
]);

/** A fresh ajv as a user would make one: default (strict) options, formats asserted. */
function strictAjv(options = {}) {
  const ajv = new Ajv2020(options);
  addFormats(ajv);
  return ajv;
}

/** The kind of the document each operation takes first (from the table's file access). */
const firstKind = new Map(
  manifest()
    .ops.map((op) => {
      const access = op.access;
      if (access?.writes?.takes_document) return [op.name, access.writes.kind];
      if (access?.reads && !access.reads.bytes) return [op.name, access.reads.kind];
      return null;
    })
    .filter(Boolean),
);

/** `[{where, kind, doc}]`: the documents of `validate` cases and the documents operations take. */
function corpusDocuments() {
  const out = [];
  for (const file of corpusFiles()) {
    for (const c of readJson(file).cases ?? []) {
      const where = `${file}: ${c.name}`;
      if (c.op === "validate") out.push({ where, kind: c.args[0], doc: c.args[1] });
      const kind = firstKind.get(c.op);
      if (kind && c.args.length > 0 && c.args[0] !== null) out.push({ where, kind, doc: c.args[0] });
    }
  }
  return out.filter(({ kind }) => kinds().some((k) => k.name === kind));
}

test("every kind has a schema with an $id, and the shipped files are the same schemas", () => {
  const require = createRequire(import.meta.url);
  for (const { name } of kinds()) {
    const s = schema(name);
    assert.equal(s.$schema, "https://json-schema.org/draft/2020-12/schema", name);
    assert.match(s.$id, new RegExp(`/schemas/${name.replace(".", "\\.")}\\.json$`), name);
    const shipped = require.resolve(`statecore-js/schemas/${name}.json`);
    assert.deepEqual(JSON.parse(readFileSync(shipped, "utf8")), s, name);
  }
});

test("every schema compiles under default strict ajv 2020 with ajv-formats, logging nothing", () => {
  const logged = [];
  const ajv = strictAjv({ logger: { log: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) } });
  for (const { name } of kinds()) {
    assert.ok(ajv.validateSchema(schema(name)), `${name}: ${ajv.errorsText()}`);
    ajv.compile(schema(name));
  }
  assert.deepEqual(logged, []);
});

test("a document with a $schema key is valid for its schema and for validate", () => {
  const ajv = strictAjv();
  const docs = {
    json: { $schema: "x", a: 1 },
    "fctry.state": { $schema: "https://unpkg.com/statecore/schemas/fctry.state.json", specVersion: "1.0" },
    "hivemind.state": { $schema: "x", state: "idle" },
    "agency.runner_status": { $schema: "x", status: "working", summary: "Starting" },
  };
  for (const [kind, doc] of Object.entries(docs)) {
    assert.equal(ajv.validate(schema(kind), doc), true, `${kind}: ${ajv.errorsText()}`);
    const report = validate(kind, doc);
    assert.deepEqual([report.errors, report.warnings], [[], []], kind);
  }
});

test("ajv agrees with validate on the structure of every corpus document", () => {
  const ajv = strictAjv({ allErrors: true });
  const compiled = new Map(kinds().map(({ name }) => [name, ajv.compile(schema(name))]));
  const counts = { valid: 0, invalid: 0 };
  const disagreements = [];
  const documents = corpusDocuments();
  for (const { where, kind, doc } of documents) {
    const check = compiled.get(kind);
    const schemaValid = check(doc);
    const structural = validate(kind, doc).errors.filter((e) => STRUCTURAL.has(e.code));
    counts[schemaValid ? "valid" : "invalid"]++;
    if (schemaValid !== (structural.length === 0))
      disagreements.push(`${where} (${kind}): ajv ${schemaValid ? "valid" : ajv.errorsText(check.errors)}; validate ${JSON.stringify(structural)}`);
  }
  assert.deepEqual(disagreements, []);
  // Both outcomes are exercised, for every kind, so the agreement is not vacuous.
  assert.ok(counts.valid >= 50 && counts.invalid >= 20, JSON.stringify(counts));
  for (const { name } of kinds()) {
    assert.ok(documents.some((d) => d.kind === name), `no corpus document of ${name}`);
  }
});
