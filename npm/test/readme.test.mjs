// The Node examples (```js blocks) of the repository README and npm/README.md run as written,
// as CommonJS scripts inside the package, so `require("statecore-js")` is the package itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const npmDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const readmes = [join(npmDir, "..", "README.md"), join(npmDir, "README.md")];

for (const readme of readmes) {
  const blocks = [...readFileSync(readme, "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  test(`${readme}: has Node examples`, () => assert.ok(blocks.length > 0));
  blocks.forEach((code, i) => {
    test(`${readme}: example ${i} runs`, () => {
      const file = join(npmDir, "test", `.readme-example-${process.pid}-${i}.cjs`);
      writeFileSync(file, code);
      try {
        execFileSync(process.execPath, [file], { cwd: npmDir, stdio: "pipe" });
      } finally {
        rmSync(file, { force: true });
      }
    });
  });
}
