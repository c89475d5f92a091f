"use strict";
// Test helper: a writer of the PostgreSQL store (PG* environment). argv: `update KEY N` (N
// increments of `n` in the json document KEY), `append LOG N WRITER` (N hive events
// {"agent": WRITER, "details": {"i": i}} with ids WRITER-i), `inbox KEY N WRITER` (N fctry
// inbox items "WRITER i" added by the table's writer, a compare-and-swap that is tried
// without a lock first: docs/store.md § Updates), or `hold KEY` (an update whose
// function prints "holding" and then waits forever, inside the row's transaction). Prints
// "done" at the end. The twin of python/tests/helpers/store_writer.py.
const { PostgresStore } = require("../../lib/store/store.cjs");

async function main() {
  const [mode, key, count, writer] = process.argv.slice(2);
  const store = await PostgresStore.connect();
  try {
    if (mode === "update") {
      for (let i = 0; i < Number(count); i++) {
        await store.update(key, "json", (doc) => ({ ...doc, n: (doc.n ?? 0) + 1 }));
      }
    } else if (mode === "append") {
      for (let i = 0; i < Number(count); i++) {
        const event = { timestamp: "2026-11-25T10:00:00Z", type: "progress", agent: writer, details: { i } };
        await store.append(key, "hive.event", event, { id: `${writer}-${i}` });
      }
    } else if (mode === "inbox") {
      for (let i = 0; i < Number(count); i++) {
        await store.change(key, "fctry.inbox", "fctry_inbox_add", ["evolve", `${writer} ${i}`, "2026-11-25T10:00:00Z", `${writer}${String(i).padStart(6 - writer.length, "0")}`]);
      }
    } else if (mode === "hold") {
      await store.update(key, "json", async (doc) => {
        process.stdout.write("holding\n");
        await new Promise(() => {});
        return doc;
      });
    }
  } finally {
    await store.close();
  }
  process.stdout.write("done\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
