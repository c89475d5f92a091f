// Builds one page with one bundler, with its defaults for the browser (a minified production
// build): `node build.mjs NAME OUT`, run by run.mjs inside a copy of this project where
// statecore-js is the packed tarball. `vite` is Vite 8, `vite5` Vite 5 (the npm alias
// `vite5` in package.json).
import { renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const PAGE = (script) =>
  `<!doctype html>\n<html><head><meta charset="utf-8" /></head><body><script type="module" src="./${script}"></script></body></html>\n`;

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
      minify: true,
      logLevel: "silent",
    });
    writeFileSync(join(out, "index.html"), PAGE("main.js"));
  },
  async vite(out) {
    const { build } = await import("vite");
    await build({ root: HERE, logLevel: "silent", build: { outDir: out, emptyOutDir: true } });
  },
  async vite5(out) {
    const { build } = await import("vite5");
    await build({ root: HERE, logLevel: "silent", build: { outDir: out, emptyOutDir: true } });
  },
  // The top-level `await init()` page (tla.html) by Vite 5: with its default target, which
  // refuses it, and with the target the docs give for that form.
  async "vite5-tla-default"(out) {
    await viteTla(out, {});
  },
  async "vite5-tla-es2022"(out) {
    await viteTla(out, { target: "es2022" });
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

/** Builds tla.html with Vite 5 and `options` added to `build`, as the page's index.html. */
async function viteTla(out, options) {
  const { build } = await import("vite5");
  await build({
    root: HERE,
    logLevel: "silent",
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(HERE, "tla.html") }, ...options },
  });
  renameSync(join(out, "tla.html"), join(out, "index.html"));
}

const [name, out] = process.argv.slice(2);
if (!BUILDS[name] || !out) {
  console.error(`usage: node build.mjs ${Object.keys(BUILDS).join("|")} OUT`);
  process.exit(2);
}
await BUILDS[name](out);
