// statecore-js in a browser app, bundled by esbuild 0.28, Vite 8, Vite 5 and webpack 5 as their
// users build one
// (issue 15): this project (package.json with the bundlers, index.html, src/, build.mjs) copied
// into a temporary directory, its bundlers installed there (`npm ci`) with the packed tarball,
// a page built by each with its defaults for the browser (build.mjs), served, and opened in
// headless Chromium, where it loads the wasm and validates a document. Fails on a page error,
// a failed request (the wasm's 404), or a wrong result. Run by `make test-browser`; nothing is
// installed in the repository.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../helpers/chromium.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const NPM = join(HERE, "..", "..");
/** The bundlers build.mjs knows, in the order they are run. */
const BUNDLERS = ["esbuild", "vite", "vite5", "vite5-tla-es2022", "webpack"];
/** Builds that must fail, with the words of their error: the reason npm/README.md § Bundlers
 * shows `init().then(...)` (a Vite 5 that accepted it would make the note stale). */
const REFUSED = {
  "vite5-tla-default": "Top-level await is not available in the configured target environment",
};
/** The package under test (its tarball is `NAME-VERSION.tgz`). */
const PACKAGE = JSON.parse(readFileSync(join(NPM, "package.json"), "utf8"));
/** The sizes of the combined module and of the fctry's (the packed files are these). */
const MODULE_SIZE = Object.fromEntries(
  ["web", "web-fctry"].map((dir) => [dir, statSync(join(NPM, "dist", dir, "statecore_bg.wasm")).size]),
);
/** What the project's copy holds. */
const PROJECT = ["package.json", "package-lock.json", "index.html", "tla.html", "build.mjs", "src"];
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css",
};

/** Runs `command` in `cwd`, its output shown only when it fails. */
function quiet(command, args, cwd) {
  try {
    execFileSync(command, args, { cwd, stdio: "pipe" });
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")}: ${error.stderr ?? ""}${error.stdout ?? ""}`);
  }
}

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

/** The project copied into `work/app`, its bundlers installed and statecore from the packed
 * tarball, as a user's app would have them; returns the app's directory. */
function setUp(work) {
  const app = join(work, "app");
  mkdirSync(app);
  for (const name of PROJECT) cpSync(join(HERE, name), join(app, name), { recursive: true });
  quiet("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], app);
  quiet("npm", ["pack", "--silent", "--pack-destination", work], NPM);
  const tarball = join(work, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
  quiet("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], app);
  return app;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "statecore-bundlers-"));
  const userDataDir = mkdtempSync(join(tmpdir(), "statecore-chromium-"));
  const failures = [];
  let context = null;
  try {
    const app = setUp(work);
    context = await launchChromium(userDataDir);
    for (const name of BUNDLERS) {
      const out = join(work, name);
      let server = null;
      try {
        quiet(process.execPath, ["build.mjs", name, out], app);
        server = await serve(out);
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e}`));
        page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
        // the wasm modules fetched, by size: the pages of src/root.mjs load the fctry's only
        const fetched = [];
        page.on("response", async (r) => {
          if (new URL(r.url()).pathname.endsWith(".wasm")) fetched.push(r.body().then((b) => b.length, () => -1));
        });
        await page.goto(server.url);
        await page
          .waitForSelector("body[data-result]", { state: "attached", timeout: 60_000 })
          .catch((error) => {
            throw new Error(`${error.message.split("\n")[0]}${problems.length ? `; ${problems.join("; ")}` : ""}`);
          });
        const result = JSON.parse(await page.locator("body").getAttribute("data-result"));
        await page.close();
        // Every error class keeps its name in the minified bundle, and the minifier did rename
        // the classes (else the bundle would prove nothing); an error the wasm raises is of
        // its class.
        const want = {
          good: true,
          bad: false,
          code: "E_TYPE",
          classes: result.classes >= 16 ? result.classes : ">= 16",
          wrongNames: [],
          renamed: true,
          thrown: { name: "ParseError", isParseError: true, code: "E_PARSE" },
        };
        const module = ["vite", "vite5", "webpack"].includes(name) ? "web-fctry" : "web";
        const sizes = await Promise.all(fetched);
        if (JSON.stringify(sizes) !== JSON.stringify([MODULE_SIZE[module]])) {
          problems.push(`fetched wasm of ${JSON.stringify(sizes)} bytes, want the ${module} module's ${MODULE_SIZE[module]} only`);
        }
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
    for (const [name, words] of Object.entries(REFUSED)) {
      try {
        quiet(process.execPath, ["build.mjs", name, join(work, name)], app);
        failures.push(`${name}: built, but the docs say it is refused (${words})`);
      } catch (error) {
        if (String(error.message).includes(words)) console.log(`bundlers: ${name} refused, as the docs say`);
        else failures.push(`${name}: ${error.message}`);
      }
    }
  } finally {
    await context?.close();
    rmSync(userDataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  for (const failure of failures) console.error(`FAIL ${failure}`);
  const total = BUNDLERS.length + Object.keys(REFUSED).length;
  console.log(`bundlers: ${total - failures.length} passed, ${failures.length} failed`);
  process.exit(failures.length ? 1 : 0);
}

await main();
