// What the READMEs and docs say about the packages, checked against the build (issue 15): the
// sizes they quote (each marked `<!-- size: FILE -->` or `<!-- size: FILE gzip -->` after the
// number, FILE under npm/), within 10 %; the runtime dependencies they name, against
// package.json and pyproject.toml; the licence, the same text in the repository and in both
// packages. A size of a module or package that is not marked fails: it would go stale.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const NPM = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = join(NPM, "..");
/** The documents that describe the current packages (measurement records are dated). */
const DOCS = [
  "README.md",
  "npm/README.md",
  "python/README.md",
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md") && !["performance.md", "fuzzing.md"].includes(name))
    .map((name) => `docs/${name}`),
];
const SIZE = /(\d+(?:\.\d+)?) (KB|MB)(?: gzipped)?<!-- size: (\S+?)( gzip)? -->/g;
const read = (file) => readFileSync(join(REPO, file), "utf8");

test("every size the docs quote is the build's, within 10 %", () => {
  let count = 0;
  for (const doc of DOCS) {
    for (const [claim, number, unit, file, gzip] of read(doc).matchAll(SIZE)) {
      const bytes = readFileSync(join(NPM, file));
      const actual = gzip ? gzipSync(bytes, { level: 9 }).length : bytes.length;
      const said = Number(number) * (unit === "MB" ? 1e6 : 1e3);
      const off = Math.abs(said - actual) / actual;
      assert.ok(off <= 0.1, `${doc}: "${claim}" but ${file}${gzip ? " gzipped" : ""} is ${actual} bytes`);
      count += 1;
    }
  }
  assert.ok(count >= 4, `only ${count} size claims found`);
});

test("no size of a module or package goes unmarked", () => {
  const unmarked = [];
  for (const doc of DOCS) {
    read(doc)
      .split("\n")
      .forEach((line, i) => {
        const sizes = line.replace(SIZE, "").match(/\b\d+(?:\.\d+)? ?(KB|MB)\b/g);
        if (sizes && /wasm|module|tarball|wheel|package/i.test(line)) unmarked.push(`${doc}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(unmarked, [], "mark each with <!-- size: FILE --> (see this test)");
});

test("the runtime dependencies the READMEs name are the packages' own", () => {
  const deps = Object.keys(JSON.parse(read("npm/package.json")).dependencies ?? {});
  const line = read("npm/README.md")
    .split("\n\n")
    .find((p) => /runtime dependenc/i.test(p));
  assert.ok(line, "npm/README.md says nothing of its runtime dependencies");
  if (deps.length === 0) assert.match(line, /No runtime dependencies/);
  else {
    assert.doesNotMatch(line, /No runtime dependencies/);
    for (const dep of deps) assert.match(line, new RegExp(`\\b${dep}\\b`), `npm/README.md does not name ${dep}`);
    const words = ["One", "Two", "Three"];
    assert.match(line, new RegExp(`${words[deps.length - 1]} runtime dependenc`), `npm/README.md miscounts ${deps.join(", ")}`);
  }
  const project = read("python/pyproject.toml").split(/^\[/m).find((s) => s.startsWith("project]"));
  const pyDeps = /^dependencies\s*=\s*\[([^\]]*)\]/m.exec(project)?.[1].trim() ?? "";
  if (pyDeps === "") assert.match(read("python/README.md"), /no dependencies/);
  else assert.doesNotMatch(read("python/README.md"), /no dependencies/);
});

test("the licence: MIT, the same text in the repository and in both packages", () => {
  const text = read("LICENSE");
  assert.match(text, /^MIT License\n/);
  assert.equal(read("npm/LICENSE"), text, "npm/LICENSE");
  assert.equal(read("python/LICENSE"), text, "python/LICENSE");
  assert.equal(JSON.parse(read("npm/package.json")).license, "MIT");
  assert.match(read("python/pyproject.toml"), /^license = "MIT"$/m);
  assert.ok(statSync(join(REPO, "Cargo.toml")).isFile());
  assert.match(read("Cargo.toml"), /^license = "MIT"$/m);
});

/** The features a wasm module was compiled with: its `target_features` section's `+` entries. */
function targetFeatures(file) {
  const module = new WebAssembly.Module(readFileSync(join(NPM, file)));
  const [section] = WebAssembly.Module.customSections(module, "target_features");
  assert.ok(section, `${file} has no target_features section`);
  const bytes = new Uint8Array(section);
  const leb = (at) => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at.i++];
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  const at = { i: 0 };
  const features = [];
  for (let count = leb(at); count > 0; count -= 1) {
    const prefix = String.fromCharCode(bytes[at.i++]);
    const length = leb(at);
    const name = new TextDecoder().decode(bytes.subarray(at.i, at.i + length));
    at.i += length;
    if (prefix === "+") features.push(name);
  }
  return features;
}

test("the engine floor the READMEs state is the build's: every module uses wasm SIMD", () => {
  for (const file of ["dist/node/statecore_bg.wasm", "dist/web/statecore_bg.wasm", "dist/statusline/statecore_bg.wasm"]) {
    assert.ok(targetFeatures(file).includes("simd128"), `${file} is not built with simd128 (.cargo/config.toml)`);
  }
  const floor = /WebAssembly SIMD[^.]*Chrome and Edge 91\+, Firefox 89\+, Safari 16\.4\+/;
  assert.match(read("README.md").replace(/\s+/g, " "), floor, "README.md: the browsers' floor");
  assert.match(read("npm/README.md").replace(/\s+/g, " "), /WebAssembly SIMD[^.]*Chrome and Edge 91\+, Firefox 89\+, Safari 16\.4\+/, "npm/README.md: the floor");
  const engines = JSON.parse(read("npm/package.json")).engines.node;
  assert.match(engines, /^>=(\d+)/);
  assert.ok(Number(/^>=(\d+)/.exec(engines)[1]) >= 17, "engines.node must be at or above Node 16.4, the first with wasm SIMD");
});
