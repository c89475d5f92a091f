// Vite (5 and 8) and webpack: `statecore-js` itself, which the "browser" condition resolves to
// the web entry, loading only the fctry's module (`init({ protocols })`): its glue is a dynamic
// import (a chunk of its own), and it finds its wasm by the `new URL("statecore_bg.wasm",
// import.meta.url)` in the glue, a pattern these bundlers turn into an emitted asset; the page
// must fetch that module only. `init(...).then(...)`, not a top-level `await init()`: Vite 5's
// default build target (es2020) refuses top-level await (npm/README.md § Bundlers).
import init, * as statecore from "statecore-js";
import { check, fail } from "./check.mjs";

init({ protocols: ["fctry"] })
  .then(() => check(statecore))
  .catch(fail);
