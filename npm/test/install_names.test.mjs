// Every install command and import the user docs show names the packages this repository
// builds: the npm package's name from package.json, the Python one from pyproject.toml.
// `statecore` on the npm registry is an unrelated package, so a page that says
// `npm install statecore`, `npx statecore ...` or `import ... from "statecore"` sends users to
// someone else's code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const NPM = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = join(NPM, "..");
const PACKAGE = JSON.parse(readFileSync(join(NPM, "package.json"), "utf8"));
const NAME = PACKAGE.name;
const PY_NAME = /^name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, "python", "pyproject.toml"), "utf8"))[1];
/** Other packages the docs may tell users to install beside it: its peer dependencies. */
const PEERS = new Set(Object.keys(PACKAGE.peerDependencies ?? {}));

/** The files a user reads or copies from: the READMEs, the docs, the examples, the bundled
 * pages' sources (test/bundlers/src is what a browser app of one's own looks like). */
function userFiles() {
  const out = ["README.md", "npm/README.md", "python/README.md"].map((f) => join(ROOT, f));
  const walk = (dir, keep) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === "node_modules") continue;
      if (statSync(path).isDirectory()) walk(path, keep);
      else if (keep(name)) out.push(path);
    }
  };
  walk(join(ROOT, "docs"), (n) => n.endsWith(".md"));
  walk(join(ROOT, "examples"), () => true);
  walk(join(NPM, "test", "bundlers", "src"), () => true);
  out.push(join(NPM, "test", "bundlers", "index.html"));
  return out;
}

/** A local artifact (the packed tarball, a wheel, a path) rather than a registry name. */
const isPath = (s) => /^(\.{0,2}\/|~\/|[A-Za-z]:\\)|\.(tgz|whl|tar\.gz)$|[*$]/.test(s);

/** Problems in one text: each install command or import naming another package. */
function problems(text, npmName = NAME, pyName = PY_NAME) {
  const found = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const at = `line ${i + 1}: ${line.trim()}`;
    for (const m of line.matchAll(/\b(?:npm (?:install|i|add)|yarn add|pnpm add|bun add)((?:\s+[^\s`#;&|)]+)+)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        if (word.startsWith("-")) continue;
        const name = word.replace(/^['"]|['"]$/g, "").replace(/(.)@[^/]*$/, "$1");
        if (name === npmName || PEERS.has(name) || isPath(name)) continue;
        found.push(`${at}: installs npm package ${name}, not ${npmName}`);
      }
    }
    for (const m of line.matchAll(/\bnpx\s+((?:-[^\s]+\s+)*)([^\s`]+)/g)) {
      const flags = m[1].trim();
      const pkg = /(?:^|\s)(?:-p|--package)(?:\s+|=)(\S+)/.exec(flags)?.[1] ?? m[2];
      if (pkg.replace(/(.)@[^/]*$/, "$1") !== npmName && !isPath(pkg)) {
        found.push(`${at}: npx runs npm package ${pkg}, not ${npmName} (write \`npx -p ${npmName} ${m[2]}\`)`);
      }
    }
    for (const m of line.matchAll(/\bpip3? install((?:\s+[^\s`#;&|)]+)+)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        if (word.startsWith("-")) continue;
        const name = word.replace(/^['"]|['"]$/g, "").replace(/\[.*$/, "").replace(/[<>=!~].*$/, "");
        if (name === pyName || isPath(name)) continue;
        found.push(`${at}: installs Python package ${name}, not ${pyName}`);
      }
    }
    for (const m of line.matchAll(/(?:\bfrom\s+|\bimport\s+|\b(?:require|import|require\.resolve)\(\s*)(["'])(statecore[^"'/]*)(\/[^"']*)?\1/g)) {
      if (m[2] !== npmName) found.push(`${at}: imports ${m[2]}${m[3] ?? ""}, not ${npmName}${m[3] ?? ""}`);
    }
  });
  return found;
}

test("the npm name is not the registry's unrelated `statecore`", () => {
  // `npm view statecore` is "A state-observable library" by someone else; the CLI keeps the
  // `statecore` bin and the Python package keeps the name `statecore` (free on PyPI).
  assert.notEqual(NAME, "statecore");
  assert.equal(PACKAGE.bin.statecore, "bin/statecore.cjs");
  assert.equal(PY_NAME, "statecore");
});

test("the checker finds each kind of wrong command", () => {
  const wrong = [
    "npm install statecore",
    "npm i -g statecore",
    "npx statecore view .",
    "npx -p statecore statecore view .",
    "pip install statecore-js",
    'import init from "statecore/web";',
    'const sc = require("statecore");',
  ];
  for (const line of wrong) assert.equal(problems(line, "statecore-js", "statecore").length, 1, line);
  const right = [
    "npm install statecore-js",
    "npm install ./statecore-js-0.1.0.tgz pg",
    "npx -p statecore-js statecore view .",
    "npx statecore-js view .",
    "pip install 'statecore[watch]' dist/wheels/statecore-0.1.0-cp39-abi3-macosx_11_0_arm64.whl",
    'import init from "statecore-js/web";',
    "python -m statecore validate .",
  ];
  for (const line of right) assert.deepEqual(problems(line, "statecore-js", "statecore"), [], line);
});

test("every install command and import in the user docs names this package", () => {
  const all = [];
  for (const file of userFiles()) {
    for (const p of problems(readFileSync(file, "utf8"))) all.push(`${relative(ROOT, file)} ${p}`);
  }
  assert.deepEqual(all, []);
});
