// Writes one CommonJS module from import-free ES modules (lib/generated/generated.mjs,
// lib/binding/convert.mjs and lib/binding/api.mjs: the JS layer shared by the Node and web
// entries, so it is written once). The sources may use only top-level
// `export function|class|const|let` declarations, and `import { ... }` of one another (dropped:
// the copy puts them in one scope); anything else is refused, so the copy can never silently
// differ from the sources.
//
// usage: node build/cjs-from-esm.mjs <out.cjs> <in.mjs>...
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const [output, ...inputs] = process.argv.slice(2);
const siblings = new Set(inputs.map((file) => resolve(file)));
const names = [];
const bodies = inputs.map((input) => {
  const lines = readFileSync(input, "utf8").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^import\s*\{/.test(line)) {
      // a multi-line `import { ... } from "./sibling.mjs";`: must name a sibling input
      let end = i;
      while (!/from\s+"[^"]+";\s*$/.test(lines[end])) end++;
      const from = /from\s+"([^"]+)";\s*$/.exec(lines[end])[1];
      if (!siblings.has(resolve(dirname(input), from))) throw new Error(`${input}:${i + 1}: import of ${from}, which is not an input`);
      i = end;
      continue;
    }
    const m = /^export (?:async )?(?:function\*?|class|const|let) +([A-Za-z_$][\w$]*)/.exec(line);
    if (m) {
      names.push(m[1]);
      out.push(line.slice("export ".length));
      continue;
    }
    if (/^\s*(export|import)\b/.test(line) || /\bimport\s*\(|\bimport\.meta\b/.test(line)) {
      throw new Error(`${input}:${i + 1}: only 'export <declaration>' is supported: ${line}`);
    }
    out.push(line);
  }
  return out.join("\n");
});
const out = [
  `// GENERATED from ${inputs.map((f) => f.replace(/^.*\/(lib\/)/, "$1")).join(" and ")} by build/cjs-from-esm.mjs: do not edit.`,
  '"use strict";',
  ...bodies,
  `module.exports = { ${names.join(", ")} };`,
  "",
].join("\n");
writeFileSync(output, out);
