// statecore in a browser app, bundled by esbuild, Vite and webpack as their users build one
// (issue 15): the packed tarball installed into this project, a small page per bundler
// (src/), each built with the bundler's defaults for the browser, served, and opened in
// headless Chromium, where it loads the wasm and validates a document. Fails on a page error,
// a failed request (the wasm's 404), or a wrong result. Run by `make test-browser`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const NPM = join(HERE, "..", "..");
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css",
};
const PAGE = (script) =>
  `<!doctype html>\n<html><head><meta charset="utf-8" /></head><body><script type="module" src="./${script}"></script></body></html>\n`;

/** The bundlers: each builds its page into `out` with its defaults for the browser. */
const BUILDS = {
  async esbuild(out) {
    const esbuild = await import("esbuild");
    await esbuild.build({
      entryPoints: [join(HERE, "src", "esbuild.mjs")],
      bundle: true,
      format: "esm",
      platform: "browser",
      outdir: out,
      entryNames: "main",
      loader: { ".wasm": "file" },
      logLevel: "silent",
    });
    writeFileSync(join(out, "index.html"), PAGE("main.js"));
  },
  async vite(out) {
    const { build } = await import("vite");
    await build({ root: HERE, logLevel: "silent", build: { outDir: out, emptyOutDir: true } });
  },
  async webpack(out) {
    const webpack = (await import("webpack")).default;
    const stats = await new Promise((resolve, reject) =>
      webpack(
        {
          mode: "production",
          target: "web",
          entry: join(HERE, "src", "root.mjs"),
          output: { path: out, filename: "main.js", publicPath: "auto" },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    if (stats.hasErrors()) throw new Error(stats.toString("errors-only"));
    writeFileSync(join(out, "index.html"), PAGE("main.js"));
  },
};

/** Serves `root` on a free port of 127.0.0.1. */
async function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/** Installs the packed tarball into this project, as a user's app would. */
function installPacked(work) {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: NPM, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(work, "statecore-0.1.0.tgz");
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], {
    cwd: HERE,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "statecore-bundlers-"));
  const userDataDir = mkdtempSync(join(tmpdir(), "statecore-chromium-"));
  const failures = [];
  let context = null;
  try {
    installPacked(work);
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      timeout: 60_000,
    });
    for (const [name, build] of Object.entries(BUILDS)) {
      const out = join(work, name);
      let server = null;
      try {
        await build(out);
        server = await serve(out);
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e}`));
        page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
        await page.goto(server.url);
        await page.waitForSelector("body[data-result]", { state: "attached", timeout: 20_000 });
        const result = JSON.parse(await page.locator("body").getAttribute("data-result"));
        await page.close();
        const want = { good: true, bad: false, code: "E_TYPE" };
        if (problems.length || JSON.stringify(result) !== JSON.stringify(want)) {
          throw new Error(`${JSON.stringify(result)}${problems.length ? `; ${problems.join("; ")}` : ""}`);
        }
        console.log(`bundlers: ${name} ok`);
      } catch (error) {
        failures.push(`${name}: ${error?.stack ?? error}`);
      } finally {
        server?.close();
      }
    }
  } finally {
    await context?.close();
    rmSync(userDataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  for (const failure of failures) console.error(`FAIL ${failure}`);
  console.log(`bundlers: ${Object.keys(BUILDS).length - failures.length} passed, ${failures.length} failed`);
  process.exit(failures.length ? 1 : 0);
}

await main();
