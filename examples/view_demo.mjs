// `make demo`, part 7: the live viewer. Writes a workspace with every protocol
// (examples/view_workspace.mjs), starts `statecore view` on it and prints its URL, opens the
// page in headless Chromium, prints what each panel shows, makes a Python agent take a step
// and shows the page following it, saves a screenshot, and stops.
// `node examples/view_demo.mjs --keep` (or `make demo VIEW=1`) keeps the viewer running after
// the tour, for a browser of your own, until Ctrl-C.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import { buildWorkspace } from "./view_workspace.mjs";
import { PYTHON, REPO, startViewer } from "../npm/test/helpers/viewer.mjs";

const { chromium } = createRequire(join(REPO, "npm", "package.json"))("playwright-core");

const keep = process.argv.includes("--keep");
const dir = mkdtempSync(join(tmpdir(), "statecore-view-demo-"));
const where = await buildWorkspace(dir);
const viewer = await startViewer(dir, ["--write"]);
process.stdout.write(viewer.banner);
const userDataDir = mkdtempSync(join(tmpdir(), "statecore-chromium-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(viewer.url);
  await page.waitForSelector("body[data-ready='1']", { timeout: 20_000 });
  await page.waitForSelector("[data-testid='hivemind-diagram'] svg", { timeout: 15_000 });
  const text = async (testid) => (await page.locator(`[data-testid='${testid}']`).first().innerText()).trim();
  const line = (label, value) => console.log(`  ${label.padEnd(16)} ${value.split("\n")[0]}`);
  console.log("the page (headless Chromium):");
  line("fctry status", await text("status-line"));
  line("active section", await text("active-section"));
  line("hivemind state", (await page.locator("[data-testid='hivemind-diagram']").getAttribute("data-state")) ?? "?");
  const runs = (await text("agency-ls")).split("\n").filter((l) => /^\d{8}-\w+/.test(l.trim()));
  line("agency runs", runs.map((l) => l.trim().split(/\t|\s{2,}/).slice(0, 3).join(" ")).join("; "));
  const count = (verdict) => page.locator(`[data-file]${verdict ? `[data-verdict='${verdict}']` : ""}`).count();
  line("files", `${await count()} shown: ${await count("valid")} valid, ${await count("warnings")} with warnings, ${await count("invalid")} invalid`);

  await promisify(execFile)(PYTHON, ["-c", `import statecore.fctry as f\nf.start_step(${JSON.stringify(where.shop)}, "scenario-crafter")`]);
  await page.waitForFunction(() => document.querySelector("[data-testid='status-line']")?.innerText.includes("scenario-crafter"), null, { timeout: 2000 });
  line("after a step", await text("status-line"));
  const shots = join(REPO, "target", "demo");
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, "viewer.png"), fullPage: true });
  console.log(`  screenshot       target/demo/viewer.png`);
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (keep) {
  console.log(`the viewer keeps running at ${viewer.url} (Ctrl-C stops it)`);
  process.on("SIGINT", async () => {
    await viewer.stop();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
} else {
  await viewer.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log("viewer stopped (run `make demo VIEW=1` to keep it running)");
}
