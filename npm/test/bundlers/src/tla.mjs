// The top-level form, `await init()` at the top of a module: Vite 5 refuses it with its
// default build target (es2020) and builds it once the target is raised to es2022
// (npm/README.md § Bundlers); run.mjs checks both.
import init, * as statecore from "statecore-js";
import { check, fail } from "./check.mjs";

try {
  await init();
  check(statecore);
} catch (error) {
  fail(error);
}
