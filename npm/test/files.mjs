// Node-side loaders of the shared test files in ../../tests (the browser run fetches the
// same files over HTTP; see browser/run.mjs).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

/** The repository's tests/ folder. */
export const TESTS_DIR = fileURLToPath(new URL("../../tests/", import.meta.url));

/** Every `tests/conformance/**\/*.json`, sorted, as paths relative to tests/. */
export function corpusFiles() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json")) out.push(relative(TESTS_DIR, path));
    }
  };
  walk(join(TESTS_DIR, "conformance"));
  return out;
}

/** A JSON file under tests/ (case files hold no numbers beyond a JS number's precision). */
export function readJson(rel) {
  return JSON.parse(readFileSync(join(TESTS_DIR, rel), "utf8"));
}

/** The JSONTestSuite parsing vectors: `[{name, data: Uint8Array}]`, sorted. */
export function jsonTestSuite() {
  const dir = join(TESTS_DIR, "vectors/JSONTestSuite/test_parsing");
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, data: new Uint8Array(readFileSync(join(dir, name))) }));
}

/** `{file: outcome}` pinned by the Rust core for i_ files (and duplicate-key y_ files). */
export const I_OUTCOMES = "vectors/JSONTestSuite/i_outcomes.json";
/** RFC 7396 Appendix A vectors. */
export const RFC7396 = "vectors/rfc7396/rfc7396_tests.json";
