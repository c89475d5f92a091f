// Runs in headless Chromium (see run.mjs): the browser entry "statecore-js/web" over the same
// conformance corpus, JSONTestSuite and RFC 7396 files as the Node tests, fetched over HTTP,
// on the combined module (`init()`), or the corpus on one protocol's module only
// (`load(protocol)`: its protocol's cases and the generic ones; another protocol's must be
// refused naming it). The corpus cases of operations the browser's modules have not got are
// skipped by the rule of checkWebCase (the table's `web` flags and `protocol`), and counted.
import init, * as sc from "../../lib/generated/web.mjs";
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

  const expectError = (name, call, check) => {
    try {
      call();
      record(name, "did not throw");
    } catch (e) {
      record(name, check(e) ? null : `${e?.name} ${e?.code}: ${e?.message}`);
    }
  };
  const { protocol = null } = manifest;
  // before init(): E_NOT_INITIALIZED (naming the module a protocol's call needs)
  expectError("parse before init", () => sc.parse("{}"), (e) => e instanceof sc.StatecoreError && e.code === "E_NOT_INITIALIZED");
  if (protocol === null) {
    await init(); // default: fetches statecore_bg.wasm next to the glue
  } else {
    const other = sc.PROTOCOLS.find((p) => p !== protocol);
    // an operation of protocol `p` that needs no argument
    const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    const first = (p) => {
      const op = manifest.table.ops.find((o) => o.protocol === p && o.web && o.params.every((q) => q.optional));
      return sc[op.module][camel(op.method)];
    };
    expectError(
      `${protocol} before load`,
      () => first(protocol)(),
      (e) => e.code === "E_NOT_INITIALIZED" && e.details.protocol === protocol && e.message.includes(`load("${protocol}")`),
    );
    let misspelt = null;
    await sc.load(`${protocol}x`).catch((e) => (misspelt = e));
    record("a misspelt protocol", misspelt instanceof sc.UsageError && misspelt.code === "E_ARGUMENT" ? null : String(misspelt));
    await Promise.all([sc.load(protocol), init({ protocols: [protocol] })]); // one load
    record("loaded", JSON.stringify(sc.loaded()) === JSON.stringify([protocol]) ? null : JSON.stringify(sc.loaded()));
    expectError(
      `${other} in the ${protocol} module`,
      () => first(other)(),
      (e) => e instanceof sc.UsageError && e.code === "E_UNAVAILABLE" && e.details.protocol === other && e.message.includes(`load("${other}")`),
    );
  }
  record("init", sc.serialize({ a: [1] }) === '{\n  "a": [\n    1\n  ]\n}\n' ? null : "serialize after init");

  useTable(sc, manifest.table);
  for (const url of manifest.corpus) {
    const suite = await (await fetchOk(url)).json();
    for (const c of suite.cases ?? []) {
      const outcome = checkWebCase(sc, c, protocol);
      if (outcome.skipped) skipped[outcome.skipped] = (skipped[outcome.skipped] ?? 0) + 1;
      else record(`${url}: ${c.name}`, outcome.failure);
    }
  }
  if (protocol !== null) return { passed, failed: failures.length, failures: failures.slice(0, 50), skipped };

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
