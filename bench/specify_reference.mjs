// The alternative a Node workflow driver writes today for bench Node (13): index.md updated
// with regular expressions over its markdown tables (split on unescaped pipes, cells trimmed,
// a changed row written `| a | b |`), no validation. The update is the seed's "After Answer
// Application": some gaps resolved by id, their history rows appended, the iteration advanced
// and Last Activity set. The twin of specify_reference.py (which also writes the fixture).
const PIPE = /(?<!\\)\|/;
const HEADING = /^#{1,2} (.*)$/;

/** A row's cells: split on unescaped pipes, outer pipes dropped, trimmed, `\|` read. */
function cells(line) {
  const trimmed = line.trim();
  let parts = trimmed.split(PIPE);
  if (trimmed.startsWith("|")) parts = parts.slice(1);
  if (trimmed.endsWith("|")) parts = parts.slice(0, -1);
  return parts.map((p) => p.trim().replaceAll("\\|", "|"));
}

const row = (values) => `| ${values.map((v) => v.replaceAll("|", "\\|")).join(" | ")} |\n`;

/**
 * The update: each gap of `resolved` (id → answer) `resolved`, a history row each at the
 * current iteration, then the iteration advanced and Last Activity set to `now`.
 */
export function update(text, resolved, now) {
  const lines = text.split(/(?<=\n)/);
  let section = "";
  let iteration = 1;
  let historyEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = HEADING.exec(line.replace(/\n$/, ""));
    if (heading) {
      section = heading[1].trim().toLowerCase();
      continue;
    }
    if (!line.includes("|") || line.startsWith("|-")) continue;
    const c = cells(line);
    const label = c[0].replace(/^\*+|\*+$/g, "");
    if (section === "priority loop state" && label === "Current Iteration") {
      const [number, maximum] = c[1].split("/").map((p) => p.trim());
      iteration = Number(number);
      lines[i] = row([c[0], `${iteration + 1} / ${maximum}`]);
    } else if (section === "priority loop state" && label === "Last Activity") {
      lines[i] = row([c[0], now]);
    } else if (section === "gap priority queue" && c[1] in resolved && c[5] !== "resolved") {
      c[5] = "resolved";
      lines[i] = row(c);
    } else if (section === "gap resolution history") {
      historyEnd = i;
    }
  }
  if (historyEnd < 0) throw new Error("no history table");
  const added = Object.entries(resolved).map(([gap, answer]) => row([gap, String(iteration), "resolved", answer, now]));
  lines.splice(historyEnd + 1, 0, ...added);
  return lines.join("");
}
