// `import ... from "statecore/hivemind"`: the same instance as `require("statecore/hivemind")`.
// The names are listed here because lib/hivemind.cjs builds part of its exports from a table,
// which Node's cjs-module-lexer cannot see (test/hivemind_watch.test.mjs checks the lists agree).
import api from "./hivemind.cjs";

export const {
  statePath,
  readState,
  readStateSync,
  writeState,
  writeStateSync,
  fire,
  fireSync,
  watchWorkspace,
} = api;
export default api;
