// `import ... from "statecore/agency"`: the same instance as `require("statecore/agency")`.
// The names are listed here because lib/agency.cjs builds part of its exports from a table,
// which Node's cjs-module-lexer cannot see (test/agency_host.test.mjs checks the lists agree).
import api from "./agency.cjs";

export const {
  KIND,
  DEFAULT_STALL_THRESHOLD_MS,
  statusPath,
  writeRunnerStatus,
  writeRunnerStatusSync,
  writeInitialRunnerStatus,
  writeInitialRunnerStatusSync,
  loadRunnerStatus,
  loadRunnerStatusSync,
  snapshot,
  snapshotSync,
  writeProtocolDocument,
  writeProtocolDocumentSync,
} = api;
export default api;
