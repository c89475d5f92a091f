// Headless-Chromium run of the browser entry: `cd npm && node test/browser/run.mjs`.
// Serves npm/ and tests/ read-only on 127.0.0.1 (random port), opens test/browser/index.html in
// Debian's chromium through playwright-core, runs page.mjs (the shared corpus runner over the
// conformance corpus, JSONTestSuite and RFC 7396) on the combined module, then the corpus on
// each protocol's module alone (a fresh page each: the page must fetch that module's glue and
// wasm and nothing else of the package), prints `browser (<module>): N passed, M failed, K
// skipped` per page and the totals (each reason for a skip with its count: the corpus cases of
// operations the browser's modules have not got, by the table's `web` flags, and another
// protocol's cases on a protocol's module) and exits non-zero on any failure, on N = 0, on
// K = 0 (the rule must be seen to apply), or after 300 s.
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../helpers/chromium.mjs";
import { corpusFiles, jsonTestSuite, I_OUTCOMES, RFC7396 } from "../files.mjs";
import { SKIP_REASONS } from "../corpus-runner.mjs";
import { PROTOCOLS } from "../../lib/generated/generated.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url)); // the repository
const SERVED = ["npm", "tests"].map((d) => join(ROOT, d) + sep);
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};
const TIMEOUT_MS = 300_000;

/** GET/HEAD of files under npm/ and tests/ only (no node_modules, no traversal). */
function handle(req, res) {
  const path = resolve(ROOT, "." + decodeURIComponent(new URL(req.url, "http://x").pathname));
  const allowed =
    (req.method === "GET" || req.method === "HEAD") &&
    SERVED.some((dir) => path.startsWith(dir)) &&
    !path.includes(`${sep}node_modules${sep}`);
  let body;
  try {
    if (!allowed || !statSync(path).isFile()) throw new Error("not served");
    body = readFileSync(path);
  } catch {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    "content-type": TYPES[extname(path)] ?? "application/octet-stream",
    "cache-control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

async function main() {
  const server = createServer(handle);
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const userDataDir = mkdtempSync(join(tmpdir(), "statecore-chromium-"));
  let context;
  const timer = setTimeout(async () => {
    console.error(`browser: timed out after ${TIMEOUT_MS / 1000} s`);
    console.log("browser: 0 passed, 1 failed");
    await Promise.race([context?.close(), new Promise((ok) => setTimeout(ok, 5_000))]).catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
    process.exit(1);
  }, TIMEOUT_MS);
  try {
    context = await launchChromium(userDataDir);
    const manifest = {
      corpus: corpusFiles().map((f) => `${base}/tests/${f}`),
      jsonTestSuiteDir: `${base}/tests/vectors/JSONTestSuite/test_parsing`,
      jsonTestSuite: jsonTestSuite().map((f) => f.name),
      iOutcomes: `${base}/tests/${I_OUTCOMES}`,
      rfc7396: `${base}/tests/${RFC7396}`,
      table: JSON.parse(readFileSync(join(ROOT, "docs/manifest.json"), "utf8")),
    };
    const total = { passed: 0, failed: 0, skipped: 0 };
    let ok = true;
    // The combined module (init()), then each protocol's alone (load(protocol)), a fresh page each.
    for (const protocol of [null, ...PROTOCOLS]) {
      const name = protocol === null ? "combined module" : `${protocol} module`;
      const page = await context.newPage();
      const pageErrors = [];
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") pageErrors.push(`console.${m.type()}: ${m.text()}`);
      });
      // what the page fetched of the package's modules (lazy loading: only what was asked)
      const fetched = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith("/npm/dist/")) fetched.push(path);
      });
      await page.goto(`${base}/npm/test/browser/index.html`);
      const result = await page.evaluate(
        async (m) => {
          const { runAll } = await import("/npm/test/browser/page.mjs");
          return runAll(m);
        },
        { ...manifest, protocol },
      );
      await page.close();
      const dir = protocol === null ? "web" : `web-${protocol}`;
      const expected = [`/npm/dist/${dir}/statecore.js`, `/npm/dist/${dir}/statecore_bg.wasm`];
      if (JSON.stringify([...new Set(fetched)].sort()) !== JSON.stringify(expected)) {
        result.failures.push(`the ${name}'s page fetched ${JSON.stringify(fetched)}, expected ${JSON.stringify(expected)}`);
        result.failed += 1;
      }
      for (const f of result.failures) console.error(`FAIL (${name}) ${f}`);
      for (const e of pageErrors) console.error(`page (${name}): ${e}`);
      const skipped = Object.values(result.skipped).reduce((a, b) => a + b, 0);
      for (const [reason, count] of Object.entries(result.skipped)) {
        console.log(`browser (${name}): skipped ${count} corpus cases: ${SKIP_REASONS[reason] ?? reason}`);
      }
      console.log(`browser (${name}): ${result.passed} passed, ${result.failed} failed, ${skipped} skipped`);
      total.passed += result.passed;
      total.failed += result.failed;
      total.skipped += skipped;
      ok &&= result.failed === 0 && result.passed > 0 && skipped > 0 && pageErrors.length === 0;
    }
    console.log(`browser: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    return ok ? 0 : 1;
  } finally {
    clearTimeout(timer);
    await context?.close().catch(() => {});
    server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    console.log("browser: 0 passed, 1 failed");
    process.exit(1);
  },
);
