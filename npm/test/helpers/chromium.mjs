// Debian's headless Chromium, started the one way every browser test and bench here uses it
// (docs/conventions.md § Tests): playwright-core driving /usr/bin/chromium with a fresh profile and
// no background networking (this machine's network is closed).
import { chromium } from "playwright-core";

/** The flags of every run: headless, no sandbox (root), no GPU, nothing fetched on its own. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A persistent context on the profile directory `userDataDir`; `options` add to the launch's. */
export function launchChromium(userDataDir, options = {}) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
    ...options,
  });
}
