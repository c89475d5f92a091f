// `import init, { ... } from "statecore/web"`: the browser entry. Call `await init()` once
// (explicit, no top-level await); by default it fetches `statecore_bg.wasm` next to the glue
// (also exported as "statecore/statecore_bg.wasm"); pass a URL, Response, bytes or a
// WebAssembly.Module to load it from elsewhere. Calling a function before `init()` has
// finished throws a StatecoreError with code "E_NOT_INITIALIZED" (a host-side code, not
// reported by the core).
import wasmInit, * as raw from "../dist/web/statecore.js";
import { makeApi, StatecoreError } from "./api.mjs";

let ready = false;
let pending = null;

/**
 * Initialises the wasm module (idempotent; concurrent calls share one load).
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module} [input]
 */
export async function init(input) {
  if (!pending) {
    pending = wasmInit(input === undefined ? undefined : { module_or_path: input }).then(
      () => {
        ready = true;
      },
      (e) => {
        pending = null; // allow a retry
        throw e;
      },
    );
  }
  await pending;
}
export default init;

const api = makeApi(() => {
  if (!ready) {
    throw new StatecoreError("statecore is not initialized: call `await init()` first", {
      code: "E_NOT_INITIALIZED",
    });
  }
  return raw;
});

export const {
  parse,
  canonical,
  serialize,
  merge,
  mergeText,
  validate,
  validateText,
  kinds,
  defaultDocument,
  schema,
  limits,
  etag,
  loadDocument,
  prepareDocument,
  applyUpdate,
  finishUpdate,
  checkIfMatch,
  parseLog,
  logLine,
  parseTimestamp,
  formatTimestamp,
  machine,
  fctry,
  hivemind,
  agency,
} = api;

export {
  StatecoreError,
  ParseError,
  LimitError,
  DataError,
  UsageError,
  MergeError,
  TimestampError,
  ValidationError,
  TransitionError,
  LogCorruptError,
  ConflictError,
  LockTimeoutError,
  errorFromRecord,
} from "./api.mjs";
