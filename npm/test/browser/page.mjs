// Runs in headless Chromium (see run.mjs): the browser entry "statecore-js/web" over the same
// conformance corpus, JSONTestSuite and RFC 7396 files as the Node tests, fetched over HTTP.
// The corpus cases of operations the browser's module has not got are skipped by the rule of
// checkWebCase (the table's `web` flags), and counted.
import init, * as sc from "../../lib/web.mjs";
import { checkJsonTestSuiteFile, checkRfc7396Case, checkWebCase, useTable } from "../corpus-runner.mjs";

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response;
}

/**
 * @param {{corpus: string[], jsonTestSuiteDir: string, jsonTestSuite: string[], iOutcomes: string, rfc7396: string, table: object}} manifest
 *   URLs (corpus files, JSONTestSuite folder + names, the pin file, the RFC 7396 vectors) and
 *   the operation table as data (docs/manifest.json: the browser's module has no `manifest()`)
 * @returns {Promise<{passed: number, failed: number, failures: string[], skipped: {[reason: string]: number}}>}
 */
export async function runAll(manifest) {
  let passed = 0;
  const failures = [];
  const skipped = {};
  const record = (name, failure) => {
    if (failure === null) passed++;
    else failures.push(`${name}: ${failure}`);
  };

  // before init(): E_NOT_INITIALIZED
  try {
    sc.parse("{}");
    record("parse before init", "did not throw");
  } catch (e) {
    record("parse before init", e instanceof sc.StatecoreError && e.code === "E_NOT_INITIALIZED" ? null : String(e));
  }
  await init(); // default: fetches statecore_bg.wasm next to the glue
  record("init", sc.serialize({ a: [1] }) === '{\n  "a": [\n    1\n  ]\n}\n' ? null : "serialize after init");

  useTable(sc, manifest.table);
  for (const url of manifest.corpus) {
    const suite = await (await fetchOk(url)).json();
    for (const c of suite.cases ?? []) {
      const outcome = checkWebCase(sc, c);
      if (outcome.skipped) skipped[outcome.skipped] = (skipped[outcome.skipped] ?? 0) + 1;
      else record(`${url}: ${c.name}`, outcome.failure);
    }
  }

  const pinned = await (await fetchOk(manifest.iOutcomes)).json();
  for (const name of manifest.jsonTestSuite) {
    const data = new Uint8Array(await (await fetchOk(`${manifest.jsonTestSuiteDir}/${encodeURIComponent(name)}`)).arrayBuffer());
    record(name, checkJsonTestSuiteFile(sc, name, data, pinned));
  }

  for (const c of await (await fetchOk(manifest.rfc7396)).json()) {
    record(`rfc7396: ${c.comment}`, checkRfc7396Case(sc, c));
  }

  // prototype safety in this engine too
  const doc = sc.parse('{"__proto__": {"polluted": 1}}');
  record(
    "__proto__ stays data",
    Object.hasOwn(doc, "__proto__") && Object.getPrototypeOf(doc) === Object.prototype && {}.polluted === undefined
      ? null
      : "prototype changed",
  );
  return { passed, failed: failures.length, failures: failures.slice(0, 50), skipped };
}
