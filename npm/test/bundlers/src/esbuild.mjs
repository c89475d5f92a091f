// esbuild does not follow `new URL(..., import.meta.url)`: the page imports the wasm's URL
// (the `file` loader: --loader:.wasm=file) and gives it to `init` (npm/README.md § Bundlers).
import init, * as statecore from "statecore-js";
import wasmUrl from "statecore-js/statecore_bg.wasm";
import { check, fail } from "./check.mjs";

init(wasmUrl).then(() => check(statecore)).catch(fail);
