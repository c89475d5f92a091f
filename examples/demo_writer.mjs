// A Node agent: reports progress in the shared runner status, one locked update per step.
import { updateDocument, formatTimestamp } from "../npm/lib/node.mjs";

const [path, name, stepsText] = process.argv.slice(2);
const steps = Number(stepsText);
for (let i = 0; i < steps; i++) {
  await updateDocument(path, "agency.runner_status", (doc) => {
    doc ??= { schema_version: "1.0", questions: [], blockers: [], risks: [] };
    doc["x-progress"] ??= {};
    doc["x-progress"][name] = (doc["x-progress"][name] ?? 0) + 1;
    doc.status = "working";
    doc.summary = `${name}: step ${i + 1} of ${steps}`;
    doc.updated_at = formatTimestamp(Date.now());
    return doc;
  });
}
