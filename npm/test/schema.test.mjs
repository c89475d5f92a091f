// The exported JSON Schemas (`schema(kind)`) checked by an independent validator, ajv (draft
// 2020-12): every document of the corpus (tests/README.md, "Schemas") is schema-valid exactly
// when `validate` reports no structural error (E_TYPE, E_ENUM, E_REQUIRED). Timestamps are
// `format: date-time`, an annotation here (RFC 3339 is checked by `validate`), so format
// assertion is off.
import { test } from "node:test";
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020.js";
import { kinds, schema, validate } from "statecore";
import { corpusFiles, readJson } from "./files.mjs";

const STRUCTURAL = new Set(["E_TYPE", "E_ENUM", "E_REQUIRED"]);

/** The kind of the document an op takes first, for the fctry operations on documents. */
function kindOfFirstArgument(op) {
  if (/^fctry_inbox_(add|transition|dismiss|batch)$/.test(op)) return "fctry.inbox";
  if (/^hivemind_(fire|follow_up|on_file)$/.test(op)) return "hivemind.state";
  if (/^fctry_(inbox_machine|chunk_machine|run_machine|render_status_line|status_line_text|activity_feed)$/.test(op))
    return null;
  return op.startsWith("fctry_") ? "fctry.state" : null;
}

/** `[{where, kind, doc}]`: the documents of `validate` cases and the fctry operations' inputs. */
function corpusDocuments(withSchema) {
  const out = [];
  for (const file of corpusFiles()) {
    for (const c of readJson(file).cases ?? []) {
      const where = `${file}: ${c.name}`;
      if (c.op === "validate" && withSchema.has(c.args[0])) out.push({ where, kind: c.args[0], doc: c.args[1] });
      const kind = kindOfFirstArgument(c.op);
      if (kind && c.args.length > 0 && c.args[0] !== null) out.push({ where, kind, doc: c.args[0] });
    }
  }
  return out;
}

const withSchema = new Set(
  kinds()
    .map((k) => k.name)
    .filter((name) => {
      try {
        schema(name);
        return true;
      } catch (e) {
        if (e.code !== "E_KIND") throw e;
        return false;
      }
    }),
);

test("every kind but agency.runner_status has a schema", () => {
  assert.deepEqual([...withSchema].sort(), ["fctry.event", "fctry.inbox", "fctry.state", "hivemind.state", "json"]);
});

test("the schemas are valid draft 2020-12 schemas", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const name of withSchema) assert.ok(ajv.validateSchema(schema(name)), `${name}: ${ajv.errorsText()}`);
});

test("ajv agrees with validate on the structure of every corpus document", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const compiled = new Map([...withSchema].map((name) => [name, ajv.compile(schema(name))]));
  const documents = corpusDocuments(withSchema);
  const counts = { valid: 0, invalid: 0 };
  const disagreements = [];
  for (const { where, kind, doc } of documents) {
    const check = compiled.get(kind);
    const schemaValid = check(doc);
    const structural = validate(kind, doc).errors.filter((e) => STRUCTURAL.has(e.code));
    counts[schemaValid ? "valid" : "invalid"]++;
    if (schemaValid !== (structural.length === 0))
      disagreements.push(`${where} (${kind}): ajv ${schemaValid ? "valid" : ajv.errorsText(check.errors)}; validate ${JSON.stringify(structural)}`);
  }
  assert.deepEqual(disagreements, []);
  // Both outcomes are exercised, so the agreement is not vacuous.
  assert.ok(counts.valid >= 50 && counts.invalid >= 20, JSON.stringify(counts));
});
