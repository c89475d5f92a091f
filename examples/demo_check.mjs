// Prints the final document and checks that every writer's every step is in it.
import { readFileSync } from "node:fs";
import { readDocumentSync } from "../npm/lib/node.mjs";

const [path, writers, steps] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const { document, valid, warnings } = readDocumentSync(path, "agency.runner_status");
process.stdout.write("\nfinal document:\n" + readFileSync(path, "utf8"));
const counts = Object.values(document["x-progress"]);
const total = counts.reduce((a, b) => a + b, 0);
console.log(`valid: ${valid}; warnings: ${warnings.map((w) => `${w.code} ${w.path}`).join(", ")}`);
if (counts.length !== writers || total !== writers * steps) {
  console.log(`UPDATES LOST: expected ${writers * steps} steps, found ${total}`);
  process.exit(1);
}
console.log(`no update lost: ${writers} writers x ${steps} steps = ${total} updates, all in the file`);
