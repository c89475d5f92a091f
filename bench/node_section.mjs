// One section of the Node benches in a process of its own (docs/conventions.md § Benchmarks),
// so that no row is timed on the heap the rows before it left behind: statecore's and the
// alternative's functions run in the same process, interleaved, as in every section.
//
//   node bench/node_section.mjs hivemind|agency|specify [--quick]
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { agencySection } from "./agency_bench.mjs";
import { hivemindSection } from "./hivemind_bench.mjs";
import { specifySection } from "./specify_bench.mjs";

const SECTIONS = { hivemind: hivemindSection, agency: agencySection, specify: specifySection };
const name = process.argv[2];
const section = SECTIONS[name];
if (section === undefined) {
  process.stderr.write(`usage: node bench/node_section.mjs ${Object.keys(SECTIONS).join("|")} [--quick]\n`);
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const sc = createRequire(import.meta.url)(path.join(here, "..", "npm", "lib", "node.cjs"));
const out = [];
section({ sc, quick: process.argv.includes("--quick"), out });
process.stdout.write(out.join("\n") + "\n");
