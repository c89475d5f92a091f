// The browser entry's loading: `await init()` once (explicit, no top-level await); by default
// it fetches `statecore_bg.wasm` next to the glue (also exported as
// "statecore-js/statecore_bg.wasm"); pass a URL, Response, bytes or a WebAssembly.Module to load
// it from elsewhere. Calling a function before `init()` has finished throws a StatecoreError
// with code "E_NOT_INITIALIZED". lib/web.mjs (generated) exports the API's names.
import wasmInit, * as raw from "../dist/web/statecore.js";
import { makeApi } from "./api.mjs";
import { StatecoreError } from "./generated.mjs";

let ready = false;
let pending = null;

/**
 * Initialises the wasm module (idempotent; concurrent calls share one load).
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module} [input]
 */
export default async function init(input) {
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

/** The API over the module, usable once `init()` has resolved. */
export const api = makeApi(() => {
  if (!ready) {
    throw new StatecoreError("statecore is not initialized: call `await init()` first", {
      code: "E_NOT_INITIALIZED",
    });
  }
  return raw;
});
