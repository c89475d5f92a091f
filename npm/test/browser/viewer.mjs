// The viewer's page in headless Chromium (docs/viewer.md § Tests): `cd npm && node
// test/browser/viewer.mjs`. Starts `statecore view --write` on a workspace with every protocol
// (examples/view_workspace.mjs), opens the page through playwright-core, checks each panel's
// content, changes files from a Python and a Node process and sees each change reach the page,
// sees a torn file reported with its error, dismisses an inbox item from the page, checks which
// of the core's modules the page fetched (the combined one for every protocol; on a second
// workspace of one protocol, that protocol's only until another protocol's file appears), and
// keeps screenshots in target/viewer-screenshots/. Prints `viewer: N passed, M failed` and exits
// non-zero on any failure. Every wait is for an outcome, with a generous limit (OUTCOME_MS):
// how fast the page follows a change is a benchmark row (bench/viewer_latency.mjs), never a test.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { launchChromium } from "../helpers/chromium.mjs";
import { buildWorkspace } from "../../../examples/view_workspace.mjs";
import { PYTHON, REPO, startViewer } from "../helpers/viewer.mjs";

const SHOTS = join(REPO, "target", "viewer-screenshots");
/** The limit of every wait for something to appear on the page: an outcome, not a speed. */
const OUTCOME_MS = 20_000;
const run = promisify(execFile);
const results = [];

/** Runs one named check; a failure is recorded, and the next checks go on. */
async function check(name, body) {
  try {
    await body();
    results.push([name, null]);
  } catch (error) {
    results.push([name, error]);
  }
}

/** Fails unless `actual` holds `expected`. */
function includes(actual, expected, what) {
  if (!String(actual).includes(expected)) {
    throw new Error(`${what}: ${JSON.stringify(expected)} not in ${JSON.stringify(String(actual).slice(0, 400))}`);
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "statecore-viewer-"));
  mkdirSync(SHOTS, { recursive: true });
  const where = await buildWorkspace(dir);
  const viewer = await startViewer(dir, ["--write"]);
  const userDataDir = mkdtempSync(join(tmpdir(), "statecore-chromium-"));
  const context = await launchChromium(userDataDir, { viewport: { width: 1400, height: 1000 } });
  const errors = [];
  const outside = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (e) => errors.push(String(e)));
    const wasm = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(viewer.url)) outside.push(r.url());
      if (r.url().endsWith(".wasm")) wasm.push(new URL(r.url()).pathname);
    });
    await page.goto(viewer.url);
    await page.waitForSelector("body[data-ready='1']", { timeout: 60_000 });
    const text = (testid) => page.locator(`[data-testid='${testid}']`).first().innerText();

    await check("fctry: the status line, the spec's active section, the DAG, the inbox, the feed, context health", async () => {
      includes(await text("status-line"), "executor-build", "status line");
      includes(await text("active-section"), "Core Flow", "active section");
      const dag = await text("dag");
      for (const chunk of ["Cart model", "Address form", "Payment", "Receipt email"]) includes(dag, chunk, "DAG");
      const items = await page.locator("[data-testid='inbox'] [data-item-id]").count();
      if (items !== 2) throw new Error(`inbox: ${items} items, not 2`);
      includes(await text("inbox"), "Make checkout one page", "inbox");
      includes(await text("feed"), "4/4 checks passed", "feed");
      includes(await text("context-health"), "subagent", "context health");
    });
    await check("agency: the ls table and a run's details", async () => {
      const ls = await text("agency-ls");
      includes(ls, "checkout-page", "agency ls");
      includes(ls, "receipt-email", "agency ls");
      await page.locator("[data-testid='agency-ls'] >> text=checkout-page").first().click();
      await page.waitForSelector("[data-testid='agency-show']", { timeout: OUTCOME_MS });
      includes(await text("agency-show"), "Which payment provider?", "agency show");
    });
    await check("Hivemind: the diagram with the current state, the agents", async () => {
      await page.waitForSelector("[data-testid='hivemind-diagram'][data-state='executing'] svg", { timeout: OUTCOME_MS });
      includes((await text("hivemind-agents")).toLowerCase(), "worker1", "agents");
    });
    await check("Hivemind: the diagram fits its panel at its default size, draws pause/block/friction once, labels states with the seed's words", async () => {
      await page.waitForSelector("[data-testid='hivemind-diagram'][data-state] svg", { timeout: OUTCOME_MS });
      const facts = await page.evaluate(() => {
        const root = document.querySelector("[data-testid='hivemind-diagram']");
        const panel = root.closest("section").getBoundingClientRect();
        const svg = root.querySelector("svg");
        const inside = (r) => r.left >= panel.left - 1 && r.right <= panel.right + 1 && r.top >= panel.top - 1 && r.bottom <= panel.bottom + 1;
        const edges = [...svg.querySelectorAll("path.transition")];
        const labels = [...svg.querySelectorAll("g.edgeLabel")].map((e) => e.textContent.trim()).filter(Boolean);
        const box = root.querySelector(".mermaid-box");
        return {
          edges: edges.length,
          outside: edges.filter((e) => !inside(e.getBoundingClientRect())).length,
          labels,
          notes: [...svg.querySelectorAll("g.statediagram-note")].map((n) => n.textContent.replace(/\s+/g, " ").trim()),
          states: [...svg.querySelectorAll("g.statediagram-state")].map((n) => n.textContent.trim()),
          scrolls: box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1,
          current: [...svg.querySelectorAll("g.node.current")].map((n) => n.textContent.trim()),
        };
      });
      if (facts.edges < 15) throw new Error(`diagram: ${facts.edges} edges`);
      // The highlight still moves by class on g.node: the current state (executing), alone.
      if (facts.current.length !== 1 || facts.current[0].replace(/\s+/g, "") !== "Workersbuilding") {
        throw new Error(`diagram: the highlighted nodes are ${JSON.stringify(facts.current)}`);
      }
      if (facts.outside !== 0 || facts.scrolls) throw new Error(`diagram: ${facts.outside} edges outside the panel, scrolls: ${facts.scrolls}`);
      for (const once of ["pause", "block", "friction_found", "resume (back)", "user_input (back)"]) {
        const n = facts.labels.filter((l) => l === once).length;
        if (n !== 0) throw new Error(`diagram: ${n} edges labelled ${once}: ${JSON.stringify(facts.labels)}`);
      }
      // Mermaid wraps a note in lines of its own (tspans, no spaces between): compare without spaces.
      const squeeze = (t) => t.replace(/\s+/g, "");
      includes(squeeze(facts.notes.join("|")), squeeze("pause: from every state but idle, complete, error, blocked"), "notes");
      includes(squeeze(facts.notes.join("|")), squeeze("resume (back): to the state it came from"), "notes");
      for (const words of ["Reviewer checking plan", "Lead/Workers fixing issues", "Workers building"]) includes(squeeze(facts.states.join("|")), squeeze(words), "state labels");
      const panel = page.locator("[data-testid='hivemind-diagram']").first().locator("xpath=ancestor::section[1]");
      await panel.screenshot({ path: join(SHOTS, "5-hivemind-diagram.png") });
    });
    await check("one time format on every panel", async () => {
      const times = await page.locator(".time").allInnerTexts();
      const odd = times.filter((t) => !/^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2}$|^–$/.test(t.trim()));
      if (times.length < 5 || odd.length) throw new Error(`times: ${times.length}, not in the one format: ${JSON.stringify(odd)}`);
      const activity = await page.locator("[data-testid='specify-loop'] [data-field='last_activity'] td").allInnerTexts();
      if (activity.length !== 1) throw new Error(`specify last activity: ${activity.length} rows`);
      for (const t of activity) if (!/^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2}$/.test(t.trim())) throw new Error(`specify last activity: ${t}`);
    });
    await check("hive and specify panels", async () => {
      const hive = await text("hive");
      for (const worker of ["researcher", "writer", "tester"]) includes(hive, worker, "hive");
      // The writer's last heartbeat is the workspace's (February 2026): the timeout badge says
      // for how long, in days past 48 hours.
      const writer = await page.locator("[data-testid='hive'] tr[data-worker='writer']").first().innerText();
      if (!/timeout \d+d/.test(writer)) throw new Error(`hive: the writer's timeout badge says no duration: ${JSON.stringify(writer)}`);
      includes(await text("specify"), "What does a failed login show?", "specify");
    });
    await check("specify: an ID cell (gap, CHK, FR) never breaks inside its token, even in a narrow window", async () => {
      const panel = page.locator("[data-testid='specify-gaps']").first();
      try {
        for (const width of [1400, 900, 640]) {
          await page.setViewportSize({ width, height: 1000 });
          await panel.waitFor({ timeout: OUTCOME_MS });
          const broken = await page.evaluate(() => {
            const found = [];
            const table = document.querySelector("[data-testid='specify-gaps'] table");
            for (const row of table ? table.tBodies[0].rows : []) {
              for (const cell of [...row.cells].slice(1, 4)) {
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  for (const token of node.data.matchAll(/[A-Z]+-?\d+(\.\d+)?/g)) {
                    const range = document.createRange();
                    range.setStart(node, token.index);
                    range.setEnd(node, token.index + token[0].length);
                    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                    if (lines.size > 1) found.push(token[0]);
                  }
                }
              }
            }
            return found;
          });
          if (broken.length) throw new Error(`at ${width} px, IDs broken across lines: ${broken.join(", ")}`);
          if (width === 640) await panel.screenshot({ path: join(SHOTS, "specify-narrow.png") });
        }
      } finally {
        await page.setViewportSize({ width: 1400, height: 1000 });
      }
    });
    await check("every file valid in the Files panel", async () => {
      const invalid = await page.locator("[data-file][data-verdict='invalid']").count();
      const all = await page.locator("[data-file]").count();
      if (invalid !== 0 || all < 15) throw new Error(`files: ${all} rows, ${invalid} invalid`);
    });
    await page.screenshot({ path: join(SHOTS, "1-workspace.png"), fullPage: true });

    await check("a Python agent's step is on the page", async () => {
      await run(PYTHON, ["-c", `import statecore.fctry as f\nf.complete_step(${JSON.stringify(where.shop)}, "executor-build", {"summary": "built"})\nf.start_step(${JSON.stringify(where.shop)}, "scenario-crafter")`]);
      await page.waitForFunction(() => document.querySelector("[data-testid='status-line']")?.innerText.includes("scenario-crafter"), null, { timeout: OUTCOME_MS });
    });
    await check("a Node agent's inbox item is on the page", async () => {
      const lib = join(REPO, "npm", "lib", "host", "fctry.cjs");
      await run(process.execPath, ["-e", `require(${JSON.stringify(lib)}).inboxAddSync(${JSON.stringify(where.shop)}, "feature", "Gift cards")`]);
      await page.waitForFunction(() => document.querySelector("[data-testid='inbox']")?.innerText.includes("Gift cards"), null, { timeout: OUTCOME_MS });
    });
    await check("a Hivemind transition is on the page, with its notification", async () => {
      writeFileSync(join(where.team, "workspace", "checkpoint.md"), "# Checkpoint\n");
      const lib = join(REPO, "npm", "lib", "host", "hivemind.cjs");
      await run(process.execPath, ["-e", `require(${JSON.stringify(lib)}).onFileSync(${JSON.stringify(where.team)}, "workspace/checkpoint.md", "# Checkpoint\\n")`]);
      await page.waitForSelector("[data-testid='hivemind-diagram'][data-state='checkpoint']", { timeout: OUTCOME_MS });
      includes(await text("hivemind-notifications"), "checkpoint", "notifications");
    });
    await check("a torn state file is reported with its error, not a blank panel", async () => {
      writeFileSync(join(where.shop, ".fctry", "state.json"), '{\n  "workflowStep": "exec');
      await page.waitForSelector("[data-file='dir:shop/.fctry/state.json'][data-verdict='invalid']", { timeout: OUTCOME_MS });
      includes(await page.locator("[data-panel^='fctry:']").first().innerText(), "E_PARSE", "the fctry panel");
      await page.screenshot({ path: join(SHOTS, "2-torn-state.png"), fullPage: true });
    });
    await check("an inbox item dismissed from the page: a locked update, seen back live", async () => {
      const item = page.locator("[data-testid='inbox'] [data-item-id]").filter({ hasText: "Gift cards" });
      await item.getByRole("button", { name: /dismiss/i }).click();
      await page.waitForFunction(() => !document.querySelector("[data-testid='inbox']")?.innerText.includes("Gift cards"), null, { timeout: OUTCOME_MS });
    });
    await check("a fctry project with only its state shows only what it has", async () => {
      mkdirSync(join(dir, "bare", ".fctry"), { recursive: true });
      writeFileSync(join(dir, "bare", ".fctry", "state.json"), '{\n  "workflowStep": "executor-build"\n}\n');
      const panel = page.locator("[data-panel='fctry:dir:bare']");
      await panel.locator("[data-testid='dag']").waitFor({ timeout: OUTCOME_MS });
      for (const testid of ["spec", "inbox", "feed", "config"]) {
        const count = await panel.locator(`[data-testid='${testid}']`).count();
        if (count !== 0) throw new Error(`the bare project shows an empty ${testid} block`);
      }
    });
    await check("a spec that is not UTF-8 is said to be so, not shown garbled", async () => {
      writeFileSync(join(dir, "bare", ".fctry", "spec.md"), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
      const panel = page.locator("[data-panel='fctry:dir:bare']");
      await panel.locator("[data-testid='spec-not-text']").waitFor({ timeout: OUTCOME_MS });
      includes(await panel.locator("[data-testid='spec-not-text']").innerText(), "not UTF-8", "the spec block");
    });
    await check("a link out of the directory is shown refused, its target never on the page", async () => {
      const secret = join(dir, "..", `statecore-secret-${process.pid}.json`);
      writeFileSync(secret, '{"password": "hunter2-outside"}\n');
      try {
        symlinkSync(secret, join(dir, "bare", ".fctry", "config.json"));
        const row = page.locator("[data-file='dir:bare/.fctry/config.json'][data-verdict='refused']");
        await row.waitFor({ timeout: OUTCOME_MS });
        includes(await row.innerText(), "E_FILE_TYPE", "the refused file's row");
        includes((await page.locator("[data-panel='fctry:dir:bare']").innerText()).toLowerCase(), "refused (not read)", "the bare project's panel");
        const body = await page.locator("body").innerText();
        if (body.includes("hunter2-outside")) throw new Error("the link's target is on the page");
        await page.screenshot({ path: join(SHOTS, "4-refused-link.png"), fullPage: true });
      } finally {
        rmSync(secret, { force: true });
      }
    });
    await check("agency: each run's status from its files' bytes, a torn meta.json named on its line", async () => {
      const line = (id) => page.locator(`[data-testid='agency-ls'] [data-run-id='${id}']`).first();
      await page.waitForSelector("[data-testid='agency-ls'] [data-run-id='20260217-a3f2'][data-status='needs_input']", { timeout: OUTCOME_MS });
      await page.waitForSelector("[data-testid='agency-ls'] [data-run-id='20260216-e7f3'][data-status='working']", { timeout: OUTCOME_MS });
      const run = join(where.agencyData, "repos", "shop", "runs", "20260218-b1c4");
      mkdirSync(run, { recursive: true });
      writeFileSync(join(run, "meta.json"), '{"schema_version": "1.0", "run_id": "2026');
      await page.waitForSelector("[data-testid='agency-ls'] [data-run-id='20260218-b1c4'][data-status='broken']", { timeout: OUTCOME_MS });
      includes(await line("20260218-b1c4").getAttribute("title"), "meta.json: E_PARSE", "the torn run's line");
      if ((await line("20260217-a3f2").getAttribute("title")) !== null) throw new Error("a run whose files read has a file error");
    });
    await check("nothing fetched from outside the viewer, no page error", async () => {
      if (outside.length) throw new Error(`requests outside the viewer: ${outside.join(", ")}`);
      if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    });
    await page.screenshot({ path: join(SHOTS, "3-after-changes.png"), fullPage: true });
    await check("every protocol: the page loaded the combined module only", async () => {
      if (JSON.stringify(wasm) !== JSON.stringify(["/assets/statecore_bg.wasm"])) throw new Error(`wasm fetched: ${wasm.join(", ")}`);
    });
    await check("one protocol: the page loads its module only, and the combined one when another protocol appears", async () => {
      const one = mkdtempSync(join(tmpdir(), "statecore-viewer-one-"));
      mkdirSync(join(one, ".fctry"), { recursive: true });
      writeFileSync(join(one, ".fctry", "state.json"), '{\n  "workflowStep": "executor-build"\n}\n');
      const second = await startViewer(one, []);
      const other = await context.newPage();
      const fetched = [];
      other.on("request", (r) => {
        if (r.url().endsWith(".wasm")) fetched.push(new URL(r.url()).pathname);
      });
      other.on("pageerror", (e) => errors.push(String(e)));
      try {
        await other.goto(second.url);
        await other.waitForSelector("body[data-ready='1']", { timeout: 60_000 });
        await other.locator("[data-panel^='fctry:'] [data-testid='dag']").first().waitFor({ timeout: OUTCOME_MS });
        await other.screenshot({ path: join(SHOTS, "6-one-protocol.png"), fullPage: true });
        if (JSON.stringify(fetched) !== JSON.stringify(["/assets/statecore-fctry_bg.wasm"])) throw new Error(`wasm fetched: ${fetched.join(", ")}`);
        mkdirSync(join(one, "hm", "workspace"), { recursive: true });
        writeFileSync(join(one, "hm", "workspace", "state.json"), '{"state": "idle"}\n');
        await other.locator("[data-panel^='hivemind:']").first().waitFor({ timeout: OUTCOME_MS });
        if (JSON.stringify(fetched) !== JSON.stringify(["/assets/statecore-fctry_bg.wasm", "/assets/statecore_bg.wasm"])) throw new Error(`wasm fetched: ${fetched.join(", ")}`);
        await other.locator("[data-panel^='fctry:'] [data-testid='dag']").first().waitFor({ timeout: OUTCOME_MS });
      } finally {
        await other.close();
        await second.stop();
        rmSync(one, { recursive: true, force: true });
      }
    });
  } finally {
    await context.close();
    await viewer.stop();
    rmSync(userDataDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  const failed = results.filter(([, e]) => e);
  for (const [name, error] of failed) console.error(`FAIL ${name}\n  ${error?.stack ?? error}`);
  console.log(`viewer: ${results.length - failed.length} passed, ${failed.length} failed (screenshots: ${SHOTS})`);
  process.exit(failed.length || results.length === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log("viewer: 0 passed, 1 failed");
  process.exit(1);
});
