// Writes the CommonJS copy of an import-free ES module (used for lib/api.mjs, the API layer
// shared by the Node and web entries, so it is written once). The source may use only
// top-level `export function|class|const|let` declarations and no `import`; anything else is
// refused, so the copy can never silently differ from the source.
//
// usage: node build/cjs-from-esm.mjs <in.mjs> <out.cjs>
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
const source = readFileSync(input, "utf8");
const names = [];
const body = source.split("\n").map((line, i) => {
  const m = /^export (?:async )?(?:function\*?|class|const|let) +([A-Za-z_$][\w$]*)/.exec(line);
  if (m) {
    names.push(m[1]);
    return line.slice("export ".length);
  }
  if (/^\s*(export|import)\b/.test(line) || /\bimport\s*\(|\bimport\.meta\b/.test(line)) {
    throw new Error(`${input}:${i + 1}: only 'export <declaration>' is supported: ${line}`);
  }
  return line;
});
const out = [
  `// GENERATED from ${input.replace(/^.*\/(lib\/)/, "$1")} by build/cjs-from-esm.mjs: do not edit.`,
  '"use strict";',
  ...body,
  `module.exports = { ${names.join(", ")} };`,
  "",
].join("\n");
writeFileSync(output, out);
