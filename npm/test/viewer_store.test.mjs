// `statecore view postgresql://...` (docs/store.md § Store URLs): the viewer's server on a
// PostgreSQL store streams the rows and logs below the URL's key as files (the same roles and
// bytes a directory of them gives), a committed change within its stream, and with --write a
// dismissal carried out in the store. The viewer on files is viewer_server.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { database } from "./helpers/pg.mjs";
import { openEvents, pageToken, request, startViewer, text } from "./helpers/viewer.mjs";

const require = createRequire(import.meta.url);
const { PostgresStore } = require("../lib/store/store.cjs");

const item = { id: "inbox-1771236000000-ab12cd", type: "evolve", content: "Faster onboarding", timestamp: "2026-02-16T10:00:00Z", status: "pending" };

test("the viewer on a store URL streams its rows as files, and their changes", async (t) => {
  const env = database(t);
  const connection = { host: env.PGHOST, port: Number(env.PGPORT), user: env.PGUSER, database: env.PGDATABASE };
  const pg = await PostgresStore.connect(connection);
  t.after(() => pg.close());
  await pg.update("team/app/.fctry/state.json", "fctry.state", { workflowStep: "interviewer" });
  await pg.change("team/app/.fctry/inbox.json", "fctry.inbox", "", [[item]]);
  await pg.update("team/hm/workspace/state.json", "hivemind.state", { state: "idle" });
  await pg.update("elsewhere/.fctry/state.json", "fctry.state", { workflowStep: "interviewer" });
  const url = `postgresql://${env.PGUSER}@${env.PGHOST}:${env.PGPORT}/${env.PGDATABASE}/team`;

  const viewer = await startViewer(url, ["--write"]);
  const stream = openEvents(viewer.port);
  t.after(async () => {
    stream.close();
    await viewer.stop();
  });
  const ready = await stream.waitFor((e) => e.event === "ready", 10_000);
  assert.deepEqual(stream.events[0].data, { root: url, data_dir: null, write: true });
  const files = stream.events.slice(0, stream.events.indexOf(ready)).filter((e) => e.event === "file");
  assert.deepEqual(files.map((e) => e.data.path).sort(), ["app/.fctry/inbox.json", "app/.fctry/state.json", "hm/workspace/state.json"]);
  const state = files.find((e) => e.data.path === "app/.fctry/state.json");
  assert.equal(state.data.role, "fctry.state");
  assert.equal(state.data.abs, `${url}/app/.fctry/state.json`);
  assert.deepEqual(JSON.parse(text(state)), { workflowStep: "interviewer" });

  let from = stream.events.length;
  await pg.update("team/app/.fctry/state.json", "fctry.state", { specVersion: "2" });
  const changed = await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/state.json", 5000, from);
  assert.deepEqual(JSON.parse(text(changed)), { workflowStep: "interviewer", specVersion: "2" });

  const token = await pageToken(viewer.port);
  from = stream.events.length;
  const done = await request(viewer.port, {
    method: "POST",
    path: "/api/inbox/dismiss",
    headers: { "content-type": "application/json", "x-statecore-token": token },
    body: JSON.stringify({ project: "app", id: item.id }),
  });
  assert.deepEqual([done.status, JSON.parse(done.body)], [200, { ok: true }]);
  assert.deepEqual((await pg.read("team/app/.fctry/inbox.json", "fctry.inbox")).document, []);
  await stream.waitFor((e) => e.event === "file" && e.data.path === "app/.fctry/inbox.json", 5000, from);
});
