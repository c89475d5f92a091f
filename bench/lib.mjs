// Shared helpers of the Node benches: timing (process.hrtime.bigint, warm-up, interleaved
// samples, median) and the markdown table of one comparison.
import { isDeepStrictEqual } from "node:util";

/** A sink that keeps results alive so that no call is optimised away. */
export let sink = 0;
export function consume(value) {
  if (typeof value === "string") sink += value.length;
  else if (value && typeof value === "object") sink += 1;
  else sink += Number(Boolean(value));
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function timeLoop(fn, iters) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iters; i++) consume(fn(i));
  return Number(process.hrtime.bigint() - t0) / iters;
}

/**
 * Runs synchronous cases round-robin: a warm-up of about `warmupMs` each, then `samples`
 * samples of about `sampleMs` each. Returns [{name, statecore, median, min, max}] in ns/op.
 */
export function compareSync(cases, { samples = 9, sampleMs = 40, warmupMs = 150 } = {}) {
  const iters = cases.map((c) => {
    let n = 0;
    const t0 = process.hrtime.bigint();
    while (Number(process.hrtime.bigint() - t0) < warmupMs * 1e6) consume(c.fn(n++));
    const perOp = (warmupMs * 1e6) / n;
    return Math.max(5, Math.round((sampleMs * 1e6) / perOp));
  });
  const times = cases.map(() => []);
  for (let s = 0; s < samples; s++) {
    cases.forEach((c, k) => times[k].push(timeLoop(c.fn, iters[k])));
  }
  return cases.map((c, k) => summary(c, times[k]));
}

export function summary(c, times) {
  return {
    name: c.name,
    statecore: Boolean(c.statecore),
    reference: Boolean(c.reference),
    median: median(times),
    min: Math.min(...times),
    max: Math.max(...times),
    samples: times.length,
  };
}

export function formatNs(ns) {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/**
 * The markdown of one comparison: every implementation's median (and the sample range),
 * then for each alternative the ratio of each statecore variant's median to its median
 * (< 1: statecore is faster).
 */
export function table(title, note, results, unit = "per op") {
  const sc = results.filter((r) => r.statecore);
  const lines = [`### ${title}`, ""];
  if (note) lines.push(note, "");
  const head = ["implementation", `median ${unit}`, "range of samples"];
  for (const s of sc) head.push(`ratio \`${s.name}\` / this`);
  lines.push(`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`);
  for (const r of results) {
    const row = [
      r.statecore ? `**${r.name}**` : r.name,
      formatNs(r.median),
      `${formatNs(r.min)} .. ${formatNs(r.max)} (n=${r.samples})`,
    ];
    for (const s of sc) row.push(r.statecore ? "" : (s.median / r.median).toFixed(2));
    lines.push(`| ${row.join(" | ")} |`);
  }
  const alts = results.filter((r) => !r.statecore && !r.reference);
  if (sc.length && alts.length) {
    const best = sc.reduce((a, b) => (b.median < a.median ? b : a));
    const fastest = alts.reduce((a, b) => (b.median < a.median ? b : a));
    lines.push(
      "",
      `Key: **${title.split(":")[0]}: fastest statecore / fastest alternative = ` +
        `${(best.median / fastest.median).toFixed(2)}** (${best.name}, ${formatNs(best.median)}; ` +
        `${fastest.name}, ${formatNs(fastest.median)})`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

/** Fails the bench (exit 1) when two JSON values differ. */
export function assertSameJson(what, actual, expected) {
  if (!isDeepStrictEqual(actual, expected)) {
    process.stderr.write(
      `bench: WRONG RESULT in ${what}\n  statecore:   ${JSON.stringify(actual)}\n  alternative: ${JSON.stringify(expected)}\n`,
    );
    process.exit(1);
  }
}

export function check(what, condition, detail = "") {
  if (!condition) {
    process.stderr.write(`bench: WRONG RESULT in ${what} ${detail}\n`);
    process.exit(1);
  }
}

export function log(message) {
  process.stderr.write(`[node-bench] ${message}\n`);
}
