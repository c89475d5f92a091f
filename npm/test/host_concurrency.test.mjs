// Real processes from both languages on one file (docs/conventions.md § Tests): many writers, readers
// that must never see a partial file, and writers killed with SIGKILL at random moments.
// The Python writers use the wheel installed in ../.venv; the Node writers lib/host/host.cjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { core, host, sleep, startWriter, tempDir } from "./helpers/procs.mjs";

test("4 Node + 4 Python processes x 250 increments = 2000; every raw read parses", async (t) => {
  const file = path.join(tempDir(t), "counter.json");
  fs.writeFileSync(file, '{"counter": 0}\n');
  const langs = ["node", "python", "node", "python", "node", "python", "node", "python"];
  const writers = langs.map((lang) => startWriter(t, lang, file, 250, 0, true));
  await Promise.all(writers.map((w) => w.waitLine((l) => l === "ready")));
  for (const w of writers) w.send("go\n");
  const allDone = Promise.all(writers.map((w) => w.exited));
  let finished = false;
  allDone.then(() => (finished = true));

  let reads = 0;
  let last = 0;
  while (!finished) {
    const text = await fsp.readFile(file, "utf8");
    const doc = JSON.parse(text); // throws (fails the test) on a partial file
    assert.ok(doc.counter >= last, `the counter went back from ${last} to ${doc.counter}`);
    assert.equal(doc.copy ?? 0, doc.counter);
    last = doc.counter;
    reads++;
    await sleep(0);
  }
  for (const w of writers) {
    assert.deepEqual(w.exit, { code: 0, signal: null }, w.stderr);
    assert.ok(w.lines.includes("done"));
  }
  const final = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(final.counter, 2000);
  assert.ok(reads > 0);
  t.diagnostic(`${reads} raw reads while writing, all parsed`);
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ["counter.json"]);
});

test("kill -9: 100 writers killed at random moments leave a whole file and a usable lock", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "killed.json");
  fs.writeFileSync(file, '{"counter": 0, "copy": 0}\n');
  let last = 0;
  let staleLocks = 0;
  let leftovers = 0;
  const young = new Set();
  for (let round = 0; round < 100; round++) {
    const lang = round % 2 === 0 ? "node" : "python";
    // A 64 KB pad makes each write long enough to be interrupted now and then.
    const writer = startWriter(t, lang, file, 0, 65536);
    await writer.waitLine((l) => l === "ready");
    await sleep(Math.random() * 30);
    writer.kill("SIGKILL");
    await writer.exited;
    assert.equal(writer.exit.signal, "SIGKILL", `round ${round}: ${writer.stderr}`);

    const bytes = fs.readFileSync(file);
    const doc = JSON.parse(bytes.toString("utf8")); // a whole old or new version
    const loaded = core.loadDocument("json", bytes);
    assert.equal(loaded.corrupt, false);
    assert.equal(loaded.valid, true);
    assert.equal(doc.copy, doc.counter, `round ${round}: a mixed version`);
    assert.ok(doc.counter >= last, `round ${round}: the counter went back`);
    if (fs.existsSync(`${file}.lock`)) staleLocks++;
    if (fs.readdirSync(dir).some((n) => n.startsWith(".killed.json.tmp-"))) leftovers++;

    const result = host.updateDocumentSync(
      file,
      "json",
      (d) => {
        d.counter += 1;
        d.copy = d.counter;
      },
      null,
      { timeout: 5000 },
    );
    assert.equal(result.document.counter, doc.counter + 1);
    last = result.document.counter;
    // Everything a dead writer left is gone, except a lock temp file it was killed while
    // writing: without a whole owner record it is only removed after the grace period.
    for (const name of fs.readdirSync(dir)) {
      if (name === "killed.json") continue;
      assert.match(name, /^killed\.json\.lock\.[0-9a-f]{32}\.tmp$/, `round ${round}: litter left`);
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      assert.throws(() => JSON.parse(text), SyntaxError, `round ${round}: a whole record left: ${text}`);
      young.add(name);
    }
  }
  for (const name of young) {
    const then = new Date(Date.now() - host.LOCK_GRACE_MS - 1000);
    if (fs.existsSync(path.join(dir, name))) fs.utimesSync(path.join(dir, name), then, then);
  }
  host.updateDocumentSync(file, "json", { done: true });
  assert.deepEqual(fs.readdirSync(dir), ["killed.json"]);
  t.diagnostic(
    `final counter ${last}; taken over: ${staleLocks} stale locks, ${leftovers} dead temp files, ` +
      `${young.size} partial lock temp files (after the grace period)`,
  );
});
