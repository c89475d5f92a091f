// Vite and webpack: `statecore` itself, which the "browser" condition resolves to the web
// entry; `init()` finds the wasm by the `new URL("statecore_bg.wasm", import.meta.url)` in
// the glue, a pattern both bundlers turn into an emitted asset.
import init, * as statecore from "statecore";
import { check, fail } from "./check.mjs";

init().then(() => check(statecore), fail);
