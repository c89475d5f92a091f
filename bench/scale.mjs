// Scale of the Node surface (issue 11, docs/performance.md § Scale), for `make bench`: time per
// byte of each operation on documents of 0.1 to 8 MiB, as ratios only. Each operation's time
// per byte at a size is divided by its time per byte at the smallest size (a linear operation
// stays near 1; before the geometric memory growth of bindings-wasm/src/grow.rs it grew with
// the size), and by `JSON.parse` of the same text (the target: no call over 10× at 3 MiB).
// Two documents: records (an array of runner-like objects with strings, numbers and nesting)
// and the issue's `{arr: n × [[[1]]]}`. Checks every result against JSON.parse first; fails
// only on a wrong result.
//   node bench/scale.mjs [--quick]
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { median } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const sc = createRequire(import.meta.url)(path.join(here, "..", "npm", "lib", "generated", "core-node.cjs"));
const quick = process.argv.includes("--quick");
// MiB. The nested document's canonical (indented) text is 8× its compact text: 3 MiB is the
// largest whose update stays within the 32 MiB document limit.
const SIZES = {
  records: quick ? [0.1, 1] : [0.1, 0.5, 2, 3, 8],
  nested: quick ? [0.1, 1] : [0.1, 0.5, 1, 3],
};
const SAMPLES = quick ? 1 : 3;

/** A document of about `mib` MiB of the given shape. */
function documentOf(shape, mib) {
  const bytes = mib * 1024 * 1024;
  if (shape === "nested") return { arr: Array.from({ length: Math.round(bytes / 8) }, () => [[[1]]]) };
  const record = (i) => ({
    id: `run-${i}`,
    status: i % 3 ? "working" : "needs_input",
    summary: `Implementing step ${i} of the export endpoint; waiting on a decision`,
    progress: { done: i % 17, total: 17, ratio: (i % 17) / 17 },
    tags: ["export", "api", `t${i % 5}`],
  });
  const one = JSON.stringify(record(0)).length + 1;
  return { runs: Array.from({ length: Math.round(bytes / one) }, (_, i) => record(i)) };
}

function time(fn) {
  const times = [];
  for (let s = 0; s < SAMPLES; s++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0));
  }
  return median(times);
}

const OPS = [
  ["JSON.parse (reference)", (c) => JSON.parse(c.text)],
  ["parse", (c) => sc.parse(c.text)],
  ["merge({}, doc)", (c) => sc.merge({}, c.doc)],
  ["mergeText(bytes, patch)", (c) => sc.mergeText(c.bytes, '{"extra": 1}')],
  ["applyUpdate(json, bytes, patch)", (c) => sc.applyUpdate("json", c.bytes, { extra: 1 }, null, null)],
];

const lines = [];
for (const shape of ["records", "nested"]) {
  const rows = [];
  for (const mib of SIZES[shape]) {
    const doc = documentOf(shape, mib);
    const text = JSON.stringify(doc);
    const c = { doc, text, bytes: Buffer.from(text) };
    // Correctness first, outside the timings.
    const want = { ...doc, extra: 1 };
    if (!isDeepStrictEqual(sc.parse(text), doc)) throw new Error(`parse ${shape} ${mib}`);
    if (!isDeepStrictEqual(sc.merge({}, doc), doc)) throw new Error(`merge ${shape} ${mib}`);
    if (!isDeepStrictEqual(JSON.parse(sc.mergeText(c.bytes, '{"extra": 1}')), want))
      throw new Error(`mergeText ${shape} ${mib}`);
    if (!isDeepStrictEqual(sc.applyUpdate("json", c.bytes, { extra: 1 }, null, null).document, want))
      throw new Error(`applyUpdate ${shape} ${mib}`);
    process.stderr.write(`[scale] ${shape} ${mib} MiB\n`);
    rows.push({ mib, bytes: text.length, times: OPS.map(([, fn]) => time(() => fn(c))) });
  }
  const first = rows[0];
  lines.push(`### Scale, ${shape} document`, "");
  lines.push(
    shape === "nested"
      ? "`{arr: n × [[[1]]]}`, the deep-array document of the issue."
      : "`{runs: [...]}`: objects with strings, numbers, a nested object and an array.",
    "",
  );
  lines.push("| operation | " + rows.map((r) => `${r.mib} MiB: per byte / at ${first.mib} MiB, / JSON.parse`).join(" | ") + " |");
  lines.push("|---|" + rows.map(() => "---").join("|") + "|");
  OPS.forEach(([name], k) => {
    const cells = rows.map((r) => {
      const growth = r.times[k] / r.bytes / (first.times[k] / first.bytes);
      return `${growth.toFixed(2)}, ${(r.times[k] / r.times[0]).toFixed(2)}`;
    });
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  });
  lines.push("");
  const at3 = rows.find((r) => r.mib === 3) ?? rows[rows.length - 1];
  const worst = Math.max(...OPS.slice(1).map((_, k) => at3.times[k + 1] / at3.times[0]));
  const growthWorst = Math.max(
    ...OPS.slice(1).map((_, k) => {
      const last = rows[rows.length - 1];
      return last.times[k + 1] / last.bytes / (first.times[k + 1] / first.bytes);
    }),
  );
  lines.push(
    `Key: **Node scale (${shape}): slowest call / JSON.parse at ${at3.mib} MiB = ${worst.toFixed(2)}; ` +
      `largest growth of statecore's time per byte (${rows[rows.length - 1].mib} MiB / ${first.mib} MiB) = ${growthWorst.toFixed(2)}**`,
    "",
  );
}
process.stdout.write(lines.join("\n"));
