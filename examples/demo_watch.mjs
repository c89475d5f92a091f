// A viewer: prints the validated status whenever the file's contents change.
import { readDocumentSync } from "../npm/lib/node.mjs";

const path = process.argv[2];
let last = null;
const show = () => {
  const { document, etag, valid, errors, warnings } = readDocumentSync(path, "agency.runner_status");
  if (etag === last || document === null) return;
  last = etag;
  const total = Object.values(document["x-progress"] ?? {}).reduce((a, b) => a + b, 0);
  const notes = [...errors, ...warnings].map((i) => i.code).join(",");
  console.log(`[watch] ${valid ? "valid" : "INVALID"} ${document.status}: ${document.summary} ` +
    `(total steps ${total}${notes ? `; ${notes}` : ""})`);
};
setInterval(show, 15);
process.on("SIGTERM", () => { show(); process.exit(0); });
